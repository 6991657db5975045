"""A mutable scratch board for the listing: peg moves with hits and an undo log, and the
walks forward and back.

The listing tries a move, reads the resulting layout, and undoes it, so no board is ever
copied; the game state stays immutable.
"""

from __future__ import annotations

from typing import Final

from librt.vecs import append, pop, vec
from mypy_extensions import i64

from .board import START, Geometry

#: A peg lifted off the board while the hits of its move are resolved.
IN_HAND: Final = -2
#: Positions (start and the hand below zero, shifted up by 2) fit in this many values.
WIDE: Final = 1024

Pegs = tuple[tuple[int, ...], ...]
#: One peg moved: (seat, from, to).
Change = tuple[int, int, int]


def change_code(seat: i64, src: i64, dst: i64) -> i64:
    """One peg move as an integer (see :func:`change_of`)."""
    return (seat * WIDE + src + 2) * WIDE + dst + 2


def change_of(code: i64) -> tuple[i64, i64, i64]:
    """(seat, from, to) of a :func:`change_code`."""
    return code // (WIDE * WIDE), code // WIDE % WIDE - 2, code % WIDE - 2


def index_of(lst: list[int], value: int) -> int:
    """``lst.index(value)`` compared as machine integers (compiled, several times faster
    than the generic comparison ``list.index`` makes)."""
    for n in range(len(lst)):
        if lst[n] == value:
            return n
    raise ValueError(f"{value} is not in the list")


def has(lst: list[int], value: int) -> bool:
    """``value in lst`` compared as machine integers (see :func:`index_of`)."""
    return any(item == value for item in lst)


def moved(pegs: Pegs, changes: tuple[Change, ...]) -> Pegs:
    """``pegs`` with some pegs moved, in order (a peg sent back to start included)."""
    out = list(pegs)
    for q, a, b in changes:
        lst = list(out[q])
        lst[index_of(lst, a)] = b
        lst.sort()
        out[q] = tuple(lst)
    return tuple(out)


def home_taken(ring: int, pegs: list[int] | tuple[int, ...]) -> int:
    """The home holes a seat's pegs hold, as bits (bit k for home hole k, from 1)."""
    taken = 0
    for p in pegs:
        if p >= ring:
            taken |= 1 << (p - ring + 1)
    return taken


def walk_forward(occ: vec[i64], ring: i64, homes: i64, door: i64, taken: i64, seat: i64,
                 p: i64, n: i64, pass_own: bool, turn_in: bool, ring_only: bool,
                 hit_own: bool) -> i64:
    """Destinations of the peg of colour ``seat`` at ``p`` moving forward ``n`` on the ring
    whose holes ``occ`` holds, its door ``door`` and its home holes ``taken``
    (:func:`home_taken`), packed in one number (no list to make: read them with
    :func:`destinations`, or ``d = found % WIDE - 1; found //= WIDE`` while ``found``).
    Two destinations when the move can branch at the peg's door, into home first:
    ``turn_in`` forces the branch; ``ring_only`` forbids it; ``hit_own`` lets the peg pass
    and land on its own colour on the ring (North Carolina ten)."""
    if p >= ring:
        t = p - ring + 1 + n
        if t <= homes and taken & ((1 << (t + 1)) - (1 << (p - ring + 2))) == 0:
            return ring + t
        return 0
    found: i64 = 0
    cur = p
    last = n - 1
    for i in range(n):
        if cur == door and not ring_only:
            m = n - i
            if m <= homes and taken & ((1 << (m + 1)) - 2) == 0:
                found = ring + m
            if turn_in:
                return found
        cur += 1
        if cur == ring:
            cur = 0
        if i < last and occ[cur] == seat and not (pass_own or hit_own):
            return found
    if occ[cur] != seat or hit_own:
        return found + (cur + 1) * WIDE if found else cur + 1
    return found


def destinations(found: i64) -> list[int]:
    """The destinations :func:`walk_forward` packed, in order."""
    out: list[int] = []
    while found:
        out.append(found % WIDE - 1)
        found //= WIDE
    return out


def walk_back(occ: vec[i64], ring: int, seat: int, p: int, n: int, pass_own: bool,
              hit_own: bool) -> int:
    """Where the peg of ``seat`` at ``p`` lands walking ``n`` back on the ring whose holes
    ``occ`` holds (the seat in each, -1 when free), or ``IN_HAND`` when it may not: it
    is not on the ring, or its own colour stops it (but with ``pass_own`` on the way, and
    with ``hit_own`` anywhere: a North Carolina ten's part)."""
    if not 0 <= p < ring:
        return IN_HAND
    cur = p
    for i in range(n):
        cur -= 1
        if cur < 0:
            cur = ring - 1
        if i < n - 1 and occ[cur] == seat and not (pass_own or hit_own):
            return IN_HAND
    if occ[cur] == seat and not hit_own:
        return IN_HAND
    return cur


class WorkBoard:
    """Pegs per seat and ring occupancy, changed by :meth:`land` and restored by :meth:`undo`."""

    __slots__ = ("base", "door", "geo", "home_holes", "log", "mover", "occ", "opponent", "pos",
                 "ring")

    def __init__(self, geo: Geometry, pegs: Pegs, mover: int) -> None:
        self.geo = geo
        self.base = pegs
        self.ring = geo.ring_size
        self.home_holes = geo.home_holes
        self.door = geo.door
        self.mover = mover
        self.opponent = geo.opponent[mover]
        ring = self.ring
        occ = geo.no_pegs[0:ring]  # the seat of the peg in each ring hole, or -1
        for seat, ps in enumerate(pegs):
            for p in ps:
                if 0 <= p < ring:
                    occ[p] = seat
        self.occ = occ
        self.pos = [list(ps) for ps in pegs]
        #: The peg moves made since the unchanged board, as :func:`change_code` makes them.
        self.log = vec[i64]()

    # --- reading -------------------------------------------------------------------------
    def snapshot(self, also: int = -1) -> Pegs:
        """The current layout, sharing the unchanged seats' tuples with the base layout
        (but for the seats moved since, and ``also``, whose pegs were moved by hand)."""
        log = self.log
        if len(log) == 0 and also < 0:
            return self.base
        out = list(self.base)
        done = 0 if also < 0 else 1 << also  # the seats to copy, as a bit set
        for n in range(len(log)):
            done |= 1 << (log[n] // (WIDE * WIDE))
        for q in range(len(out)):
            if done >> q & 1:
                out[q] = tuple(sorted(self.pos[q]))
        return tuple(out)

    def key_change(self) -> i64:
        """How much the moves since the unchanged board change the layout's key
        (:attr:`Geometry.flat_keys`: a peg lifted and put down again cancels out)."""
        keys = self.geo.flat_keys
        width: i64 = len(self.geo.keys[0])
        log = self.log
        delta: i64 = 0
        for n in range(len(log)):
            code = log[n]
            row = code // (WIDE * WIDE) * width
            new = code % WIDE - 1  # the position + 1; the hand's (-1) is the row's last
            old = code // WIDE % WIDE - 1
            delta += (keys[row + (new if new >= 0 else width - 1)]
                      - keys[row + (old if old >= 0 else width - 1)])
        return delta

    def where(self, seat: int, old: int, since: int) -> int:
        """Where the peg of ``seat`` that stood on ``old`` is now (following log entries)."""
        log = self.log
        at: i64 = old
        for i in range(since, len(log)):
            if log[i] // WIDE == seat * WIDE + at + 2:
                at = log[i] % WIDE - 2
        return at

    def forward(self, seat: int, p: int, n: int, pass_own: bool, turn_in: bool,
                ring_only: bool = False, hit_own: bool = False) -> list[int]:
        """Destinations of the peg of colour ``seat`` at ``p`` moving forward ``n`` (see
        :func:`walk_forward`)."""
        return destinations(walk_forward(self.occ, self.ring, self.home_holes, self.door[seat],
                                         home_taken(self.ring, self.pos[seat]), seat, p, n,
                                         pass_own, turn_in, ring_only, hit_own))

    def backward(self, seat: int, p: int, n: int, pass_own: bool, hit_own: bool = False) -> int:
        """The destination of a ring peg moving backward ``n``, or ``IN_HAND`` if blocked."""
        return walk_back(self.occ, self.ring, seat, p, n, pass_own, hit_own)

    # --- changing --------------------------------------------------------------------------
    def _move(self, seat: int, old: int, new: int) -> None:
        lst = self.pos[seat]
        lst[index_of(lst, old)] = new
        ring = self.ring
        if 0 <= old < ring:
            self.occ[old] = -1
        if 0 <= new < ring:
            self.occ[new] = seat
        self.log = append(self.log, change_code(seat, old, new))

    def land(self, seat: int, src: int, dst: int) -> bool:
        """Move a peg of colour ``seat`` from ``src`` to ``dst`` (any distance), resolving hits.

        Returns False when the move is illegal because of a hit (a team peg whose door
        holds its own colour); the caller then undoes to its mark.
        """
        victim = self.occ[dst] if 0 <= dst < self.ring else -1
        if victim == -1:  # nobody there: one step
            self._move(seat, src, dst)
            return True
        self._move(seat, src, IN_HAND)  # lifted, so that a chain of hits may use its hole
        if not self._bump(victim, dst, 0):
            return False
        self._move(seat, IN_HAND, dst)
        return True

    def _bump(self, victim: int, at: int, depth: int) -> bool:
        """The peg of colour ``victim`` at ``at`` was landed on: send it where the mover's
        side of the table sends it (opponent: start; own team: its door, chain-hitting)."""
        if self.opponent[victim]:
            self._move(victim, at, START)
            return True
        d = self.door[victim]
        if d == at:
            return False
        other = self.occ[d]
        if other == victim:
            return False
        if other != -1 and (depth > len(self.pos) or not self._bump(other, d, depth + 1)):
            return False
        self._move(victim, at, d)
        return True

    def swap(self, a_seat: int, a: int, b_seat: int, b: int) -> None:
        """Exchange two ring pegs of different colours (no hits)."""
        self._move(a_seat, a, IN_HAND)
        self._move(b_seat, b, a)
        self._move(a_seat, IN_HAND, b)

    def mark(self) -> int:
        return len(self.log)

    def undo(self, mark: int) -> None:
        """Restore the board to what it was when ``mark()`` returned ``mark``."""
        log, pos, occ = self.log, self.pos, self.occ
        ring: i64 = self.ring
        while len(log) > mark:
            log, code = pop(log)
            seat, old, new = change_of(code)
            lst = pos[seat]
            lst[index_of(lst, new)] = old
            if 0 <= new < ring:
                occ[new] = -1
            if 0 <= old < ring:
                occ[old] = seat
        self.log = log
