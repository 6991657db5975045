"""A set of non-negative integers in a native array (compiled: no Python int objects).

The split counter keeps the splits it leaves out of its count as integer codes, added
and looked up a few hundred times per generated ten; a Python ``set`` makes an int object
per code and hashes it, several times the work of this open-addressing table.
"""

from __future__ import annotations

from librt.vecs import append, vec
from mypy_extensions import i64, mypyc_attr


@mypyc_attr(acyclic=True)  # holds no objects that could refer back to it
class CodeSet:
    """Non-negative integers: :meth:`add`, ``in``, ``len`` and :meth:`codes`."""

    __slots__ = ("_size", "_table")

    def __init__(self) -> None:
        # code + 1 per slot, 0 when free (made on the first add)
        self._table = vec[i64]()
        self._size: i64 = 0

    def __len__(self) -> int:
        return self._size

    def __contains__(self, code: i64) -> bool:
        table = self._table
        mask = len(table) - 1
        if mask < 0:
            return False
        h = _spread(code) & mask
        while table[h] != 0:
            if table[h] == code + 1:
                return True
            h = (h + 1) & mask
        return False

    def add(self, code: i64) -> None:
        """Add ``code`` (at least 0) if it is not in the set."""
        if 2 * self._size + 2 > len(self._table):
            self._grow()
        table = self._table
        mask = len(table) - 1
        h = _spread(code) & mask
        while table[h] != 0:
            if table[h] == code + 1:
                return
            h = (h + 1) & mask
        table[h] = code + 1
        self._size += 1

    def codes(self) -> vec[i64]:
        """Every code in the set, in no particular order."""
        out = vec[i64](capacity=self._size)
        table = self._table
        for n in range(len(table)):
            if table[n] != 0:
                out = append(out, table[n] - 1)
        return out

    def _grow(self) -> None:
        old = self._table
        table = vec[i64]([0] * max(16, 2 * len(old)))
        mask = len(table) - 1
        for n in range(len(old)):
            if old[n] != 0:
                h = _spread(old[n] - 1) & mask
                while table[h] != 0:
                    h = (h + 1) & mask
                table[h] = old[n]
        self._table = table


def _spread(code: i64) -> i64:
    """Mix the fields of a code into its low bits (no multiplication: it must not
    overflow)."""
    return code ^ (code >> 7) ^ (code >> 15) ^ (code >> 23)
