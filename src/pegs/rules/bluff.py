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
from .legal import Legal, Turn, generate_plain

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


def decisions(geo: Geometry, pegs: Pegs, pending: Pending) -> Legal:
    """The legal decisions while a declaration is pending, with the layout each leads to."""
    legal = Legal()
    if pending.chooser < 0:
        legal.actions = [DOUBT, PASS]
        legal.results = {DOUBT: pegs, PASS: pegs}
        return legal
    for p in ring_pegs(geo, pegs, pending.victim):
        action = Action("", decision=f"send {geo.name(p)}")
        legal.actions.append(action)
        legal.results[action] = moved(pegs, ((pending.victim, p, START),))
    return legal


def redo(state: Seats, p: Pending, pegs: Pegs) -> Pegs | None:
    """The declared move made on the board after the doubter's peg went back to start
    (None when it is no longer legal there, I-23)."""
    turn = Turn(p.declarer, (p.action.declared,), state.stuck[p.declarer],
                state.turns_taken[p.declarer] == 0)
    legal = generate_plain(state.geo, pegs, turn, aliases=True)
    want = tuple((s.src, s.dst, s.op) for s in p.action.steps)
    for a in [*legal.actions, *legal.aliases]:
        if tuple((s.src, s.dst, s.op) for s in a.steps) == want and not a.discard:
            a = legal.aliases.get(a, a)
            change = legal.changes.get(a)
            return legal.results[a] if change is None else moved(pegs, (change,))
    return None
