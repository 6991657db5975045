"""The 7 and 9 splits that are listed one by one, found on integers (RULES.md section 2).

The listing counts a card's splits from two movable pegs
(:meth:`~pegs.rules.split_count.SplitCounter.count_splits`), but for a split that may
finish with a partner's peg while the seat has one peg on the ring: then every split is
tried in turn on the scratch board and each new layout listed, in the order the counting
keeps: a split is one :data:`SPLIT` code packing its two steps (seat, from, to, forward,
hit), and its layout is kept for when it is played.
"""

from __future__ import annotations

from typing import Final

from .board import START
from .board_work import IN_HAND, Pegs, WorkBoard, index_of, moved
from .table import Table, controls
from .walks import movable

#: The code kind of a listed split (see :mod:`pegs.rules.coded`).
SPLIT: Final = 6
#: A step as numbers: (seat, from, to, forward, hit).
Numbers = tuple[int, int, int, bool, bool]


def _step_bits(seat: int, src: int, dst: int, forward: bool, hit: bool) -> int:
    return (((seat * 512 + src + 1) * 512 + dst + 1) * 2 + int(forward)) * 2 + int(hit)


def split_code(rank: int, first: Numbers, second: Numbers) -> int:
    """The code of a split of the card of rank index ``rank`` making these two steps."""
    bits = _step_bits(*first) << 24 | _step_bits(*second)
    return (bits * 16 + rank) * 8 + SPLIT


def split_steps(code: int) -> tuple[Numbers, Numbers]:
    """The two steps of a :func:`split_code`."""
    out = []
    for bits in (code >> 31, code >> 7 & (1 << 24) - 1):
        hit, forward = bits & 1, bits >> 1 & 1
        dst = (bits >> 2 & 511) - 1
        src = (bits >> 11 & 511) - 1
        out.append((bits >> 20, src, dst, forward == 1, hit == 1))
    return out[0], out[1]


def _targets(table: Table, board: WorkBoard, seat: int, p: int, n: int, forward: bool
             ) -> list[int]:
    if forward:
        return board.forward(seat, p, n, table.pass_own, table.turn_in)
    d = board.backward(seat, p, n, table.pass_own)
    return [] if d == IN_HAND else [d]


def _hit(table: Table, board: WorkBoard, seat: int, dst: int) -> bool:
    """Is landing on ``dst`` a hit (another colour's peg there)?"""
    if not 0 <= dst < table.ring:
        return False
    occupant = board.occ[dst]
    return occupant != -1 and occupant != seat


def listed_splits(table: Table, board: WorkBoard, base: Pegs, mover: int, pegs: list[int],
                  rank: int, total: int, finish: bool, codes: list[int],
                  layouts: dict[int, Pegs]) -> bool:
    """Add to ``codes`` every split of ``total`` with a new layout (kept in ``layouts``),
    the pegs ``pegs`` (two numbers a peg) making the parts; True if a split was legal.
    ``board`` is the unchanged board, and is left so."""
    ring, occ = table.ring, board.occ
    found = False
    seen: set[Pegs] = set()
    directions = [(True, True)] if total == 7 else [(True, False), (False, True)]
    for turn_no in range(len(directions)):
        first_fwd, second_fwd = directions[turn_no]
        for i in range(0, len(pegs), 2):
            a_seat, a = pegs[i], pegs[i + 1]
            for k in range(1, total):
                for d1 in _targets(table, board, a_seat, a, k, first_fwd):
                    hit1 = 0 <= d1 < ring and occ[d1] != -1
                    st1 = (a_seat, a, d1, first_fwd, hit1 and occ[d1] != a_seat)
                    m1 = board.mark()
                    lst = board.pos[a_seat]
                    slot = -1
                    if hit1:
                        if not board.land(a_seat, a, d1):
                            board.undo(m1)
                            continue
                    else:  # a plain move: change the board directly, restore below
                        slot = index_of(lst, a)
                        lst[slot] = d1
                        if a < ring:
                            occ[a] = -1
                        if d1 < ring:
                            occ[d1] = a_seat
                    second = pegs
                    if finish and d1 >= ring and a_seat == mover:
                        now = board.snapshot() if hit1 else moved(base, ((a_seat, a, d1),))
                        if now[mover] == table.geo.all_home:
                            second = movable(table, controls(table, now, mover), now)
                    for j in range(0, len(second), 2):
                        b_seat, b = second[j], second[j + 1]
                        if b_seat == a_seat and b == a:
                            continue
                        b_now = board.where(b_seat, b, m1) if hit1 else b
                        if b_now == START:
                            continue
                        for d2 in _targets(table, board, b_seat, b_now, total - k, second_fwd):
                            if not hit1 and (d2 >= ring or occ[d2] == -1):
                                found = True  # (the other order of two pegs that
                                # never meet is dropped as a repeat: the generator skips it)
                                result = moved(base, ((a_seat, a, d1), (b_seat, b, d2)))
                                _keep(codes, layouts, seen, result, split_code(
                                    rank, st1, (b_seat, b, d2, second_fwd, False)))
                                continue
                            st2 = (b_seat, b_now, d2, second_fwd,
                                   _hit(table, board, b_seat, d2))
                            m2 = board.mark()
                            if board.land(b_seat, b_now, d2):
                                found = True
                                # a plain first part moved its peg by hand
                                result = board.snapshot(-1 if hit1 else a_seat)
                                _keep(codes, layouts, seen, result, split_code(rank, st1, st2))
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


def _keep(codes: list[int], layouts: dict[int, Pegs], seen: set[Pegs], result: Pegs,
          code: int) -> None:
    """List a split unless one listed before leads to its layout."""
    if result not in seen:
        seen.add(result)
        codes.append(code)
        layouts[code] = result
