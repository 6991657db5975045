"""The simulated splits of a ten, 7 or 9, kept as numbers in native arrays.

The generator finds the interacting splits of a card one by one (two steps and the peg moves
they make, in order) and keeps each unless an earlier one leads to the same layout.  A
position can have hundreds of them, and most are never spelled, so they are kept as
integers in :class:`vec` arrays (compiled, read and written without making Python
objects), and told apart by the change of the layout's key (:attr:`Geometry.keys`) in an
open-addressing table of the same kind.
"""

from __future__ import annotations

from librt.vecs import append, pop, vec
from mypy_extensions import i64, mypyc_attr

from .board_work import WIDE, Change, Pegs, change_code, change_of, moved

#: A step kept as numbers until its move is listed: (seat, from, to, direction, hit).
Make = tuple[int, int, int, str, bool]

@mypyc_attr(acyclic=True)  # holds no objects that could refer back to it
class Listed:
    """The kept splits, in listing order: per split its two steps, its peg moves and the
    change of the layout's key.  A split is built with :meth:`start`, :meth:`move` (each
    peg move in order) and :meth:`finish`, which keeps it if its layout is new."""

    __slots__ = ("_first", "_key", "_mask", "_second", "_table", "base", "deltas", "keys",
                 "log", "log_at", "steps", "width")

    def __init__(self, base: Pegs, keys: vec[i64], width: i64) -> None:
        self.base = base
        #: The position keys (:attr:`Geometry.flat_keys`): a seat's row of ``width``, the
        #: key of position p at p + 1 (the hand's, -2, is the row's last).
        self.keys = keys
        self.width = width
        #: Two per split: its first and second step, as :func:`step_code`.
        self.steps = vec[i64]()
        #: Every split's peg moves (:func:`change_code`), split n's from ``log_at[n]`` to
        #: ``log_at[n + 1]``.
        self.log = vec[i64]()
        self.log_at = vec[i64]([0])
        #: Per split, how much its peg moves change the layout's key.
        self.deltas = vec[i64]()
        # the open-addressing table of deltas: split index + 1 per slot, 0 when free (made
        # on the first split: a 7 or 9 keeps none)
        self._table = vec[i64]()
        self._mask: i64 = 0
        # the split being built
        self._first: i64 = 0
        self._second: i64 = 0
        self._key: i64 = 0

    def __len__(self) -> int:
        return len(self.deltas)

    # --- building -------------------------------------------------------------------------
    def start(self, first: Make, second: Make) -> None:
        """Begin a split of these two steps (its moves follow)."""
        self._first = step_code(first[0], first[1], first[2], first[3] == ">", first[4])
        self._second = step_code(second[0], second[1], second[2], second[3] == ">", second[4])
        self._key = 0

    def move(self, seat: i64, src: i64, dst: i64) -> None:
        """The split being built moves the peg of ``seat`` at ``src`` to ``dst``."""
        self.log = append(self.log, change_code(seat, src, dst))
        width = self.width
        row = seat * width
        a, b = src + 1, dst + 1
        self._key += (self.keys[row + b if b >= 0 else row + width + b]
                      - self.keys[row + a if a >= 0 else row + width + a])

    def logged(self, log: vec[i64]) -> None:
        """:meth:`move` for each peg move of a scratch board's log (:func:`change_code`)."""
        for n in range(len(log)):
            seat, src, dst = change_of(log[n])
            self.move(seat, src, dst)

    def moves(self, changes: tuple[Change, ...]) -> None:
        """:meth:`move` for each of ``changes``, in order."""
        for q, a, b in changes:
            self.move(q, a, b)

    def finish(self) -> None:
        """Keep the split being built unless a kept one leads to the same layout."""
        if 2 * len(self.deltas) + 2 > len(self._table):
            self._grow()
        key = self._key
        mask = self._mask
        table = self._table
        h = key & mask
        while table[h] != 0:
            if self.deltas[table[h] - 1] == key:
                if self._repeats(key):
                    self._drop_pending()
                    return
                break  # another layout with the same key (very rare): kept as well
            h = (h + 1) & mask
        self.steps = append(append(self.steps, self._first), self._second)
        self.deltas = append(self.deltas, key)
        self.log_at = append(self.log_at, len(self.log))
        if table[h] == 0:
            table[h] = len(self.deltas)

    def _repeats(self, key: i64) -> bool:
        """Does a kept split with this key change lead where the split being built does?"""
        pending = self._changes(self.log_at[len(self.deltas)], len(self.log))
        result = moved(self.base, pending)
        for n in range(len(self.deltas)):
            if self.deltas[n] == key and moved(self.base, self.changes(n)) == result:
                return True
        return False

    def _drop_pending(self) -> None:
        end = self.log_at[len(self.deltas)]
        while len(self.log) > end:
            self.log, _ = pop(self.log)

    def _grow(self) -> None:
        size = max(64, 2 * len(self._table))
        mask: i64 = size - 1
        table = vec[i64]([0] * size)
        for n in range(len(self.deltas)):
            h = self.deltas[n] & mask
            while table[h] != 0:
                if self.deltas[table[h] - 1] == self.deltas[n]:
                    break
                h = (h + 1) & mask
            if table[h] == 0:
                table[h] = n + 1
        self._table = table
        self._mask = mask

    def drop(self, gone: list[int]) -> None:
        """Remove the splits numbered in ``gone`` (their layouts are reached otherwise);
        the others keep their order.  Only once every split is built."""
        out = set(gone)
        old_steps, old_log, old_at, old_deltas = self.steps, self.log, self.log_at, self.deltas
        kept = len(old_deltas) - len(out)
        steps, deltas = vec[i64](capacity=2 * kept), vec[i64](capacity=kept)
        log, log_at = vec[i64](capacity=len(old_log)), vec[i64]([0], capacity=kept + 1)
        for n in range(len(old_deltas)):
            if n in out:
                continue
            steps = append(append(steps, old_steps[2 * n]), old_steps[2 * n + 1])
            for m in range(old_at[n], old_at[n + 1]):
                log = append(log, old_log[m])
            log_at = append(log_at, len(log))
            deltas = append(deltas, old_deltas[n])
        self.steps, self.log, self.log_at, self.deltas = steps, log, log_at, deltas

    # --- reading --------------------------------------------------------------------------
    def step(self, n: i64, second: bool) -> tuple[i64, i64, i64, bool, bool]:
        """(seat, from, to, forward, hit) of split n's first or second step."""
        code = self.steps[2 * n + (1 if second else 0)]
        hit = code % 2 == 1
        code //= 2
        forward = code % 2 == 1
        seat, src, dst = change_of(code // 2)
        return seat, src, dst, forward, hit

    def changes(self, n: i64) -> tuple[Change, ...]:
        """Split n's peg moves, in order."""
        return self._changes(self.log_at[n], self.log_at[n + 1])

    def _changes(self, lo: i64, hi: i64) -> tuple[Change, ...]:
        out: list[Change] = []
        for m in range(lo, hi):
            q, a, b = change_of(self.log[m])
            out.append((q, a, b))
        return tuple(out)

    def layout(self, n: i64) -> Pegs:
        """The layout split n leads to."""
        return moved(self.base, self.changes(n))

    def pairs_left(self, index: vec[i64], seats: vec[i64], ring: i64, home: i64,
                   silent: list[int]) -> vec[bool]:
        """At i * pegs + j: whether some split leaves empty the holes of pegs i and j on
        the unchanged board (``index`` and ``seats``: as :func:`peg_in` reads them).  The
        pegs in ``silent`` count as leaving theirs in every split."""
        pegs: i64 = len(seats)
        out = vec[bool]([False] * (pegs * pegs))
        cands = vec[i64]([0] * pegs)  # the pegs a split leaves, silent ones first
        base: i64 = len(silent)
        for s in range(base):
            cands[s] = silent[s]
        log = self.log
        for n in range(len(self.deltas)):
            count = base
            lo, hi = self.log_at[n], self.log_at[n + 1]
            for m in range(lo, hi):
                hole = log[m] // WIDE  # seat * WIDE + from + 2
                at = hole % WIDE
                if at < 2:
                    continue  # from start or the hand
                seat = hole // WIDE
                pos = at - 2
                peg = index[pos if pos < ring else pos + seat * home]  # as peg_in reads it
                if peg < 0 or seats[peg] != seat:
                    continue
                net: i64 = 0  # pegs put there less pegs taken away: -1 when left empty
                for other in range(lo, hi):
                    code = log[other]
                    if code // WIDE == hole:
                        net -= 1
                    if code // (WIDE * WIDE) == seat and code % WIDE == at:
                        net += 1
                if net >= 0:
                    continue
                new = True
                for c in range(count):
                    if cands[c] == peg:
                        new = False
                if new:
                    cands[count] = peg
                    count += 1
            for a in range(count):
                row = cands[a] * pegs
                for b in range(count):
                    out[row + cands[b]] = True
        return out


def peg_in(index: vec[i64], seats: vec[i64], ring: i64, home: i64, seat: i64, pos: i64
           ) -> i64:
    """The peg of ``seat`` at ``pos`` on the unchanged board, or -1: ``index`` holds the
    peg at each ring hole, then at each seat's home holes (-1: none), ``seats`` each
    peg's seat.  ``pos`` may be start or the hand."""
    if pos < 0:
        return -1
    peg = index[pos if pos < ring else pos + seat * home]
    return peg if peg >= 0 and seats[peg] == seat else -1


def step_code(seat: i64, src: i64, dst: i64, forward: bool, hit: bool) -> i64:
    """A step as one integer (see :meth:`Listed.step`)."""
    return (change_code(seat, src, dst) * 2 + (1 if forward else 0)) * 2 + (1 if hit else 0)
