"""Bots: each chooses an action from a seat's view and its legal actions only."""

from .base import Bot, make_bot
from .random_bot import RandomBot

__all__ = ["Bot", "RandomBot", "make_bot"]
