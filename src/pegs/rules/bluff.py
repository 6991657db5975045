"""Bluffing Joker: face-down declarations, doubts, and the peg sent back to start.

A declaration is an action whose ``declared`` rank may differ from the real ``card``.
The opponents are then asked in turn, clockwise from the declarer, to ``doubt`` or
``pass``; the first doubt turns the card over and the winning side ``send``s one of the
losing seat's ring pegs back to start (RULES.md section 5, I-09).  What a decision does to
the game is :meth:`GameState.decide`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .actions import Action
from .board import START, Geometry
from .board_work import Pegs, moved
from .coded import Coded
from .declared import Choices
from .listing import RANK_ORDER
from .spelling import spelled

DOUBT = Action("", decision="doubt")
PASS = Action("", decision="pass")


@dataclass(frozen=True)
class Pending:
    """A Bluffing Joker declaration waiting for the opponents (RULES.md section 5).

    While ``chooser`` is -1 the seat ``asked`` decides whether to doubt; after a doubt,
    ``chooser`` picks one of ``victim``'s ring pegs to send back to start.
    """

    declarer: int
    action: Action
    result: Pegs
    asked: int
    chooser: int = -1
    victim: int = -1

    @property
    def bluff(self) -> bool:
        return self.action.card != self.action.declared

    @property
    def revealed(self) -> bool:
        """The card has been turned over (someone doubted)."""
        return self.chooser >= 0


class Seats(Protocol):
    """What :func:`redo` reads of a game state."""

    @property
    def geo(self) -> Geometry: ...
    @property
    def stuck(self) -> tuple[int, ...]: ...
    @property
    def turns_taken(self) -> tuple[int, ...]: ...


def opponents_in_order(geo: Geometry, declarer: int) -> list[int]:
    """The seats that may doubt, in the order they are asked."""
    n = geo.players
    return [q for q in ((declarer + i) % n for i in range(1, n)) if geo.opponent[declarer][q]]


def first_asked(geo: Geometry, declarer: int) -> int:
    return opponents_in_order(geo, declarer)[0]


def ring_pegs(geo: Geometry, pegs: Pegs, seat: int) -> list[int]:
    return sorted(p for p in pegs[seat] if 0 <= p < geo.ring_size)


def decisions(geo: Geometry, pegs: Pegs, pending: Pending) -> Choices:
    """The legal decisions while a declaration is pending, with the layout each leads to."""
    if pending.chooser < 0:
        return Choices((DOUBT, PASS), (pegs, pegs))
    holes = ring_pegs(geo, pegs, pending.victim)
    return Choices(tuple(Action("", decision=f"send {geo.name(p)}") for p in holes),
                   tuple(moved(pegs, ((pending.victim, p, START),)) for p in holes))


def redo(state: Seats, p: Pending, pegs: Pegs) -> Pegs | None:
    """The declared move made on the board after the doubter's peg went back to start
    (None when it is no longer legal there, I-23): its steps, hit or not."""
    declarer, declared = p.declarer, p.action.declared
    coded = Coded(state.geo, pegs, declarer, (declared,), state.stuck[declarer],
                  state.turns_taken[declarer] == 0)
    return spelled(coded, RANK_ORDER[declared], p.action.steps, exact=False)
