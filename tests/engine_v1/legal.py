"""The legal-action generator: every legal action of the seat to move, with its result.

:func:`generate` returns a :class:`Legal`: each legal :class:`Action` with the peg layout
it leads to.  Equivalent spellings of one move (a split in the other order) map to the
same result and are listed under ``aliases`` so that ``apply`` accepts them too.  Splits
(7, 9, the North Carolina ten) whose two parts cannot affect each other are counted, not
built (:mod:`pegs.rules.counted`); only the splits whose parts interact are simulated.
The order of the listing is a fixed function of the position: the built actions, then
the counted splits card by card.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import Final, overload

from librt.vecs import append, vec
from mypy_extensions import i64

from .actions import Action, Step, owned
from .board import START, Geometry
from .board_work import IN_HAND, Change, Pegs, WorkBoard, has, index_of, moved
from .code_set import CodeSet
from .counted import (
    CountedSplits,
    Group,
    group_code,
    group_of,
    group_order,
    interact,
    numbered,
    on_way,
    pick_code,
)
from .deferred import Deferred, Swaps
from .listed import Listed, Make
from .part import Part
from .settings import RANKS, Rules

RANK_ORDER: Final = {r: i for i, r in enumerate(RANKS)}

#: 7 and 9 splits are counted (not built) when the seat plays this many pegs or more: from
#: two, a North Carolina 9 took a quarter fewer instructions than built, a 7 a fifth, a
#: basic 7 a seventh (4 seats, 100 positions).
COUNT_FROM_PEGS: Final = 2

_new: Final = tuple.__new__

#: Entries a :class:`MoveMemo` holds at most.  The boards near a search's root come first
#: and recur in every iteration; a limit of 5,000 or 200,000 was no faster and held up to
#: 140 MB more in a North Carolina search of 3 s (8 seats).
MEMO_LIMIT = 1_000

#: A move's steps and the layout it leads to (or the one change that makes it).
Move = tuple[tuple[Step, ...], Pegs | Change]


@dataclass(frozen=True)
class Turn:
    """What the generator needs to know about the seat to move."""

    seat: int
    hand: tuple[str, ...]
    stuck_turns: int
    first_turn: bool


class Legal:
    """The legal actions in order, their resulting layouts, and accepted aliases.

    ``actions`` are built; North Carolina tens, many 7 and 9 splits and the 2's swaps are
    counted or kept as numbers in ``deferred`` and built one at a time when listed or looked
    up (a ten can have thousands of legal splits, and a player uses one).  The listing is
    ``actions``, then each of ``deferred``.
    """

    __slots__ = ("_listing", "actions", "aliases", "base", "changes", "deferred",
                 "moving_ranks", "results")

    def __init__(self, base: Pegs = (), moving_ranks: set[str] | None = None) -> None:
        self.actions: list[Action] = []
        self.results: dict[Action, Pegs] = {}
        self.changes: dict[Action, Change] = {}
        self.aliases: dict[Action, Action] = {}
        self.moving_ranks: set[str] = set() if moving_ranks is None else moving_ranks
        self.deferred: list[Deferred] = []
        self.base = base
        self._listing: tuple[Action, ...] | None = None

    def size(self) -> int:
        return len(self.actions) + sum(len(d) for d in self.deferred)

    def listing(self) -> Sequence[Action]:
        """All legal actions as one read-only sequence (a tuple when nothing is counted).

        A sequence over counted splits is made anew on each call and not kept here: it
        refers to this object, and a reference back would keep every part and action of
        the position alive until the cyclic garbage collector ran."""
        if self.deferred:
            return Actions(self)
        if self._listing is None:
            self._listing = tuple(self.actions)
        return self._listing

    def made(self, i: int) -> Action:
        """The ``i``-th action of ``deferred`` (the actions after the built ones)."""
        for moves in self.deferred:
            if i < len(moves):
                return moves.nth(i)
            i -= len(moves)
        raise IndexError("legal action index out of range")

    def outcome(self, action: Action) -> Pegs | None:
        """The layout a listed action leads to, or None if it is not listed."""
        result = self.results.get(action)
        if result is not None:
            return result
        change = self.changes.get(action)
        if change is not None:
            return moved(self.base, (change,))
        for moves in self.deferred:
            result = moves.outcome(action)
            if result is not None:
                return result
        return None


class CardMoves:
    """What one card adds to a position's :class:`Legal`: its built actions in order with
    their layouts or changes, its deferred moves, its moves other than coming out, and the
    (card, layout) pairs it has listed (see ``_Generator.record``)."""

    __slots__ = ("actions", "changes", "deferred", "other", "results", "seen")

    def __init__(self, actions: tuple[Action, ...], results: tuple[tuple[Action, Pegs], ...],
                 changes: tuple[tuple[Action, Change], ...], deferred: tuple[Deferred, ...],
                 other: int, seen: tuple[tuple[tuple[str, Pegs], Action], ...]) -> None:
        self.actions = actions
        self.results = results
        self.changes = changes
        self.deferred = deferred
        self.other = other
        self.seen = seen


class MoveMemo:
    """The moves of each card by board and seat, shared by the positions of one search.

    A card's moves depend on the board, the seat and the card alone, and a tree search
    meets the same board in every determinization (only the hidden cards differ), so the
    generator looks them up here instead of finding them again.  Holds at most ``limit``
    entries; a memo is meant to live for one decision.
    """

    __slots__ = ("entries", "limit")

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        self.entries: dict[tuple[Pegs, int, str], CardMoves] = {}
        self.limit = limit


class Actions(Sequence[Action]):
    """The legal actions of a position: the built ones, then the counted ones."""

    __slots__ = ("_cache", "_legal")

    def __init__(self, legal: Legal) -> None:
        self._legal = legal
        self._cache: dict[int, Action] = {}

    def __len__(self) -> int:
        return self._legal.size()

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("legal action index out of range")
        built = self._legal.actions
        if i < len(built):
            return built[i]
        action = self._cache.get(i)
        if action is None:
            action = self._cache[i] = self._legal.made(i - len(built))
        return action

    def __iter__(self) -> Iterator[Action]:
        yield from self._legal.actions
        for i in range(len(self) - len(self._legal.actions)):
            yield self[len(self._legal.actions) + i]

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self._legal.outcome(action) is not None

    def __repr__(self) -> str:
        return f"<{len(self)} legal actions>"


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


def _split_interact(x: Part, qa: int, pa: int, y: Part, qb: int, pb: int, ring: int) -> bool:
    """Can two parts of a 7 or 9 affect each other: landings and hits (as for a ten), or
    one moving a peg of the other's colour onto or off its way?"""
    if interact(x, pa, y, pb):
        return True
    return (_moves_on(x, qb, pb, y.walk, y.home_lo, y.home_hi, ring)
            or _moves_on(y, qa, pa, x.walk, x.home_lo, x.home_hi, ring))


def _moves_on(part: Part, seat: int, p: int, walk: int, lo: int, hi: int, ring: int) -> bool:
    """Does ``part`` take or put a peg of ``seat`` on a way (see :func:`on_way`) from ``p``?"""
    if not part.hit:
        return part.seat == seat and (on_way(part.src, p, walk, lo, hi, ring)
                                      or on_way(part.dst, p, walk, lo, hi, ring))
    for q, a, b in part.changes:
        if q == seat and (on_way(a, p, walk, lo, hi, ring) or on_way(b, p, walk, lo, hi, ring)):
            return True
    return False


def _moves_peg(x: Part, seat: int, p: int) -> bool:
    """Does ten part x land on, or (legal) move, the peg of ``seat`` at ``p``?  A part that
    hits nothing moves only its own peg."""
    if x.dst == p:
        return True
    return x.hit and x.legal and any(c[0] == seat and c[1] == p for c in x.changes)


def _moves_other(xs: list[Part], ys: list[Part], fx: bool, fy: bool,
                 qx: int, px: int, qy: int, py: int) -> bool:
    """Does a pair of interacting ten parts ``xs[n]``, ``ys[n]`` in directions ``fx`` and
    ``fy`` have one that lands on, or moves, the other's peg (at ``px`` and ``py``)?"""
    for n in range(len(xs)):
        x, y = xs[n], ys[n]
        if x.forward == fx and y.forward == fy and (_moves_peg(x, qy, py)
                                                    or _moves_peg(y, qx, px)):
            return True
    return False


def _simple(x: Part, pb: int) -> bool:
    """Is part x of a ten one whose outcome the parts tell: it hits nothing, or (legal)
    one peg that is not the peg at ``pb``, sent to start or to its free door?"""
    return not x.hit or (len(x.changes) == 2 and x.legal and x.dst != pb)


def _own_moves(listed: Listed, seat: int, p: int, x: Part) -> None:
    """The peg moves of part x of the peg of ``seat`` at ``p``, for a listed ten."""
    if x.hit:
        listed.moves(x.changes)
    else:
        listed.move(seat, p, x.dst)


def _put(row: list[Part], part: Part) -> bool:
    """Add ``part`` to ``row``; is it legal?"""
    row.append(part)
    return part.legal


def _plain(parts: list[Part | None], at: int, keys: tuple[int, ...], seat: int, p: int, d: int,
           forward: bool, walk: int, lo: int = 0, hi: int = 0) -> Part:
    """Make the part that hits nobody at ``at`` of :meth:`Geometry.plain_parts` (of the peg
    of ``seat`` at ``p``, ``keys`` the seat's :attr:`Geometry.keys`) and keep it there.
    (Callers look it up first, inline: compiled, a call costs more than the look-up.)"""
    part = Part(seat, p, d, forward, keys[d + 1] - keys[p + 1], walk=walk, home_lo=lo,
                home_hi=hi)
    parts[at] = part
    return part


def _last_at_most(values: vec[i64], n: i64) -> i64:
    """The index of the last of the ascending ``values`` that is at most ``n`` (the first
    is)."""
    lo: i64 = 0
    hi: i64 = len(values)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if values[mid] <= n:
            lo = mid
        else:
            hi = mid
    return lo


def _close(holes: list[int], p: int, ring: int) -> bool:
    """Is ring hole ``p`` within 9 holes of one of ``holes``?"""
    if p >= ring:
        return False
    return any((h - p) % ring <= 9 or (p - h) % ring <= 9 for h in holes)


class _Generator:
    """Builds the :class:`Legal` of one position."""

    def __init__(self, geo: Geometry, pegs: Pegs, turn: Turn, aliases: bool,
                 memo: MoveMemo | None = None) -> None:
        self.geo = geo
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
        self.plans = card_plans(self.rules)
        self.other_moves = 0  # moves other than coming out (North Carolina counting)
        self._reach: dict[tuple[int, int], tuple[int, int, int]] = {}
        self._own_hits: set[tuple[int, int]] = set()  # pegs whose ten part hits own colour
        #: The ten being generated.
        self._ten: CountedSplits | None = None
        self.own_movable = self.movable(self.ctrl, pegs)

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

    def apart(self, a_seat: int, a: int, b_seat: int, b: int, total: int) -> bool:
        """Can two pegs split ``total`` without ever meeting, whatever the order?  (Both on
        the ring, further apart than the count, and not sharing a home to turn into.)"""
        ring = self.geo.ring_size
        if a >= ring or b >= ring:
            return False
        gap = (b - a) % ring
        if gap <= total or ring - gap <= total:
            return False
        if a_seat != b_seat:
            return True
        door = self.geo.door[a_seat]
        return (door - a) % ring >= total and (door - b) % ring >= total

    def part_targets(self, seat: int, p: int, n: int, forward: bool, base: bool = False
                     ) -> list[int]:
        if forward:
            if base:
                return self.base_forward(seat, p, n)
            return self.board.forward(seat, p, n, self.pass_own, self.turn_in)
        d = self.board.backward(seat, p, n, self.pass_own)
        return [] if d == IN_HAND else [d]

    def splits(self, card: str, total: int) -> bool:
        """Every legal split of ``total``; True if there was at least one."""
        board, geo, ring = self.board, self.geo, self.geo.ring_size
        occ = board.occ
        found = False
        finish = card in self.rules.split_finish_with_partner and self.rules.control != "team"
        pegs = self.own_movable
        directions = [(True, True)] if total == 7 else [(True, False), (False, True)]
        order = {peg: i for i, peg in enumerate(pegs)}
        for turn_no, (first_fwd, second_fwd) in enumerate(directions):
            op1, op2 = (">" if first_fwd else "<"), (">" if second_fwd else "<")
            for a_seat, a in pegs:
                for k in range(1, total):
                    for d1 in self.part_targets(a_seat, a, k, first_fwd, base=True):
                        hit1 = 0 <= d1 < ring and occ[d1] != -1
                        m1 = board.mark()
                        if hit1:
                            st1 = self.make(a_seat, a, d1, op1)
                            if not board.land(a_seat, a, d1):
                                board.undo(m1)
                                continue
                        else:  # a plain move: change the board directly, restore below
                            lst = board.pos[a_seat]
                            slot = index_of(lst, a)
                            lst[slot] = d1
                            if a < ring:
                                occ[a] = -1
                            if d1 < ring:
                                occ[d1] = a_seat
                        second = pegs
                        if finish and d1 >= ring and a_seat == self.mover:
                            now = board.snapshot() if hit1 else moved(self.pegs, ((a_seat, a, d1),))
                            if all_home(geo, now, self.mover):
                                second = self.movable(controlled(geo, now, self.mover), now)
                        for b_seat, b in second:
                            if b_seat == a_seat and b == a:
                                continue
                            b_now = board.where(b_seat, b, m1) if hit1 else b
                            if b_now == START:
                                continue
                            for d2 in self.part_targets(b_seat, b_now, total - k, second_fwd):
                                if not hit1 and (d2 >= ring or occ[d2] == -1):
                                    found = True
                                    other = order.get((b_seat, b), -1)
                                    later = (turn_no == 1 if total == 9
                                             else order[(a_seat, a)] > other)
                                    if (other >= 0 and later and not self.track_aliases
                                            and self.apart(a_seat, a, b_seat, b, total)):
                                        continue  # the other order, already listed
                                    self.record(
                                        card, None,
                                        moved(self.pegs, ((a_seat, a, d1), (b_seat, b, d2))),
                                        ((a_seat, a, d1, op1, False),
                                         (b_seat, b, d2, op2, False)))
                                    continue
                                if not hit1:
                                    st1 = (a_seat, a, d1, op1, False)
                                st2 = self.make(b_seat, b_now, d2, op2)
                                m2 = board.mark()
                                if board.land(b_seat, b_now, d2):
                                    found = True
                                    # a plain first part moved its peg by hand
                                    result = board.snapshot(-1 if hit1 else a_seat)
                                    self.record(card, None, result, (st1, st2))
                                board.undo(m2)
                        if hit1:
                            board.undo(m1)
                        else:
                            lst[slot] = a
                            if d1 < ring:
                                occ[d1] = -1
                            if a < ring:
                                occ[a] = a_seat
        return found

    def forward_rows(self, seat: int, p: int, total: int, chains: list[int]
                     ) -> list[list[Part]]:
        """``rows[k]``: the forward parts of size k (1 to ``total`` - 1) of the peg at ``p``
        on the unchanged board, in :meth:`base_forward` order, each with the holes its
        walk reads (where its own colour would block it), and its hits."""
        ring = self.geo.ring_size
        rows: list[list[Part]] = [[]]
        # a part onto a free hole (or into home) is a plain part, one that hits by part_at
        keys = self.geo.keys[seat]
        lifted = keys[p + 1]
        if p >= ring:
            for n in range(1, total):
                rows.append([Part(seat, p, d, True, keys[d + 1] - lifted, walk=0,
                                  home_lo=p + 1, home_hi=d + 1)
                             for d in self.board.forward(seat, p, n, self.pass_own,
                                                         self.turn_in)])
            return rows
        to_door, block, free = self.reach(seat, p)
        pass_own, occ = self.pass_own, self.board.occ
        home = pass_own or block > to_door
        plain, at = self.geo.plain_parts(seat, p)
        for n in range(1, total):
            row: list[Part] = []
            if n > to_door and home and n - to_door <= free:
                d = ring + n - to_door - 1
                got = plain[at + 10 + n]
                row.append(got if got is not None else _plain(
                    plain, at + 10 + n, keys, seat, p, d, True, to_door, ring, d + 1))
            if not (self.turn_in and n > to_door):
                d = p + n
                if d >= ring:
                    d -= ring
                if (occ[d] != seat) if pass_own else n < block:
                    got = (plain[at + n] if occ[d] == -1
                           else self.part_at(seat, p, d, True, chains, n))
                    row.append(got if got is not None else _plain(
                        plain, at + n, keys, seat, p, d, True, n))
            rows.append(row)
        return rows

    def backward_rows(self, seat: int, p: int, total: int, chains: list[int]
                      ) -> list[list[Part]]:
        """``rows[k]``: the backward part of size k (1 to ``total`` - 1) of the peg at ``p``
        on the unchanged board, if it has one (as :meth:`WorkBoard.backward` finds it),
        with its way and hits; one walk for every size."""
        ring = self.geo.ring_size
        rows: list[list[Part]] = [[]]
        occ, pass_own = self.board.occ, self.pass_own
        keys = self.geo.keys[seat]
        blocked = p >= ring
        plain, at = self.geo.plain_parts(seat, p)
        d = p
        for n in range(1, total):
            if blocked:
                rows.append([])
                continue
            d -= 1
            if d < 0:
                d = ring - 1
            own = occ[d] == seat
            if own:
                rows.append([])
            elif occ[d] == -1:
                got = plain[at + 20 + n]
                rows.append([got if got is not None else _plain(
                    plain, at + 20 + n, keys, seat, p, d, False, -n)])
            else:
                rows.append([self.part_at(seat, p, d, False, chains, -n)])
            if own and not pass_own:
                blocked = True
        return rows

    def count_splits(self, card: str, total: int) -> bool:
        """Every legal split of ``total`` (7 or 9, no finishing split possible): the
        interacting ones simulated and listed, the others counted.  True if any."""
        legal = self.legal
        pegs = self.own_movable
        n = len(pegs)
        chains: list[list[int]] = []
        fwd: list[list[list[Part]]] = []
        back: list[list[list[Part]]] = []
        for q, p in pegs:
            found: list[int] = []
            fwd.append(self.forward_rows(q, p, total, found))
            back.append(self.backward_rows(q, p, total, found) if total == 9 else [[]])
            chains.append(found)
        usable = []
        for rows in (fwd, back) if total == 9 else (fwd,):
            usable.append([numbered(peg) for peg in rows])
        turns = [(fwd, back), (back, fwd)] if total == 9 else [(fwd, fwd)]
        units, pairs = self.split_units(pegs, turns, total, chains)
        first, second = usable[0], usable[-1]
        start = [0] * n if total == 9 else [i + 1 for i in range(n)]
        counted = CountedSplits(card, self.geo, self.pegs, self.mover, list(pegs), first, second,
                                total, start, total == 9, pairs, None)
        origins: list[tuple[int, ...]] = []
        for unit in units:
            self._split_unit(pegs, turns, total, unit, counted.listed, origins)
        if len(counted.listed):
            self._split_repeats(counted, origins)
        if len(counted):
            legal.deferred.append(counted)
            return True
        return False

    def split_units(self, pegs: list[tuple[int, int]],
                    turns: list[tuple[list[list[list[Part]]], list[list[list[Part]]]]],
                    total: int, chains: list[list[int]]
                    ) -> tuple[list[tuple[int, int, int, int, int]], CodeSet]:
        """The first parts that interact with a second peg's parts (or move that peg), as
        (turn, first peg, size, target, second peg) in the order of the full enumeration;
        and the interacting pairs of legal parts as counted splits, which are not counted."""
        geo = self.geo
        ring, home = geo.ring_size, geo.home_holes
        units: list[tuple[int, int, int, int, int]] = []
        pairs = CodeSet()
        fw = turns[0][0]
        homeward = [pegs[i][1] >= ring or any(part.dst >= ring for row in fw[i] for part in row)
                    for i in range(len(pegs))]
        n = len(pegs)
        near: list[list[int]] = [[] for _ in range(n)]  # ascending: in the order of the j loop
        for i in range(n):
            qa, pa = pegs[i]
            for j in range(i + 1, n):
                qb, pb = pegs[j]
                # pegs of two colours meet only on the ring (each has its own home)
                close = qa == qb and (homeward[i] or homeward[j])
                if not close and pa < ring and pb < ring:
                    gap = (pb - pa) % ring
                    close = gap <= 2 * total or ring - gap <= 2 * total
                if not close and (chains[i] or chains[j]):
                    close = (_close(chains[i], pb, ring) or _close(chains[j], pa, ring)
                             or any(has(chains[j], h) for h in chains[i]))
                if close:
                    near[i].append(j)
                    near[j].append(i)
        # loops in the order of the full enumeration: (turn, first peg, size, target, second
        # peg), so the units come out sorted
        for turn, (firsts, seconds) in enumerate(turns):
            back_second = total == 9 and turn == 0
            for i in range(n):
                others = near[i]
                if not others:
                    continue
                qa, pa = pegs[i]
                rows = firsts[i]
                for k in range(1, total):
                    m = total - k
                    # a part's index in its row (its ``order`` in a unit), and among the
                    # row's legal parts (in a counted split's pick)
                    a = 0
                    for order, x in enumerate(rows[k]):
                        if not x.legal:
                            continue  # neither a unit nor a counted split
                        a += 1
                        for j in others:
                            qb, pb = pegs[j]
                            # a part that hits nothing moves only its own peg: it can move a
                            # peg of the other colour only when both pegs are of one colour
                            same = qa == qb
                            hit = False
                            if same or x.hit:
                                # the way every walk of the second peg of this size reads:
                                # moving a peg of its colour there can block or unblock it,
                                # even a walk with no part on the unchanged board
                                lo = hi = 0
                                if pb >= ring:
                                    walk = 0
                                    if not back_second:
                                        lo, hi = pb + 1, min(pb + m + 1, ring + home)
                                elif back_second:
                                    walk = -m
                                else:
                                    to_door = (geo.door[qb] - pb) % ring
                                    walk, lo, hi = m, ring, ring + max(0, min(m - to_door, home))
                                hit = _moves_on(x, qb, pb, walk, lo, hi, ring)
                            # each second part's way lies on that way: x moves no peg on it
                            # unless it moves one on the whole way
                            x_on = hit
                            b = 0
                            for y in seconds[j][m]:
                                b += y.legal
                                if (interact(x, pa, y, pb)
                                        or (x_on and _moves_on(x, qb, pb, y.walk, y.home_lo,
                                                               y.home_hi, ring))
                                        or ((same or y.hit) and _moves_on(
                                            y, qa, pa, x.walk, x.home_lo, x.home_hi, ring))):
                                    hit = True
                                    if turn == 0 and y.legal and (total == 9 or i < j):
                                        pairs.add(pick_code((i, k, a - 1, j, b - 1)))
                            if hit or any(c[0] == qb and c[1] == pb for c in x.changes):
                                units.append((turn, i, k, order, j))
        return units, pairs

    def _split_unit(self, pegs: list[tuple[int, int]],
                    turns: list[tuple[list[list[list[Part]]], list[list[list[Part]]]]],
                    total: int, unit: tuple[int, int, int, int, int], listed: Listed,
                    origins: list[tuple[int, ...]]) -> None:
        """One first part and every second part of one peg after it, simulated step by
        step and kept in ``listed`` unless a kept split leads to the same layout (second
        parts that do not interact with it are counted splits, or their other order);
        ``origins`` gets where the full enumeration finds each kept split."""
        turn, i, k, order, j = unit
        firsts, seconds = turns[turn]
        x = firsts[i][k][order]
        ys = seconds[j][total - k]
        qa, pa = pegs[i]
        qb, pb = pegs[j]
        board, ring = self.board, self.geo.ring_size
        op1, op2 = (">" if x.forward else "<"), ("<" if x.forward and total == 9 else ">")
        st1 = self.make(qa, pa, x.dst, op1)
        m1 = board.mark()
        if board.land(qa, pa, x.dst):
            b_now = board.where(qb, pb, m1)
            if b_now != START:
                targets = self.part_targets(qb, b_now, total - k, op2 == ">")
                for o2, d2 in enumerate(targets):
                    if b_now == pb and any(
                            y.dst == d2 and not _split_interact(x, qa, pa, y, qb, pb, ring)
                            for y in ys):
                        continue  # a counted split, or its other order
                    st2 = self.make(qb, b_now, d2, op2)
                    m2 = board.mark()
                    if board.land(qb, b_now, d2):
                        n = len(listed)
                        listed.start(st1, st2)
                        listed.logged(board.log)
                        listed.finish()
                        if len(listed) > n:
                            origins.append((turn, i, k, order, j, o2))
                    board.undo(m2)
        board.undo(m1)

    def _split_repeats(self, counted: CountedSplits, origins: list[tuple[int, ...]]) -> None:
        """Where a listed split and a counted one reach the same board, keep the one the
        full enumeration finds first (``origins[n]``: where it finds listed split n)."""
        listed = counted.listed
        gone: list[int] = []
        reached = counted.reached()
        for n in range(len(listed) - 1, -1, -1):
            if not reached[n]:
                continue  # no counted split changes the layout's key as it does
            for pick in counted.picks_to(listed.layout(n)):
                if counted.rank(pick) < (False, origins[n]):
                    gone.append(n)
                    break
                counted.skip.add(pick_code(pick))
        if gone:
            listed.drop(gone)

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

    def ten_pegs(self) -> list[tuple[int, int, bool]]:
        """(seat, position, ring_only) of every peg a North Carolina ten may move: any ring
        peg, and the home pegs of the mover's team that can still move."""
        geo, ring = self.geo, self.geo.ring_size
        in_team = [False] * geo.players
        for q in geo.team_seats[self.mover]:
            in_team[q] = True
        return [(q, p, not in_team[q]) for q, p in self.movable(range(geo.players), self.pegs)
                if p < ring or in_team[q]]

    def ten_targets(self, seat: int, p: int, n: int, fwd: bool, ring_only: bool) -> list[int]:
        board = self.board
        if fwd:
            return board.forward(seat, p, n, True, False, ring_only=ring_only, hit_own=True)
        d = board.backward(seat, p, n, True, hit_own=True)
        return [] if d == IN_HAND else [d]

    def ten_parts(self, seat: int, p: int, ring_only: bool, chains: list[int]
                  ) -> tuple[list[list[Part]], bool]:
        """``parts[k]``: every part of size k (1..9) of the peg at ``p`` on the unchanged
        board, legal or not, in :meth:`ten_targets` order (forward ones first), and whether
        all are legal (:func:`numbered` then gives the same rows).  One walk finds all
        sizes; holes that its hits' chains reach are added to ``chains``.  The parts that
        hit nobody are :meth:`Geometry.plain_parts`, with their ways as a 7 or 9 has them."""
        geo, ring = self.geo, self.geo.ring_size
        parts: list[list[Part]] = [[] for _ in range(10)]
        every = True
        # a part onto a free hole (or into home) is a plain part, one that hits by part_at
        occ, keys = self.board.occ, geo.keys[seat]
        plain, at = geo.plain_parts(seat, p)
        if p >= ring:
            k0 = p - ring + 1
            stop = geo.home_holes + 1  # the home hole (counted from 1) of the next peg in
            for h in self.pegs[seat]:
                if p < h < ring + stop - 1:
                    stop = h - ring + 1
            for n in range(1, 10):
                if k0 + n <= geo.home_holes and k0 + n < stop:
                    got = plain[at + n]
                    parts[n].append(got if got is not None else _plain(
                        plain, at + n, keys, seat, p, p + n, True, 0, p + 1, p + n + 1))
            return parts, every
        door, cur = geo.door[seat], p
        for i in range(9):
            if cur == door and not ring_only:
                free = geo.home_holes  # home holes below the lowest home peg
                for h in self.pegs[seat]:
                    if ring <= h < ring + free:
                        free = h - ring
                for n in range(i + 1, min(i + 1 + free, 10)):
                    got = plain[at + 10 + n]
                    d = ring + n - i - 1
                    parts[n].append(got if got is not None else _plain(
                        plain, at + 10 + n, keys, seat, p, d, True, i, ring, d + 1))
            cur += 1
            if cur == ring:
                cur = 0
            if occ[cur] == -1:
                got = plain[at + i + 1]
                parts[i + 1].append(got if got is not None else _plain(
                    plain, at + i + 1, keys, seat, p, cur, True, i + 1))
            else:
                every &= _put(parts[i + 1], self.part_at(seat, p, cur, True, chains))
        back = p
        for n in range(1, 10):
            back = back - 1 if back else ring - 1
            if occ[back] == -1:
                got = plain[at + 20 + n]
                parts[n].append(got if got is not None else _plain(
                    plain, at + 20 + n, keys, seat, p, back, False, -n))
            else:
                every &= _put(parts[n], self.part_at(seat, p, back, False, chains))
        return parts, every

    def part_at(self, seat: int, p: int, d: int, forward: bool, chains: list[int],
                walk: int = 0, home_lo: int = 0, home_hi: int = 0) -> Part:
        """One part of a split (a ten's, or a 7's or 9's with its way) on the unchanged
        board, its hits resolved as WorkBoard.land would (without moving anything); holes
        that its hits' chains reach are added to ``chains``.  A part onto its own colour (a
        ten's only) marks its peg in ``_own_hits``."""
        occ = self.board.occ
        if d >= self.geo.ring_size or occ[d] == -1:
            keys = self.geo.keys[seat]
            return Part(seat, p, d, forward, keys[d + 1] - keys[p + 1], walk=walk,
                        home_lo=home_lo, home_hi=home_hi)
        if occ[d] == seat:
            self._own_hits.add((seat, p))
        doors: list[int] = []
        changes: list[Change] = []
        ok = self._chain(occ[d], d, p, 0, doors, changes)
        changes.append((seat, p, d))
        chains.extend(doors)
        hits = tuple(changes)
        return Part(seat, p, d, forward, self.key_change(hits), hits, ok, tuple(doors),
                    walk=walk, home_lo=home_lo, home_hi=home_hi)

    def key_change(self, changes: tuple[Change, ...]) -> int:
        """How much some peg moves change the layout's key (:attr:`Geometry.flat_keys`); a
        peg lifted and put down again cancels out."""
        keys = self.geo.flat_keys
        width: i64 = len(self.geo.keys[0])
        delta: i64 = 0
        for n in range(len(changes)):
            q, a, b = changes[n]
            row: i64 = q * width
            delta += keys[row + b + 1] - keys[row + a + 1]
        return delta

    def _chain(self, victim: int, at: int, lifted: int, depth: int, doors: list[int],
               changes: list[Change]) -> bool:
        """WorkBoard._bump read off the unchanged board (the moving peg lifted from
        ``lifted``): the pegs it moves, deepest first, and the doors it reads."""
        geo = self.geo
        if geo.opponent[self.mover][victim]:
            changes.append((victim, at, START))
            return True
        d = geo.door[victim]
        if d == at:
            return False
        doors.append(d)
        other = -1 if d == lifted else self.board.occ[d]
        if other == victim:
            return False
        if other != -1 and (depth > geo.players
                            or not self._chain(other, d, lifted, depth + 1, doors, changes)):
            return False
        changes.append((victim, at, d))
        return True

    def ten_groups(self, card: str, pegs: list[tuple[int, int, bool]],
                   parts: list[list[list[Part]]], chains: list[list[int]], tens: CountedSplits
                   ) -> tuple[vec[i64], vec[i64]]:
        """List the splits of every group (two pegs, part sizes, directions) in which some
        two parts interact, group by group in the order of the full enumeration; return
        the number of splits listed before each group, and the group (:func:`group_code`).
        The interacting pairs of legal parts are left out of the count (``tens.skip``),
        and the groups in which a part lands on the other peg or moves it are simulated
        whole (``tens.eager``).  Only pegs near each other, near a door a hit sends a peg
        to, or both able to enter home can interact; their parts are compared one by one."""
        ring = self.geo.ring_size
        skip, eager = tens.skip, tens.eager
        assert eager is not None
        starts = vec[i64]()
        groups = vec[i64]()
        # the interacting pairs of parts of a size, x from found_x and y from found_y
        found_x: list[Part] = []
        found_y: list[Part] = []
        for i, (qx, px, _) in enumerate(pegs):
            for j in range(i + 1, len(pegs)):
                qy, py, _ = pegs[j]
                if qx == qy:
                    continue
                # pegs of two colours meet only on the ring (each has its own home)
                near = False
                if px < ring and py < ring:
                    gap = (py - px) % ring
                    near = gap <= 10 or ring - gap <= 10
                if not near and (chains[i] or chains[j]):
                    near = (_close(chains[i], py, ring) or _close(chains[j], px, ring)
                            or any(has(chains[j], h) for h in chains[i]))
                if not near:
                    continue
                for k in range(1, 10):
                    if found_x:  # the last size's (or the last pair's), done
                        found_x.clear()
                        found_y.clear()
                    kinds = 0  # the directions met, as bits in group order
                    ys = parts[j][10 - k]
                    a: i64 = 0  # x's index among the legal parts of its row, then y's
                    for x in parts[i][k]:
                        xd, x_doors = x.dst, len(x.doors) > 0
                        b: i64 = 0
                        for y in ys:
                            yd = y.dst  # interact(), its doors only read when there are some
                            if xd in (yd, py) or yd == px or (
                                    (x_doors or len(y.doors) > 0) and interact(x, px, y, py)):
                                found_x.append(x)
                                found_y.append(y)
                                kinds |= 1 << ((0 if x.forward else 2) + (0 if y.forward else 1))
                                if x.legal and y.legal:
                                    skip.add(pick_code((i, k, a, j, b)))
                            b += y.legal
                        a += x.legal
                    for code in range(4):
                        if kinds >> code & 1:
                            fx, fy = code < 2, code % 2 == 0
                            group = group_code(i, j, k, fx, fy)
                            starts = append(starts, len(tens.listed))
                            groups = append(groups, group)
                            if _moves_other(found_x, found_y, fx, fy, qx, px, qy, py):
                                eager.add(group)
                                self._ten_whole(card, pegs, parts, i, j, k, fx, fy)
                            else:
                                self._ten_interacting(card, pegs[i], pegs[j], found_x, found_y,
                                                      fx, fy)
        return starts, groups

    def split_ten(self, card: str) -> None:
        """The North Carolina ten: two pegs of different colours, any seats, 10 in all.

        Splits whose parts interact are simulated and listed; the others are counted by
        :class:`CountedSplits`.  With aliases, every split is listed, in both orders.
        """
        legal = self.legal
        pegs = self.ten_pegs()
        if self.track_aliases:
            options: dict[tuple[int, int, bool], list[int]] = {}
            for i in range(len(pegs)):
                for j in range(i + 1, len(pegs)):
                    if pegs[i][0] != pegs[j][0]:
                        for k in range(1, 10):
                            for fx in (True, False):
                                for fy in (True, False):
                                    self._ten_group(card, pegs, options, (i, j, k, fx, fy))
            return
        chains: list[list[int]] = []
        parts = []
        usable = []
        for q, p, only in pegs:
            found: list[int] = []
            ps, every = self.ten_parts(q, p, only, found)
            parts.append(ps)
            usable.append(ps if every else numbered(ps))
            chains.append(found)
        ends = [len(pegs)] * len(pegs)  # the first peg of a later seat (pegs in seat order)
        for i in range(len(pegs) - 2, -1, -1):
            ends[i] = i + 1 if pegs[i + 1][0] != pegs[i][0] else ends[i + 1]
        tens = CountedSplits(card, self.geo, self.pegs, self.mover, [(q, p) for q, p, _ in pegs],
                             usable, usable, 10, ends, False, CodeSet(), CodeSet())
        self._ten = tens
        starts, groups = self.ten_groups(card, pegs, parts, chains, tens)
        self._ten = None
        if self._own_hits:
            tens.skip_twins({i for i, (q, p, _) in enumerate(pegs) if (q, p) in self._own_hits})
        if len(tens.listed):
            self._ten_repeats(tens, starts, groups)
        if len(tens):
            legal.deferred.append(tens)

    def _ten_whole(self, card: str, pegs: list[tuple[int, int, bool]],
                   parts: list[list[list[Part]]], i: int, j: int, k: int, fx: bool, fy: bool
                   ) -> None:
        """List the splits of a group in which a part lands on the other peg or moves it:
        the whole group in both orders, simulated step by step."""
        xs, ys = parts[i][k], parts[j][10 - k]
        self._ten_order(card, pegs[i], xs, fx, pegs[j], 10 - k, ys, fy)
        self._ten_order(card, pegs[j], ys, fy, pegs[i], k, xs, fx)

    def _ten_interacting(self, card: str, first: tuple[int, int, bool],
                         second: tuple[int, int, bool], xs: list[Part], ys: list[Part],
                         fx: bool, fy: bool) -> None:
        """List the splits of the interacting parts ``xs[n]`` and ``ys[n]`` of two pegs in
        directions ``fx`` and ``fy`` (neither landing on the other peg nor moving it), in
        both orders: worked out from the parts when :meth:`_quick_ten` can, simulated
        otherwise."""
        qx, px, _ = first
        qy, py, _ = second
        for n in range(len(xs)):
            x, y = xs[n], ys[n]
            if x.forward != fx or y.forward != fy:
                continue
            ox, oy = (">" if fx else "<"), (">" if fy else "<")
            if not (_simple(x, py) and self._quick_ten(qx, px, x, qy, py, y)):
                self._ten_pair(card, (qx, px, x.dst, ox), (qy, py, y.dst, oy))
            if not (_simple(y, px) and self._quick_ten(qy, py, y, qx, px, x)):
                self._ten_pair(card, (qy, py, y.dst, oy), (qx, px, x.dst, ox))

    def _ten_order(self, card: str, first: tuple[int, int, bool], xs: list[Part], fx: bool,
                   second: tuple[int, int, bool], k2: int, ys: list[Part], fy: bool) -> None:
        """One order of a group whose parts interact, simulated step by step: the parts
        of ``xs`` in direction ``fx``, then those of ``ys`` in direction ``fy``.  Pairs of
        parts that do not interact are the counted splits (or their other order)."""
        board = self.board
        qa, pa, _ = first
        qb, pb, only_b = second
        bumped_out = self.geo.opponent[self.mover][qb]  # a hit sends the peg to start
        for x in xs:
            if x.forward != fx or (x.dst == pb and bumped_out) or not any(
                    y.forward == fy and interact(x, pa, y, pb) for y in ys):
                continue
            st1 = self.make(qa, pa, x.dst, ">" if fx else "<", hit_own=True)
            if _simple(x, pb):
                self._after_simple(card, first, x, st1, second, ys, fy)
                continue
            if x.dst == pb and self._quick_door(first, x, st1, second, k2, fy):
                continue
            m1 = board.mark()
            if board.land(qa, pa, x.dst):
                b_now = board.where(qb, pb, m1)
                if b_now != START and not (b_now >= self.geo.ring_size and not fy):
                    for d2 in self.ten_targets(qb, b_now, k2, fy, only_b):
                        if b_now == pb and any(
                                y.dst == d2 and y.forward == fy and not interact(x, pa, y, pb)
                                for y in ys):
                            continue
                        st2 = self.make(qb, b_now, d2, ">" if fy else "<", hit_own=True)
                        m2 = board.mark()
                        if board.land(qb, b_now, d2):
                            self._record_ten(card, st1, st2)
                        board.undo(m2)
            board.undo(m1)

    def _quick_door(self, first: tuple[int, int, bool], x: Part, st1: Make,
                    second: tuple[int, int, bool], k2: int, forward: bool) -> bool:
        """The rest of :meth:`_ten_order` for a part x that lands on the second peg, a team
        peg sent to its door with no chain of hits: keep the tens of that peg's part of
        ``k2`` from its door without the scratch board, when each of its targets is free
        once x has moved.  The targets are :meth:`ten_targets`' from the door: into home
        first (forward, holes 1 to ``k2`` free), then the ring hole ``k2`` on.  False if
        that is not so (the caller simulates)."""
        tens = self._ten
        geo = self.geo
        ring = geo.ring_size
        hits: tuple[Change, ...] = x.changes  # not narrowed to a pair: passed on as it is
        if tens is None or ring <= 10 or not x.legal or len(x.changes) != 2:
            return False
        qb, pb, only_b = second
        sent, door = hits[0], hits[0][2]
        if sent[0] != qb or sent[1] != pb or not 0 <= door < ring:
            return False
        targets: list[int] = []
        if forward:
            if not only_b and k2 <= geo.home_holes and not any(
                    ring <= h < ring + k2 for h in self.pegs[qb]):
                targets.append(ring + k2 - 1)
            targets.append((door + k2) % ring)
        else:
            targets.append((door - k2) % ring)
        occ, pa = self.board.occ, first[1]
        for d2 in targets:  # x's peg now stands on pb, and has left pa
            if d2 < ring and d2 != pa and (d2 == pb or occ[d2] != -1):
                return False
        listed = tens.listed
        op = ">" if forward else "<"
        for d2 in targets:
            listed.start(st1, (qb, door, d2, op, False))
            listed.moves(hits)
            listed.move(qb, door, d2)
            listed.finish()
        return True

    def _after_simple(self, card: str, first: tuple[int, int, bool], x: Part, st1: Make,
                      second: tuple[int, int, bool], ys: list[Part], fy: bool) -> None:
        """The rest of :meth:`_ten_order` for a :func:`_simple` first part, then the parts of
        ``ys`` in direction ``fy``.  It leaves the second peg where it was, and a ten's
        targets read only the board's shape and the peg's own home, so the second peg's
        parts are still its targets; those that do not interact with the first part are
        counted, the others kept without the scratch board when :meth:`_quick_ten` can,
        simulated otherwise."""
        board = self.board
        qa, pa, _ = first
        qb, pb, _ = second
        m1 = -1
        for y in ys:
            if y.forward != fy or not interact(x, pa, y, pb) or self._quick_ten(
                    qa, pa, x, qb, pb, y):
                continue
            if m1 < 0:
                m1 = board.mark()
                board.land(qa, pa, x.dst)
            st2 = self.make(qb, pb, y.dst, ">" if y.forward else "<", hit_own=True)
            m2 = board.mark()
            if board.land(qb, pb, y.dst):
                self._record_ten(card, st1, st2)
            board.undo(m2)
        if m1 >= 0:
            board.undo(m1)

    def _quick_ten(self, qa: int, pa: int, x: Part, qb: int, pb: int, y: Part) -> bool:
        """Keep the ten of a :func:`_simple` part x (of the peg of ``qa`` at ``pa``), then
        part y (of the peg at ``pb``), worked out from the parts without the scratch board,
        when that is simple: once x has moved, y lands on an empty hole, on the hole x
        left, or on x's peg, which goes to start (an opponent's) or to its door (a team
        peg's, the door free once x has moved and y's peg is lifted); the peg x hits, if
        any, stands in start or at its door by then (landing on it there is an illegal
        hit: nothing is kept).  False if it is not (the caller simulates the ten)."""
        tens = self._ten
        if tens is None:
            return False
        listed = tens.listed
        ox, oy = (">" if x.forward else "<"), (">" if y.forward else "<")
        h = x.dst
        sent = x.changes[0][2] if x.hit else START  # where x's hit sent its peg
        if y.dst == pa:  # onto the hole x left
            if sent == pa:
                return False  # the peg x hit stands there: simulated
            listed.start((qa, pa, h, ox, x.hit), (qb, pb, pa, oy, False))
            _own_moves(listed, qa, pa, x)
            listed.move(qb, pb, pa)
        elif y.dst == h and h < self.geo.ring_size:  # onto x's peg
            listed.start((qa, pa, h, ox, x.hit), (qb, pb, h, oy, True))
            if self.geo.opponent[self.mover][qa]:
                _own_moves(listed, qa, pa, x)
                listed.move(qa, h, START)
                listed.move(qb, pb, h)
            else:  # sent to its door, which must be free once x has moved and y is lifted
                d = self.geo.door[qa]
                if d in (h, sent) or not (d in (pa, pb) or self.board.occ[d] == -1):
                    return False  # an illegal hit or a chain: simulated
                _own_moves(listed, qa, pa, x)
                listed.move(qb, pb, IN_HAND)
                listed.move(qa, h, d)
                listed.move(qb, IN_HAND, h)
        elif y.hit:
            return False
        elif y.dst == sent:
            return True  # onto the peg x sent to its door, where a hit would send it: illegal
        else:
            listed.start((qa, pa, h, ox, x.hit), (qb, pb, y.dst, oy, False))
            _own_moves(listed, qa, pa, x)
            listed.move(qb, pb, y.dst)
        listed.finish()
        return True

    def _ten_group(self, card: str, pegs: list[tuple[int, int, bool]],
                   options: dict[tuple[int, int, bool], list[int]], group: Group) -> None:
        """Every split of one group in both orders (for aliases)."""
        i, j, k, fx, fy = group
        qx, px, ox_only = pegs[i]
        qy, py, oy_only = pegs[j]
        xs = options.get((i, k, fx))
        if xs is None:
            xs = options[(i, k, fx)] = self.ten_targets(qx, px, k, fx, ox_only)
        ys = options.get((j, 10 - k, fy))
        if ys is None:
            ys = options[(j, 10 - k, fy)] = self.ten_targets(qy, py, 10 - k, fy, oy_only)
        if not xs or not ys:
            return
        if py in xs or px in ys:  # one lands on the other: both orders
            self._ten_both(card, pegs[i], k, fx, pegs[j], 10 - k, fy)
            return
        ring, occ, names = self.geo.ring_size, self.board.occ, self.names
        ox, oy = (">" if fx else "<"), (">" if fy else "<")
        for dx in xs:
            x_clear = dx >= ring or occ[dx] == -1
            for dy in ys:
                if x_clear and dx != dy and (dy >= ring or occ[dy] == -1):
                    result = moved(self.pegs, ((qx, px, dx), (qy, py, dy)))
                    x_step = Step(names[qx][px + 1], names[qx][dx + 1], ox)
                    y_step = Step(names[qy][py + 1], names[qy][dy + 1], oy)
                    self.record(card, (x_step, y_step), result)
                    self.record(card, (y_step, x_step), result)
                    continue
                x_part, y_part = (qx, px, dx, ox), (qy, py, dy, oy)
                if not (self._ten_pair(card, x_part, y_part)
                        and self._ten_pair(card, y_part, x_part)):
                    self._ten_both(card, pegs[i], k, fx, pegs[j], 10 - k, fy)

    def _record_ten(self, card: str, first: Make, second: Make) -> None:
        """Keep the ten on the scratch board, its peg moves the board's log, unless its
        layout is kept already (with aliases, record it as an action)."""
        board, tens = self.board, self._ten
        if tens is None:
            self.record(card, None, board.snapshot(), (first, second))
            return
        listed = tens.listed
        listed.start(first, second)
        listed.logged(board.log)
        listed.finish()

    def _ten_repeats(self, tens: CountedSplits, starts: vec[i64], groups: vec[i64]) -> None:
        """Two splits with the same final board are one move: where a listed ten and a
        counted one meet, keep the one the full enumeration (groups in order, plain
        splits of the other groups last) finds first.  ``starts`` and ``groups``: as
        :meth:`ten_groups` returns them."""
        gone: list[int] = []
        reached = tens.reached()
        for n in range(len(tens.listed) - 1, -1, -1):
            if not reached[n]:
                continue  # no counted split changes the layout's key as it does
            picks = tens.picks_to(tens.listed.layout(n))
            if not picks:
                continue
            origin = (False, group_order(group_of(groups[_last_at_most(starts, n)])))
            for pick in picks:
                if tens.rank(pick) < origin:
                    gone.append(n)
                    break
                tens.skip.add(pick_code(pick))
        if gone:
            tens.listed.drop(gone)

    def _ten_both(self, card: str, x: tuple[int, int, bool], kx: int, fx: bool,
                  y: tuple[int, int, bool], ky: int, fy: bool) -> None:
        self._ten_sequence(card, x, kx, fx, y, ky, fy)
        self._ten_sequence(card, y, ky, fy, x, kx, fx)

    def _ten_pair(self, card: str, first: tuple[int, int, int, str],
                  second: tuple[int, int, int, str]) -> bool:
        """Both parts of a ten in one order, when at least one of them hits.  False if the
        first part displaced the second peg (the caller then simulates the whole group)."""
        board = self.board
        qa, pa, da, oa = first
        qb, pb, db, ob = second
        st1 = self.make(qa, pa, da, oa, hit_own=True)
        m1 = board.mark()
        ok = True
        if board.land(qa, pa, da):
            if board.where(qb, pb, m1) != pb:
                ok = False
            else:
                st2 = self.make(qb, pb, db, ob, hit_own=True)
                if board.land(qb, pb, db):
                    self._record_ten(card, st1, st2)
        board.undo(m1)
        return ok

    def _ten_sequence(self, card: str, first: tuple[int, int, bool], k1: int, f1: bool,
                      second: tuple[int, int, bool], k2: int, f2: bool) -> None:
        """One order of a ten whose parts interact, simulated step by step."""
        board = self.board
        qa, pa, only_a = first
        qb, pb, only_b = second
        for d1 in self.ten_targets(qa, pa, k1, f1, only_a):
            st1 = self.make(qa, pa, d1, ">" if f1 else "<", hit_own=True)
            m1 = board.mark()
            if board.land(qa, pa, d1):
                b_now = board.where(qb, pb, m1)
                if b_now != START:
                    for d2 in self.ten_targets(qb, b_now, k2, f2, only_b):
                        if b_now >= self.geo.ring_size and not f2:
                            continue
                        st2 = self.make(qb, b_now, d2, ">" if f2 else "<", hit_own=True)
                        m2 = board.mark()
                        if board.land(qb, b_now, d2):
                            self._record_ten(card, st1, st2)
                        board.undo(m2)
            board.undo(m1)

    # --- the whole turn -------------------------------------------------------------------
    def card_moves(self, card: str) -> None:
        """Add the moves of ``card`` (from the memo when it has them)."""
        memo = self.memo
        if memo is None:
            self.find_card_moves(card)
            return
        key = (self.pegs, self.mover, card)
        known = memo.entries.get(key)
        legal = self.legal
        if known is not None:
            legal.actions.extend(known.actions)
            for action, result in known.results:
                legal.results[action] = result
            for key_seen, action in known.seen:
                self._seen[key_seen] = action
            for action, change in known.changes:
                legal.changes[action] = change
            legal.deferred.extend(known.deferred)
            self.other_moves += known.other
            return
        built, counted, other = len(legal.actions), len(legal.deferred), self.other_moves
        seen = len(self._seen)
        self.find_card_moves(card)
        if len(memo.entries) < memo.limit:
            new = tuple(legal.actions[built:])
            memo.entries[key] = CardMoves(
                new, tuple((a, legal.results[a]) for a in new if a in legal.results),
                tuple((a, legal.changes[a]) for a in new if a in legal.changes),
                tuple(legal.deferred[counted:]), self.other_moves - other,
                tuple(islice(self._seen.items(), seen, None)))

    def find_card_moves(self, card: str) -> None:
        plan = self.plans[card]
        if plan.joker:
            self.joker(card)
            return
        if plan.out:
            self.add(card, self.come_out(self.ctrl))
        legal = self.legal
        before = legal.size()
        if plan.split == 10:
            self.split_ten(card)
        split_found = False
        if plan.split in (7, 9):
            # counting pays from a few pegs on (and cannot follow a finishing split)
            finish = card in self.rules.split_finish_with_partner and self.rules.control != "team"
            ring = self.geo.ring_size
            if (self.track_aliases or len(self.own_movable) < COUNT_FROM_PEGS or (finish and sum(
                    1 for p in self.pegs[self.mover] if p < ring) <= 1)):
                split_found = self.splits(card, plan.split)
            else:
                split_found = self.count_splits(card, plan.split)
        if not (plan.must_split and split_found):
            for n in plan.forward:
                self.add(card, self.singles(n, backward=False))
        for n in plan.backward:
            self.add(card, self.singles(n, backward=True))
        if plan.swap:
            self.swaps(card)
        self.other_moves += legal.size() - before

    def stuck_come_out(self, card: str) -> None:
        rule, stuck = self.rules.stuck_rule, self.turn.stuck_turns
        plan = self.plans[card]
        if plan.out or (plan.joker and self.rules.joker_comes_out):
            return
        if (rule == "pegoo_cant_play_pile" and stuck >= 2) or (
            rule == "havasu_fourth_turn" and stuck >= 3
        ):
            self.add(card, self.come_out(self.ctrl))

    def counting_come_out(self, ranks: list[str]) -> bool:
        """North Carolina counting: on the third turn without a move (no move but coming
        out), discard any card and bring a peg out free.  True if that was offered."""
        free = self.come_out(self.ctrl)
        if not free:
            return False
        for card in ranks:
            for steps, change in free:
                result = change if not isinstance(change[0], int) else moved(
                    self.pegs, (change,))
                self.record(card, steps, result, discard=True)
        return True

    def run(self) -> Legal:
        legal = self.legal
        ranks = sorted(set(self.turn.hand), key=RANK_ORDER.__getitem__)
        for card in ranks:
            n = legal.size()
            self.card_moves(card)
            self.stuck_come_out(card)
            if legal.size() > n:
                legal.moving_ranks.add(card)
        if (
            self.rules.stuck_rule == "nc_counting"
            and self.turn.stuck_turns >= 2
            and not self.other_moves
            and self.counting_come_out(ranks)
        ):
            return legal
        joker_must = self.rules.joker_obligatory and not self.turn.first_turn
        if not (legal.moving_ranks - {"Joker"}) and not (joker_must and legal.moving_ranks):
            for card in ranks:
                self.record(card, (), self.pegs, discard=True)
        return legal


def generate_plain(geo: Geometry, pegs: Pegs, turn: Turn, aliases: bool = False) -> Legal:
    """The legal actions of ``turn.seat`` with the cards face up (no bluffing)."""
    return _Generator(geo, pegs, turn, aliases).run()


def generate(geo: Geometry, pegs: Pegs, turn: Turn, aliases: bool = False,
             memo: MoveMemo | None = None) -> Legal:
    """All legal actions of ``turn.seat`` holding ``turn.hand`` on layout ``pegs``.

    With ``aliases``, other spellings of the same move (a split in the other order) are
    collected too, mapped to the listed action.  Under Bluffing Joker every card in the
    hand may be declared as any rank with any move legal for that rank.  A ``memo``
    (:class:`MoveMemo`) keeps each card's moves for the next position on the same board.
    """
    if not geo.rules.bluffing:
        return _Generator(geo, pegs, turn, aliases, memo).run()
    every = Turn(turn.seat, RANKS, turn.stuck_turns, turn.first_turn)
    declared = _Generator(geo, pegs, every, aliases, memo).run()
    legal = Legal(moving_ranks=declared.moving_ranks, base=pegs)
    real = sorted(set(turn.hand), key=RANK_ORDER.__getitem__)
    for card in real:
        for a in declared.listing():
            if a.discard:
                continue
            b = Action(card, a.steps, False, a.card)
            legal.actions.append(b)
            if a in declared.changes:
                legal.changes[b] = declared.changes[a]
            else:
                legal.results[b] = declared.outcome(a)  # type: ignore[assignment]
        for alias, a in declared.aliases.items():
            legal.aliases[Action(card, alias.steps, False, alias.card)] = Action(
                card, a.steps, False, a.card)
    if not declared.moving_ranks - {"Joker"}:
        for card in real:
            action = Action(card, (), True)
            legal.actions.append(action)
            legal.results[action] = pegs
    return legal
