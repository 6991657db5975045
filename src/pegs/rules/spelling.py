"""Another spelling of a listed action, checked on the board: a split written in the other
order, or a move whose layout a listed move of the same card reaches first.

An action's steps are read as numbers and made on the scratch board with the card's
powers as the listing has them (:mod:`pegs.rules.powers`, :mod:`pegs.rules.coded`): the
same walks, so a spelling is accepted exactly when the listing could have made it.  Its
layout then names the listed action (:func:`listed_action`).  Nothing is listed anew: an
illegal action is refused at the cost of its own steps.
"""

from __future__ import annotations

from .actions import Action, Step
from .board import START
from .board_work import IN_HAND, Pegs, WorkBoard, moved
from .code_list import code_rank, move_from, move_seat, move_to
from .counted import CountedSplits
from .deferred import Swaps
from .powers import MOVE, SWAP, Powers
from .settings import RANKS
from .split_codes import SPLIT
from .table import Table, controls
from .walks import movable, peg_named


def spelled(coded: Powers, rank: int, steps: tuple[Step, ...], exact: bool = True
            ) -> Pegs | None:
    """The layout that ``steps`` lead to if they are a move of the card of rank index
    ``rank`` here (listed, or another spelling of a listed one), else None.  Without
    ``exact`` the steps' hit marks are not compared."""
    if len(steps) == 1:
        return _one_peg(coded, rank, steps[0], exact)
    plan = coded.table.plans[rank]
    if len(steps) == 2 and plan.split and all(s.op in "<>" for s in steps):
        return _split(coded, rank, plan.split, steps, exact)
    return None


def listed_action(coded: Powers, card: str, layout: Pegs) -> Action | None:
    """The listed action of ``card`` (not a discard) that leads to ``layout``."""
    rank = RANKS.index(card)
    for code in coded.codes:
        kind = code & 7
        if (kind in (MOVE, SWAP, SPLIT) and code_rank(code) == rank
                and coded.result(code) == layout):
            return coded.action(code)
    for moves in coded.segments:
        if moves.played() != card:
            continue
        if isinstance(moves, CountedSplits):
            listed = moves.listed
            for n in range(len(listed)):
                if listed.layout(n) == layout:
                    return moves.spell(n)
            picks = moves.picks_to(layout)
            if picks:
                return moves.action(picks[0])
        elif isinstance(moves, Swaps):
            for n in range(len(moves)):
                if moves.layout_at(n) == layout:
                    return moves.nth(n)
    return None


def _peg(coded: Powers, name: str) -> tuple[int, int] | None:
    """(seat, position) of the peg a step's source names on the unchanged board."""
    return peg_named(coded.geo, coded.occ, coded.mover, name)


def _place(coded: Powers, seat: int, name: str) -> int | None:
    """The position a step of a peg of ``seat`` names as its destination, if spelled as
    the listing would (``START`` -1 included)."""
    geo = coded.geo
    try:
        pos = geo.parse(name.partition("@")[0])
    except ValueError:
        return None
    return pos if geo.names_for(coded.mover)[seat][pos + 1] == name else None


def _movable(pairs: list[int], seat: int, pos: int) -> bool:
    return any(pairs[i] == seat and pairs[i + 1] == pos for i in range(0, len(pairs), 2))


def _one_peg(coded: Powers, rank: int, step: Step, exact: bool) -> Pegs | None:
    """The layout of a one-peg move or swap of the rank, if ``step`` is one."""
    peg = _peg(coded, step.src)
    if peg is None:
        return None
    q, p = peg
    d = _place(coded, q, step.dst)
    if d is None:
        return None
    table = coded.table
    plan = table.plans[rank]
    others = not (plan.must_split and coded.found[rank])  # an obligatory split was made
    occ, ring = coded.occ, table.ring
    own = _movable(coded.own_movable, q, p)
    if step.op == "~":
        if not (others and plan.swap and own and p < ring and 0 <= d < ring
                and occ[d] not in (-1, q)) or (exact and step.hit):
            return None
        return moved(coded.pegs, ((q, p, d), (occ[d], d, p)))
    if exact and step.hit != (0 <= d < ring and occ[d] != -1 and occ[d] != q):
        return None
    moves: list[int] = []
    back = step.op == "<"
    if others and own:
        for n in plan.backward if back else plan.forward:
            coded.walk(moves, q, p, n, back)
    if not back:
        out = plan.out and not (plan.joker and table.joker_comes_out)
        stuck = (table.stuck_out and coded.stuck_turns >= table.stuck_out and not plan.out
                 and not (plan.joker and table.joker_comes_out))
        if plan.joker and others:
            moves += coded.jumps()
        if (out and others) or stuck:
            moves += coded.come_out()
    for m in moves:
        if move_seat(m) == q and move_from(m) == p and move_to(m) == d:
            return coded.result(m)
    return None


def _targets(table: Table, board: WorkBoard, seat: int, p: int, n: int, forward: bool,
             ten: bool, ring_only: bool) -> list[int]:
    """Where a part of ``n`` of the peg of ``seat`` at ``p`` may land on ``board``: a 7's or
    9's walk, or a ten's (passing and landing on its own colour)."""
    if forward:
        if ten:
            return board.forward(seat, p, n, True, False, ring_only=ring_only, hit_own=True)
        return board.forward(seat, p, n, table.pass_own, table.turn_in)
    d = board.backward(seat, p, n, True, hit_own=True) if ten else board.backward(
        seat, p, n, table.pass_own)
    return [] if d == IN_HAND else [d]


def _split_pegs(coded: Powers, ten: bool) -> list[tuple[int, int, bool]]:
    """The pegs that may make a part: for a ten any ring peg and the home pegs of the
    mover's team that can still move (the others' only on the ring); else the movable
    pegs."""
    geo = coded.geo
    if not ten:
        mov = coded.own_movable
        return [(mov[i], mov[i + 1], False) for i in range(0, len(mov), 2)]
    team = geo.team_seats[coded.mover]
    every = movable(coded.table, tuple(range(geo.players)), coded.pegs)
    return [(every[i], every[i + 1], every[i] not in team) for i in range(0, len(every), 2)
            if every[i + 1] < geo.ring_size or every[i] in team]


def _split(coded: Powers, rank: int, total: int, steps: tuple[Step, ...], exact: bool
           ) -> Pegs | None:
    """The layout of a split of ``total`` (a ten: two colours, any directions; a 7 both
    forward; a 9 one each way), if ``steps`` are one, made part by part on the board."""
    first, second = steps
    f1, f2 = first.op == ">", second.op == ">"
    ten = total == 10
    if (total == 7 and not (f1 and f2)) or (total == 9 and f1 == f2):
        return None
    table = coded.table
    board = coded._work_board()
    ring = table.ring
    peg = _peg(coded, first.src)
    pegs = _split_pegs(coded, ten)
    if peg is None:
        return None
    qa, pa = peg
    only = [o for q, p, o in pegs if q == qa and p == pa]
    d1 = _place(coded, qa, first.dst)
    if not only or d1 is None:
        return None
    k = 1
    while k < total and d1 not in _targets(table, board, qa, pa, k, f1, ten, only[0]):
        k += 1
    if k == total:
        return None
    occupant = board.occ[d1] if 0 <= d1 < ring else -1
    if exact and first.hit != (occupant != -1 and (ten or occupant != qa)):
        return None
    mark = board.mark()
    layout = None
    if board.land(qa, pa, d1):
        seconds = pegs
        if not ten and table.finish[rank] and d1 >= ring and qa == coded.mover:
            now = board.snapshot()
            if now[coded.mover] == table.geo.all_home:
                after = movable(table, controls(table, now, coded.mover), now)
                seconds = [(after[i], after[i + 1], False) for i in range(0, len(after), 2)]
        layout = _second(coded, board, mark, (qa, pa), seconds, total - k, second, f2, ten,
                         exact)
    board.undo(mark)
    return layout


def _second(coded: Powers, board: WorkBoard, mark: int, first: tuple[int, int],
            pegs: list[tuple[int, int, bool]], n: int, step: Step, forward: bool, ten: bool,
            exact: bool) -> Pegs | None:
    """The layout once the second part (``n`` holes, ``step``) is made on ``board`` after
    the first part (of the peg at ``first``, made since ``mark``), if it is one."""
    ring = coded.table.ring
    for qb, pb, only in pegs:
        if (qb, pb) == first or (ten and qb == first[0]):
            continue
        now = board.where(qb, pb, mark)
        if now == START or (ten and now >= ring and not forward):
            continue
        if coded.geo.names_for(coded.mover)[qb][now + 1] != step.src:
            continue
        d2 = _place(coded, qb, step.dst)
        if d2 is None or d2 not in _targets(coded.table, board, qb, now, n, forward, ten, only):
            return None
        occupant = board.occ[d2] if 0 <= d2 < ring else -1
        if exact and step.hit != (occupant != -1 and (ten or occupant != qb)):
            return None
        inner = board.mark()
        layout = board.snapshot() if board.land(qb, now, d2) else None
        board.undo(inner)
        return layout
    return None
