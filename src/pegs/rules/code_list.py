"""What a code holds (its fields, written by :func:`move_code` and :func:`index_code`, read
by the functions below: the one place that knows the bits), what a listing answers
(:class:`Listing`), the legal codes of a position as one read-only sequence
(:class:`Codes`): the codes listed, then numbered ones (see :mod:`pegs.rules.coded`); and
its actions, each made when read (:class:`CodedActions`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from .actions import Action
from .board_work import Pegs


def move_code(rank: int, back: bool, seat: int, src: int, dst: int) -> int:
    """The code of one peg of ``seat`` moved from ``src`` to ``dst`` by the card of rank
    index ``rank`` (``back``: a move backward, written ``<``)."""
    return ((((dst + 1) * 256 + src + 1) * 16 + seat) * 2 + int(back)) * 16 * 8 + rank * 8


def index_code(kind: int, n: int) -> int:
    """The code of the ``n``-th action of a numbered kind (``BUILT``, ``DEFERRED``,
    ``LISTED``)."""
    return n * 8 + kind


def kind_of(code: int) -> int:
    """A code's kind (``MOVE``, ``DISCARD``, ... in :mod:`pegs.rules.coded`)."""
    return code & 7


def code_rank(code: int) -> int:
    """The rank index of the card a one-peg move, swap, split or discard code plays."""
    return code >> 3 & 15


def code_number(code: int) -> int:
    """The number of a numbered code (:func:`index_code`)."""
    return code >> 3


def move_back(code: int) -> bool:
    """Is a one-peg move or swap code's move backward?"""
    return bool(code >> 7 & 1)


def move_seat(code: int) -> int:
    """The seat whose peg a one-peg move or swap code moves."""
    return code >> 8 & 15


def move_from(code: int) -> int:
    """Where a one-peg move or swap code's peg stands (``START`` is -1)."""
    return (code >> 12 & 255) - 1


def move_to(code: int) -> int:
    """Where a one-peg move or swap code's peg goes."""
    return (code >> 20) - 1


def list_index(i: int, n: int, what: str) -> int:
    """``i`` as an index of a listing of ``n`` items (negative counts from the end), or
    IndexError naming ``what``."""
    if i < 0:
        i += n
    if not 0 <= i < n:
        raise IndexError(f"{what} index out of range")
    return i


class Codes(Sequence[int]):
    """Legal codes: some listed, then ``extra`` more numbered of one ``kind``."""

    __slots__ = ("_extra", "_kind", "_listed")

    def __init__(self, listed: tuple[int, ...], extra: int, kind: int) -> None:
        self._listed, self._extra, self._kind = listed, extra, kind

    def __len__(self) -> int:
        return len(self._listed) + self._extra

    @overload
    def __getitem__(self, i: int) -> int: ...

    @overload
    def __getitem__(self, i: slice) -> list[int]: ...

    def __getitem__(self, i: int | slice) -> int | list[int]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        i = list_index(i, len(self), "legal code")
        listed = self._listed
        if i < len(listed):
            return listed[i]
        return index_code(self._kind, i - len(listed))


class Listing:
    """A position's legal actions as codes, as the state reads them: the one listing of a
    turn (:class:`pegs.rules.coded.Coded`), a Bluffing Joker turn's declarations or the
    decisions on one (:mod:`pegs.rules.declared`)."""

    __slots__ = ()

    def __len__(self) -> int:
        raise NotImplementedError

    def code(self, i: int) -> int:
        """The ``i``-th code."""
        raise NotImplementedError

    def legal_codes(self) -> Sequence[int]:
        """The codes in order."""
        raise NotImplementedError

    def action(self, code: int) -> Action:
        """The :class:`Action` a code names."""
        raise NotImplementedError

    def result(self, code: int) -> Pegs:
        """The layout a code leads to."""
        raise NotImplementedError

    def card(self, code: int) -> str:
        """The card a code plays."""
        raise NotImplementedError

    def has(self, code: int) -> bool:
        """Is ``code`` one of the codes?"""
        raise NotImplementedError

    def actions(self) -> Sequence[Action]:
        """The actions in order, each made when read."""
        raise NotImplementedError

    def find(self, action: Action) -> int:
        """The code of ``action`` as listed (not a counted one), else -1."""
        raise NotImplementedError

    def counted(self, action: Action) -> Pegs | None:
        """The layout ``action`` leads to if it is a counted one, else None."""
        raise NotImplementedError

    def counted_code(self, action: Action) -> int:
        """The code of a counted action, or -1."""
        raise NotImplementedError

    def spelled(self, action: Action) -> Action | None:
        """The listed action that ``action`` spells another way, if any."""
        raise NotImplementedError

    def moving_ranks(self) -> list[str]:
        """The cards that have a move."""
        raise NotImplementedError


class CodedActions(Sequence[Action]):
    """The actions of a coded listing (:class:`pegs.rules.coded.Coded`) with counted moves,
    each made when read."""

    __slots__ = ("_coded",)

    def __init__(self, coded: Listing) -> None:
        self._coded = coded

    def __len__(self) -> int:
        return len(self._coded)

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        i = list_index(i, len(self), "legal action")
        return self._coded.action(self._coded.code(i))

    def __iter__(self) -> Iterator[Action]:
        coded = self._coded
        for i in range(len(coded)):
            yield coded.action(coded.code(i))

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        coded = self._coded
        return coded.find(action) >= 0 or coded.counted(action) is not None

    def __repr__(self) -> str:
        return f"<{len(self)} legal actions>"
