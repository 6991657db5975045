"""The powers that move one peg, found on integers: coming out, forward and back, the 2's
swap, the joker (every joker rule), and the 7 and 9 splits listed one by one.

:class:`Powers` holds a position as the listing reads it (the occupancy of the ring, the
seats the mover controls, the pegs that may move) and finds each power's moves as codes
(:mod:`pegs.rules.code_list`), written once: the whole turn (:mod:`pegs.rules.coded`)
lists them card by card, and a spelled action is checked against them
(:mod:`pegs.rules.spelling`).
"""

from __future__ import annotations

from typing import Final

from .actions import Action, Step
from .board import START, Geometry
from .board_work import (
    IN_HAND,
    WIDE,
    Pegs,
    WorkBoard,
    home_taken,
    moved,
    walk_back,
    walk_forward,
)
from .code_list import Listing, code_rank, move_back, move_code, move_from, move_seat, move_to
from .deferred import Deferred, Swaps
from .settings import RANKS
from .split_codes import SPLIT, listed_splits, split_steps
from .table import controls, table_of
from .walks import key_change, movable, moved_one

MOVE: Final = 0
DISCARD: Final = 1
#: North Carolina counting: a come-out made with any card, discarded (packed as a move).
COUNTED_OUT: Final = 2
DEFERRED: Final = 3
#: A Bluffing Joker declaration, numbered (:mod:`pegs.rules.declared`).
DECLARED: Final = 4
SWAP: Final = 5
#: A decision on a pending declaration, numbered (:mod:`pegs.rules.declared`).
DECISION: Final = 7

_new: Final = tuple.__new__


class Powers(Listing):
    """One position's one-peg powers as codes (see the module's docstring)."""

    __slots__ = ("_board", "_cache", "_seen", "_seen_rank", "_splits", "_team", "codes", "ctrl",
                 "deferred", "found", "geo", "mover", "occ", "other", "own_movable", "pegs",
                 "segments", "stuck_turns", "table")

    def __init__(self, geo: Geometry, pegs: Pegs, seat: int, stuck_turns: int) -> None:
        """``seat`` to move on ``pegs`` after ``stuck_turns`` turns without a move."""
        self.geo = geo
        self.stuck_turns = stuck_turns
        table = self.table = table_of(geo)
        self.pegs = pegs
        self.mover = seat
        ring = table.ring
        occ = table.no_pegs[0:ring]  # the seat of the peg in each ring hole, or -1
        for q in range(len(pegs)):
            for p in pegs[q]:
                if 0 <= p < ring:
                    occ[p] = q
        self.occ = occ
        self.ctrl = controls(table, pegs, seat)
        #: The movable pegs as (seat, position) pairs, flat.
        self.own_movable = movable(table, self.ctrl, pegs)
        self.codes: list[int] = []
        self.deferred = 0  # how many counted actions follow the listed ones
        #: The counted actions, card by card (the ``DEFERRED`` codes number them in order).
        self.segments: list[Deferred] = []
        #: A move other than coming out was found (North Carolina counting).
        self.other = False
        #: The ranks (by index in ``RANKS``) whose split was made.
        self.found = [False] * len(RANKS)
        self._board: WorkBoard | None = None
        #: Moves kept for the ranks that share them: coming out at 0, then 2n (+1 back).
        self._cache: list[list[int] | None] = [None] * 32
        #: The layout key changes (:meth:`WorkBoard.key_change`) of the moves onto team pegs
        #: (by their code with no rank), and, for the current rank, the codes listed by
        #: the key change of their layout (see :meth:`_new_layout`).
        self._team: dict[int, int] | None = None
        self._seen: dict[int, list[int]] | None = None
        self._seen_rank = -1
        #: The layouts of the splits listed one by one, by code.
        self._splits: dict[int, Pegs] | None = None

    # --- what was listed --------------------------------------------------------------
    def _counted(self, moves: Deferred) -> None:
        self.segments.append(moves)
        self.deferred += len(moves)

    def _seen_for(self, rank: int) -> dict[int, list[int]]:
        seen = self._seen
        if seen is None or self._seen_rank != rank:
            self._seen_rank = rank
            seen = self._seen = {}
        return seen

    def _new_layout(self, seen: dict[int, list[int]], key: int, code: int, add: bool) -> bool:
        """Does ``code`` lead to a layout no code listed in ``seen`` (codes by the key
        change of their layout, ``key`` the code's) leads to?  With ``add``, it is added."""
        same = seen.get(key)
        if same is not None:
            layout = self.result(code)
            for other in same:
                if self.result(other) == layout:
                    return False
        if add:
            if same is None:
                seen[key] = [code]
            else:
                same.append(code)
        return True

    def _work_board(self) -> WorkBoard:
        board = self._board
        if board is None:
            board = self._board = WorkBoard(self.geo, self.pegs, self.mover)
        return board

    def _add(self, rank: int, moves: list[int]) -> None:
        """List the rank's moves, but a move onto a team peg that leads to the layout of
        one listed before it with this rank (a chain of hits can)."""
        codes = self.codes
        team = self._team
        if team is None:  # no move onto a team peg
            for m in moves:
                codes.append(m + rank * 8)
            return
        seen = self._seen_for(rank)
        for m in moves:
            key = team.get(m)
            if key is not None and not self._new_layout(seen, key, m + rank * 8, True):
                continue
            codes.append(m + rank * 8)

    def _one(self, moves: list[int], seat: int, src: int, dst: int, back: bool) -> None:
        """Add the move if it is legal: a hit on a team peg may not be (the layout of a
        legal one is kept, to drop moves that repeat it)."""
        if dst < self.table.ring:
            victim = self.occ[dst]
            if victim != -1 and not self.geo.opponent[self.mover][victim]:
                board = self._work_board()
                ok = board.land(seat, src, dst)
                if ok:
                    if self._team is None:
                        self._team = {}
                    self._team[move_code(0, back, seat, src, dst)] = board.key_change()
                board.undo(0)
                if not ok:
                    return
        moves.append(move_code(0, back, seat, src, dst))

    # --- the powers -------------------------------------------------------------------
    def come_out(self) -> list[int]:
        """Coming out of start onto the out-hole, for each controlled seat (kept)."""
        moves = self._cache[0]
        if moves is None:
            moves = []
            out_hole = self.table.out_hole
            for q in self.ctrl:
                if START in self.pegs[q]:
                    out = out_hole[q]
                    if self.occ[out] != q:
                        self._one(moves, q, START, out, False)
            self._cache[0] = moves
        return moves

    def singles(self, n: int, back: bool) -> list[int]:
        """Every one-peg move of ``n`` holes forward or back (kept: ranks share them)."""
        key = 2 * n + int(back)
        if key < 32:
            moves = self._cache[key]
            if moves is not None:
                return moves
        moves = []
        mov = self.own_movable
        for i in range(0, len(mov), 2):
            self.walk(moves, mov[i], mov[i + 1], n, back)
        if key < 32:
            self._cache[key] = moves
        return moves

    def walk(self, moves: list[int], seat: int, p: int, n: int, back: bool) -> None:
        """Add the moves of the peg of ``seat`` at ``p`` going ``n`` back, or forward (into
        its home first when it may turn in at its door)."""
        table = self.table
        if back:
            d = walk_back(self.occ, table.ring, seat, p, n, table.pass_own, False)
            if d != IN_HAND:
                self._one(moves, seat, p, d, True)
            return
        ring, door = table.ring, table.door[seat]
        # its home holes matter to a walk that starts in home or reaches its door
        taken = home_taken(ring, self.pegs[seat]) if p >= ring or (door - p) % ring < n else 0
        found = walk_forward(self.occ, ring, table.homes, door, taken, seat, p, n,
                             table.pass_own, table.turn_in, False, False)
        while found:
            self._one(moves, seat, p, found % WIDE - 1, False)
            found //= WIDE

    def jumps(self) -> list[int]:
        """The joker's jumps onto any peg on the ring (RULES.md: from start or the ring),
        or under Pegoo's rule a team peg onto its door and an opponent's peg sent to
        start; with the come-outs when the joker comes out.  Sets :attr:`other` for a
        jump that is not a come-out (it stops North Carolina counting)."""
        table, occ, ring = self.table, self.occ, self.table.ring
        moves: list[int] = []
        if table.joker == 3:  # pegoo
            geo = self.geo
            for q in geo.team_seats[self.mover]:
                door = geo.door[q]
                for p in sorted(set(self.pegs[q])):
                    if p != door and p < ring and occ[door] != q:
                        self._one(moves, q, p, door, False)
            for hole in range(ring):
                v = occ[hole]
                if v != -1 and geo.opponent[self.mover][v]:
                    moves.append(move_code(0, False, v, hole, START))
        else:
            seats = self.ctrl
            if table.joker == 2:  # hit_start_first
                team = self.geo.team_seats[self.mover]
                with_start = tuple(q for q in team if START in self.pegs[q])
                seats = with_start or team
            targets = [h for h in range(ring) if occ[h] != -1]
            sources = [(q, p) for q in seats for p in sorted(set(self.pegs[q])) if p < ring]
            if table.joker == 2 and any(p == START for _, p in sources):
                sources = [(q, p) for q, p in sources if p == START]
            for q, p in sources:
                for h in targets:
                    if occ[h] != q:
                        self._one(moves, q, p, h, False)
            if any(move_from(m) != START for m in moves):
                self.other = True
        if table.joker_comes_out:  # a come-out onto a peg may be one of the moves above
            moves += [m for m in self.come_out() if m not in moves]
        return moves

    def swaps(self, rank: int) -> None:
        """The swaps of an own ring peg with a ring peg of another colour: the one onto a
        peg whose door is the own peg's hole is listed (unless a move onto a team peg led
        to its layout: a forward move onto that peg sends it there), the others counted
        (no two swaps lead to one layout)."""
        table, occ, pegs = self.table, self.occ, self.pegs
        ring, door = table.ring, table.door
        seen = self._seen if self._seen_rank == rank else None
        keys = self.geo.keys
        mov = self.own_movable
        flat: list[int] = []
        for i in range(0, len(mov), 2):
            q, p = mov[i], mov[i + 1]
            if p >= ring:
                continue
            for other in range(ring):
                v = occ[other]
                if v == -1 or v == q:
                    continue
                if door[v] == p:
                    code = move_code(rank, False, q, p, other) - MOVE + SWAP
                    if seen is None or self._new_layout(seen, key_change(keys, pegs, moved(
                            pegs, ((q, p, other), (v, other, p)))), code, False):
                        self.codes.append(code)
                    continue
                flat.append(q)
                flat.append(p)
                flat.append(other)
                flat.append(v)
        if flat:
            self._counted(Swaps(RANKS[rank], self.geo.names_for(self.mover), pegs, flat))

    def listed_splits(self, rank: int, total: int) -> bool:
        """The rank's splits one by one (:func:`listed_splits`); their layouts are kept
        for the rank's later moves onto team pegs to be dropped if they repeat one."""
        layouts = self._splits
        if layouts is None:
            layouts = self._splits = {}
        n = len(self.codes)
        found = listed_splits(self.table, self._work_board(), self.pegs, self.mover,
                              self.own_movable, rank, total, self.table.finish[rank],
                              self.codes, layouts)
        if len(self.codes) > n:
            seen = self._seen_for(rank)
            keys = self.geo.keys
            for i in range(n, len(self.codes)):
                code = self.codes[i]
                seen.setdefault(key_change(keys, self.pegs, layouts[code]), []).append(code)
        return found

    # --- actions and layouts ----------------------------------------------------------
    def action(self, code: int) -> Action:
        """The :class:`Action` a code of a one-peg power, a swap, a split or a discard names
        (see :meth:`pegs.rules.coded.Coded.action` for the others)."""
        kind = code & 7
        if kind == MOVE or kind == COUNTED_OUT:  # noqa: SIM109 (compiled: two compares)
            seat, src, dst = move_seat(code), move_from(code), move_to(code)
            names = self.geo.names_for(self.mover)[seat]
            hit = 0 <= dst < self.geo.ring_size and self.occ[dst] != -1 and self.occ[dst] != seat
            step = _new(Step, (names[src + 1], names[dst + 1], "<" if move_back(code) else ">",
                               hit))
            return _new(Action, (RANKS[code_rank(code)], (step,), kind == COUNTED_OUT, "", ""))
        if kind == DISCARD:
            return _new(Action, (RANKS[code_rank(code)], (), True, "", ""))
        if kind == SWAP:
            names = self.geo.names_for(self.mover)[move_seat(code)]
            step = _new(Step, (names[move_from(code) + 1], names[move_to(code) + 1], "~", False))
            return _new(Action, (RANKS[code_rank(code)], (step,), False, "", ""))
        if kind == SPLIT:
            table = self.geo.names_for(self.mover)
            steps = tuple([_new(Step, (table[q][a + 1], table[q][b + 1], ">" if fwd else "<",
                                       hit)) for q, a, b, fwd, hit in split_steps(code)])
            return _new(Action, (RANKS[code_rank(code)], steps, False, "", ""))
        raise ValueError(f"{code} is not a code of this listing")

    def result(self, code: int) -> Pegs:
        """The layout a code of a one-peg power, a swap, a split or a discard leads to
        (see :meth:`pegs.rules.coded.Coded.result` for the others)."""
        kind = code & 7
        if kind == MOVE or kind == COUNTED_OUT:  # noqa: SIM109 (compiled: two compares)
            seat = move_seat(code)
            src = move_from(code)
            dst = move_to(code)
            if dst == START or dst >= self.geo.ring_size or self.occ[dst] == -1:
                return moved_one(self.pegs, seat, src, dst)
            victim = self.occ[dst]
            if self.geo.opponent[self.mover][victim]:  # sent to start
                return moved(self.pegs, ((victim, dst, START), (seat, src, dst)))
            board = WorkBoard(self.geo, self.pegs, self.mover)
            board.land(seat, src, dst)
            return board.snapshot()
        if kind == DISCARD:
            return self.pegs
        if kind == SWAP:
            seat = move_seat(code)
            src = move_from(code)
            dst = move_to(code)
            return moved(self.pegs, ((seat, src, dst), (self.occ[dst], dst, src)))
        layouts = self._splits
        if layouts is None or code not in layouts:
            raise ValueError(f"{code} is not a code of this listing")
        return layouts[code]
