"""The general generator's listing (an oracle kept in the tests): the seat to move
(:class:`Turn`), the listing (:class:`Legal`, read as the sequence :class:`Actions`), and a
search's memo of each card's moves (:class:`MoveMemo`).  The generator that fills a listing
is :mod:`oracle.legal`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, overload

from pegs.rules.actions import Action, Step
from pegs.rules.board import Geometry
from pegs.rules.board_work import Change, Pegs, moved
from pegs.rules.code_list import list_index
from pegs.rules.deferred import Deferred
from pegs.rules.listing import CardPlan as CardPlan
from pegs.rules.listing import card_plans as card_plans
from pegs.rules.listing import controlled as controlled
from pegs.rules.settings import RANKS

RANK_ORDER: Final = {r: i for i, r in enumerate(RANKS)}

#: Entries a :class:`MoveMemo` holds at most.  The boards near a search's root come first
#: and recur in every iteration; a limit of 5,000 or 200,000 was no faster and held up to
#: 140 MB more in a North Carolina search of 3 s (8 seats).
MEMO_LIMIT = 1_000

#: A move's steps and the layout it leads to (or the one change that makes it).
Move = tuple[tuple[Step, ...], Pegs | Change]



class Turn:
    """What the generator needs to know about the seat to move.  (A plain class: a frozen
    dataclass sets each field through ``object.__setattr__``, several times as slow to make,
    and one is made per listing.)"""

    __slots__ = ("first_turn", "hand", "seat", "stuck_turns")

    def __init__(self, seat: int, hand: tuple[str, ...], stuck_turns: int,
                 first_turn: bool) -> None:
        self.seat: Final = seat
        self.hand: Final = hand
        self.stuck_turns: Final = stuck_turns
        self.first_turn: Final = first_turn

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Turn) and (
            self.seat, self.hand, self.stuck_turns, self.first_turn) == (
            other.seat, other.hand, other.stuck_turns, other.first_turn)

    def __hash__(self) -> int:
        return hash((self.seat, self.hand, self.stuck_turns, self.first_turn))

    def __repr__(self) -> str:
        return (f"Turn(seat={self.seat}, hand={self.hand}, stuck_turns={self.stuck_turns}, "
                f"first_turn={self.first_turn})")


class Legal:
    """The legal actions in order, their resulting layouts, and accepted aliases.

    ``actions`` are built; North Carolina tens, many 7 and 9 splits and the 2's swaps are
    counted or kept as numbers in ``deferred`` and built one at a time when listed or looked
    up (a ten can have thousands of legal splits, and a player uses one).  The listing is
    ``actions``, then each of ``deferred``.
    """

    __slots__ = ("_listing", "actions", "aliases", "base", "changes", "counting", "deferred",
                 "moving_ranks", "results")

    def __init__(self, base: Pegs = (), moving_ranks: set[str] | None = None) -> None:
        self.actions: list[Action] = []
        self.results: dict[Action, Pegs] = {}
        self.changes: dict[Action, Change] = {}
        self.aliases: dict[Action, Action] = {}
        self.moving_ranks: set[str] = set() if moving_ranks is None else moving_ranks
        self.deferred: list[Deferred] = []
        self.base = base
        #: North Carolina counting offered (a free come-out with any card, discarded).
        self.counting = False
        self._listing: tuple[Action, ...] | None = None

    def size(self) -> int:
        return len(self.actions) + sum(len(d) for d in self.deferred)

    def listing(self) -> Sequence[Action]:
        """All legal actions as one read-only sequence (a tuple when nothing is counted).

        A sequence over counted splits is made anew on each call and not kept here: it
        refers to this object, and a reference back would keep every part and action of
        the position alive until the cyclic garbage collector ran."""
        if self.deferred:
            return Actions(self)
        if self._listing is None:
            self._listing = tuple(self.actions)
        return self._listing

    def made(self, i: int) -> Action:
        """The ``i``-th action of ``deferred`` (the actions after the built ones)."""
        for moves in self.deferred:
            if i < len(moves):
                return moves.nth(i)
            i -= len(moves)
        raise IndexError("legal action index out of range")

    def outcome(self, action: Action) -> Pegs | None:
        """The layout a listed action leads to, or None if it is not listed."""
        result = self.results.get(action)
        if result is not None:
            return result
        change = self.changes.get(action)
        if change is not None:
            return moved(self.base, (change,))
        for moves in self.deferred:
            result = moves.outcome(action)
            if result is not None:
                return result
        return None


class CardMoves:
    """What one card adds to a position's :class:`Legal`: its built actions in order with
    their layouts or changes, its deferred moves, its moves other than coming out, and the
    (card, layout) pairs it has listed (see ``_Generator.record``)."""

    __slots__ = ("actions", "changes", "deferred", "other", "results", "seen")

    def __init__(self, actions: tuple[Action, ...], results: tuple[tuple[Action, Pegs], ...],
                 changes: tuple[tuple[Action, Change], ...], deferred: tuple[Deferred, ...],
                 other: int, seen: tuple[tuple[tuple[str, Pegs], Action], ...]) -> None:
        self.actions = actions
        self.results = results
        self.changes = changes
        self.deferred = deferred
        self.other = other
        self.seen = seen


class MoveMemo:
    """The moves of each card by board and seat, shared by the positions of one search.

    A card's moves depend on the board, the seat and the card alone, and a tree search
    meets the same board in every determinization (only the hidden cards differ), so the
    generator looks them up here instead of finding them again.  Holds at most ``limit``
    entries; a memo is meant to live for one decision.
    """

    __slots__ = ("entries", "limit")

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        self.entries: dict[tuple[Pegs, int, str], CardMoves] = {}
        self.limit = limit


class Actions(Sequence[Action]):
    """The legal actions of a position: the built ones, then the counted ones."""

    __slots__ = ("_cache", "_legal")

    def __init__(self, legal: Legal) -> None:
        self._legal = legal
        self._cache: dict[int, Action] = {}

    def __len__(self) -> int:
        return self._legal.size()

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        i = list_index(i, len(self), "legal action")
        built = self._legal.actions
        if i < len(built):
            return built[i]
        action = self._cache.get(i)
        if action is None:
            action = self._cache[i] = self._legal.made(i - len(built))
        return action

    def __iter__(self) -> Iterator[Action]:
        yield from self._legal.actions
        for i in range(len(self) - len(self._legal.actions)):
            yield self[len(self._legal.actions) + i]

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self._legal.outcome(action) is not None

    def __repr__(self) -> str:
        return f"<{len(self)} legal actions>"


def all_home(geo: Geometry, pegs: Pegs, seat: int) -> bool:
    return pegs[seat] == geo.all_home
