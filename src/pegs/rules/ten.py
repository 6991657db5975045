"""The North Carolina ten, counted without listing it.

A ten splits 10 between two pegs of different colours; with every peg on the board movable
and every part size from 1 to 9 in both directions, a position can have thousands of
legal splits, and a player uses one.  Most splits are two parts that cannot affect each
other: each part's landing (with its hits) reads and changes holes the other part never
touches, so the split is legal when both parts are, leads to the sum of the two changes,
and is the same move in either order.  :class:`TenSplits` holds, per peg and part size,
the parts that are legal on the unchanged board (:class:`Part`); the splits are then the
pairs of parts of two pegs of different colours with sizes adding to 10, less the pair
groups that can interact (the generator simulates and lists those) and the single pairs
that a listed move already reaches.  Their number is arithmetic; the ``i``-th split and
the check of a given action are built directly.
"""

from __future__ import annotations

from bisect import bisect_right

from .actions import Action, Step
from .board import Geometry
from .board_work import Change, Pegs, moved

#: A group of splits: (first peg, second peg, first part's size, first forward, second forward)
#: with the first peg listed before the second.
Group = tuple[int, int, int, bool, bool]
#: One split of the counted set: (first peg, part size, part index, second peg, part index).
Pick = tuple[int, int, int, int, int]


class Part:
    """One peg's part of a ten on the unchanged board: where it lands, the holes its
    landing reads or changes (``touched``), and, if legal, the pegs it moves."""

    __slots__ = ("changes", "dst", "forward", "hit", "legal", "touched")

    def __init__(self, dst: int, forward: bool, hit: bool, legal: bool,
                 changes: tuple[Change, ...], touched: tuple[int, ...]) -> None:
        self.dst = dst
        self.forward = forward
        self.hit = hit
        self.legal = legal
        self.changes = changes
        self.touched = touched


def group_order(group: Group) -> tuple[int, int, int, bool, bool]:
    """Where the full enumeration of a ten meets a group (pegs, size, forward first)."""
    i, j, k, fx, fy = group
    return i, j, k, not fx, not fy


def _net(changes: tuple[Change, ...]) -> tuple[tuple[int, tuple[int, ...], tuple[int, ...]], ...]:
    """The board change of some peg moves, per seat: (seat, holes left, holes taken),
    with a hole left and taken again by the same colour cancelled out."""
    seats = sorted({q for q, _, _ in changes})
    out = []
    for q in seats:
        gone = [a for c, a, _ in changes if c == q]
        came = [b for c, _, b in changes if c == q]
        for h in list(gone):
            if h in came:
                gone.remove(h)
                came.remove(h)
        if gone or came:
            out.append((q, tuple(sorted(gone)), tuple(sorted(came))))
    return tuple(out)


def interact(x: Part, px: int, y: Part, py: int) -> bool:
    """Can these two parts (of the pegs at ``px`` and ``py``) affect each other?"""
    if py in x.touched or px in y.touched:
        return True
    return any(h in y.touched for h in x.touched)


class TenSplits:
    """The counted splits of one ten: ``len``, the ``i``-th action, and membership."""

    __slots__ = ("_counts", "_found", "_index", "_made", "_occ", "_prefix", "_subtract",
                 "base", "card", "geo", "groups", "mover", "names", "parts", "pegs",
                 "seat_end", "skip", "suffix")

    def __init__(self, card: str, geo: Geometry, base: Pegs, mover: int,
                 pegs: list[tuple[int, int]], parts: list[list[list[Part]]],
                 groups: set[Group], twins: set[int]) -> None:
        self.card = card
        self.geo = geo
        self.base = base
        self.mover = mover
        self.names = geo.names_for(mover)
        self.pegs = pegs
        #: parts[i][k]: the legal parts of size k of peg i, forward ones first.
        self.parts = parts
        #: Groups that can interact: listed by the generator, not counted here.
        self.groups = groups
        #: Single splits a listed move already reaches.
        self.skip: set[Pick] = set()
        n = len(pegs)
        ends = [0] * n
        i = 0
        while i < n:
            j = i
            while j < n and pegs[j][0] == pegs[i][0]:
                j += 1
            for m in range(i, j):
                ends[m] = j
            i = j
        #: seat_end[i]: the first peg after i of another seat (pegs come seat by seat).
        self.seat_end = ends
        #: suffix[k][i]: legal parts of size k of pegs i and later.
        suffix = [[0] * (n + 1) for _ in range(10)]
        for k in range(1, 10):
            row = suffix[k]
            for m in range(n - 1, -1, -1):
                row[m] = row[m + 1] + len(parts[m][k])
        self.suffix = suffix
        self._subtract: dict[tuple[int, int, bool], int] = {}
        self._counts: list[int] = []
        self._prefix: list[int] = []
        self._made: dict[Action, Pick] = {}
        self._index: dict[tuple[int, int], int] = {}
        self._occ: list[int] = []
        self._found = False
        self._skip_twins(twins)

    def _skip_twins(self, own: set[int]) -> None:
        """A part that hits its own colour can change the board as another part does (8
        forward onto an own peg and 8 back onto another, both sent to the door; onto the
        own peg 1 ahead, sent to the door 5 behind, like moving 5 back), or not at all
        (from its door onto an own peg sent back to that door).  Splits made of such parts
        repeat each other: keep the one the full enumeration finds first (a split with a
        hit before a plain one, then group order).  ``own``: pegs with an own-colour hit."""
        kinds: dict[int, list[list[object]]] = {}
        for m in own:
            rows: list[list[object]] = [[_net(part.changes) for part in row]
                                        for row in self.parts[m]]
            flat = [kind for row in rows for kind in row]
            if () in flat or len(set(flat)) < len(flat):
                kinds[m] = rows
        if not kinds:
            return
        best: dict[frozenset[object], tuple[tuple[bool, Group], Pick]] = {}
        for i in range(len(self.pegs)):
            for j in range(self.seat_end[i], len(self.pegs)):
                if i not in kinds and j not in kinds:
                    continue
                for k in range(1, 10):
                    for a, x in enumerate(self.parts[i][k]):
                        kx = kinds[i][k][a] if i in kinds else (i, k, a)
                        for b, y in enumerate(self.parts[j][10 - k]):
                            group = (i, j, k, x.forward, y.forward)
                            if group in self.groups:
                                continue
                            ky = kinds[j][10 - k][b] if j in kinds else (j, 10 - k, b)
                            kind = frozenset(v for v in (kx, ky) if v != ())
                            rank = (not (x.hit or y.hit), group_order(group))
                            pick = (i, k, a, j, b)
                            old = best.get(kind)
                            if old is None:
                                best[kind] = (rank, pick)
                            elif rank < old[0]:
                                self.skip.add(old[1])
                                best[kind] = (rank, pick)
                            else:
                                self.skip.add(pick)

    # --- counting -------------------------------------------------------------------------
    def _count(self) -> None:
        """Per peg, the number of counted splits in which it moves first."""
        sub = self._subtract
        for i, j, k, fx, fy in self.groups:
            sub[(i, k, fx)] = sub.get((i, k, fx), 0) + sum(
                1 for p in self.parts[j][10 - k] if p.forward == fy)
        skipped: dict[int, int] = {}
        for pick in self.skip:
            skipped[pick[0]] = skipped.get(pick[0], 0) + 1
        total = 0
        prefix = [0]
        for i in range(len(self.pegs)):
            end = self.seat_end[i]
            own = 0
            for k in range(1, 10):
                others = self.suffix[10 - k][end]
                for part in self.parts[i][k]:
                    own += others - sub.get((i, k, part.forward), 0)
            own -= skipped.get(i, 0)
            self._counts.append(own)
            total += own
            prefix.append(total)
        self._prefix = prefix
        self._found = True

    def __len__(self) -> int:
        if not self._found:
            self._count()
        return self._prefix[-1]

    def _first_part(self, i: int, rest: int) -> tuple[int, int, int]:
        """(part size, part index, position among its splits) of split ``rest`` of peg i."""
        end = self.seat_end[i]
        for k in range(1, 10):
            others = self.suffix[10 - k][end]
            for a, part in enumerate(self.parts[i][k]):
                here = others - self._subtract.get((i, k, part.forward), 0)
                here -= sum(1 for s in self.skip if s[0] == i and s[1] == k and s[2] == a)
                if rest < here:
                    return k, a, rest
                rest -= here
        raise IndexError("ten split index out of range")

    def pick(self, n: int) -> Pick:
        """The ``n``-th counted split."""
        if not self._found:
            self._count()
        i = bisect_right(self._prefix, n) - 1
        k, a, rest = self._first_part(i, n - self._prefix[i])
        fx = self.parts[i][k][a].forward
        for j in range(self.seat_end[i], len(self.pegs)):
            for b, part in enumerate(self.parts[j][10 - k]):
                if (i, j, k, fx, part.forward) in self.groups or (i, k, a, j, b) in self.skip:
                    continue
                if rest == 0:
                    return i, k, a, j, b
                rest -= 1
        raise IndexError("ten split index out of range")

    def group_of(self, pick: Pick) -> Group:
        i, k, a, j, b = pick
        return i, j, k, self.parts[i][k][a].forward, self.parts[j][10 - k][b].forward

    def picks_to(self, result: Pegs, cands: list[int]) -> list[Pick]:
        """The counted splits of pegs among ``cands`` that lead to ``result``."""
        out = []
        for i in cands:
            qx = self.pegs[i][0]
            for k in range(1, 10):
                for a, x in enumerate(self.parts[i][k]):
                    if x.dst not in result[qx]:
                        continue
                    for j in cands:
                        if j < self.seat_end[i]:
                            continue  # the second peg comes later and is of another seat
                        qy = self.pegs[j][0]
                        for b, y in enumerate(self.parts[j][10 - k]):
                            pick = (i, k, a, j, b)
                            if (y.dst in result[qy] and pick not in self.skip
                                    and (i, j, k, x.forward, y.forward) not in self.groups
                                    and self.layout(pick) == result):
                                out.append(pick)
        return out

    # --- actions --------------------------------------------------------------------------
    def action(self, pick: Pick) -> Action:
        i, k, a, j, b = pick
        x, y = self.parts[i][k][a], self.parts[j][10 - k][b]
        (qx, px), (qy, py) = self.pegs[i], self.pegs[j]
        nx, ny = self.names[qx], self.names[qy]
        act = Action(self.card, (
            Step(nx[px + 1], nx[x.dst + 1], ">" if x.forward else "<", x.hit),
            Step(ny[py + 1], ny[y.dst + 1], ">" if y.forward else "<", y.hit),
        ))
        self._made[act] = pick
        return act

    def layout(self, pick: Pick) -> Pegs:
        i, k, a, j, b = pick
        return moved(self.base, self.parts[i][k][a].changes + self.parts[j][10 - k][b].changes)

    def outcome(self, action: Action) -> Pegs | None:
        """The layout a counted split leads to, or None if ``action`` is not one."""
        pick = self._made.get(action)
        if pick is None:
            pick = self._find(action)
        return None if pick is None else self.layout(pick)

    def _find(self, action: Action) -> Pick | None:
        """The counted split that ``action`` spells, checked against the parts."""
        if (action.card != self.card or action.discard or action.declared
                or action.decision or len(action.steps) != 2):
            return None
        first = self._part_of(action.steps[0])
        second = self._part_of(action.steps[1])
        if first is None or second is None:
            return None
        (i, k, a), (j, k2, b) = first, second
        if k + k2 != 10 or j < self.seat_end[i]:
            return None  # not a ten, same colour, or the other order (an alias)
        fx, fy = self.parts[i][k][a].forward, self.parts[j][k2][b].forward
        if (i, j, k, fx, fy) in self.groups or (i, k, a, j, b) in self.skip:
            return None
        pick = (i, k, a, j, b)
        return pick if self.action(pick) == action else None

    def _part_of(self, step: Step) -> tuple[int, int, int] | None:
        """(peg, part size, part index) of a step's legal part, if there is one."""
        src = self._where(step.src)
        if src is None:
            return None
        if not self._index:
            self._index = {peg: i for i, peg in enumerate(self.pegs)}
        i = self._index.get(src, -1)
        if i < 0:
            return None
        forward = step.op == ">"
        names = self.names[src[0]]
        for k in range(1, 10):
            for a, part in enumerate(self.parts[i][k]):
                if part.forward == forward and names[part.dst + 1] == step.dst:
                    return i, k, a
        return None

    def _where(self, name: str) -> tuple[int, int] | None:
        """(seat, position) of the peg a step's source names on the unchanged board."""
        geo = self.geo
        text, _, owner = name.partition("@")
        try:
            pos = geo.parse(text)
        except ValueError:
            return None
        if 0 <= pos < geo.ring_size:
            if not self._occ:
                occ = [-1] * geo.ring_size
                for q, ps in enumerate(self.base):
                    for p in ps:
                        if 0 <= p < geo.ring_size:
                            occ[p] = q
                self._occ = occ
            return self._occ[pos], pos
        if not owner:
            return self.mover, pos
        return (int(owner), pos) if owner.isdigit() and int(owner) < geo.players else None
