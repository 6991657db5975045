"""The one listing: every legal action of a turn as an integer code.

A code is an ``int`` naming one legal action of its position.  Its low three bits are its
kind (:mod:`pegs.rules.powers` numbers them):

- ``MOVE``: one peg moved by a one-peg power (coming out, forward, back, the joker,
  Pegoo's joker sending a peg to start): the card's rank, forward or back, and the peg's
  seat, from and to (:func:`~pegs.rules.code_list.move_code`);
- ``SWAP``: a 2's swap listed with the moves (the own peg onto a peg whose door it
  stands on), packed as a move;
- ``SPLIT``: a 7 or 9 split listed one by one (:mod:`pegs.rules.split_codes`), its two
  steps packed;
- ``DISCARD``: a card discarded without a move (its rank);
- ``COUNTED_OUT``: North Carolina counting's free come-out with any card, packed as a move;
- ``DEFERRED``: the ``n``-th counted action of the turn (``Coded.segments``, card by card:
  the counted 7 and 9 splits, the tens, the other swaps), whose layout is computed from
  ``n`` when it is played;
- ``DECLARED`` and ``DECISION``: Bluffing Joker's declarations and the decisions on them
  (:mod:`pegs.rules.declared`).

:class:`Coded` is the whole turn: each card of the hand in rank order with its powers
(:meth:`Coded._card`: an obligatory split leaves the others out whenever it can be made),
the stuck rules' come-outs, the discards, and North Carolina counting; then the counted
moves card by card.  The powers of one peg, the swaps and the splits listed one by one are
:class:`~pegs.rules.powers.Powers`; the counted splits and tens are
:mod:`pegs.rules.split_count` and :mod:`pegs.rules.ten_count`.  An :class:`Action` is made
from a code only when asked (:meth:`Coded.action`), and the layout a code leads to is
computed when it is played (:meth:`Coded.result`); another spelling of a listed action is
checked on the board (:mod:`pegs.rules.spelling`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .actions import Action
from .board import START, Geometry
from .board_work import Pegs
from .code_list import CodedActions, Codes, code_number, code_rank, index_code, move_from, move_to
from .deferred import Deferred
from .listing import RANK_ORDER, CardCodes, CardPlan, MoveMemo
from .powers import COUNTED_OUT, DEFERRED, DISCARD, MOVE, SWAP, Powers
from .settings import RANKS
from .spelling import listed_action, spelled
from .split_codes import SPLIT
from .ten_count import TenCounter
from .walks import ranks_of

#: The joker's index in ``RANKS``.
JOKER: Final = 13


class Coded(Powers):
    """The legal actions of a turn as codes (see the module's docstring)."""

    __slots__ = ("_actions", "_counter", "first_turn", "hand", "listed", "memo", "moving")

    def __init__(self, geo: Geometry, pegs: Pegs, seat: int, hand: tuple[str, ...],
                 stuck_turns: int, first_turn: bool, memo: MoveMemo | None = None) -> None:
        """The listing of ``seat`` holding ``hand`` on ``pegs``, after ``stuck_turns`` turns
        without a move (``first_turn``: its first turn of the game); a search's ``memo``
        keeps each card's codes for the next position on the same board."""
        super().__init__(geo, pegs, seat, stuck_turns)
        self.hand = hand
        self.first_turn = first_turn
        self.memo = memo
        #: The ranks (indices in ``RANKS``) that move.
        self.moving: list[int] = []
        self._counter: TenCounter | None = None
        self._actions: tuple[Action, ...] | None = None
        self._list(ranks_of(hand))
        #: The listed codes in order (then come ``deferred`` counted ones).
        self.listed = tuple(self.codes)

    # --- listing --------------------------------------------------------------------------
    def _list(self, ranks: list[int]) -> None:
        table = self.table
        codes = self.codes
        joker_moves = False
        for rank in ranks:
            n = len(codes) + self.deferred
            plan = table.plans[rank]
            self._remembered(rank, plan)
            if (table.stuck_out and self.stuck_turns >= table.stuck_out and not plan.out
                    and not (plan.joker and table.joker_comes_out)):
                self._add(rank, self.come_out())
            if len(codes) + self.deferred > n:
                if rank == JOKER:
                    joker_moves = True
                else:
                    self.moving.append(rank)
        if table.counting and self.stuck_turns >= 2 and not self.other and self.come_out():
            self._counting(ranks)
        elif not self.moving and not (table.joker_must and not self.first_turn and joker_moves):
            for rank in ranks:
                codes.append(rank * 8 + DISCARD)
        if joker_moves:
            self.moving.append(JOKER)

    def _counting(self, ranks: list[int]) -> None:
        """North Carolina counting: on the third turn without a move (no move but coming
        out), discard any card and bring a peg out free; not where the card's own
        come-out lands on a peg (the same move, listed already)."""
        free = self.come_out()
        for rank in ranks:
            hits = [self.result(c) for c in self.codes if c & 7 == MOVE
                    and code_rank(c) == rank and move_from(c) == START
                    and self.occ[move_to(c)] != -1]
            for m in free:
                if not hits or self.result(m) not in hits:
                    self.codes.append(m + rank * 8 - MOVE + COUNTED_OUT)

    def _remembered(self, rank: int, plan: CardPlan) -> None:
        """The card's powers (:meth:`_card`), from the search's memo when it has them."""
        memo = self.memo
        if memo is None:
            self._card(rank, plan)
            return
        key = (self.pegs, self.mover, rank)
        known = memo.entries.get(key)
        if known is not None:
            self.codes.extend(known.codes)
            for d in known.segments:
                self._counted(d)
            if known.layouts:
                if self._splits is None:
                    self._splits = {}
                self._splits.update(known.layouts)
            self._seen_rank = rank
            self._seen = {k: list(v) for k, v in known.seen}
            self.found[rank] = known.found
            self.other = self.other or known.other
            return
        n, counted, other = len(self.codes), len(self.segments), self.other
        self.other = False
        self._card(rank, plan)
        if len(memo.entries) < memo.limit:
            new = tuple(self.codes[n:])
            layouts = self._splits or {}
            seen = self._seen if self._seen_rank == rank and self._seen else {}
            memo.entries[key] = CardCodes(
                new, tuple(self.segments[counted:]),
                tuple((c, layouts[c]) for c in new if c in layouts),
                tuple((k, tuple(v)) for k, v in seen.items()), self.found[rank], self.other)
        self.other = self.other or other

    def _card(self, rank: int, plan: CardPlan) -> None:
        """Every power of the card: an obligatory split leaves the other powers out
        whenever it can be made; coming out (the joker's too) does not stop North
        Carolina counting."""
        must = plan.must_split
        out = plan.out and not (plan.joker and self.table.joker_comes_out)
        if plan.joker and not must:
            self._add(rank, self.jumps())
        if out and not must:
            self._add(rank, self.come_out())
        before = len(self.codes) + self.deferred
        found = False
        if plan.split == 10:
            found = self._segment(self._split_counter().split_ten(RANKS[rank]))
        elif plan.split and not self._no_split(rank):
            if self._counts(rank):
                found = self._segment(self._split_counter().count_splits(RANKS[rank],
                                                                         plan.split))
            else:
                found = self.listed_splits(rank, plan.split)
        self.found[rank] = found
        if not (must and found):
            for n in plan.forward:
                self._add(rank, self.singles(n, False))
            for n in plan.backward:
                self._add(rank, self.singles(n, True))
            if plan.swap:
                self.swaps(rank)
        if len(self.codes) + self.deferred > before:
            self.other = True
        if must and not found:
            if plan.joker:
                self._add(rank, self.jumps())
            if out:
                self._add(rank, self.come_out())

    def _segment(self, moves: Deferred | None) -> bool:
        if moves is None:
            return False
        self._counted(moves)
        return True

    def _split_counter(self) -> TenCounter:
        counter = self._counter
        if counter is None:
            mov = self.own_movable
            pairs = [(mov[i], mov[i + 1]) for i in range(0, len(mov), 2)]
            counter = self._counter = TenCounter(self.geo, self.pegs, self.mover,
                                                 self._work_board(), pairs)
        return counter

    def _counts(self, rank: int) -> bool:
        """Are the rank's splits counted (from two movable pegs, but for a split that may
        finish with a partner's peg and one peg on the ring)?"""
        if len(self.own_movable) < 4:
            return False
        if self.table.finish[rank]:
            ring = self.table.ring
            return sum(1 for p in self.pegs[self.mover] if p < ring) > 1
        return True

    def _no_split(self, rank: int) -> bool:
        """Can the rank's split not be made?  (Fewer than two pegs may move, and none
        finishes to let a partner's peg make the rest.  The one peg finishes only if it
        is the seat's own and its other pegs are home.)"""
        n = len(self.own_movable)
        if n != 2:
            return n == 0
        seat, p = self.own_movable[0], self.own_movable[1]
        if not self.table.finish[rank] or seat != self.mover:
            return True
        ring = self.table.ring
        return any(q < ring and q != p for q in self.pegs[seat])

    # --- reading --------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.codes) + self.deferred

    def code(self, i: int) -> int:
        """The ``i``-th code of the listing."""
        codes = self.codes
        if i < len(codes):
            return codes[i]
        return index_code(DEFERRED, i - len(codes))

    def legal_codes(self) -> Sequence[int]:
        """The codes in order (see :meth:`pegs.rules.state.GameState.legal_codes`)."""
        if self.deferred:
            return Codes(self.listed, self.deferred, DEFERRED)
        return self.listed

    def spelled(self, action: Action) -> Action | None:
        """The listed action that ``action`` spells another way (a split in the other
        order, a move a listed one's layout repeats), or None if it is no move here."""
        if action.declared or action.decision or action.discard or not action.steps:
            return None
        layout = spelled(self, RANK_ORDER[action.card], action.steps)
        return None if layout is None else listed_action(self, action.card, layout)

    def moving_ranks(self) -> list[str]:
        """The cards that move (the Joker last)."""
        return [RANKS[r] for r in self.moving]

    def action(self, code: int) -> Action:
        """The :class:`Action` a code names."""
        if code & 7 == DEFERRED:
            moves, n = self._located(code_number(code))
            return moves.nth(n)
        return super().action(code)

    def result(self, code: int) -> Pegs:
        """The layout a code leads to."""
        if code & 7 == DEFERRED:
            moves, n = self._located(code_number(code))
            return moves.layout_at(n)
        return super().result(code)

    def _located(self, n: int) -> tuple[Deferred, int]:
        """The segment holding the ``n``-th counted action, and its index there."""
        for moves in self.segments:
            if n < len(moves):
                return moves, n
            n -= len(moves)
        raise ValueError(f"{index_code(DEFERRED, n)} is not a code of this listing")

    def actions(self) -> Sequence[Action]:
        """The listing as actions: a tuple when nothing is counted, else built when read."""
        if self.deferred:
            return CodedActions(self)
        made = self._actions
        if made is None:
            made = self._actions = tuple([self.action(c) for c in self.codes])
        return made

    def find(self, action: Action) -> int:
        """The code of ``action`` if it is one of the listed actions (as listed, not
        another spelling), else -1 (see :meth:`counted` for the counted ones)."""
        codes = self.codes
        if self.deferred:  # the actions are not kept: make only those that may match
            rank = RANK_ORDER.get(action.card, -1)
            if action.declared or action.decision:
                return -1
            n = len(action.steps)
            want = ((DISCARD if n == 0 else COUNTED_OUT) if action.discard
                    else SPLIT if n == 2 else MOVE if n == 1 else -1)
            for i in range(len(codes)):
                code = codes[i]
                kind = code & 7
                if ((kind == want or (kind == SWAP and want == MOVE))
                        and code_rank(code) == rank and self.action(code) == action):
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
        if code & 7 == DEFERRED:
            return 0 <= code_number(code) < self.deferred
        return any(c == code for c in self.listed)

    def card(self, code: int) -> str:
        """The card a code plays."""
        if code & 7 == DEFERRED:
            return self._located(code_number(code))[0].played()
        return RANKS[code_rank(code)]
