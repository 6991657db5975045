"""Every split of a position, listed one by one: the oracle for the counted splits.

The engine counts most tens and 7 and 9 splits without listing them
(``pegs.rules.counted``).  This module lists them the plain way, with the same choice of
which spelling stands for a final board.

Tens (:class:`TenOracle`): all
pairs of pegs of different colours (in the generator's peg order), part sizes and
directions in order; a group in which one part lands on the other peg is simulated in
both orders; otherwise each pair of landings is simulated in both orders when a part hits
something or both land on the same hole (the whole group when a first part moves the
other peg), and is a plain split when neither hits.  The first spelling found for a final
board is the listed one; plain splits come after all simulated ones, and one that reaches
a board a simulated split reaches is not listed again.  Movement and hits come from the
independent reference (``reference.Reference``).

7 and 9 splits (:func:`split_actions`): for each order of directions (a 9 moves one peg
forward first, then the other way round), each first peg, part size and landing, each
second peg and its landing on the board the first part left; the first spelling found for
a final board is the listed one.
"""

from __future__ import annotations

from pegs.rules import Action, GameState
from pegs.rules.actions import Step
from reference import START, Board, Layout, Reference


def movable(state: GameState, seats: tuple[int, ...]) -> list[tuple[int, int]]:
    """(seat, position) of the pegs of ``seats`` off start and not settled home, in the
    generator's order."""
    geo, ring = state.geo, state.geo.ring_size
    last = ring + geo.home_holes - 1
    out = []
    for q in seats:
        ps = state.pegs[q]
        for p in sorted(set(ps)):
            if p != START and not (p >= ring and all(h in ps for h in range(p + 1, last + 1))):
                out.append((q, p))
    return out


def split_actions(state: GameState, card: str, total: int) -> dict[Action, Layout]:
    """Every listed split of ``total`` (no finishing split: the mover has two pegs or
    more outside home, or its side has team control) and the board it leads to."""
    ref = Reference(state.rules)
    ring, mover = state.geo.ring_size, state.turn
    names = state.geo.names_for(mover)
    board: Board = [(s, p) for s, ps in enumerate(state.pegs) for p in ps]
    pegs = [board.index(peg) for peg in movable(state, state.controlled_seats())]

    def targets(b: Board, pid: int, n: int, fwd: bool) -> list[int]:
        return ref.forward(b, pid, n) if fwd else ref.backward(b, pid, n)

    def step(b: Board, pid: int, dst: int, fwd: bool) -> Step:
        seat, src = b[pid]
        at = ref.at(b, dst) if 0 <= dst < ring else None
        hit = at is not None and b[at][0] != seat
        return Step(names[seat][src + 1], names[seat][dst + 1], ">" if fwd else "<", hit)

    seen: dict[Layout, Action] = {}
    orders = [(True, True)] if total == 7 else [(True, False), (False, True)]
    for f1, f2 in orders:
        for x in pegs:
            for k in range(1, total):
                for d1 in targets(board, x, k, f1):
                    b1 = ref.land(board, mover, x, d1)
                    if b1 is None:
                        continue
                    first = step(board, x, d1, f1)
                    for y in pegs:
                        if y == x or b1[y][1] == START:
                            continue
                        for d2 in targets(b1, y, total - k, f2):
                            b2 = ref.land(b1, mover, y, d2)
                            if b2 is not None:
                                seen.setdefault(ref.layout(b2),
                                                Action(card, (first, step(b1, y, d2, f2))))
    return {action: layout for layout, action in seen.items()}


def ten_pegs(state: GameState) -> list[tuple[int, int, bool]]:
    """(seat, position, ring only) of the pegs a ten may move, in the generator's order."""
    geo, ring = state.geo, state.geo.ring_size
    last = ring + geo.home_holes - 1
    team = geo.team_seats[state.turn]
    out = []
    for q in range(geo.players):
        ps = state.pegs[q]
        for p in sorted(set(ps)):
            if p == START or (p >= ring and all(h in ps for h in range(p + 1, last + 1))):
                continue
            if p < ring or q in team:
                out.append((q, p, q not in team))
    return out


class TenOracle:
    def __init__(self, state: GameState, card: str = "10") -> None:
        self.state = state
        self.card = card
        self.ref = Reference(state.rules)
        self.ring = state.geo.ring_size
        self.mover = state.turn
        self.names = state.geo.names_for(state.turn)
        self.board: Board = [(s, p) for s, ps in enumerate(state.pegs) for p in ps]
        self.seen: dict[Layout, Action] = {}
        self.order: list[Action] = []

    def pid(self, seat: int, pos: int) -> int:
        return self.board.index((seat, pos))

    def targets(self, board: Board, pid: int, n: int, fwd: bool, ring_only: bool) -> list[int]:
        if fwd:
            return self.ref.forward(board, pid, n, ring_only=ring_only, hit_own=True)
        return self.ref.backward(board, pid, n, hit_own=True)

    def clear(self, hole: int) -> bool:
        return hole >= self.ring or self.ref.at(self.board, hole) is None

    def step(self, board: Board, pid: int, dst: int, fwd: bool) -> Step:
        seat, src = board[pid]
        hit = 0 <= dst < self.ring and self.ref.at(board, dst) is not None
        return Step(self.names[seat][src + 1], self.names[seat][dst + 1], ">" if fwd else "<", hit)

    def record(self, steps: tuple[Step, Step], board: Board) -> None:
        layout = self.ref.layout(board)
        if layout not in self.seen:
            action = Action(self.card, steps)
            self.seen[layout] = action
            self.order.append(action)

    def pair(self, a: int, da: int, fa: bool, b: int, db: int, fb: bool) -> bool:
        """One order of one pair of landings; False if the first part moved the other peg."""
        first = self.step(self.board, a, da, fa)
        b1 = self.ref.land(self.board, self.mover, a, da)
        if b1 is None:
            return True
        if b1[b] != self.board[b]:
            return False
        second = self.step(b1, b, db, fb)
        b2 = self.ref.land(b1, self.mover, b, db)
        if b2 is not None:
            self.record((first, second), b2)
        return True

    def sequence(self, a: int, ka: int, fa: bool, only_a: bool,
                 b: int, kb: int, fb: bool, only_b: bool) -> None:
        for d1 in self.targets(self.board, a, ka, fa, only_a):
            first = self.step(self.board, a, d1, fa)
            b1 = self.ref.land(self.board, self.mover, a, d1)
            if b1 is None or b1[b][1] == START:
                continue
            for d2 in self.targets(b1, b, kb, fb, only_b):
                second = self.step(b1, b, d2, fb)
                b2 = self.ref.land(b1, self.mover, b, d2)
                if b2 is not None:
                    self.record((first, second), b2)

    def tens(self) -> dict[Action, Layout]:
        """Every listed ten and the board it leads to."""
        pegs = ten_pegs(self.state)
        plain: list[tuple[Action, Layout]] = []
        for i, (qx, px, only_x) in enumerate(pegs):
            x = self.pid(qx, px)
            for qy, py, only_y in pegs[i + 1:]:
                if qx == qy:
                    continue
                y = self.pid(qy, py)
                for k in range(1, 10):
                    for fx in (True, False):
                        for fy in (True, False):
                            xs = self.targets(self.board, x, k, fx, only_x)
                            ys = self.targets(self.board, y, 10 - k, fy, only_y)
                            if not xs or not ys:
                                continue
                            if py in xs or px in ys:
                                self.sequence(x, k, fx, only_x, y, 10 - k, fy, only_y)
                                self.sequence(y, 10 - k, fy, only_y, x, k, fx, only_x)
                                continue
                            for dx in xs:
                                for dy in ys:
                                    if dx != dy and self.clear(dx) and self.clear(dy):
                                        b = list(self.board)
                                        b[x], b[y] = (qx, dx), (qy, dy)
                                        steps = (self.step(self.board, x, dx, fx),
                                                 self.step(self.board, y, dy, fy))
                                        plain.append((Action(self.card, steps),
                                                      self.ref.layout(b)))
                                        continue
                                    if not (self.pair(x, dx, fx, y, dy, fy)
                                            and self.pair(y, dy, fy, x, dx, fx)):
                                        self.sequence(x, k, fx, only_x, y, 10 - k, fy, only_y)
                                        self.sequence(y, 10 - k, fy, only_y, x, k, fx, only_x)
        out = {a: lay for lay, a in self.seen.items()}
        for action, layout in plain:
            if layout not in self.seen:
                out[action] = layout
        return out
