"""The arithmetic of split parts that :class:`~pegs.rules.counted.CountedSplits` counts
on: which two parts interact, the codes of picks and groups of splits, a part's net change
of the board, and the parts' keys in native arrays.  No rules here: the counting trick."""

from __future__ import annotations

from typing import Final

from librt.vecs import append, vec
from mypy_extensions import i64

from .board_work import Change, has, index_of
from .part import Part

#: A group of splits: (first peg, second peg, first part's size, first forward, second forward)
#: with the first peg listed before the second.
Group = tuple[int, int, int, bool, bool]
#: One split of the counted set: (first peg, part size, part index, second peg, part index).
Pick = tuple[int, int, int, int, int]
#: Peg and part indexes in :func:`pick_code` are below this (at most 60 pegs, and a peg
#: has a few parts of one size).
SLOTS: Final = 64
#: A board change per seat: (seat, holes left, holes taken).
Net = tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]


def on_way(h: i64, p: i64, walk: i64, lo: i64, hi: i64, ring: i64) -> bool:
    """Is position ``h`` a hole on the way of a peg at ``p`` that walks ``walk`` ring holes
    (forward if above zero, backward if below) and the home holes ``lo`` to ``hi`` (not
    included)?  Start and the hand are on no way.  (Machine integers: compiled, the
    remainders are a few instructions.)"""
    if h < 0:
        return False
    if h >= ring:
        return lo <= h < hi
    if walk > 0:
        return 0 < (h - p) % ring <= walk
    return walk < 0 and 0 < (p - h) % ring <= -walk


def numbered(rows: list[list[Part]]) -> list[list[Part]]:
    """The legal parts of each row (one peg's parts of one size), numbered by their index
    in the result's row.  A row whose parts are all legal is itself the result's row."""
    return [row if all(x.legal for x in row) else [x for x in row if x.legal] for row in rows]


def pick_code(pick: Pick) -> i64:
    """A split as one integer, as :attr:`CountedSplits.skip` holds it."""
    i, k, a, j, b = pick
    return (((i * 10 + k) * SLOTS + a) * SLOTS + j) * SLOTS + b


def group_order(group: Group) -> tuple[int, int, int, bool, bool]:
    """Where the full enumeration of a ten meets a group (pegs, size, forward first)."""
    i, j, k, fx, fy = group
    return i, j, k, not fx, not fy


def group_code(i: i64, j: i64, k: i64, fx: bool, fy: bool) -> i64:
    """A group as one integer, as :attr:`CountedSplits.eager` holds it."""
    return (((i * SLOTS + j) * 10 + k) * 2 + int(fx)) * 2 + int(fy)


def group_of(code: i64) -> Group:
    """The group of a :func:`group_code`."""
    return (int(code // (40 * SLOTS)), int(code // 40 % SLOTS), int(code // 4 % 10),
            code // 2 % 2 == 1, code % 2 == 1)


def net_change(changes: tuple[Change, ...]) -> Net:
    """The board change of some peg moves, per seat: (seat, holes left, holes taken),
    with a hole left and taken again by the same colour cancelled out."""
    seats: list[int] = []
    for q, _, _ in changes:
        if not has(seats, q):
            seats.append(q)
    seats.sort()
    out = []
    for q in seats:
        gone: list[int] = []
        came: list[int] = []
        for c, a, b in changes:
            if c == q:
                gone.append(a)
                came.append(b)
        n = 0
        while n < len(gone):
            if has(came, gone[n]):
                came.pop(index_of(came, gone[n]))
                gone.pop(n)
            else:
                n += 1
        if gone or came:
            gone.sort()
            came.sort()
            out.append((q, tuple(gone), tuple(came)))
    return tuple(out)


def interact(x: Part, px: int, y: Part, py: int) -> bool:
    """Can these two parts (of the pegs at ``px`` and ``py``) affect each other: one lands
    where the other lands, starts or sends a peg, or both send pegs to one door?"""
    if x.dst == y.dst or x.dst == py or y.dst == px:
        return True
    xd, yd = x.doors, y.doors
    if xd:
        for h in xd:
            if h == y.dst or h == py or holds(yd, h):
                return True
    return bool(yd) and (holds(yd, x.dst) or holds(yd, px))


def holds(holes: tuple[int, ...], h: int) -> bool:
    """``h in holes`` compared as machine integers (compiled ``in`` on a tuple compares
    generically, several times slower)."""
    return any(other == h for other in holes)


def key_shared(rows: list[list[Part]], part: Part) -> bool:
    """Does another of the parts in ``rows`` change the layout's key as ``part`` does?"""
    for row in rows:
        for other in row:
            if other.key == part.key and other is not part:
                return True
    return False


def plain_to(rows: list[list[Part]], dst: int) -> tuple[int, int] | None:
    """(size, index) of the part in ``rows`` that lands on ``dst`` hitting nothing."""
    for k, row in enumerate(rows):
        for a, part in enumerate(row):
            if part.dst == dst and not part.hit:
                return k, a
    return None


def flat_keys(rows: list[list[list[Part]]], total: int) -> tuple[vec[i64], vec[i64]]:
    """The key changes of the parts ``rows[i][k]`` in a native array, row by row (peg,
    then size 0 to 9), and where each row starts: ``rows[i][k]``'s from ``at[i * 10 + k]``
    to ``at[i * 10 + k + 1]``."""
    at = vec[i64](capacity=10 * len(rows) + 1)
    keys = vec[i64]()
    for peg in rows:
        for k in range(10):
            at = append(at, len(keys))
            if 0 < k < total:
                for part in peg[k]:
                    keys = append(keys, part.key)
    return keys, append(at, len(keys))
