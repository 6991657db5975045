"""The North Carolina ten: two pegs of different colours, anywhere on the table, share
ten holes, forward or back (RULES.md section 5).

The pairs of parts that cannot affect each other are counted
(:class:`~pegs.rules.counted.CountedSplits`); those that interact are worked out from
their parts where that is simple and simulated on the scratch board otherwise.
"""

from __future__ import annotations

from librt.vecs import append, vec
from mypy_extensions import i64

from pegs.rules.actions import Step
from pegs.rules.board import START
from pegs.rules.board_work import IN_HAND, Change, has, moved
from pegs.rules.code_set import CodeSet
from pegs.rules.counted import CountedSplits
from pegs.rules.listed import Listed, Make
from pegs.rules.pairs import (
    Group,
    group_code,
    group_of,
    group_order,
    interact,
    numbered,
    pick_code,
)
from pegs.rules.part import Part

from .splits import SplitFinder, _close, _plain


def _moves_peg(x: Part, seat: int, p: int) -> bool:
    """Does ten part x land on, or (legal) move, the peg of ``seat`` at ``p``?  A part that
    hits nothing moves only its own peg."""
    if x.dst == p:
        return True
    return x.hit and x.legal and any(c[0] == seat and c[1] == p for c in x.changes)


def _moves_other(xs: list[Part], ys: list[Part], fx: bool, fy: bool,
                 qx: int, px: int, qy: int, py: int) -> bool:
    """Does a pair of interacting ten parts ``xs[n]``, ``ys[n]`` in directions ``fx`` and
    ``fy`` have one that lands on, or moves, the other's peg (at ``px`` and ``py``)?"""
    for n in range(len(xs)):
        x, y = xs[n], ys[n]
        if x.forward == fx and y.forward == fy and (_moves_peg(x, qy, py)
                                                    or _moves_peg(y, qx, px)):
            return True
    return False


def _simple(x: Part, pb: int) -> bool:
    """Is part x of a ten one whose outcome the parts tell: it hits nothing, or (legal)
    one peg that is not the peg at ``pb``, sent to start or to its free door?"""
    return not x.hit or (len(x.changes) == 2 and x.legal and x.dst != pb)


def _own_moves(listed: Listed, seat: int, p: int, x: Part) -> None:
    """The peg moves of part x of the peg of ``seat`` at ``p``, for a listed ten."""
    if x.hit:
        listed.moves(x.changes)
    else:
        listed.move(seat, p, x.dst)


def _put(row: list[Part], part: Part) -> bool:
    """Add ``part`` to ``row``; is it legal?"""
    row.append(part)
    return part.legal


def _last_at_most(values: vec[i64], n: i64) -> i64:
    """The index of the last of the ascending ``values`` that is at most ``n`` (the first
    is)."""
    lo: i64 = 0
    hi: i64 = len(values)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if values[mid] <= n:
            lo = mid
        else:
            hi = mid
    return lo


class TenFinder(SplitFinder):
    """:class:`SplitFinder` with the North Carolina ten."""

    def ten_pegs(self) -> list[tuple[int, int, bool]]:
        """(seat, position, ring_only) of every peg a North Carolina ten may move: any ring
        peg, and the home pegs of the mover's team that can still move."""
        geo, ring = self.geo, self.geo.ring_size
        in_team = [False] * geo.players
        for q in geo.team_seats[self.mover]:
            in_team[q] = True
        return [(q, p, not in_team[q]) for q, p in self.movable(range(geo.players), self.pegs)
                if p < ring or in_team[q]]

    def ten_targets(self, seat: int, p: int, n: int, fwd: bool, ring_only: bool) -> list[int]:
        board = self.board
        if fwd:
            return board.forward(seat, p, n, True, False, ring_only=ring_only, hit_own=True)
        d = board.backward(seat, p, n, True, hit_own=True)
        return [] if d == IN_HAND else [d]

    def ten_parts(self, seat: int, p: int, ring_only: bool, chains: list[int]
                  ) -> tuple[list[list[Part]], bool]:
        """``parts[k]``: every part of size k (1..9) of the peg at ``p`` on the unchanged
        board, legal or not, in :meth:`ten_targets` order (forward ones first), and whether
        all are legal (:func:`numbered` then gives the same rows).  One walk finds all
        sizes; holes that its hits' chains reach are added to ``chains``.  The parts that
        hit nobody are :meth:`Geometry.plain_parts`, with their ways as a 7 or 9 has them."""
        geo, ring = self.geo, self.geo.ring_size
        parts: list[list[Part]] = [[] for _ in range(10)]
        every = True
        # a part onto a free hole (or into home) is a plain part, one that hits by part_at
        occ, keys = self.board.occ, geo.keys[seat]
        plain, at = geo.plain_parts(seat, p)
        if p >= ring:
            k0 = p - ring + 1
            stop = geo.home_holes + 1  # the home hole (counted from 1) of the next peg in
            for h in self.pegs[seat]:
                if p < h < ring + stop - 1:
                    stop = h - ring + 1
            for n in range(1, 10):
                if k0 + n <= geo.home_holes and k0 + n < stop:
                    got = plain[at + n]
                    parts[n].append(got if got is not None else _plain(
                        plain, at + n, keys, seat, p, p + n, True, 0, p + 1, p + n + 1))
            return parts, every
        door, cur = geo.door[seat], p
        for i in range(9):
            if cur == door and not ring_only:
                free = geo.home_holes  # home holes below the lowest home peg
                for h in self.pegs[seat]:
                    if ring <= h < ring + free:
                        free = h - ring
                for n in range(i + 1, min(i + 1 + free, 10)):
                    got = plain[at + 10 + n]
                    d = ring + n - i - 1
                    parts[n].append(got if got is not None else _plain(
                        plain, at + 10 + n, keys, seat, p, d, True, i, ring, d + 1))
            cur += 1
            if cur == ring:
                cur = 0
            if occ[cur] == -1:
                got = plain[at + i + 1]
                parts[i + 1].append(got if got is not None else _plain(
                    plain, at + i + 1, keys, seat, p, cur, True, i + 1))
            else:
                every &= _put(parts[i + 1], self.part_at(seat, p, cur, True, chains))
        back = p
        for n in range(1, 10):
            back = back - 1 if back else ring - 1
            if occ[back] == -1:
                got = plain[at + 20 + n]
                parts[n].append(got if got is not None else _plain(
                    plain, at + 20 + n, keys, seat, p, back, False, -n))
            else:
                every &= _put(parts[n], self.part_at(seat, p, back, False, chains))
        return parts, every

    def ten_groups(self, card: str, pegs: list[tuple[int, int, bool]],
                   parts: list[list[list[Part]]], chains: list[list[int]], tens: CountedSplits
                   ) -> tuple[vec[i64], vec[i64]]:
        """List the splits of every group (two pegs, part sizes, directions) in which some
        two parts interact, group by group in the order of the full enumeration; return
        the number of splits listed before each group, and the group (:func:`group_code`).
        The interacting pairs of legal parts are left out of the count (``tens.skip``),
        and the groups in which a part lands on the other peg or moves it are simulated
        whole (``tens.eager``).  Only pegs near each other, near a door a hit sends a peg
        to, or both able to enter home can interact; their parts are compared one by one."""
        ring = self.geo.ring_size
        skip, eager = tens.skip, tens.eager
        assert eager is not None
        starts = vec[i64]()
        groups = vec[i64]()
        # the interacting pairs of parts of a size, x from found_x and y from found_y
        found_x: list[Part] = []
        found_y: list[Part] = []
        # each peg's seat and position, and whether its hits send pegs to doors, in native
        # arrays: the loop over pairs reads them for every pair
        n: i64 = len(pegs)
        seat_of = vec[i64](capacity=n)
        pos_of = vec[i64](capacity=n)
        chained = vec[bool](capacity=n)
        for q, p, _ in pegs:
            seat_of = append(seat_of, q)
            pos_of = append(pos_of, p)
        for found in chains:
            chained = append(chained, len(found) > 0)
        for i in range(n):
            qx, px = seat_of[i], pos_of[i]
            for j in range(i + 1, n):
                if seat_of[j] == qx:
                    continue
                py = pos_of[j]
                # pegs of two colours meet only on the ring (each has its own home)
                near = False
                if px < ring and py < ring:
                    gap = (py - px) % ring
                    near = gap <= 10 or ring - gap <= 10
                if not near and (chained[i] or chained[j]):
                    near = (_close(chains[i], py, ring) or _close(chains[j], px, ring)
                            or any(has(chains[j], h) for h in chains[i]))
                if not near:
                    continue
                qy = seat_of[j]
                for k in range(1, 10):
                    if found_x:  # the last size's (or the last pair's), done
                        found_x.clear()
                        found_y.clear()
                    kinds = 0  # the directions met, as bits in group order
                    ys = parts[j][10 - k]
                    a: i64 = 0  # x's index among the legal parts of its row, then y's
                    for x in parts[i][k]:
                        xd, x_doors = x.dst, len(x.doors) > 0
                        b: i64 = 0
                        for y in ys:
                            yd = y.dst  # interact(), its doors only read when there are some
                            if xd in (yd, py) or yd == px or (
                                    (x_doors or len(y.doors) > 0) and interact(x, px, y, py)):
                                found_x.append(x)
                                found_y.append(y)
                                kinds |= 1 << ((0 if x.forward else 2) + (0 if y.forward else 1))
                                if x.legal and y.legal:
                                    skip.add(pick_code((i, k, a, j, b)))
                            b += y.legal
                        a += x.legal
                    for code in range(4):
                        if kinds >> code & 1:
                            fx, fy = code < 2, code % 2 == 0
                            group = group_code(i, j, k, fx, fy)
                            starts = append(starts, len(tens.listed))
                            groups = append(groups, group)
                            if _moves_other(found_x, found_y, fx, fy, qx, px, qy, py):
                                eager.add(group)
                                self._ten_whole(card, pegs, parts, i, j, k, fx, fy)
                            else:
                                self._ten_interacting(card, pegs[i], pegs[j], found_x, found_y,
                                                      fx, fy)
        return starts, groups

    def split_ten(self, card: str) -> None:
        """The North Carolina ten: two pegs of different colours, any seats, 10 in all.

        Splits whose parts interact are simulated and listed; the others are counted by
        :class:`CountedSplits`.  With aliases, every split is listed, in both orders.
        """
        legal = self.legal
        pegs = self.ten_pegs()
        if self.track_aliases:
            options: dict[tuple[int, int, bool], list[int]] = {}
            around = self.around
            for i in range(len(pegs)):
                if around is not None and not around.has(pegs[i][0], pegs[i][1]):
                    continue
                for j in range(i + 1, len(pegs)):
                    if around is not None and not around.has(pegs[j][0], pegs[j][1]):
                        continue
                    if pegs[i][0] != pegs[j][0]:
                        for k in range(1, 10):
                            for fx in (True, False):
                                for fy in (True, False):
                                    self._ten_group(card, pegs, options, (i, j, k, fx, fy))
            return
        chains: list[list[int]] = []
        parts = []
        usable = []
        for q, p, only in pegs:
            found: list[int] = []
            ps, every = self.ten_parts(q, p, only, found)
            parts.append(ps)
            usable.append(ps if every else numbered(ps))
            chains.append(found)
        ends = [len(pegs)] * len(pegs)  # the first peg of a later seat (pegs in seat order)
        for i in range(len(pegs) - 2, -1, -1):
            ends[i] = i + 1 if pegs[i + 1][0] != pegs[i][0] else ends[i + 1]
        tens = CountedSplits(card, self.geo, self.pegs, self.mover, [(q, p) for q, p, _ in pegs],
                             usable, usable, 10, ends, False, CodeSet(), CodeSet())
        self._ten = tens
        starts, groups = self.ten_groups(card, pegs, parts, chains, tens)
        self._ten = None
        if self._own_hits:
            tens.skip_twins({i for i, (q, p, _) in enumerate(pegs) if (q, p) in self._own_hits})
        if len(tens.listed):
            self._ten_repeats(tens, starts, groups)
        if len(tens):
            legal.deferred.append(tens)

    def _ten_whole(self, card: str, pegs: list[tuple[int, int, bool]],
                   parts: list[list[list[Part]]], i: int, j: int, k: int, fx: bool, fy: bool
                   ) -> None:
        """List the splits of a group in which a part lands on the other peg or moves it:
        the whole group in both orders, simulated step by step."""
        xs, ys = parts[i][k], parts[j][10 - k]
        self._ten_order(card, pegs[i], xs, fx, pegs[j], 10 - k, ys, fy)
        self._ten_order(card, pegs[j], ys, fy, pegs[i], k, xs, fx)

    def _ten_interacting(self, card: str, first: tuple[int, int, bool],
                         second: tuple[int, int, bool], xs: list[Part], ys: list[Part],
                         fx: bool, fy: bool) -> None:
        """List the splits of the interacting parts ``xs[n]`` and ``ys[n]`` of two pegs in
        directions ``fx`` and ``fy`` (neither landing on the other peg nor moving it), in
        both orders: worked out from the parts when :meth:`_quick_ten` can, simulated
        otherwise."""
        qx, px, _ = first
        qy, py, _ = second
        for n in range(len(xs)):
            x, y = xs[n], ys[n]
            if x.forward != fx or y.forward != fy:
                continue
            ox, oy = (">" if fx else "<"), (">" if fy else "<")
            if not (_simple(x, py) and self._quick_ten(qx, px, x, qy, py, y)):
                self._ten_pair(card, (qx, px, x.dst, ox), (qy, py, y.dst, oy))
            if not (_simple(y, px) and self._quick_ten(qy, py, y, qx, px, x)):
                self._ten_pair(card, (qy, py, y.dst, oy), (qx, px, x.dst, ox))

    def _ten_order(self, card: str, first: tuple[int, int, bool], xs: list[Part], fx: bool,
                   second: tuple[int, int, bool], k2: int, ys: list[Part], fy: bool) -> None:
        """One order of a group whose parts interact, simulated step by step: the parts
        of ``xs`` in direction ``fx``, then those of ``ys`` in direction ``fy``.  Pairs of
        parts that do not interact are the counted splits (or their other order)."""
        board = self.board
        qa, pa, _ = first
        qb, pb, only_b = second
        bumped_out = self.geo.opponent[self.mover][qb]  # a hit sends the peg to start
        for x in xs:
            if x.forward != fx or (x.dst == pb and bumped_out) or not any(
                    y.forward == fy and interact(x, pa, y, pb) for y in ys):
                continue
            st1 = self.make(qa, pa, x.dst, ">" if fx else "<", hit_own=True)
            if _simple(x, pb):
                self._after_simple(card, first, x, st1, second, ys, fy)
                continue
            if x.dst == pb and self._quick_door(first, x, st1, second, k2, fy):
                continue
            m1 = board.mark()
            if board.land(qa, pa, x.dst):
                b_now = board.where(qb, pb, m1)
                if b_now != START and not (b_now >= self.geo.ring_size and not fy):
                    for d2 in self.ten_targets(qb, b_now, k2, fy, only_b):
                        if b_now == pb and any(
                                y.dst == d2 and y.forward == fy and not interact(x, pa, y, pb)
                                for y in ys):
                            continue
                        st2 = self.make(qb, b_now, d2, ">" if fy else "<", hit_own=True)
                        m2 = board.mark()
                        if board.land(qb, b_now, d2):
                            self._record_ten(card, st1, st2)
                        board.undo(m2)
            board.undo(m1)

    def _quick_door(self, first: tuple[int, int, bool], x: Part, st1: Make,
                    second: tuple[int, int, bool], k2: int, forward: bool) -> bool:
        """The rest of :meth:`_ten_order` for a part x that lands on the second peg, a team
        peg sent to its door with no chain of hits: keep the tens of that peg's part of
        ``k2`` from its door without the scratch board, when each of its targets is free
        once x has moved.  The targets are :meth:`ten_targets`' from the door: into home
        first (forward, holes 1 to ``k2`` free), then the ring hole ``k2`` on.  False if
        that is not so (the caller simulates)."""
        tens = self._ten
        geo = self.geo
        ring = geo.ring_size
        hits: tuple[Change, ...] = x.changes  # not narrowed to a pair: passed on as it is
        if tens is None or ring <= 10 or not x.legal or len(x.changes) != 2:
            return False
        qb, pb, only_b = second
        sent, door = hits[0], hits[0][2]
        if sent[0] != qb or sent[1] != pb or not 0 <= door < ring:
            return False
        targets: list[int] = []
        if forward:
            if not only_b and k2 <= geo.home_holes and not any(
                    ring <= h < ring + k2 for h in self.pegs[qb]):
                targets.append(ring + k2 - 1)
            targets.append((door + k2) % ring)
        else:
            targets.append((door - k2) % ring)
        occ, pa = self.board.occ, first[1]
        for d2 in targets:  # x's peg now stands on pb, and has left pa
            if d2 < ring and d2 != pa and (d2 == pb or occ[d2] != -1):
                return False
        listed = tens.listed
        op = ">" if forward else "<"
        for d2 in targets:
            listed.start(st1, (qb, door, d2, op, False))
            listed.moves(hits)
            listed.move(qb, door, d2)
            listed.finish()
        return True

    def _after_simple(self, card: str, first: tuple[int, int, bool], x: Part, st1: Make,
                      second: tuple[int, int, bool], ys: list[Part], fy: bool) -> None:
        """The rest of :meth:`_ten_order` for a :func:`_simple` first part, then the parts of
        ``ys`` in direction ``fy``.  It leaves the second peg where it was, and a ten's
        targets read only the board's shape and the peg's own home, so the second peg's
        parts are still its targets; those that do not interact with the first part are
        counted, the others kept without the scratch board when :meth:`_quick_ten` can,
        simulated otherwise."""
        board = self.board
        qa, pa, _ = first
        qb, pb, _ = second
        m1 = -1
        for y in ys:
            if y.forward != fy or not interact(x, pa, y, pb) or self._quick_ten(
                    qa, pa, x, qb, pb, y):
                continue
            if m1 < 0:
                m1 = board.mark()
                board.land(qa, pa, x.dst)
            st2 = self.make(qb, pb, y.dst, ">" if y.forward else "<", hit_own=True)
            m2 = board.mark()
            if board.land(qb, pb, y.dst):
                self._record_ten(card, st1, st2)
            board.undo(m2)
        if m1 >= 0:
            board.undo(m1)

    def _quick_ten(self, qa: int, pa: int, x: Part, qb: int, pb: int, y: Part) -> bool:
        """Keep the ten of a :func:`_simple` part x (of the peg of ``qa`` at ``pa``), then
        part y (of the peg at ``pb``), worked out from the parts without the scratch board,
        when that is simple: once x has moved, y lands on an empty hole, on the hole x
        left, or on x's peg, which goes to start (an opponent's) or to its door (a team
        peg's, the door free once x has moved and y's peg is lifted); the peg x hits, if
        any, stands in start or at its door by then (landing on it there is an illegal
        hit: nothing is kept).  False if it is not (the caller simulates the ten)."""
        tens = self._ten
        if tens is None:
            return False
        listed = tens.listed
        ox, oy = (">" if x.forward else "<"), (">" if y.forward else "<")
        h = x.dst
        sent = x.changes[0][2] if x.hit else START  # where x's hit sent its peg
        if y.dst == pa:  # onto the hole x left
            if sent == pa:
                return False  # the peg x hit stands there: simulated
            listed.start((qa, pa, h, ox, x.hit), (qb, pb, pa, oy, False))
            _own_moves(listed, qa, pa, x)
            listed.move(qb, pb, pa)
        elif y.dst == h and h < self.geo.ring_size:  # onto x's peg
            listed.start((qa, pa, h, ox, x.hit), (qb, pb, h, oy, True))
            if self.geo.opponent[self.mover][qa]:
                _own_moves(listed, qa, pa, x)
                listed.move(qa, h, START)
                listed.move(qb, pb, h)
            else:  # sent to its door, which must be free once x has moved and y is lifted
                d = self.geo.door[qa]
                if d in (h, sent) or not (d in (pa, pb) or self.board.occ[d] == -1):
                    return False  # an illegal hit or a chain: simulated
                _own_moves(listed, qa, pa, x)
                listed.move(qb, pb, IN_HAND)
                listed.move(qa, h, d)
                listed.move(qb, IN_HAND, h)
        elif y.hit:
            return False
        elif y.dst == sent:
            return True  # onto the peg x sent to its door, where a hit would send it: illegal
        else:
            listed.start((qa, pa, h, ox, x.hit), (qb, pb, y.dst, oy, False))
            _own_moves(listed, qa, pa, x)
            listed.move(qb, pb, y.dst)
        listed.finish()
        return True

    def _ten_group(self, card: str, pegs: list[tuple[int, int, bool]],
                   options: dict[tuple[int, int, bool], list[int]], group: Group) -> None:
        """Every split of one group in both orders (for aliases)."""
        i, j, k, fx, fy = group
        qx, px, ox_only = pegs[i]
        qy, py, oy_only = pegs[j]
        xs = options.get((i, k, fx))
        if xs is None:
            xs = options[(i, k, fx)] = self.ten_targets(qx, px, k, fx, ox_only)
        ys = options.get((j, 10 - k, fy))
        if ys is None:
            ys = options[(j, 10 - k, fy)] = self.ten_targets(qy, py, 10 - k, fy, oy_only)
        if not xs or not ys:
            return
        if py in xs or px in ys:  # one lands on the other: both orders
            self._ten_both(card, pegs[i], k, fx, pegs[j], 10 - k, fy)
            return
        ring, occ, names = self.geo.ring_size, self.board.occ, self.names
        ox, oy = (">" if fx else "<"), (">" if fy else "<")
        for dx in xs:
            x_clear = dx >= ring or occ[dx] == -1
            for dy in ys:
                if x_clear and dx != dy and (dy >= ring or occ[dy] == -1):
                    result = moved(self.pegs, ((qx, px, dx), (qy, py, dy)))
                    x_step = Step(names[qx][px + 1], names[qx][dx + 1], ox)
                    y_step = Step(names[qy][py + 1], names[qy][dy + 1], oy)
                    self.record(card, (x_step, y_step), result)
                    self.record(card, (y_step, x_step), result)
                    continue
                x_part, y_part = (qx, px, dx, ox), (qy, py, dy, oy)
                if not (self._ten_pair(card, x_part, y_part)
                        and self._ten_pair(card, y_part, x_part)):
                    self._ten_both(card, pegs[i], k, fx, pegs[j], 10 - k, fy)

    def _record_ten(self, card: str, first: Make, second: Make) -> None:
        """Keep the ten on the scratch board, its peg moves the board's log, unless its
        layout is kept already (with aliases, record it as an action)."""
        board, tens = self.board, self._ten
        if tens is None:
            self.record(card, None, board.snapshot(), (first, second))
            return
        listed = tens.listed
        listed.start(first, second)
        listed.logged(board.log)
        listed.finish()

    def _ten_repeats(self, tens: CountedSplits, starts: vec[i64], groups: vec[i64]) -> None:
        """Two splits with the same final board are one move: where a listed ten and a
        counted one meet, keep the one the full enumeration (groups in order, plain
        splits of the other groups last) finds first.  ``starts`` and ``groups``: as
        :meth:`ten_groups` returns them."""
        gone: list[int] = []
        reached = tens.reached()
        for n in range(len(tens.listed) - 1, -1, -1):
            if not reached[n]:
                continue  # no counted split changes the layout's key as it does
            picks = tens.picks_to(tens.listed.layout(n))
            if not picks:
                continue
            origin = (False, group_order(group_of(groups[_last_at_most(starts, n)])))
            for pick in picks:
                if tens.rank(pick) < origin:
                    gone.append(n)
                    break
                tens.skip.add(pick_code(pick))
        if gone:
            tens.listed.drop(gone)

    def _ten_both(self, card: str, x: tuple[int, int, bool], kx: int, fx: bool,
                  y: tuple[int, int, bool], ky: int, fy: bool) -> None:
        self._ten_sequence(card, x, kx, fx, y, ky, fy)
        self._ten_sequence(card, y, ky, fy, x, kx, fx)

    def _ten_pair(self, card: str, first: tuple[int, int, int, str],
                  second: tuple[int, int, int, str]) -> bool:
        """Both parts of a ten in one order, when at least one of them hits.  False if the
        first part displaced the second peg (the caller then simulates the whole group)."""
        board = self.board
        qa, pa, da, oa = first
        qb, pb, db, ob = second
        st1 = self.make(qa, pa, da, oa, hit_own=True)
        m1 = board.mark()
        ok = True
        if board.land(qa, pa, da):
            if board.where(qb, pb, m1) != pb:
                ok = False
            else:
                st2 = self.make(qb, pb, db, ob, hit_own=True)
                if board.land(qb, pb, db):
                    self._record_ten(card, st1, st2)
        board.undo(m1)
        return ok

    def _ten_sequence(self, card: str, first: tuple[int, int, bool], k1: int, f1: bool,
                      second: tuple[int, int, bool], k2: int, f2: bool) -> None:
        """One order of a ten whose parts interact, simulated step by step."""
        board = self.board
        qa, pa, only_a = first
        qb, pb, only_b = second
        for d1 in self.ten_targets(qa, pa, k1, f1, only_a):
            st1 = self.make(qa, pa, d1, ">" if f1 else "<", hit_own=True)
            m1 = board.mark()
            if board.land(qa, pa, d1):
                b_now = board.where(qb, pb, m1)
                if b_now != START:
                    for d2 in self.ten_targets(qb, b_now, k2, f2, only_b):
                        if b_now >= self.geo.ring_size and not f2:
                            continue
                        st2 = self.make(qb, b_now, d2, ">" if f2 else "<", hit_own=True)
                        m2 = board.mark()
                        if board.land(qb, b_now, d2):
                            self._record_ten(card, st1, st2)
                        board.undo(m2)
            board.undo(m1)
