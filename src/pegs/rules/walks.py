"""What the listing reads of a layout besides the walks (:mod:`pegs.rules.board_work`): the
pegs that may move, the peg a step names (on an occupancy: a native array of the seat in
each ring hole, -1 when free), the change of a layout's key, a layout with one peg moved,
and a hand's ranks."""

from __future__ import annotations

from librt.vecs import vec
from mypy_extensions import i64

from .board import START, Geometry
from .board_work import Pegs
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


def peg_named(geo: Geometry, occ: vec[i64], mover: int, name: str) -> tuple[int, int] | None:
    """(seat, position) of the peg a step of ``mover`` names as its source on the ring
    whose holes ``occ`` holds, if there is one and the name is spelled as the listing
    spells it (``S``, ``H3`` for the mover's own, ``S@2``, ``H3@2`` for another seat's)."""
    text, _, owner = name.partition("@")
    try:
        pos = geo.parse(text)
    except ValueError:
        return None
    if 0 <= pos < geo.ring_size:
        seat = occ[pos]
    elif not owner:
        seat = mover
    elif owner.isdigit() and int(owner) < geo.players:
        seat = int(owner)
    else:
        return None
    if seat < 0 or geo.names_for(mover)[seat][pos + 1] != name:
        return None
    return seat, pos
