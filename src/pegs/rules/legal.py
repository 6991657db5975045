"""The legal-action generator: every legal action of the seat to move, with its result.

:func:`generate` returns a mapping from each legal :class:`Action` to the peg layout it
leads to.  Equivalent spellings of one move (a split in the other order) map to the
same result and are listed under ``aliases`` so that ``apply`` accepts them too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from .actions import Action, Step, owned
from .board import START, Geometry
from .board_work import IN_HAND, Pegs, WorkBoard
from .settings import RANKS, Rules

RANK_ORDER = {r: i for i, r in enumerate(RANKS)}


@dataclass(frozen=True)
class Turn:
    """What the generator needs to know about the seat to move."""

    seat: int
    hand: tuple[str, ...]
    stuck_turns: int
    first_turn: bool


@dataclass
class Legal:
    """The legal actions in order, their resulting layouts, and accepted aliases."""

    actions: list[Action] = field(default_factory=list)
    results: dict[Action, Pegs] = field(default_factory=dict)
    aliases: dict[Action, Action] = field(default_factory=dict)
    moving_ranks: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class CardPlan:
    """A rank's powers, parsed once per rule set."""

    out: bool
    forward: tuple[int, ...]
    backward: tuple[int, ...]
    swap: bool
    split: int  # 0, 7 or 9
    must_split: bool
    joker: bool


@lru_cache(maxsize=64)
def card_plans(rules: Rules) -> dict[str, CardPlan]:
    plans = {}
    for rank, tokens in rules.powers:
        split = 0
        must = False
        for t in tokens:
            if t.startswith("split"):
                split = int(t[5:].rstrip("!"))
                must = t.endswith("!")
        plans[rank] = CardPlan(
            out="out" in tokens,
            forward=tuple(int(t[1:]) for t in tokens if t.startswith("+")),
            backward=tuple(int(t[1:]) for t in tokens if t.startswith("-")),
            swap="swap" in tokens,
            split=split,
            must_split=must,
            joker="joker" in tokens,
        )
    return plans


def all_home(geo: Geometry, pegs: Pegs, seat: int) -> bool:
    return pegs[seat] == geo.all_home


def controlled(geo: Geometry, pegs: Pegs, seat: int) -> tuple[int, ...]:
    """The seats whose pegs ``seat`` may move (RULES.md section 3, control / help order)."""
    rules = geo.rules
    if rules.control == "team":
        return geo.team_seats[seat]
    if pegs[seat] != geo.all_home:
        return (seat,)
    waiting = tuple(q for q in geo.partners[seat] if pegs[q] != geo.all_home)
    if rules.help_order == "clockwise":
        return waiting[:1]
    return waiting


class _Generator:
    """Builds the :class:`Legal` of one position."""

    def __init__(self, geo: Geometry, pegs: Pegs, turn: Turn) -> None:
        self.geo = geo
        self.rules = geo.rules
        self.pegs = pegs
        self.turn = turn
        self.mover = turn.seat
        self.board = WorkBoard(geo, pegs, turn.seat)
        self.ctrl = controlled(geo, pegs, turn.seat)
        self.pass_own = self.rules.may_pass_own
        self.turn_in = self.rules.must_turn_in_at_door
        self.legal = Legal()
        self._seen: dict[tuple[str, Pegs], Action] = {}

    # --- helpers --------------------------------------------------------------------------
    def text(self, seat: int, pos: int) -> str:
        return owned(self.geo.name(pos), seat, self.mover)

    def step(self, seat: int, src: int, dst: int, op: str) -> Step:
        hit = 0 <= dst < self.geo.ring_size and self.board.occ[dst] not in (-1, seat)
        if op == "~":
            hit = False
        return Step(self.text(seat, src), self.text(seat, dst), op, hit)

    def record(self, card: str, steps: tuple[Step, ...], result: Pegs,
               discard: bool = False) -> None:
        action = Action(card, steps, discard)
        key = (card, result)
        first = self._seen.get(key)
        if first is None:
            self._seen[key] = action
            self.legal.actions.append(action)
            self.legal.results[action] = result
        elif first != action:
            self.legal.aliases[action] = first

    def movable(self, seats: Iterable[int]) -> list[tuple[int, int]]:
        """(seat, position) of every peg of ``seats`` that is off start."""
        return [(q, p) for q in seats for p in set(self.board.pos[q]) if p != START]

    def try_single(self, card: str, seat: int, src: int, dst: int, op: str) -> None:
        board = self.board
        st = self.step(seat, src, dst, op)
        mark = board.mark()
        if board.land(seat, src, dst):
            self.record(card, (st,), board.snapshot())
        board.undo(mark)

    # --- powers ---------------------------------------------------------------------------
    def come_out(self, card: str, seats: Iterable[int]) -> None:
        for q in seats:
            if START in self.board.pos[q]:
                out = self.geo.out_hole[q]
                if self.board.occ[out] != q:
                    self.try_single(card, q, START, out, ">")

    def singles(self, card: str, n: int, backward: bool) -> None:
        board = self.board
        for q, p in self.movable(self.ctrl):
            if backward:
                d = board.backward(q, p, n, self.pass_own)
                if d != IN_HAND:
                    self.try_single(card, q, p, d, "<")
            else:
                for d in board.forward(q, p, n, self.pass_own, self.turn_in):
                    self.try_single(card, q, p, d, ">")

    def swaps(self, card: str) -> None:
        board, ring = self.board, self.geo.ring_size
        for q, p in self.movable(self.ctrl):
            if p >= ring:
                continue
            for other in range(ring):
                v = board.occ[other]
                if v != -1 and v != q:
                    mark = board.mark()
                    board.swap(q, p, v, other)
                    st = Step(self.geo.name(p), self.geo.name(other), "~")
                    self.record(card, (st,), board.snapshot())
                    board.undo(mark)

    def part_targets(self, seat: int, p: int, n: int, forward: bool) -> list[int]:
        if forward:
            return self.board.forward(seat, p, n, self.pass_own, self.turn_in)
        d = self.board.backward(seat, p, n, self.pass_own)
        return [] if d == IN_HAND else [d]

    def splits(self, card: str, total: int) -> bool:
        """Every legal split of ``total``; True if there was at least one."""
        board, geo = self.board, self.geo
        before = len(self.legal.actions) + len(self.legal.aliases)
        found = False
        finish = card in self.rules.split_finish_with_partner and self.rules.control != "team"
        pegs = self.movable(self.ctrl)
        directions = [(True, True)] if total == 7 else [(True, False), (False, True)]
        for first_fwd, second_fwd in directions:
            op1, op2 = (">" if first_fwd else "<"), (">" if second_fwd else "<")
            for a_seat, a in pegs:
                for k in range(1, total):
                    for d1 in self.part_targets(a_seat, a, k, first_fwd):
                        st1 = self.step(a_seat, a, d1, op1)
                        m1 = board.mark()
                        if not board.land(a_seat, a, d1):
                            board.undo(m1)
                            continue
                        second = pegs
                        if finish and d1 >= geo.ring_size and a_seat == self.mover:
                            now = board.snapshot()
                            if all_home(geo, now, self.mover):
                                second = self.movable(controlled(geo, now, self.mover))
                        for b_seat, b in second:
                            if b_seat == a_seat and b == a:
                                continue
                            b_now = board.where(b_seat, b, m1)
                            if b_now == START:
                                continue
                            for d2 in self.part_targets(b_seat, b_now, total - k, second_fwd):
                                st2 = self.step(b_seat, b_now, d2, op2)
                                m2 = board.mark()
                                if board.land(b_seat, b_now, d2):
                                    self.record(card, (st1, st2), board.snapshot())
                                    found = True
                                board.undo(m2)
                        board.undo(m1)
        return found or len(self.legal.actions) + len(self.legal.aliases) > before

    def joker(self, card: str) -> None:
        rule = self.rules.joker_rule
        board, geo = self.board, self.geo
        if rule == "pegoo":
            team = geo.team_seats[self.mover]
            for q in team:
                door = geo.door[q]
                for p in set(board.pos[q]):
                    if p == door or p >= geo.ring_size or board.occ[door] == q:
                        continue
                    self.try_single(card, q, p, door, ">")
            for hole in range(geo.ring_size):
                v = board.occ[hole]
                if v != -1 and geo.opponent[self.mover][v]:
                    mark = board.mark()
                    board._move(v, hole, START)
                    st = Step(geo.name(hole), owned("S", v, self.mover), ">")
                    self.record(card, (st,), board.snapshot())
                    board.undo(mark)
            return
        seats = self.ctrl
        if rule == "hit_start_first":
            team = geo.team_seats[self.mover]
            with_start = tuple(q for q in team if START in board.pos[q])
            seats = with_start or team
        targets = [h for h in range(geo.ring_size) if board.occ[h] != -1]
        sources = [(q, p) for q in seats for p in set(board.pos[q]) if p < geo.ring_size]
        if rule == "hit_start_first" and any(p == START for _, p in sources):
            sources = [(q, p) for q, p in sources if p == START]
        for q, p in sources:
            for h in targets:
                if board.occ[h] != q:
                    self.try_single(card, q, p, h, ">")
        if self.rules.joker_comes_out:
            self.come_out(card, self.ctrl)

    # --- the whole turn -------------------------------------------------------------------
    def card_moves(self, card: str) -> None:
        plan = card_plans(self.rules)[card]
        if plan.joker:
            self.joker(card)
            return
        if plan.out:
            self.come_out(card, self.ctrl)
        split_found = self.splits(card, plan.split) if plan.split else False
        if not (plan.must_split and split_found):
            for n in plan.forward:
                self.singles(card, n, backward=False)
        for n in plan.backward:
            self.singles(card, n, backward=True)
        if plan.swap:
            self.swaps(card)

    def stuck_come_out(self, card: str) -> None:
        rule, stuck = self.rules.stuck_rule, self.turn.stuck_turns
        if (rule == "pegoo_cant_play_pile" and stuck >= 2) or (
            rule == "havasu_fourth_turn" and stuck >= 3
        ):
            self.come_out(card, self.ctrl)

    def run(self) -> Legal:
        legal = self.legal
        ranks = sorted(set(self.turn.hand), key=RANK_ORDER.__getitem__)
        for card in ranks:
            if card == "Joker":
                continue
            n = len(legal.actions)
            self.card_moves(card)
            self.stuck_come_out(card)
            if len(legal.actions) > n:
                legal.moving_ranks.add(card)
        if "Joker" in ranks:
            n = len(legal.actions)
            self.card_moves("Joker")
            self.stuck_come_out("Joker")
            if len(legal.actions) > n:
                legal.moving_ranks.add("Joker")
        if not legal.moving_ranks - {"Joker"}:
            for card in ranks:
                self.record(card, (), self.pegs, discard=True)
        return legal


def generate(geo: Geometry, pegs: Pegs, turn: Turn) -> Legal:
    """All legal actions of ``turn.seat`` holding ``turn.hand`` on layout ``pegs``."""
    return _Generator(geo, pegs, turn).run()
