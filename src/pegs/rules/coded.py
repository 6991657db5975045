"""The legal actions of a turn as integer codes, with the one-peg powers found on integers.

A code is an ``int`` naming one legal action of its position.  Its low three bits are its
kind:

- :data:`MOVE`: one peg moved by a one-peg power (coming out, forward, back, the joker):
  the card's rank, forward or back, and the peg's seat, from and to (:func:`move_code`);
- :data:`SWAP`: a 2's swap listed with the moves (the own peg onto a peg whose door it
  stands on), packed as a move;
- :data:`SPLIT`: a 7 or 9 split listed one by one (one peg on the ring, finishing with a
  partner's peg: :mod:`pegs.rules.split_codes`), its two steps packed;
- :data:`DISCARD`: a card discarded without a move (its rank);
- :data:`DEFERRED`: the ``n``-th counted action of the turn (``Coded.segments``, card by
  card: the 7 and 9 splits, the tens, the other swaps), whose layout is computed from
  ``n`` when it is played;
- :data:`BUILT`: the ``n``-th action the general generator (:mod:`pegs.rules.legal`)
  built for the cards it handled (the ten, Pegoo's joker, any split under a search's
  memo);
- :data:`LISTED`: the ``n``-th action of a listing made wholly by the general generator
  (a Bluffing Joker turn or declaration, North Carolina counting).

:class:`Coded` lists a turn in exactly the order of the general generator: each card of the
hand in rank order, its built moves, then the discards, then the counted moves card by
card.  The powers of one peg, the swaps and the splits listed one by one are found on
integers (no :class:`Action`, no hashing of tuples); the counted 7 and 9 splits are the
generator's :meth:`~pegs.rules.splits.SplitFinder.count_splits` alone; the generator lists
the other cards (the ten, Pegoo's joker) whole.  An :class:`Action` is made from a code
only when asked (:meth:`Coded.action`), and the layout a code leads to is computed when it
is played (:meth:`Coded.result`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .actions import Action, Step
from .board import START, Geometry
from .board_work import IN_HAND, Pegs, WorkBoard, moved
from .code_list import (
    CodedActions,
    code_number,
    code_rank,
    index_code,
    move_back,
    move_code,
    move_from,
    move_seat,
    move_to,
)
from .deferred import Deferred, Swaps
from .legal import RANK_ORDER, Legal, MoveMemo, Turn, _Generator
from .listing import CardPlan
from .settings import RANKS
from .split_codes import SPLIT, listed_splits, split_steps
from .table import controls, table_of
from .walks import backward, home_clear, key_change, movable, moved_one, ranks_of

MOVE: Final = 0
DISCARD: Final = 1
BUILT: Final = 2
DEFERRED: Final = 3
LISTED: Final = 4
SWAP: Final = 5
KIND_BITS: Final = 3
#: The joker's index in ``RANKS``.
JOKER: Final = 13

_new: Final = tuple.__new__




def plain_turn(geo: Geometry, stuck_turns: int) -> bool:
    """Can :class:`Coded` list a turn after ``stuck_turns`` turns without a move?  (Not
    under Bluffing Joker, nor when North Carolina counting may be offered: those depend on
    the whole listing.)"""
    table = table_of(geo)
    return not table.bluffing and not (table.counting and stuck_turns >= 2)


class Coded:
    """The legal actions of a turn as codes (see the module's docstring)."""

    __slots__ = ("_actions", "_board", "_cache", "_seen", "_seen_rank", "_slow", "_splits",
                 "_team",
                 "codes", "ctrl", "deferred", "first_turn", "geo", "hand", "listed",
                 "memo", "mover", "occ", "own_movable", "pegs", "segments", "stuck_turns",
                 "table")

    def __init__(self, geo: Geometry, pegs: Pegs, seat: int, hand: tuple[str, ...],
                 stuck_turns: int, first_turn: bool, memo: MoveMemo | None = None) -> None:
        """The listing of ``seat`` holding ``hand`` on ``pegs`` (as :class:`Turn` says)."""
        self.geo = geo
        table = self.table = table_of(geo)
        self.pegs = pegs
        self.mover = seat
        self.hand = hand
        self.stuck_turns = stuck_turns
        self.first_turn = first_turn
        self.memo = memo
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
        self.deferred = 0  # how many counted actions follow the built ones
        #: The counted actions, card by card (the ``DEFERRED`` codes number them in order).
        self.segments: list[Deferred] = []
        self._slow: _Generator | None = None
        self._board: WorkBoard | None = None
        #: Moves kept for the ranks that share them: coming out at 0, then 2n (+1 back).
        self._cache: list[list[int] | None] = [None] * 32
        #: The layouts of the moves onto team pegs, and those listed for the current rank.
        #: The layout key changes (:meth:`WorkBoard.key_change`) of the moves onto team pegs
        #: (by their code with no rank), and, for the current rank, the codes listed by
        #: the key change of their layout (see :meth:`_new_layout`).
        self._team: dict[int, int] | None = None
        self._seen: dict[int, list[int]] | None = None
        self._seen_rank = -1
        #: The layouts of the splits listed one by one, by code.
        self._splits: dict[int, Pegs] | None = None
        self._actions: tuple[Action, ...] | None = None
        self._list(ranks_of(hand))
        #: The codes in order (the built ones: then come ``deferred`` counted ones).
        self.listed = tuple(self.codes)

    # --- listing --------------------------------------------------------------------------
    def _list(self, ranks: list[int]) -> None:
        table = self.table
        codes = self.codes
        moving = 0  # moving ranks (but the joker), and whether the joker moves
        joker_moves = False
        for rank in ranks:
            n = len(codes) + self.deferred
            plan = table.plans[rank]
            if table.quick[rank] and self._own_split(rank, plan):
                self._card(rank, plan)
                if (table.stuck_out and self.stuck_turns >= table.stuck_out and not plan.out
                        and not (plan.joker and table.joker_comes_out)):
                    self._add(rank, self._come_out())
            else:
                slow = self._generator()
                legal = slow.legal
                built, counted = len(legal.actions), len(legal.deferred)
                card = RANKS[rank]
                slow.card_moves(card)
                slow.stuck_come_out(card)
                for i in range(built, len(legal.actions)):
                    codes.append(index_code(BUILT, i))
                self._counted(legal.deferred[counted:])
            if len(codes) + self.deferred > n:
                if rank == JOKER:
                    joker_moves = True
                else:
                    moving += 1
        if not moving and not (table.joker_must and not self.first_turn and joker_moves):
            for rank in ranks:
                codes.append(rank * 8 + DISCARD)

    def _counted(self, moves: list[Deferred]) -> None:
        for d in moves:
            self.segments.append(d)
            self.deferred += len(d)

    def _own_split(self, rank: int, plan: CardPlan) -> bool:
        """Are the rank's splits (if it has any) listed here?  (A search's memo keeps the
        whole card's moves: the generator lists the card then.)"""
        return not plan.split or self._no_split(rank) or self.memo is None

    def _counts(self, rank: int) -> bool:
        """Does the general generator count the rank's splits (from two movable pegs, but
        for a split that may finish with a partner's peg and one peg on the ring)?"""
        if len(self.own_movable) < 4:
            return False
        if self.table.finish[rank]:
            ring = self.table.ring
            return sum(1 for p in self.pegs[self.mover] if p < ring) > 1
        return True

    def _no_split(self, rank: int) -> bool:
        """Can the rank's split not be made?  (Fewer than two pegs may move, and none
        finishes to let a partner's peg make the rest: see ``SplitFinder.splits``.  The
        one peg finishes only if it is the seat's own and its other pegs are home.)"""
        n = len(self.own_movable)
        if n != 2:
            return n == 0
        seat, p = self.own_movable[0], self.own_movable[1]
        if not self.table.finish[rank] or seat != self.mover:
            return True
        ring = self.table.ring
        return any(q < ring and q != p for q in self.pegs[seat])

    def _card(self, rank: int, plan: CardPlan) -> None:
        """Every power of the card, as the general generator lists them (an
        obligatory split leaves the other powers out whenever it can be made)."""
        must = plan.must_split
        out = plan.out and not (plan.joker and self.table.joker_comes_out)
        if plan.joker and not must:
            self._joker(rank)
        if out and not must:
            self._add(rank, self._come_out())
        found = False
        if plan.split and not self._no_split(rank):
            if self._counts(rank):
                slow = self._generator()
                counted = len(slow.legal.deferred)
                found = slow.count_splits(RANKS[rank], plan.split)
                self._counted(slow.legal.deferred[counted:])
            else:
                found = self._listed_splits(rank, plan.split)
        if not (must and found):
            for n in plan.forward:
                self._add(rank, self._singles(n, False))
            for n in plan.backward:
                self._add(rank, self._singles(n, True))
            if plan.swap:
                self._swaps(rank)
        if must and not found:
            if plan.joker:
                self._joker(rank)
            if out:
                self._add(rank, self._come_out())

    def _listed_splits(self, rank: int, total: int) -> bool:
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

    def _swaps(self, rank: int) -> None:
        """The swaps of an own ring peg with a ring peg of another colour (as
        ``MoveFinder.swaps``): the one onto a peg whose door is the own peg's hole is
        listed (unless a move onto a team peg led to its layout), the others counted."""
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
            self._counted([Swaps(RANKS[rank], self.geo.names_for(self.mover), pegs, flat)])

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

    def _generator(self) -> _Generator:
        slow = self._slow
        if slow is None:
            turn = Turn(self.mover, self.hand, self.stuck_turns, self.first_turn)
            slow = self._slow = _Generator(self.geo, self.pegs, turn, False, self.memo)
        return slow

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

    def _come_out(self) -> list[int]:
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

    def _singles(self, n: int, back: bool) -> list[int]:
        """Every one-peg move of ``n`` holes forward or back (kept: ranks share them)."""
        key = 2 * n + int(back)
        if key < 32:
            moves = self._cache[key]
            if moves is not None:
                return moves
        moves = []
        mov = self.own_movable
        for i in range(0, len(mov), 2):
            q, p = mov[i], mov[i + 1]
            if back:
                d = backward(self.table, self.occ, q, p, n)
                if d != IN_HAND:
                    self._one(moves, q, p, d, True)
            else:
                self._forward(moves, q, p, n)
        if key < 32:
            self._cache[key] = moves
        return moves

    def _forward(self, moves: list[int], seat: int, p: int, n: int) -> None:
        """Add the moves of the peg of ``seat`` at ``p`` going ``n`` forward (as
        ``WorkBoard.forward``: into its home first when it may turn in at its door)."""
        table = self.table
        ring, homes = table.ring, table.homes
        ps = self.pegs[seat]
        if p >= ring:
            t = p - ring + 1 + n
            if t <= homes and home_clear(ring, ps, p - ring + 2, t):
                self._one(moves, seat, p, ring + t - 1, False)
            return
        occ = self.occ
        door = table.door[seat]
        pass_own = table.pass_own
        cur = p
        last = n - 1
        for i in range(n):
            if cur == door:
                m = n - i
                if m <= homes and home_clear(ring, ps, 1, m):
                    self._one(moves, seat, p, ring + m - 1, False)
                if table.turn_in:
                    return
            cur += 1
            if cur == ring:
                cur = 0
            if i < last and occ[cur] == seat and not pass_own:
                return
        if occ[cur] != seat:
            self._one(moves, seat, p, cur, False)

    def _joker(self, rank: int) -> None:
        """The joker onto any peg on the ring (RULES.md: from start or the ring)."""
        table, occ, ring = self.table, self.occ, self.table.ring
        seats = self.ctrl
        if table.joker == 2:  # hit_start_first
            team = self.geo.team_seats[self.mover]
            with_start = tuple(q for q in team if START in self.pegs[q])
            seats = with_start or team
        targets = [h for h in range(ring) if occ[h] != -1]
        sources = [(q, p) for q in seats for p in sorted(set(self.pegs[q])) if p < ring]
        if table.joker == 2 and any(p == START for _, p in sources):
            sources = [(q, p) for q, p in sources if p == START]
        moves: list[int] = []
        for q, p in sources:
            for h in targets:
                if occ[h] != q:
                    self._one(moves, q, p, h, False)
        if table.joker_comes_out:  # a come-out onto a peg is one of the moves above
            moves += [m for m in self._come_out() if m not in moves]
        self._add(rank, moves)

    # --- reading --------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.codes) + self.deferred

    def code(self, i: int) -> int:
        """The ``i``-th code of the listing."""
        codes = self.codes
        if i < len(codes):
            return codes[i]
        return index_code(DEFERRED, i - len(codes))

    def action(self, code: int) -> Action:
        """The :class:`Action` a code names."""
        kind = code & 7
        if kind == MOVE:
            rank = code_rank(code)
            back = move_back(code)
            seat = move_seat(code)
            src = move_from(code)
            dst = move_to(code)
            names = self.geo.names_for(self.mover)[seat]
            hit = 0 <= dst < self.geo.ring_size and self.occ[dst] != -1 and self.occ[dst] != seat
            step = _new(Step, (names[src + 1], names[dst + 1], "<" if back else ">", hit))
            return _new(Action, (RANKS[rank], (step,), False, "", ""))
        if kind == DISCARD:
            return _new(Action, (RANKS[code_rank(code)], (), True, "", ""))
        if kind == SWAP:
            seat = move_seat(code)
            names = self.geo.names_for(self.mover)[seat]
            step = _new(Step, (names[move_from(code) + 1], names[move_to(code) + 1], "~", False))
            return _new(Action, (RANKS[code_rank(code)], (step,), False, "", ""))
        if kind == SPLIT:
            table = self.geo.names_for(self.mover)
            steps = tuple([_new(Step, (table[q][a + 1], table[q][b + 1], ">" if fwd else "<",
                                       hit)) for q, a, b, fwd, hit in split_steps(code)])
            return _new(Action, (RANKS[code_rank(code)], steps, False, "", ""))
        if kind == DEFERRED:
            moves, n = self._located(code_number(code))
            return moves.nth(n)
        if kind == BUILT:
            return self._legal().actions[code_number(code)]
        raise ValueError(f"{code} is not a code of this listing")

    def result(self, code: int) -> Pegs:
        """The layout a code leads to."""
        kind = code & 7
        if kind == MOVE:
            seat = move_seat(code)
            src = move_from(code)
            dst = move_to(code)
            if dst >= self.geo.ring_size or self.occ[dst] == -1:
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
        if kind == DEFERRED:
            moves, n = self._located(code_number(code))
            return moves.layout_at(n)
        if kind == SPLIT and self._splits is not None:
            return self._splits[code]
        outcome = self._legal().outcome(self.action(code))
        assert outcome is not None
        return outcome

    def _located(self, n: int) -> tuple[Deferred, int]:
        """The segment holding the ``n``-th counted action, and its index there."""
        for moves in self.segments:
            if n < len(moves):
                return moves, n
            n -= len(moves)
        raise ValueError(f"{index_code(DEFERRED, n)} is not a code of this listing")

    def _legal(self) -> Legal:
        slow = self._slow
        if slow is None:
            raise ValueError("this listing has no generated actions")
        return slow.legal

    def actions(self) -> Sequence[Action]:
        """The listing as actions: a tuple when nothing is counted, else built when read."""
        if self.deferred:
            return CodedActions(self)
        made = self._actions
        if made is None:
            made = self._actions = tuple([self.action(c) for c in self.codes])
        return made

    def find(self, action: Action) -> int:
        """The code of ``action`` if it is one of the built actions (as listed, not another
        spelling), else -1 (see :meth:`counted` for the others)."""
        codes = self.codes
        if self.deferred:  # the actions are not kept: make only those that may match
            one = len(action.steps) == 1 and not action.discard
            rank = RANK_ORDER.get(action.card, -1)
            for i in range(len(codes)):
                code = codes[i]
                kind = code & 7
                if kind in (MOVE, SWAP) and not (one and code_rank(code) == rank):
                    continue
                if kind == SPLIT and not (len(action.steps) == 2 and code_rank(code) == rank):
                    continue
                if kind == DISCARD and not (action.discard and code_rank(code) == rank):
                    continue
                if self.action(code) == action:
                    return code
            return -1
        made = self.actions()
        for i in range(len(made)):
            if made[i] is action:
                return codes[i]
        for i in range(len(made)):
            if made[i] == action:
                return codes[i]
        return -1

    def counted(self, action: Action) -> Pegs | None:
        """The layout ``action`` leads to if it is one of the counted actions, else None."""
        for d in self.segments:
            result = d.outcome(action)
            if result is not None:
                return result
        return None

    def counted_code(self, action: Action) -> int:
        """The code of a counted action, or -1 (reads them all: for the edges only)."""
        if self.counted(action) is None:
            return -1
        for m in range(self.deferred):
            if self.action(index_code(DEFERRED, m)) == action:
                return index_code(DEFERRED, m)
        return -1

    def has(self, code: int) -> bool:
        """Is ``code`` one of this listing's codes?"""
        kind = code & 7
        if kind == DEFERRED:
            return 0 <= code_number(code) < self.deferred
        if kind == BUILT:
            return self._slow is not None and 0 <= code_number(code) < len(self._slow.legal.actions)
        return any(c == code for c in self.listed)

    def card(self, code: int) -> str:
        """The card a code plays."""
        kind = code & 7
        if kind in (MOVE, DISCARD, SWAP, SPLIT):
            return RANKS[code_rank(code)]
        if kind == DEFERRED:
            return self._located(code_number(code))[0].played()
        return self.action(code).card
