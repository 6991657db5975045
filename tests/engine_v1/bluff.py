"""Bluffing Joker: face-down declarations, doubts, and the peg sent back to start.

A declaration is an action whose ``declared`` rank may differ from the real ``card``.
The opponents are then asked in turn, clockwise from the declarer, to ``doubt`` or
``pass``; the first doubt turns the card over and the winning side ``send``s one of the
losing seat's ring pegs back to start (RULES.md section 5, I-09).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .actions import Action
from .board import START, Geometry
from .board_work import Pegs, moved
from .legal import Legal, Turn, generate_plain

if TYPE_CHECKING:
    from .state import GameState, Pending

DOUBT = Action("", decision="doubt")
PASS = Action("", decision="pass")


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


def decide(state: GameState, action: Action, result: Pegs) -> GameState:
    """The state after a decision on the pending declaration."""
    p = state.pending
    assert p is not None
    geo, hands = state.geo, list(state.hands)
    card = p.action.card
    if p.chooser < 0 and action == PASS:
        order = opponents_in_order(geo, p.declarer)
        i = order.index(p.asked)
        if i + 1 < len(order):
            return state._replace(pending=replace(p, asked=order[i + 1]), ply=state.ply + 1)
        return state.end_turn(card, p.result, True, hands, face_down=True)
    if p.chooser < 0:  # a doubt: the card is turned over
        winner, victim = (p.asked, p.declarer) if p.bluff else (p.declarer, p.asked)
        if ring_pegs(geo, state.pegs, victim):
            return state._replace(pending=replace(p, chooser=winner, victim=victim),
                                  ply=state.ply + 1)
        extra = list(state.extra)
        extra[winner] += 1
        if p.bluff:
            return state.end_turn(card, state.pegs, False, hands, extra=tuple(extra))
        return state.end_turn(card, p.result, True, hands, extra=tuple(extra), granted_now=True)
    if p.bluff:
        return state.end_turn(card, result, False, hands)
    after = redo(state, p, result)
    return state.end_turn(card, result if after is None else after, after is not None, hands)


def redo(state: GameState, p: Pending, pegs: Pegs) -> Pegs | None:
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
