"""One peg's walk on a listing's occupancy (a native array of the seat in each ring
hole, -1 when free), as :mod:`pegs.rules.coded` and :mod:`pegs.rules.split_codes` read it:
the pegs that may move, a walk back, free home holes, a layout with one peg moved, and a
hand's ranks."""

from __future__ import annotations

from librt.vecs import vec
from mypy_extensions import i64

from .board import START
from .board_work import IN_HAND, Pegs
from .listing import RANK_ORDER
from .table import Table


def moved_one(pegs: Pegs, seat: int, src: int, dst: int) -> Pegs:
    """``pegs`` with one peg of ``seat`` moved from ``src`` to ``dst`` (no hit)."""
    lst = list(pegs[seat])
    for i in range(len(lst)):
        if lst[i] == src:
            lst[i] = dst
            break
    lst.sort()
    out = list(pegs)
    out[seat] = tuple(lst)
    return tuple(out)


def ranks_of(hand: tuple[str, ...]) -> list[int]:
    """The different ranks of a hand (indices in ``RANKS``), in order (a hand is kept
    sorted so)."""
    out: list[int] = []
    last = -1
    for card in hand:
        rank = RANK_ORDER[card]
        if rank < last:
            return sorted({RANK_ORDER[c] for c in hand})
        if rank > last:
            out.append(rank)
            last = rank
    return out


def movable(table: Table, seats: tuple[int, ...], pegs: Pegs) -> list[int]:
    """Seat and position of each peg of ``seats`` that may still move, in position order,
    two numbers a peg (as ``MoveFinder.movable``)."""
    ring, last = table.ring, table.ring + table.homes - 1
    out: list[int] = []
    for q in seats:
        ps = pegs[q]
        for p in ps:
            if p == START:
                continue
            if p >= ring:
                above = 0
                for h in ps:
                    if h > p:
                        above += 1
                if above == last - p:
                    continue
            out.append(q)
            out.append(p)
    return out


def home_clear(ring: int, ps: tuple[int, ...], first: int, last: int) -> bool:
    """Are home holes ``first`` to ``last`` (counted from 1) free of the pegs ``ps``?"""
    return not any(p >= ring and first <= p - ring + 1 <= last for p in ps)


def backward(table: Table, occ: vec[i64], seat: int, p: int, n: int) -> int:
    """The destination of a ring peg moving ``n`` back, or ``IN_HAND`` when blocked."""
    ring = table.ring
    if not 0 <= p < ring:
        return IN_HAND
    pass_own = table.pass_own
    cur = p
    for i in range(n):
        cur -= 1
        if cur < 0:
            cur = ring - 1
        if i < n - 1 and occ[cur] == seat and not pass_own:
            return IN_HAND
    if occ[cur] == seat:
        return IN_HAND
    return cur


def key_change(keys: tuple[tuple[int, ...], ...], base: Pegs, layout: Pegs) -> int:
    """How much the layout's key (``keys[q][pos + 1]`` summed over the pegs, as
    :attr:`Geometry.keys`) changes from ``base`` to ``layout``."""
    delta = 0
    for q in range(len(base)):
        now, before = layout[q], base[q]
        if now is not before and now != before:
            row = keys[q]
            for p in now:
                delta += row[p + 1]
            for p in before:
                delta -= row[p + 1]
    return delta
