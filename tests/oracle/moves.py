"""The move generator's ground floor: the scratch board, recording actions, and the
powers that move one peg (coming out, moves forward and back, the 2's swap, the joker).

:class:`MoveFinder` is extended by :class:`~pegs.rules.splits.SplitFinder` (7 and 9
splits), :class:`~pegs.rules.tens.TenFinder` (the North Carolina ten) and the whole turn
in :mod:`pegs.rules.legal`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from pegs.rules.actions import Action, Step, owned
from pegs.rules.board import START, Geometry
from pegs.rules.board_work import IN_HAND, Change, Pegs, WorkBoard, moved
from pegs.rules.counted import (
    CountedSplits,
)
from pegs.rules.deferred import Swaps
from pegs.rules.listed import Make
from pegs.rules.table import table_of

from .listing import (
    Legal,
    Move,
    MoveMemo,
    Turn,
    controlled,
)

_new: Final = tuple.__new__


class Around:
    """The pegs a spelled move may start with: those on the holes its steps start from,
    and (a peg sent to its door by a hit moving on from there) every peg of a seat whose
    door is such a hole."""

    __slots__ = ("pegs", "seats")

    def __init__(self, geo: Geometry, pegs: Pegs, mover: int, steps: Iterable[Step]) -> None:
        self.pegs: set[tuple[int, int]] = set()
        self.seats: set[int] = set()
        owners = {h: q for q in range(geo.players) for h in pegs[q] if 0 <= h < geo.ring_size}
        for step in steps:
            where, _, owner = step.src.partition("@")
            try:
                pos = geo.parse(where)
            except ValueError:
                continue
            if pos < geo.ring_size:
                if pos in owners:
                    self.pegs.add((owners[pos], pos))
                self.seats.update(q for q in range(geo.players) if geo.door[q] == pos)
            else:
                self.pegs.add((int(owner) if owner.isdigit() else mover, pos))

    def has(self, seat: int, pos: int) -> bool:
        return seat in self.seats or (seat, pos) in self.pegs


class MoveFinder:
    """Finds the moves of one position into a :class:`Legal` (the single-peg powers)."""

    def __init__(self, geo: Geometry, pegs: Pegs, turn: Turn, aliases: bool,
                 memo: MoveMemo | None = None, around: Around | None = None) -> None:
        self.geo = geo
        #: Only the moves whose first peg is one of these (see :func:`spelled`).
        self.around = around
        self.track_aliases = aliases
        self.memo = None if aliases else memo
        self.rules = geo.rules
        self.pegs = pegs
        self.turn = turn
        self.mover = turn.seat
        self.board = WorkBoard(geo, pegs, turn.seat)
        self.ctrl = controlled(geo, pegs, turn.seat)
        self.pass_own = self.rules.may_pass_own
        self.turn_in = self.rules.must_turn_in_at_door
        self.legal = Legal(base=pegs)
        self._seen: dict[tuple[str, Pegs], Action] = {}
        self.names = geo.names_for(turn.seat)
        self._cache: dict[tuple[str, object], list[Move]] = {}
        self.plans = table_of(geo).plan_of
        self.other_moves = 0  # moves other than coming out (North Carolina counting)
        self._reach: dict[tuple[int, int], tuple[int, int, int]] = {}
        self._own_hits: set[tuple[int, int]] = set()  # pegs whose ten part hits own colour
        #: The ten being generated.
        self._ten: CountedSplits | None = None
        self.own_movable = self.movable(self.ctrl, pegs)
        if around is not None:
            self.own_movable = [(q, p) for q, p in self.own_movable if around.has(q, p)]

    # --- helpers --------------------------------------------------------------------------
    def step(self, seat: int, src: int, dst: int, op: str) -> Step:
        """The step of a peg of ``seat``, judged (for its hit mark) on the current board."""
        occupant = self.board.occ[dst] if 0 <= dst < self.geo.ring_size else -1
        names = self.names[seat]
        return Step(names[src + 1], names[dst + 1], op, occupant != -1 and occupant != seat)

    def make(self, seat: int, src: int, dst: int, op: str, hit_own: bool = False) -> Make:
        """A step judged (for its hit mark) on the current board, kept as numbers:
        :meth:`record` spells it only if its move is new.  With ``hit_own`` (North
        Carolina ten) landing on its own colour is a hit too."""
        occupant = self.board.occ[dst] if 0 <= dst < self.geo.ring_size else -1
        return seat, src, dst, op, occupant != -1 and (hit_own or occupant != seat)

    def record(self, card: str, steps: tuple[Step, ...] | None, result: Pegs | Change,
               make: tuple[Make, ...] = (),
               discard: bool = False) -> None:
        """Add an action unless its (card, result) is already listed.

        ``steps`` may be None, with ``make`` holding (seat, src, dst, op, hit) per step:
        the Steps are then built only for a new result (or when aliases are wanted).
        """
        if isinstance(result[0], int):  # a single peg moved, hitting nothing: never a repeat
            action = Action(card, steps or ())
            self.legal.actions.append(action)
            self.legal.changes[action] = result
            return
        key = (card, result)
        first = self._seen.get(key)
        if first is not None and not self.track_aliases:
            return
        if steps is None:
            names = self.names
            steps = tuple([_new(Step, (names[q][a + 1], names[q][b + 1], op, hit))
                           for q, a, b, op, hit in make])
            action = _new(Action, (card, steps, discard, "", ""))
        else:
            action = Action(card, steps, discard)
        if first is None:
            self._seen[key] = action
            self.legal.actions.append(action)
            self.legal.results[action] = result
        elif first != action:
            self.legal.aliases[action] = first

    def movable(self, seats: Iterable[int], layout: Pegs) -> list[tuple[int, int]]:
        """(seat, position) of every peg of ``seats`` on ``layout`` that is off start and
        could still move (a home peg with every hole ahead of it filled is settled), in
        position order (a layout's tuples are sorted; the scratch board's lists change
        order as moves are tried and undone, and the listing, and which spelling of a
        split is listed, must not depend on that)."""
        ring, last = self.geo.ring_size, self.geo.ring_size + self.geo.home_holes - 1
        out = []
        for q in seats:
            ps = layout[q]
            for p in ps:
                if p == START:
                    continue
                if p >= ring:
                    above = 0  # own pegs in the holes above it: all filled if last - p
                    for h in ps:
                        if h > p:
                            above += 1
                    if above == last - p:
                        continue
                out.append((q, p))
        return out

    def reach(self, seat: int, p: int) -> tuple[int, int, int]:
        """For a ring peg on the base board: (holes to its door, holes to the next own
        peg ahead, free home holes), so that :meth:`base_forward` is O(1) per count."""
        got = self._reach.get((seat, p))
        if got is None:
            ring = self.geo.ring_size
            ps = self.pegs[seat]
            on_ring = [h for h in ps if 0 <= h < ring]
            free = self.geo.home_holes  # home holes below the lowest home peg
            for h in ps:
                if ring <= h < ring + free:
                    free = h - ring
            door = self.geo.door[seat]
            for i, h in enumerate(on_ring):
                ahead = (on_ring[(i + 1) % len(on_ring)] - h) % ring if len(on_ring) > 1 else 99
                self._reach[(seat, h)] = ((door - h) % ring, ahead, free)
            got = self._reach[(seat, p)]
        return got

    def base_forward(self, seat: int, p: int, n: int) -> list[int]:
        """Forward destinations on the unchanged board (same answers as WorkBoard.forward)."""
        ring = self.geo.ring_size
        if p >= ring or n > 13:
            return self.board.forward(seat, p, n, self.pass_own, self.turn_in)
        to_door, block, free = self.reach(seat, p)
        out: list[int] = []
        if n > to_door and (self.pass_own or block > to_door) and n - to_door <= free:
            out.append(ring + n - to_door - 1)
        if self.turn_in and n > to_door:
            return out
        if self.pass_own:
            d = (p + n) % ring
            if self.board.occ[d] != seat:
                out.append(d)
        elif n < block:
            out.append((p + n) % ring)
        return out

    def single(self, seat: int, src: int, dst: int, op: str) -> Move | None:
        """One peg's move with its hits, or None when a hit makes it illegal."""
        board = self.board
        names = self.names[seat]
        if not 0 <= dst < self.geo.ring_size or board.occ[dst] == -1:
            return (_new(Step, (names[src + 1], names[dst + 1], op, False)),), (seat, src, dst)
        st = self.step(seat, src, dst, op)
        mark = board.mark()
        ok = board.land(seat, src, dst)
        result = board.snapshot()
        board.undo(mark)
        return ((st,), result) if ok else None

    def add(self, card: str, moves: Iterable[Move]) -> None:
        actions, changes = self.legal.actions, self.legal.changes
        for steps, result in moves:
            if type(result[0]) is int:  # one peg moved, no hit: never a repeat
                action = _new(Action, (card, steps, False, "", ""))
                actions.append(action)
                changes[action] = result
            else:
                self.record(card, steps, result)

    # --- powers ---------------------------------------------------------------------------
    def come_out(self, seats: tuple[int, ...]) -> list[Move]:
        """Coming out of start onto the out-hole, for each seat in ``seats`` (cached)."""
        key = ("out", seats)
        moves = self._cache.get(key)
        if moves is None:
            moves = []
            for q in seats:
                if START in self.board.pos[q]:
                    out = self.geo.out_hole[q]
                    if self.board.occ[out] != q:
                        m = self.single(q, START, out, ">")
                        if m:
                            moves.append(m)
            self._cache[key] = moves
        return moves

    def singles(self, n: int, backward: bool) -> list[Move]:
        """Every single-peg move of ``n`` holes (cached: several ranks share them)."""
        key = ("back" if backward else "fwd", n)
        moves = self._cache.get(key)
        if moves is not None:
            return moves
        moves = []
        board, occ, names = self.board, self.board.occ, self.names
        ring = self.geo.ring_size
        op = "<" if backward else ">"
        for q, p in self.own_movable:
            if backward:
                dests = [board.backward(q, p, n, self.pass_own)]
            else:
                dests = self.base_forward(q, p, n)
            for d in dests:
                if d >= ring or (d >= 0 and occ[d] == -1):  # no hit: the common case
                    nq = names[q]
                    moves.append(((_new(Step, (nq[p + 1], nq[d + 1], op, False)),), (q, p, d)))
                elif d != IN_HAND:
                    m = self.single(q, p, d, op)
                    if m:
                        moves.append(m)
        self._cache[key] = moves
        return moves

    def swaps(self, card: str) -> None:
        """The 2's swaps of an own ring peg with a ring peg of another colour, kept as
        numbers (:class:`Swaps`).  Two swaps never lead to one board, and a swap leads to
        the board of another move of the card only when the other peg's door is the own
        peg's hole (a forward 2 onto a team peg sends it there): only those are looked up
        among the card's moves, and listed with the built actions."""
        occ, ring, door = self.board.occ, self.geo.ring_size, self.geo.door
        others = [(h, v) for h, v in enumerate(occ) if v != -1]
        flat: list[int] = []
        for q, p in self.own_movable:
            if p >= ring:
                continue
            for other, v in others:
                if v == q:
                    continue
                if door[v] == p:
                    result = moved(self.pegs, ((q, p, other), (v, other, p)))
                    self.record(card, None, result, ((q, p, other, "~", False),))
                    continue
                flat.append(q)
                flat.append(p)
                flat.append(other)
                flat.append(v)
        if flat:
            self.legal.deferred.append(Swaps(card, self.names, self.pegs, flat))


    def joker(self, card: str) -> None:
        rule = self.rules.joker_rule
        board, geo = self.board, self.geo
        if rule == "pegoo":
            team = geo.team_seats[self.mover]
            for q in team:
                door = geo.door[q]
                for p in sorted(set(board.pos[q])):
                    if p == door or p >= geo.ring_size or board.occ[door] == q:
                        continue
                    m = self.single(q, p, door, ">")
                    if m:
                        self.record(card, m[0], m[1])
            for hole in range(geo.ring_size):
                v = board.occ[hole]
                if v != -1 and geo.opponent[self.mover][v]:
                    st = Step(geo.name(hole), owned("S", v, self.mover), ">")
                    self.record(card, (st,), moved(self.pegs, ((v, hole, START),)))
            if self.rules.joker_comes_out:
                self.add(card, self.come_out(self.ctrl))
            return
        seats = self.ctrl
        if rule == "hit_start_first":
            team = geo.team_seats[self.mover]
            with_start = tuple(q for q in team if START in board.pos[q])
            seats = with_start or team
        targets = [h for h in range(geo.ring_size) if board.occ[h] != -1]
        sources = [(q, p) for q in seats for p in sorted(set(board.pos[q])) if p < geo.ring_size]
        if rule == "hit_start_first" and any(p == START for _, p in sources):
            sources = [(q, p) for q, p in sources if p == START]
        for q, p in sources:
            for h in targets:
                if board.occ[h] != q:
                    m = self.single(q, p, h, ">")
                    if m:
                        self.record(card, m[0], m[1])  # not *m: a generic call in compiled code
                        if p != START:  # a joker move that is not a come-out stops counting
                            self.other_moves += 1
        if self.rules.joker_comes_out:
            self.add(card, self.come_out(self.ctrl))
