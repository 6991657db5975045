"""Pegs & Jokers: the Pegs and Jokers family of card-and-peg race games."""

__version__ = "0.1.0"
