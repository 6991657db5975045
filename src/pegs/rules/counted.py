"""Two-part moves counted without listing them: the North Carolina ten, 7 and 9 splits.

A ten splits 10 between two pegs of different colours; with every peg on the board movable
and every part size from 1 to 9 in both directions, a position can have thousands of
legal splits, and a player uses one (team control gives 7 and 9 splits by the hundred
too).  Most splits are two parts that cannot affect each other: each part's landing (with
its hits) reads and changes holes the other part never touches, so the split is legal when
both parts are, leads to the sum of the two changes, and is the same move in either order.
:class:`CountedSplits` holds, per peg and part size, the parts that are legal on the
unchanged board (:class:`Part`); its splits are the pairs of a first part and a second
part of another peg with sizes adding to the card's count, less the pairs that interact
(the generator simulates those) and the pairs that repeat a board another split reaches
first.  Their number is arithmetic; the ``i``-th split and the check of a given action are
built directly.  The simulated splits come first in the listing (``listed``), kept as
numbers (two steps and the scratch board's log) and spelled only when indexed or looked up.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Final

from librt.vecs import append, vec
from mypy_extensions import i64

from .actions import Action, Step
from .board import Geometry
from .board_work import Pegs, has, moved
from .code_set import CodeSet
from .deferred import Deferred
from .listed import Listed, peg_in
from .pairs import (
    SLOTS,
    Net,
    Pick,
    flat_keys,
    group_code,
    group_order,
    holds,
    key_shared,
    net_change,
    pick_code,
    plain_to,
)
from .part import Part
from .walks import key_change, peg_named

#: Builds a named tuple (Step, Action) without the interpreted ``__new__`` of its class.
_new: Final = tuple.__new__


class CountedSplits(Deferred):
    """The splits of one card: ``len``, the ``i``-th action, and membership.

    The splits whose parts interact come first (``listed``: simulated by the
    generator, kept as numbers and spelled when indexed or looked up), then the counted
    ones."""

    __slots__ = ("_first_at", "_first_keys", "_found", "_index", "_made", "_occ",
                 "_prefix", "_seats", "_second_at", "_second_keys", "_silent", "_skipped",
                 "_slots", "_spelled", "_suffix", "base", "card", "eager", "first", "geo",
                 "listed", "mover", "names", "parts", "pegs", "skip", "skip_self", "start",
                 "total")

    def __init__(self, card: str, geo: Geometry, base: Pegs, mover: int,
                 pegs: list[tuple[int, int]], first: list[list[list[Part]]],
                 second: list[list[list[Part]]], total: int, start: list[int],
                 skip_self: bool, skip: CodeSet, eager: CodeSet | None) -> None:
        self.card = card
        self.geo = geo
        self.base = base
        self.mover = mover
        self.names = geo.names_for(mover)
        self.pegs = pegs
        #: first[i][k], parts[j][k]: the legal parts of size k of a peg that can make the
        #: first and the second part of a split (in target order).
        self.first = first
        self.parts = second
        self.total = total
        #: The second peg of a split with first peg i is j >= start[i] (and j != i
        #: with ``skip_self``).
        self.start = start
        self.skip_self = skip_self
        #: For a ten, the groups the full enumeration simulates as a whole (one part lands
        #: on the other peg, or moves it), as :func:`group_code` makes them: their plain
        #: splits are found in group order, not last.  None for a 7 or 9, whose splits are
        #: found in order.
        self.eager = eager
        #: Splits not counted: interacting ones (listed by the generator) and repeats, as
        #: :func:`pick_code` makes them (a tuple per split costs several times as much).
        self.skip = skip
        #: At k * (pegs + 1) + i: the legal second parts of size k of pegs i and later.
        self._suffix = vec[i64]()
        #: Per first part, at (peg * 10 + size) * ``_slots`` + index, the splits left out of
        #: the count; ``_slots`` exceeds every part index.
        self._skipped = vec[i64]()
        self._slots = 1
        self._prefix: list[int] = []
        self._made: dict[Action, Pick] = {}
        #: The legal parts' key changes in native arrays (see :func:`_flat_keys`), made
        #: when first needed.
        self._first_at = vec[i64]()
        self._first_keys = vec[i64]()
        self._second_at = vec[i64]()
        self._second_keys = vec[i64]()
        #: peg_at's table: the peg index per ring hole and home hole (-1: none), and
        #: each peg's seat.
        self._index = vec[i64]()
        self._seats = vec[i64]()
        self._occ = vec[i64]()
        self._found = False
        #: Pegs with a part that changes nothing at all (a ten's, see :meth:`skip_twins`).
        self._silent: list[int] = []
        #: The simulated splits, in listing order (see :meth:`spell`).
        self.listed = Listed(base, geo.flat_keys, len(geo.keys[0]))
        #: Each listed split's action, once every one has been spelled for a look-up.
        self._spelled: dict[Action, int] = {}

    def skip_twins(self, own: set[int]) -> None:
        """A part that hits its own colour can change the board as another part does (8
        forward onto an own peg and 8 back onto another, both sent to the door; onto the
        own peg 1 ahead, sent to the door 5 behind, like moving 5 back), or not at all
        (from its door onto an own peg sent back to that door).  Splits made of such parts
        repeat each other: keep the one the full enumeration finds first.  ``own``: the
        pegs with a part that hits their own colour.  Called once the interacting splits
        are left out of the count and the groups simulated whole are known."""
        kinds: dict[tuple[int, int, int], int] = {}  # a twin part -> the number of its change
        numbers: dict[Net, int] = {(): 0}
        for m in own:
            q, p = self.pegs[m]
            nets: dict[Net, list[tuple[int, int]]] = {}
            rows = self.first[m]
            for k in range(1, self.total):
                row = rows[k]
                for a in range(len(row)):
                    part = row[a]
                    # a part's change has one layout key: a hit part whose key no other part
                    # of the peg shares (and not zero, the key of no change) is nobody's twin
                    if part.hit and (part.key == 0 or key_shared(rows, part)):
                        nets.setdefault(net_change(part.changes), []).append((k, a))
            if not nets:
                continue
            for net, where in nets.items():
                if len(net) == 1 and net[0][:2] == (q, (p,)) and len(net[0][2]) == 1:
                    twin = plain_to(rows, net[0][2][0])  # like a plain move of the peg alone
                    if twin is not None:
                        where.append(twin)
            for net, where in nets.items():
                if net == ():
                    self._silent.append(m)
                if net == () or len(where) > 1:
                    number = numbers.setdefault(net, len(numbers))
                    for k, a in where:
                        kinds[(m, k, a)] = number
        if not kinds:
            return
        # a split's board change, as the numbers of its parts' changes (a part that is no
        # twin numbered by itself, below zero; a part that changes nothing left out)
        best: dict[tuple[int, ...], Pick] = {}
        ordered = sorted(kinds)
        # a split of a twin part and a part that is none can only repeat another split of
        # that part and a twin of the same change and size: with no such twin, the other
        # parts that can matter are twins too
        sizes: dict[tuple[int, int], int] = {}
        for m, k, a in ordered:
            size = (kinds[(m, k, a)], k)
            sizes[size] = sizes.get(size, 0) + 1
        for m, k, a in ordered:
            other = self.total - k
            if sizes[(kinds[(m, k, a)], k)] > 1:
                partners = [(n, b) for n in range(len(self.pegs))
                            for b in range(len(self.parts[n][other]))]
            else:
                partners = [(n, b) for n, kk, b in ordered if kk == other]
            for n, b in partners:
                if self.pegs[n][0] == self.pegs[m][0]:
                    continue
                pick = (m, k, a, n, b) if m < n else (n, self.total - k, b, m, a)
                if pick_code(pick) in self.skip:
                    continue
                i, kk, aa, j, bb = pick
                second = self.total - kk
                u = kinds.get((i, kk, aa), -1 - (i * 16 + kk) * 256 - aa)
                v = kinds.get((j, second, bb), -1 - (j * 16 + second) * 256 - bb)
                key = (min(u, v), max(u, v)) if u and v else (u + v,) if u or v else ()
                old = best.get(key)
                if old is None or old == pick:
                    best[key] = pick
                elif self.rank(pick) < self.rank(old):
                    self.skip.add(pick_code(old))
                    best[key] = pick
                else:
                    self.skip.add(pick_code(pick))

    def rank(self, pick: Pick) -> tuple[bool, tuple[int, ...]]:
        """When the full enumeration finds a split: for a ten, simulated groups in order,
        then the plain splits (no hit) of the other groups; for a 7 or 9, (order of the
        directions, first peg, size, target, second peg, target)."""
        i, k, a, j, b = pick
        if self.eager is None:
            # a 7's or 9's illegal part can only be the last of its row (after the part
            # into home), so a legal part's index is its index among the targets too
            return False, (0, i, k, a, j, b)
        x, y = self.first[i][k][a], self.parts[j][self.total - k][b]
        eager = group_code(i, j, k, x.forward, y.forward) in self.eager
        return not (x.hit or y.hit or eager), group_order((i, j, k, x.forward, y.forward))

    # --- counting -------------------------------------------------------------------------
    def _count(self) -> None:
        """Per peg, the number of counted splits in which it moves first."""
        self._flatten()
        x_at, y_at = self._first_at, self._second_at
        pegs: i64 = len(self.pegs)
        size: i64 = self.total
        slots: i64 = 1
        for r in range(10 * pegs):
            if x_at[r + 1] - x_at[r] >= slots:
                slots = x_at[r + 1] - x_at[r] + 1
        self._slots = slots
        suffix = vec[i64]([0] * (10 * (pegs + 1)))
        for k in range(1, size):
            for m in range(pegs - 1, -1, -1):
                suffix[k * (pegs + 1) + m] = (suffix[k * (pegs + 1) + m + 1] + y_at[m * 10 + k + 1]
                                              - y_at[m * 10 + k])
        self._suffix = suffix
        skipped = vec[i64]([0] * (pegs * 10 * slots))
        per_peg = vec[i64]([0] * pegs)
        codes = self.skip.codes()
        for n in range(len(codes)):
            first = codes[n] // (SLOTS * SLOTS)  # (i * 10 + k) * SLOTS + a
            at = first // SLOTS * slots + first % SLOTS
            skipped[at] = skipped[at] + 1
            per_peg[first // (SLOTS * 10)] = per_peg[first // (SLOTS * 10)] + 1
        self._skipped = skipped
        total: i64 = 0
        prefix = [0]
        for i in range(pegs):
            own = -per_peg[i]
            for k in range(1, size):
                own += (x_at[i * 10 + k + 1] - x_at[i * 10 + k]) * self._others(i, size - k)
            total += own
            prefix.append(total)
        self._prefix = prefix
        self._found = True

    def __len__(self) -> int:
        if not self._found:
            self._count()
        return len(self.listed) + self._prefix[-1]

    def nth(self, n: int) -> Action:
        """The ``n``-th action: a listed split, or a counted one after them."""
        if n < len(self.listed):
            action = self.spell(n)
            self._spelled[action] = n
            return action
        return self.action(self.pick(n - len(self.listed)))

    def layout_at(self, n: int) -> Pegs:
        if n < len(self.listed):
            return self.listed.layout(n)
        return self.layout(self.pick(n - len(self.listed)))

    def played(self) -> str:
        return self.card

    def _first_part(self, i: int, rest: int) -> tuple[int, int, int]:
        """(part size, part index, position among its splits) of split ``rest`` of peg i."""
        for k in range(1, self.total):
            others = self._others(i, self.total - k)
            for a in range(len(self.first[i][k])):
                here = others - self._skipped[(i * 10 + k) * self._slots + a]
                if rest < here:
                    return k, a, rest
                rest -= here
        raise IndexError("split index out of range")

    def _others(self, i: i64, size: i64) -> i64:
        """The second parts of ``size`` that can go with a first part of peg i."""
        start: i64 = self.start[i]
        n = self._suffix[size * (len(self.pegs) + 1) + start]
        if self.skip_self and i >= start:
            n -= self._second_at[i * 10 + size + 1] - self._second_at[i * 10 + size]
        return n

    def allowed(self, i: int, j: int) -> bool:
        """Can peg j make the second part of a split whose first part peg i makes?"""
        return j >= self.start[i] and not (self.skip_self and j == i)

    def pick(self, n: int) -> Pick:
        """The ``n``-th counted split (after the listed ones)."""
        if not self._found:
            self._count()
        i = bisect_right(self._prefix, n) - 1
        k, a, rest = self._first_part(i, n - self._prefix[i])
        check = self._skipped[(i * 10 + k) * self._slots + a] > 0
        for j in range(self.start[i], len(self.pegs)):
            if self.skip_self and j == i:
                continue
            row = len(self.parts[j][self.total - k])
            if not check and rest >= row:
                rest -= row
                continue
            for b in range(row):
                if check and pick_code((i, k, a, j, b)) in self.skip:
                    continue
                if rest == 0:
                    return i, k, a, j, b
                rest -= 1
        raise IndexError("split index out of range")

    def picks_to(self, result: Pegs) -> list[Pick]:
        """The counted splits that lead to ``result``."""
        # the pegs that moved have left their holes (but for a part that changes nothing);
        # the layout's key tells which pairs of parts can lead to it
        cands = list(self._silent)
        for q, ps in enumerate(self.base):
            now = result[q]
            if now is not ps:
                for p in ps:
                    if not holds(now, p):
                        i = self.peg_at(q, p)
                        if i >= 0 and not has(cands, i):
                            cands.append(i)
        delta = key_change(self.geo.keys, self.base, result)
        if not self._may_reach(cands, delta):
            return []
        cands.sort()
        out = []
        total = self.total
        for i in cands:
            firsts = self.first[i]
            for j in cands:
                if not self.allowed(i, j):
                    continue
                seconds = self.parts[j]
                for k in range(1, total):
                    ys = seconds[total - k]
                    if not ys:
                        continue
                    for a, x in enumerate(firsts[k]):
                        for b, y in enumerate(ys):
                            if x.key + y.key == delta:
                                pick = (i, k, a, j, b)
                                if (pick_code(pick) not in self.skip
                                        and self.layout(pick) == result):
                                    out.append(pick)
        return out

    def peg_at(self, seat: int, pos: int) -> int:
        """The index of the peg of ``seat`` at ``pos`` on the unchanged board, or -1 (``pos``
        may be start or the hand too)."""
        return peg_in(self._peg_index(), self._seats, self.geo.ring_size,
                      self.geo.home_holes, seat, pos)

    def _peg_index(self) -> vec[i64]:
        """:meth:`peg_at`'s table (see :func:`peg_in`), made when first needed."""
        if len(self._index) == 0:
            ring: i64 = self.geo.ring_size
            home: i64 = self.geo.home_holes
            index = vec[i64]([-1] * (ring + home * len(self.base)))
            seats = vec[i64](capacity=len(self.pegs))
            for i, (q, p) in enumerate(self.pegs):
                index[p if p < ring else p + q * home] = i
                seats = append(seats, q)
            self._index = index
            self._seats = seats
        return self._index

    def _may_reach(self, cands: list[int], delta: int) -> bool:
        """Can a counted split of two of ``cands`` (the pegs that moved, a superset) change
        the layout's key by ``delta``?  (Those left out of the count included.)"""
        self._flatten()
        xs, x_at = self._first_keys, self._first_at
        ys, y_at = self._second_keys, self._second_at
        total: i64 = self.total
        change: i64 = delta
        for i in cands:
            for j in cands:
                if i == j or not self.allowed(i, j):
                    continue
                row_x: i64 = i * 10
                row_y: i64 = j * 10 + total
                for k in range(1, total):
                    lo, hi = y_at[row_y - k], y_at[row_y - k + 1]
                    if lo < hi:
                        for a in range(x_at[row_x + k], x_at[row_x + k + 1]):
                            rest = change - xs[a]
                            for b in range(lo, hi):
                                if ys[b] == rest:
                                    return True
        return False


    def _flatten(self) -> None:
        """Make the native arrays of the parts' key changes, if not made yet."""
        if len(self._first_at) == 0:
            self._first_keys, self._first_at = flat_keys(self.first, self.total)
            if self.parts is self.first:  # a ten's
                self._second_keys, self._second_at = self._first_keys, self._first_at
            else:
                self._second_keys, self._second_at = flat_keys(self.parts, self.total)

    def _moved_pairs(self) -> vec[bool]:
        """At i * pegs + j: whether some listed split leaves the holes of pegs i and j
        empty (a peg with a part that changes nothing counts as left).  A counted split
        leaves both its pegs' holes, so only such pairs can reach a listed layout."""
        return self.listed.pairs_left(self._peg_index(), self._seats, self.geo.ring_size,
                                      self.geo.home_holes, self._silent)

    def reached(self) -> vec[bool]:
        """For each listed split, can a counted split (those left out of the count
        included) change the layout's key as it does?  All splits at once: a pass over
        the pairs of parts of the pegs :meth:`_moved_pairs` marks, each sum looked up in
        a table of the listed splits' key changes (a listed split whose layout a counted
        one reaches has that split's key change, its parts' sum)."""
        deltas = self.listed.deltas
        pairs = self._moved_pairs()
        out = vec[bool]([False] * len(deltas))
        size: i64 = 16
        while size < 2 * len(deltas):
            size *= 2
        mask = size - 1
        table = vec[i64]([0] * size)  # index + 1 of a delta per slot, 0 when free
        seen = vec[i64]([0] * 128)  # bit (delta & 4095) set for each delta: most sums miss
        for n in range(len(deltas)):
            h = deltas[n] & mask
            while table[h] != 0:
                h = (h + 1) & mask
            table[h] = n + 1
            bit = deltas[n] & 4095
            seen[bit >> 5] = seen[bit >> 5] | (1 << (bit & 31))
        self._flatten()
        xs, x_at = self._first_keys, self._first_at
        ys, y_at = self._second_keys, self._second_at
        total: i64 = self.total
        pegs: i64 = len(self.pegs)
        for i in range(pegs):
            first: i64 = self.start[i]
            for k in range(1, total):
                x_lo, x_hi = x_at[i * 10 + k], x_at[i * 10 + k + 1]
                if x_lo == x_hi:
                    continue
                for j in range(first, pegs):
                    if not pairs[i * pegs + j] or (j == i and self.skip_self):
                        continue
                    lo, hi = y_at[j * 10 + total - k], y_at[j * 10 + total - k + 1]
                    for a in range(x_lo, x_hi):
                        key = xs[a]
                        for b in range(lo, hi):
                            total_key = key + ys[b]
                            bit = total_key & 4095
                            if (seen[bit >> 5] >> (bit & 31)) & 1 == 0:
                                continue
                            h = total_key & mask
                            while table[h] != 0:
                                if deltas[table[h] - 1] == total_key:
                                    out[table[h] - 1] = True
                                h = (h + 1) & mask
        return out

    # --- actions --------------------------------------------------------------------------
    def action(self, pick: Pick) -> Action:
        i, k, a, j, b = pick
        x, y = self.first[i][k][a], self.parts[j][self.total - k][b]
        qx, px = self.pegs[i]
        qy, py = self.pegs[j]
        nx, ny = self.names[qx], self.names[qy]
        act = _new(Action, (self.card, (
            _new(Step, (nx[px + 1], nx[x.dst + 1], ">" if x.forward else "<", x.hit)),
            _new(Step, (ny[py + 1], ny[y.dst + 1], ">" if y.forward else "<", y.hit)),
        ), False, "", ""))
        self._made[act] = pick
        return act

    def spell(self, n: int) -> Action:
        """The action of listed split ``n``."""
        names = self.names
        steps = []
        for second in (False, True):
            q, a, b, forward, hit = self.listed.step(n, second)
            steps.append(_new(Step, (names[q][a + 1], names[q][b + 1], ">" if forward else "<",
                                     hit)))
        return _new(Action, (self.card, tuple(steps), False, "", ""))

    def listed_index(self, action: Action) -> int:
        """The index of ``action`` among the listed splits, or -1 (an action indexed before
        is found without spelling the others)."""
        found = self._spelled.get(action, -1)
        if found < 0 and len(self._spelled) < len(self.listed):
            self._spelled = {self.spell(n): n for n in range(len(self.listed))}
            found = self._spelled.get(action, -1)
        return found

    def layout(self, pick: Pick) -> Pegs:
        i, k, a, j, b = pick
        return moved(self.base,
                     self.first[i][k][a].moves() + self.parts[j][self.total - k][b].moves())

    def outcome(self, action: Action) -> Pegs | None:
        """The layout a counted split leads to, or None if ``action`` is not one."""
        if action.card != self.card or len(action.steps) != 2:
            return None
        pick = self._made.get(action)
        if pick is None:
            n = self.listed_index(action)
            if n >= 0:
                return self.listed.layout(n)
            pick = self._find(action)
        return None if pick is None else self.layout(pick)

    def _find(self, action: Action) -> Pick | None:
        """The counted split that ``action`` spells, checked against the parts."""
        if (action.card != self.card or action.discard or action.declared
                or action.decision or len(action.steps) != 2):
            return None
        first = self._part_of(action.steps[0], self.first)
        second = self._part_of(action.steps[1], self.parts)
        if first is None or second is None:
            return None
        i, k, a = first
        j, k2, b = second
        if k + k2 != self.total or not self.allowed(i, j):
            return None  # another count, the same peg or colour, or the other order
        pick = (i, k, a, j, b)
        if pick_code(pick) in self.skip:
            return None
        return pick if self.action(pick) == action else None

    def _part_of(self, step: Step, parts: list[list[list[Part]]]
                 ) -> tuple[int, int, int] | None:
        """(peg, part size, part index) of a step's legal part, if there is one."""
        src = self._where(step.src)
        if src is None:
            return None
        i = self.peg_at(src[0], src[1])
        if i < 0:
            return None
        forward = step.op == ">"
        names = self.names[src[0]]
        for k in range(1, self.total):
            for a, part in enumerate(parts[i][k]):
                if part.forward == forward and names[part.dst + 1] == step.dst:
                    return i, k, a
        return None

    def _where(self, name: str) -> tuple[int, int] | None:
        """(seat, position) of the peg a step's source names on the unchanged board."""
        if len(self._occ) == 0:
            occ = self.geo.no_pegs[0:self.geo.ring_size]
            for q, ps in enumerate(self.base):
                for p in ps:
                    if 0 <= p < self.geo.ring_size:
                        occ[p] = q
            self._occ = occ
        return peg_named(self.geo, self._occ, self.mover, name)
