"""The listings that wrap the one listing: Bluffing Joker's declarations (:class:`Declared`)
and the decisions on a pending declaration, or none once the game is over
(:class:`Choices`).  Both read as :class:`~pegs.rules.coded.Coded` does (``len``,
``code``, ``action``, ``result``, ``find``, ...), so the state has one path."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action
from .board import Geometry
from .board_work import Pegs
from .code_list import CodedActions, Codes, Listing, code_number, index_code
from .coded import JOKER, Coded
from .listing import RANK_ORDER, MoveMemo
from .powers import COUNTED_OUT, DECISION, DECLARED, DEFERRED, DISCARD
from .settings import RANKS
from .spelling import listed_action, spelled
from .walks import ranks_of


class Declared(Listing):
    """A Bluffing Joker turn (RULES.md section 5): each card of the hand, face down, may
    be declared as any rank with any move that rank has here (the one listing of a hand
    of every rank, its discards left out); then, when no rank but the Joker moves, each
    card discarded.  Codes are ``DECLARED``, numbered in that order."""

    __slots__ = ("_index", "cards", "discards", "inner", "kept", "pegs", "width")

    def __init__(self, geo: Geometry, pegs: Pegs, seat: int, hand: tuple[str, ...],
                 stuck_turns: int, first_turn: bool, memo: MoveMemo | None = None) -> None:
        inner = self.inner = Coded(geo, pegs, seat, RANKS, stuck_turns, first_turn, memo)
        self.pegs = pegs
        self.cards = [RANKS[r] for r in ranks_of(hand)]
        #: The listed codes of the every-rank listing that move.
        self.kept = tuple([c for c in inner.listed if c & 7 != DISCARD and c & 7 != COUNTED_OUT])
        self.width = len(self.kept) + inner.deferred  # the declarations of one card
        self.discards = not any(r != JOKER for r in inner.moving)
        self._index: dict[int, int] | None = None

    def __len__(self) -> int:
        return len(self.cards) * (self.width + int(self.discards))

    def code(self, i: int) -> int:
        return index_code(DECLARED, i)

    def legal_codes(self) -> Sequence[int]:
        return Codes((), len(self), DECLARED)

    def _inner(self, n: int) -> tuple[str, int]:
        """The real card and the inner code (-1: a discard) of declaration ``n``."""
        per = len(self.cards) * self.width
        if n >= per:
            return self.cards[n - per], -1
        j = n % self.width
        inner = self.kept[j] if j < len(self.kept) else index_code(DEFERRED, j - len(self.kept))
        return self.cards[n // self.width], inner

    def action(self, code: int) -> Action:
        card, inner = self._inner(code_number(code))
        if inner < 0:
            return Action(card, (), True)
        a = self.inner.action(inner)
        return Action(card, a.steps, False, a.card)

    def result(self, code: int) -> Pegs:
        inner = self._inner(code_number(code))[1]
        return self.pegs if inner < 0 else self.inner.result(inner)

    def card(self, code: int) -> str:
        return self._inner(code_number(code))[0]

    def has(self, code: int) -> bool:
        return code & 7 == DECLARED and 0 <= code_number(code) < len(self)

    def moving_ranks(self) -> list[str]:
        return self.inner.moving_ranks()

    def actions(self) -> Sequence[Action]:
        return CodedActions(self)

    def _number(self, action: Action, inner: int) -> int:
        """The code of the declaration of ``action.card`` whose inner code is ``inner``."""
        if inner & 7 == DEFERRED:
            j = len(self.kept) + code_number(inner)
        else:
            index = self._index
            if index is None:
                index = self._index = {c: j for j, c in enumerate(self.kept)}
            j = index.get(inner, -1)
            if j < 0:
                return -1
        return index_code(DECLARED, self.cards.index(action.card) * self.width + j)

    def find(self, action: Action) -> int:
        if action.card not in self.cards or action.decision:
            return -1
        if action.discard:
            if action.steps or action.declared or not self.discards:
                return -1
            n = len(self.cards) * self.width + self.cards.index(action.card)
            return index_code(DECLARED, n)
        if not action.declared:
            return -1
        inner = self.inner.find(Action(action.declared, action.steps))
        return -1 if inner < 0 else self._number(action, inner)

    def counted(self, action: Action) -> Pegs | None:
        if action.card not in self.cards or not action.declared or action.discard:
            return None
        return self.inner.counted(Action(action.declared, action.steps))

    def counted_code(self, action: Action) -> int:
        if self.counted(action) is None:
            return -1
        inner = self.inner.counted_code(Action(action.declared, action.steps))
        return -1 if inner < 0 else self._number(action, inner)

    def spelled(self, action: Action) -> Action | None:
        """The listed declaration that ``action`` spells another way, if any."""
        if not action.declared or action.discard or action.decision:
            return None
        layout = spelled(self.inner, RANK_ORDER[action.declared], action.steps)
        if layout is None:
            return None
        alias = listed_action(self.inner, action.declared, layout)
        return None if alias is None else Action(action.card, alias.steps, False, alias.card)


class Choices(Listing):
    """A few listed actions with their layouts: the decisions on a pending declaration
    (``DECISION`` codes), or none once the game is over."""

    __slots__ = ("_actions", "_results")

    def __init__(self, actions: tuple[Action, ...], results: tuple[Pegs, ...]) -> None:
        self._actions = actions
        self._results = results

    def __len__(self) -> int:
        return len(self._actions)

    def code(self, i: int) -> int:
        return index_code(DECISION, i)

    def legal_codes(self) -> Sequence[int]:
        return Codes((), len(self), DECISION)

    def action(self, code: int) -> Action:
        return self._actions[code_number(code)]

    def result(self, code: int) -> Pegs:
        return self._results[code_number(code)]

    def card(self, code: int) -> str:
        return self.action(code).card

    def has(self, code: int) -> bool:
        return code & 7 == DECISION and 0 <= code_number(code) < len(self)

    def moving_ranks(self) -> list[str]:
        return []

    def actions(self) -> Sequence[Action]:
        return self._actions

    def find(self, action: Action) -> int:
        for i, a in enumerate(self._actions):
            if a == action:
                return index_code(DECISION, i)
        return -1

    def counted(self, action: Action) -> Pegs | None:
        return None

    def counted_code(self, action: Action) -> int:
        return -1

    def spelled(self, action: Action) -> Action | None:
        return None
