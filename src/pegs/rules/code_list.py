"""The legal codes of a position as one read-only sequence (:class:`Codes`): the codes
listed, then numbered ones (see :mod:`pegs.rules.coded`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload


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
        return (i - len(listed)) * 8 + self._kind
