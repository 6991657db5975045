"""The 7 and 9 splits counted, not listed (RULES.md section 2).

From two movable pegs a card's splits are counted (:class:`~pegs.rules.counted.CountedSplits`):
the splits whose parts cannot meet are numbers, only the others simulated on the scratch
board.  :class:`SplitCounter` is extended by the ten's (:mod:`pegs.rules.ten_count`).
"""

from __future__ import annotations

from mypy_extensions import i64

from .board import START, Geometry
from .board_work import IN_HAND, Change, Pegs, WorkBoard, has
from .code_set import CodeSet
from .counted import CountedSplits
from .listed import Listed, Make
from .pairs import (
    interact,
    numbered,
    on_way,
    pick_code,
)
from .part import Part


def _split_interact(x: Part, qa: int, pa: int, y: Part, qb: int, pb: int, ring: int) -> bool:
    """Can two parts of a 7 or 9 affect each other: landings and hits (as for a ten), or
    one moving a peg of the other's colour onto or off its way?"""
    if interact(x, pa, y, pb):
        return True
    return (_moves_on(x, qb, pb, y.walk, y.home_lo, y.home_hi, ring)
            or _moves_on(y, qa, pa, x.walk, x.home_lo, x.home_hi, ring))


def _moves_on(part: Part, seat: int, p: int, walk: int, lo: int, hi: int, ring: int) -> bool:
    """Does ``part`` take or put a peg of ``seat`` on a way (see :func:`on_way`) from ``p``?"""
    if not part.hit:
        return part.seat == seat and (on_way(part.src, p, walk, lo, hi, ring)
                                      or on_way(part.dst, p, walk, lo, hi, ring))
    for q, a, b in part.changes:
        if q == seat and (on_way(a, p, walk, lo, hi, ring) or on_way(b, p, walk, lo, hi, ring)):
            return True
    return False


def _plain(parts: list[Part | None], at: int, keys: tuple[int, ...], seat: int, p: int, d: int,
           forward: bool, walk: int, lo: int = 0, hi: int = 0) -> Part:
    """Make the part that hits nobody at ``at`` of :meth:`Geometry.plain_parts` (of the peg
    of ``seat`` at ``p``, ``keys`` the seat's :attr:`Geometry.keys`) and keep it there.
    (Callers look it up first, inline: compiled, a call costs more than the look-up.)"""
    part = Part(seat, p, d, forward, keys[d + 1] - keys[p + 1], walk=walk, home_lo=lo,
                home_hi=hi)
    parts[at] = part
    return part


def _close(holes: list[int], p: int, ring: int) -> bool:
    """Is ring hole ``p`` within 9 holes of one of ``holes``?"""
    if p >= ring:
        return False
    return any((h - p) % ring <= 9 or (p - h) % ring <= 9 for h in holes)


class SplitCounter:
    """Counts the 7 and 9 splits of one position, on the listing's scratch board (left
    unchanged)."""

    def __init__(self, geo: Geometry, pegs: Pegs, mover: int, board: WorkBoard,
                 own_movable: list[tuple[int, int]]) -> None:
        self.geo = geo
        self.pegs = pegs
        self.mover = mover
        self.board = board
        self.pass_own = geo.rules.may_pass_own
        self.turn_in = geo.rules.must_turn_in_at_door
        #: The pegs the mover may move, as (seat, position).
        self.own_movable = own_movable
        self._reach: dict[tuple[int, int], tuple[int, int, int]] = {}
        self._own_hits: set[tuple[int, int]] = set()  # pegs whose ten part hits own colour
        #: The ten being counted.
        self._ten: CountedSplits | None = None

    def make(self, seat: int, src: int, dst: int, op: str, hit_own: bool = False) -> Make:
        """A step judged (for its hit mark) on the current board, kept as numbers.  With
        ``hit_own`` (North Carolina ten) landing on its own colour is a hit too."""
        occupant = self.board.occ[dst] if 0 <= dst < self.geo.ring_size else -1
        return seat, src, dst, op, occupant != -1 and (hit_own or occupant != seat)

    def reach(self, seat: int, p: int) -> tuple[int, int, int]:
        """For a ring peg on the base board: (holes to its door, holes to the next own
        peg ahead, free home holes), so that :meth:`base_forward` is O(1) per count."""
        got = self._reach.get((seat, p))
        if got is None:
            ring = self.geo.ring_size
            ps = self.pegs[seat]
            on_ring = [h for h in ps if 0 <= h < ring]
            free = self.geo.home_holes  # home holes below the lowest home peg
            for h in ps:
                if ring <= h < ring + free:
                    free = h - ring
            door = self.geo.door[seat]
            for i, h in enumerate(on_ring):
                ahead = (on_ring[(i + 1) % len(on_ring)] - h) % ring if len(on_ring) > 1 else 99
                self._reach[(seat, h)] = ((door - h) % ring, ahead, free)
            got = self._reach[(seat, p)]
        return got

    def base_forward(self, seat: int, p: int, n: int) -> list[int]:
        """Forward destinations on the unchanged board (same answers as WorkBoard.forward)."""
        ring = self.geo.ring_size
        if p >= ring or n > 13:
            return self.board.forward(seat, p, n, self.pass_own, self.turn_in)
        to_door, block, free = self.reach(seat, p)
        out: list[int] = []
        if n > to_door and (self.pass_own or block > to_door) and n - to_door <= free:
            out.append(ring + n - to_door - 1)
        if self.turn_in and n > to_door:
            return out
        if self.pass_own:
            d = (p + n) % ring
            if self.board.occ[d] != seat:
                out.append(d)
        elif n < block:
            out.append((p + n) % ring)
        return out

    def part_targets(self, seat: int, p: int, n: int, forward: bool, base: bool = False
                     ) -> list[int]:
        if forward:
            if base:
                return self.base_forward(seat, p, n)
            return self.board.forward(seat, p, n, self.pass_own, self.turn_in)
        d = self.board.backward(seat, p, n, self.pass_own)
        return [] if d == IN_HAND else [d]

    def forward_rows(self, seat: int, p: int, total: int, chains: list[int]
                     ) -> list[list[Part]]:
        """``rows[k]``: the forward parts of size k (1 to ``total`` - 1) of the peg at ``p``
        on the unchanged board, in :meth:`base_forward` order, each with the holes its
        walk reads (where its own colour would block it), and its hits."""
        ring = self.geo.ring_size
        rows: list[list[Part]] = [[]]
        # a part onto a free hole (or into home) is a plain part, one that hits by part_at
        keys = self.geo.keys[seat]
        lifted = keys[p + 1]
        if p >= ring:
            for n in range(1, total):
                rows.append([Part(seat, p, d, True, keys[d + 1] - lifted, walk=0,
                                  home_lo=p + 1, home_hi=d + 1)
                             for d in self.board.forward(seat, p, n, self.pass_own,
                                                         self.turn_in)])
            return rows
        to_door, block, free = self.reach(seat, p)
        pass_own, occ = self.pass_own, self.board.occ
        home = pass_own or block > to_door
        plain, at = self.geo.plain_parts(seat, p)
        for n in range(1, total):
            row: list[Part] = []
            if n > to_door and home and n - to_door <= free:
                d = ring + n - to_door - 1
                got = plain[at + 10 + n]
                row.append(got if got is not None else _plain(
                    plain, at + 10 + n, keys, seat, p, d, True, to_door, ring, d + 1))
            if not (self.turn_in and n > to_door):
                d = p + n
                if d >= ring:
                    d -= ring
                if (occ[d] != seat) if pass_own else n < block:
                    got = (plain[at + n] if occ[d] == -1
                           else self.part_at(seat, p, d, True, chains, n))
                    row.append(got if got is not None else _plain(
                        plain, at + n, keys, seat, p, d, True, n))
            rows.append(row)
        return rows

    def backward_rows(self, seat: int, p: int, total: int, chains: list[int]
                      ) -> list[list[Part]]:
        """``rows[k]``: the backward part of size k (1 to ``total`` - 1) of the peg at ``p``
        on the unchanged board, if it has one (as :meth:`WorkBoard.backward` finds it),
        with its way and hits; one walk for every size."""
        ring = self.geo.ring_size
        rows: list[list[Part]] = [[]]
        occ, pass_own = self.board.occ, self.pass_own
        keys = self.geo.keys[seat]
        blocked = p >= ring
        plain, at = self.geo.plain_parts(seat, p)
        d = p
        for n in range(1, total):
            if blocked:
                rows.append([])
                continue
            d -= 1
            if d < 0:
                d = ring - 1
            own = occ[d] == seat
            if own:
                rows.append([])
            elif occ[d] == -1:
                got = plain[at + 20 + n]
                rows.append([got if got is not None else _plain(
                    plain, at + 20 + n, keys, seat, p, d, False, -n)])
            else:
                rows.append([self.part_at(seat, p, d, False, chains, -n)])
            if own and not pass_own:
                blocked = True
        return rows

    def count_splits(self, card: str, total: int) -> CountedSplits | None:
        """Every legal split of ``total`` (7 or 9, no finishing split possible): the
        interacting ones simulated and listed, the others counted (None if none)."""
        pegs = self.own_movable
        n = len(pegs)
        chains: list[list[int]] = []
        fwd: list[list[list[Part]]] = []
        back: list[list[list[Part]]] = []
        for q, p in pegs:
            found: list[int] = []
            fwd.append(self.forward_rows(q, p, total, found))
            back.append(self.backward_rows(q, p, total, found) if total == 9 else [[]])
            chains.append(found)
        usable = []
        for rows in (fwd, back) if total == 9 else (fwd,):
            usable.append([numbered(peg) for peg in rows])
        turns = [(fwd, back), (back, fwd)] if total == 9 else [(fwd, fwd)]
        units, pairs = self.split_units(pegs, turns, total, chains)
        first, second = usable[0], usable[-1]
        start = [0] * n if total == 9 else [i + 1 for i in range(n)]
        counted = CountedSplits(card, self.geo, self.pegs, self.mover, list(pegs), first, second,
                                total, start, total == 9, pairs, None)
        origins: list[tuple[int, ...]] = []
        for unit in units:
            self._split_unit(pegs, turns, total, unit, counted.listed, origins)
        if len(counted.listed):
            self._split_repeats(counted, origins)
        return counted if len(counted) else None

    def split_units(self, pegs: list[tuple[int, int]],
                    turns: list[tuple[list[list[list[Part]]], list[list[list[Part]]]]],
                    total: int, chains: list[list[int]]
                    ) -> tuple[list[tuple[int, int, int, int, int]], CodeSet]:
        """The first parts that interact with a second peg's parts (or move that peg), as
        (turn, first peg, size, target, second peg) in the order of the full enumeration;
        and the interacting pairs of legal parts as counted splits, which are not counted."""
        geo = self.geo
        ring, home = geo.ring_size, geo.home_holes
        units: list[tuple[int, int, int, int, int]] = []
        pairs = CodeSet()
        fw = turns[0][0]
        homeward = [pegs[i][1] >= ring or any(part.dst >= ring for row in fw[i] for part in row)
                    for i in range(len(pegs))]
        n = len(pegs)
        near: list[list[int]] = [[] for _ in range(n)]  # ascending: in the order of the j loop
        for i in range(n):
            qa, pa = pegs[i]
            for j in range(i + 1, n):
                qb, pb = pegs[j]
                # pegs of two colours meet only on the ring (each has its own home)
                close = qa == qb and (homeward[i] or homeward[j])
                if not close and pa < ring and pb < ring:
                    gap = (pb - pa) % ring
                    close = gap <= 2 * total or ring - gap <= 2 * total
                if not close and (chains[i] or chains[j]):
                    close = (_close(chains[i], pb, ring) or _close(chains[j], pa, ring)
                             or any(has(chains[j], h) for h in chains[i]))
                if close:
                    near[i].append(j)
                    near[j].append(i)
        # loops in the order of the full enumeration: (turn, first peg, size, target, second
        # peg), so the units come out sorted
        for turn, (firsts, seconds) in enumerate(turns):
            back_second = total == 9 and turn == 0
            for i in range(n):
                others = near[i]
                if not others:
                    continue
                qa, pa = pegs[i]
                rows = firsts[i]
                for k in range(1, total):
                    m = total - k
                    # a part's index in its row (its ``order`` in a unit), and among the
                    # row's legal parts (in a counted split's pick)
                    a = 0
                    for order, x in enumerate(rows[k]):
                        if not x.legal:
                            continue  # neither a unit nor a counted split
                        a += 1
                        for j in others:
                            qb, pb = pegs[j]
                            # a part that hits nothing moves only its own peg: it can move a
                            # peg of the other colour only when both pegs are of one colour
                            same = qa == qb
                            hit = False
                            if same or x.hit:
                                # the way every walk of the second peg of this size reads:
                                # moving a peg of its colour there can block or unblock it,
                                # even a walk with no part on the unchanged board
                                lo = hi = 0
                                if pb >= ring:
                                    walk = 0
                                    if not back_second:
                                        lo, hi = pb + 1, min(pb + m + 1, ring + home)
                                elif back_second:
                                    walk = -m
                                else:
                                    to_door = (geo.door[qb] - pb) % ring
                                    walk, lo, hi = m, ring, ring + max(0, min(m - to_door, home))
                                hit = _moves_on(x, qb, pb, walk, lo, hi, ring)
                            # each second part's way lies on that way: x moves no peg on it
                            # unless it moves one on the whole way
                            x_on = hit
                            b = 0
                            for y in seconds[j][m]:
                                b += y.legal
                                if (interact(x, pa, y, pb)
                                        or (x_on and _moves_on(x, qb, pb, y.walk, y.home_lo,
                                                               y.home_hi, ring))
                                        or ((same or y.hit) and _moves_on(
                                            y, qa, pa, x.walk, x.home_lo, x.home_hi, ring))):
                                    hit = True
                                    if turn == 0 and y.legal and (total == 9 or i < j):
                                        pairs.add(pick_code((i, k, a - 1, j, b - 1)))
                            if hit or any(c[0] == qb and c[1] == pb for c in x.changes):
                                units.append((turn, i, k, order, j))
        return units, pairs

    def _split_unit(self, pegs: list[tuple[int, int]],
                    turns: list[tuple[list[list[list[Part]]], list[list[list[Part]]]]],
                    total: int, unit: tuple[int, int, int, int, int], listed: Listed,
                    origins: list[tuple[int, ...]]) -> None:
        """One first part and every second part of one peg after it, simulated step by
        step and kept in ``listed`` unless a kept split leads to the same layout (second
        parts that do not interact with it are counted splits, or their other order);
        ``origins`` gets where the full enumeration finds each kept split."""
        turn, i, k, order, j = unit
        firsts, seconds = turns[turn]
        x = firsts[i][k][order]
        ys = seconds[j][total - k]
        qa, pa = pegs[i]
        qb, pb = pegs[j]
        board, ring = self.board, self.geo.ring_size
        op1, op2 = (">" if x.forward else "<"), ("<" if x.forward and total == 9 else ">")
        st1 = self.make(qa, pa, x.dst, op1)
        m1 = board.mark()
        if board.land(qa, pa, x.dst):
            b_now = board.where(qb, pb, m1)
            if b_now != START:
                targets = self.part_targets(qb, b_now, total - k, op2 == ">")
                for o2, d2 in enumerate(targets):
                    if b_now == pb and any(
                            y.dst == d2 and not _split_interact(x, qa, pa, y, qb, pb, ring)
                            for y in ys):
                        continue  # a counted split, or its other order
                    st2 = self.make(qb, b_now, d2, op2)
                    m2 = board.mark()
                    if board.land(qb, b_now, d2):
                        n = len(listed)
                        listed.start(st1, st2)
                        listed.logged(board.log)
                        listed.finish()
                        if len(listed) > n:
                            origins.append((turn, i, k, order, j, o2))
                    board.undo(m2)
        board.undo(m1)

    def _split_repeats(self, counted: CountedSplits, origins: list[tuple[int, ...]]) -> None:
        """Where a listed split and a counted one reach the same board, keep the one the
        full enumeration finds first (``origins[n]``: where it finds listed split n)."""
        listed = counted.listed
        gone: list[int] = []
        reached = counted.reached()
        for n in range(len(listed) - 1, -1, -1):
            if not reached[n]:
                continue  # no counted split changes the layout's key as it does
            for pick in counted.picks_to(listed.layout(n)):
                if counted.rank(pick) < (False, origins[n]):
                    gone.append(n)
                    break
                counted.skip.add(pick_code(pick))
        if gone:
            listed.drop(gone)

    def part_at(self, seat: int, p: int, d: int, forward: bool, chains: list[int],
                walk: int = 0, home_lo: int = 0, home_hi: int = 0) -> Part:
        """One part of a split (a ten's, or a 7's or 9's with its way) on the unchanged
        board, its hits resolved as WorkBoard.land would (without moving anything); holes
        that its hits' chains reach are added to ``chains``.  A part onto its own colour (a
        ten's only) marks its peg in ``_own_hits``."""
        occ = self.board.occ
        if d >= self.geo.ring_size or occ[d] == -1:
            keys = self.geo.keys[seat]
            return Part(seat, p, d, forward, keys[d + 1] - keys[p + 1], walk=walk,
                        home_lo=home_lo, home_hi=home_hi)
        if occ[d] == seat:
            self._own_hits.add((seat, p))
        doors: list[int] = []
        changes: list[Change] = []
        ok = self._chain(occ[d], d, p, 0, doors, changes)
        changes.append((seat, p, d))
        chains.extend(doors)
        hits = tuple(changes)
        return Part(seat, p, d, forward, self.key_change(hits), hits, ok, tuple(doors),
                    walk=walk, home_lo=home_lo, home_hi=home_hi)

    def key_change(self, changes: tuple[Change, ...]) -> int:
        """How much some peg moves change the layout's key (:attr:`Geometry.flat_keys`); a
        peg lifted and put down again cancels out."""
        keys = self.geo.flat_keys
        width: i64 = len(self.geo.keys[0])
        delta: i64 = 0
        for n in range(len(changes)):
            q, a, b = changes[n]
            row: i64 = q * width
            delta += keys[row + b + 1] - keys[row + a + 1]
        return delta

    def _chain(self, victim: int, at: int, lifted: int, depth: int, doors: list[int],
               changes: list[Change]) -> bool:
        """WorkBoard._bump read off the unchanged board (the moving peg lifted from
        ``lifted``): the pegs it moves, deepest first, and the doors it reads."""
        geo = self.geo
        if geo.opponent[self.mover][victim]:
            changes.append((victim, at, START))
            return True
        d = geo.door[victim]
        if d == at:
            return False
        doors.append(d)
        other = -1 if d == lifted else self.board.occ[d]
        if other == victim:
            return False
        if other != -1 and (depth > geo.players
                            or not self._chain(other, d, lifted, depth + 1, doors, changes)):
            return False
        changes.append((victim, at, d))
        return True
