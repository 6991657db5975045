"""What one seat may know: the one place hidden information is removed.

Servers, bots, terminal and records all call :func:`view`; a :class:`View` has the
board, the seat's own hand, every other hand only as a card count, the public
discards, and the size (never the order) of the draw pile.  :func:`seen_action` is an
action as a seat reads it when it is played (another seat's face-down card hidden).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from .actions import Action
from .board_work import Pegs
from .settings import Rules
from .state import GameState, Outcome, Pending

#: The card of a face-down play that this seat may not see.
HIDDEN = "?"


@dataclass(frozen=True)
class View:
    """A seat's information about a game (``seat`` -1 is a spectator: no hand)."""

    rules: Rules
    seat: int
    pegs: Pegs
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    draw_pile_size: int
    discards: tuple[str, ...]
    hidden_discards: int
    piles: tuple[tuple[str, ...], ...]
    turn: int
    current_player: int
    stuck: tuple[int, ...]
    turns_taken: tuple[int, ...]
    ply: int
    outcome: Outcome | None
    pending: Pending | None
    extra: tuple[int, ...]

    def __reduce__(self) -> tuple[Any, ...]:
        # compiled, a frozen dataclass cannot be restored field by field: rebuild it
        return (View, tuple(getattr(self, f.name) for f in fields(self)))


def view(state: GameState, seat: int) -> View:
    """The view of ``seat`` (or of a spectator, with ``seat=-1``)."""
    if not -1 <= seat < state.rules.players:
        raise ValueError(f"seat must be -1 (spectator) or 0 to {state.rules.players - 1}")
    # another seat's face-down cards leave the discards where they lie: the rest keep their
    # public order, and no face-down card's place tells its rank
    secret = {i for owner, i in state.face_down if owner != seat}
    discards = state.discards
    if secret:
        discards = tuple(c for i, c in enumerate(discards) if i not in secret)
    pending = state.pending
    if pending is not None and pending.declarer != seat and not pending.revealed:
        pending = replace(pending, action=pending.action._replace(card=HIDDEN))
    return View(
        rules=state.rules,
        seat=seat,
        pegs=state.pegs,
        hand=state.hands[seat] if seat >= 0 else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        draw_pile_size=len(state.draw_pile),
        discards=discards,
        hidden_discards=len(secret),
        piles=state.piles,
        turn=state.turn,
        current_player=state.current_player,
        stuck=state.stuck,
        turns_taken=state.turns_taken,
        ply=state.ply,
        outcome=state.outcome(),
        pending=pending,
        extra=state.extra,
    )


def seen_action(action: Action, actor: int, seat: int) -> Action:
    """``action``, just played by ``actor``, as ``seat`` (-1: a spectator) may read it:
    another seat's face-down card shows as :data:`HIDDEN` (a doubt turns it over later, in
    the view's ``pending``)."""
    if action.declared and seat != actor:
        return action._replace(card=HIDDEN)
    return action
