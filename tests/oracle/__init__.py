"""The general generator, kept as an oracle: the engine's listing before it was written
once on codes (issue 48).  It builds every legal action as an :class:`Action` with its
layout, and with ``aliases`` every other spelling of a split; the tests compare the one
listing (:mod:`pegs.rules.coded`) with it."""

from typing import Any

from .listing import Turn


def turn_of(state: Any) -> Turn:
    """The seat to move of a :class:`~pegs.rules.GameState`, as the generator reads it."""
    seat = state.turn
    return Turn(seat, state.hands[seat], state.stuck[seat], state.turns_taken[seat] == 0)
