"""A slow, independent reference of the legal outcomes, written from RULES.md alone.

It shares nothing with ``pegs.rules`` but the documented position encoding (``-1`` start,
``0..R-1`` ring with side ``s`` hole ``h`` at ``s*H + h - 1``, ``R + k - 1`` home hole
``Hk``).  Pegs carry an identity here (a list of ``(seat, position)``), so that a split's
second part follows its peg wherever the first part's hits sent it (I-13).

An outcome is ``(card, declared, discard, layout)`` with the layout as a tuple of sorted
position tuples per seat, which is what the engine's ``result_of`` returns.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pegs.rules import Rules

START = -1
LIFTED = -2
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Joker")

Board = list[tuple[int, int]]
Layout = tuple[tuple[int, ...], ...]
Outcome = tuple[str, str, bool, Layout]


@dataclass(frozen=True)
class Plan:
    out: bool = False
    forward: tuple[int, ...] = ()
    backward: tuple[int, ...] = ()
    swap: bool = False
    split: int = 0
    must_split: bool = False
    joker: bool = False


def card_table(preset: str) -> dict[str, Plan]:
    """RULES.md section 5, card by card."""
    high = preset in ("havasu", "social-security")
    table = {str(n): Plan(forward=(n,)) for n in range(2, 7)}
    table["A"] = Plan(out=True, forward=(1,))
    table["7"] = Plan(forward=(7,), split=7)
    table["8"] = Plan(backward=(8,))
    table["9"] = Plan(forward=(9,))
    table["10"] = Plan(forward=(10,))
    for rank, n in (("J", 11), ("Q", 12), ("K", 13)):
        table[rank] = Plan(out=True, forward=(n if high else 10,))
    table["Joker"] = Plan(joker=True)
    if preset == "pegoo":
        table["2"] = Plan(forward=(2,), swap=True)
        table["9"] = Plan(forward=(9,), split=9)
    if preset in ("arizona", "kilpatrick"):
        table["9"] = Plan(forward=(9,), split=9)
    if preset == "havasu":
        table["7"] = Plan(forward=(7,), split=7, must_split=True)
    if preset in ("havasu", "social-security"):
        table["9"] = Plan(forward=(9,), split=9, must_split=True)
    if preset == "north-carolina":
        table["A"] = Plan(out=True, forward=(1, 11), backward=(1,))
        table["2"] = Plan(forward=(2,), swap=True)
        table["7"] = Plan(forward=(7,), split=7, must_split=True)
        table["9"] = Plan(forward=(9,), split=9, must_split=True)
        table["10"] = Plan(split=10)
    return table


class Reference:
    def __init__(self, rules: Rules) -> None:
        self.r = rules
        self.n = rules.players
        self.h = rules.holes_per_side
        self.ring = rules.sides * rules.holes_per_side
        self.hh = rules.home_holes
        side = [p * rules.sides // rules.players for p in range(self.n)]
        self.out = [s * self.h + 4 for s in side]
        self.door = [(s * self.h - 1) % self.ring for s in side]
        t = rules.teams
        self.team = [p % t if t else p for p in range(self.n)]
        self.final = tuple(range(self.ring + self.hh - rules.pegs, self.ring + self.hh))
        self.cards = card_table(rules.name)
        self.team_control = rules.control == "team"

    # --- board helpers -------------------------------------------------------------------
    def layout(self, board: Board) -> Layout:
        return tuple(
            tuple(sorted(p for s, p in board if s == seat)) for seat in range(self.n)
        )

    def same_team(self, a: int, b: int) -> bool:
        return self.team[a] == self.team[b]

    def all_home(self, board: Board, seat: int) -> bool:
        return tuple(sorted(p for s, p in board if s == seat)) == self.final

    def at(self, board: Board, hole: int) -> int | None:
        for i, (_, p) in enumerate(board):
            if p == hole:
                return i
        return None

    def own_at(self, board: Board, seat: int, hole: int, skip: int) -> bool:
        return any(s == seat and p == hole for i, (s, p) in enumerate(board) if i != skip)

    def controlled(self, board: Board, mover: int) -> list[int]:
        if self.team_control:
            return [q for q in range(self.n) if self.same_team(q, mover)]
        if not self.all_home(board, mover):
            return [mover]
        clockwise = [(mover + i) % self.n for i in range(1, self.n)]
        waiting = [
            q for q in clockwise if self.same_team(q, mover) and not self.all_home(board, q)
        ]
        return waiting[:1] if self.r.help_order == "clockwise" else waiting

    def pegs_of(self, board: Board, seats: Iterable[int]) -> list[int]:
        wanted = set(seats)
        return [i for i, (s, p) in enumerate(board) if s in wanted and p != START]

    # --- movement (section 3) ------------------------------------------------------------
    def forward(self, board: Board, pid: int, n: int, ring_only: bool = False,
                hit_own: bool = False) -> list[int]:
        seat, p = board[pid]
        ring = self.ring
        pass_own = self.r.may_pass_own or hit_own
        own_home = {q for s, q in board if s == seat and q >= ring}
        if p == START:
            return []
        if p >= ring:  # inside home: forward only, exact, nothing passed or landed on
            k = p - ring + 1
            t = k + n
            if t <= self.hh and all(ring + j - 1 not in own_home for j in range(k + 1, t + 1)):
                return [ring + t - 1]
            return []
        out: list[int] = []
        cur = p
        for i in range(n):
            left = n - i
            if cur == self.door[seat] and not ring_only:
                if left <= self.hh and all(ring + j - 1 not in own_home
                                           for j in range(1, left + 1)):
                    out.append(ring + left - 1)
                if self.r.must_turn_in_at_door:
                    return out
            cur = (cur + 1) % ring
            if i < n - 1 and not pass_own and self.own_at(board, seat, cur, pid):
                return out
        if hit_own or not self.own_at(board, seat, cur, pid):
            out.append(cur)
        return out

    def backward(self, board: Board, pid: int, n: int, hit_own: bool = False) -> list[int]:
        seat, p = board[pid]
        if not 0 <= p < self.ring:
            return []
        pass_own = self.r.may_pass_own or hit_own
        cur = p
        for i in range(n):
            cur = (cur - 1) % self.ring
            if i < n - 1 and not pass_own and self.own_at(board, seat, cur, pid):
                return []
        if self.own_at(board, seat, cur, pid) and not hit_own:
            return []
        return [cur]

    def land(self, board: Board, mover: int, pid: int, dst: int) -> Board | None:
        """The board after peg ``pid`` lands on ``dst`` with its hits, or None if illegal."""
        b = list(board)
        seat, _ = b[pid]
        b[pid] = (seat, LIFTED)
        if 0 <= dst < self.ring:
            victim = self.at(b, dst)
            if victim is not None and not self._hit(b, mover, victim, {dst}):
                return None
        b[pid] = (seat, dst)
        return b

    def _hit(self, b: Board, mover: int, vid: int, seen: set[int]) -> bool:
        vseat, _ = b[vid]
        if not self.same_team(mover, vseat):
            b[vid] = (vseat, START)
            return True
        d = self.door[vseat]
        if d in seen:  # its own door is where it was hit, or the chain loops (I-16)
            return False
        w = self.at(b, d)
        if w is not None:
            if b[w][0] == vseat:
                return False  # the door holds the hit peg's colour
            seen.add(d)
            if not self._hit(b, mover, w, seen):  # I-06 chain
                return False
        b[vid] = (vseat, d)
        return True

    # --- powers ----------------------------------------------------------------------------
    def come_out(self, board: Board, mover: int, seats: Iterable[int]) -> list[Board]:
        out = []
        for q in seats:
            starts = [i for i, (s, p) in enumerate(board) if s == q and p == START]
            if not starts:
                continue
            occupant = self.at(board, self.out[q])
            if occupant is not None and board[occupant][0] == q:
                continue
            got = self.land(board, mover, starts[0], self.out[q])
            if got is not None:
                out.append(got)
        return out

    def singles(self, board: Board, mover: int, pegs: list[int], plan: Plan) -> list[Board]:
        out = []
        for pid in pegs:
            dests = [d for n in plan.forward for d in self.forward(board, pid, n)]
            dests += [d for n in plan.backward for d in self.backward(board, pid, n)]
            for d in dests:
                got = self.land(board, mover, pid, d)
                if got is not None:
                    out.append(got)
        return out

    def swaps(self, board: Board, pegs: list[int]) -> list[Board]:
        out = []
        for pid in pegs:
            seat, p = board[pid]
            if not 0 <= p < self.ring:
                continue
            for vid, (vseat, q) in enumerate(board):
                if vseat != seat and 0 <= q < self.ring:
                    b = list(board)
                    b[pid], b[vid] = (seat, q), (vseat, p)
                    out.append(b)
        return out

    def splits(self, board: Board, mover: int, pegs: list[int], total: int,
               finish: bool) -> list[Board]:
        out = []
        directions = [(True, True)] if total == 7 else [(True, False), (False, True)]
        for f1, f2 in directions:
            for x in pegs:
                for k in range(1, total):
                    first = (self.forward(board, x, k) if f1 else self.backward(board, x, k))
                    for d1 in first:
                        b1 = self.land(board, mover, x, d1)
                        if b1 is None:
                            continue
                        second = [y for y in pegs if y != x]
                        if (finish and f1 and board[x][0] == mover and d1 >= self.ring
                                and self.all_home(b1, mover)):
                            second = self.pegs_of(b1, self.controlled(b1, mover))
                        for y in second:
                            if y == x or b1[y][1] == START:
                                continue  # I-13: a peg sent to start cannot move
                            rest = total - k
                            ends = (self.forward(b1, y, rest) if f2
                                    else self.backward(b1, y, rest))
                            for d2 in ends:
                                b2 = self.land(b1, mover, y, d2)
                                if b2 is not None:
                                    out.append(b2)
        return out

    def ten(self, board: Board, mover: int) -> list[Board]:
        """North Carolina ten: two pegs of different colours, any seats, 10 in all."""
        ring = self.ring
        team = [q for q in range(self.n) if self.same_team(q, mover)]
        # any ring peg; home pegs of the mover's team (they move inside home only)
        pegs = [i for i, (s, p) in enumerate(board)
                if 0 <= p < ring or (p >= ring and s in team)]

        def moves(b: Board, pid: int, n: int, fwd: bool) -> list[int]:
            seat = b[pid][0]
            if fwd:
                return self.forward(b, pid, n, ring_only=seat not in team, hit_own=True)
            return self.backward(b, pid, n, hit_own=True)

        out = []
        for x in pegs:
            for k in range(1, 10):
                for f1 in (True, False):
                    for d1 in moves(board, x, k, f1):
                        b1 = self.land(board, mover, x, d1)
                        if b1 is None:
                            continue
                        for y in pegs:
                            if board[x][0] == board[y][0] or b1[y][1] == START:
                                continue
                            for f2 in (True, False):
                                for d2 in moves(b1, y, 10 - k, f2):
                                    b2 = self.land(b1, mover, y, d2)
                                    if b2 is not None:
                                        out.append(b2)
        return out

    def joker(self, board: Board, mover: int) -> list[Board]:
        rule, ring = self.r.joker_rule, self.ring
        out = []
        if rule == "pegoo":
            for pid, (q, p) in enumerate(board):
                if not self.same_team(q, mover) or p >= ring or p == self.door[q]:
                    continue
                if self.own_at(board, q, self.door[q], pid):
                    continue
                got = self.land(board, mover, pid, self.door[q])
                if got is not None:
                    out.append(got)
            for pid, (q, p) in enumerate(board):
                if 0 <= p < ring and not self.same_team(q, mover):
                    b = list(board)
                    b[pid] = (q, START)
                    out.append(b)
            return out
        if rule == "hit_start_first":
            team = [q for q in range(self.n) if self.same_team(q, mover)]
            sources = [i for i, (s, p) in enumerate(board) if s in team and p == START]
            if not sources:
                sources = [i for i, (s, p) in enumerate(board) if s in team and 0 <= p < ring]
        else:
            seats = self.controlled(board, mover)
            sources = [i for i, (s, p) in enumerate(board) if s in seats and p < ring]
        for pid in sources:
            colour = board[pid][0]
            for q, p in board:
                if 0 <= p < ring and q != colour:
                    got = self.land(board, mover, pid, p)
                    if got is not None:
                        out.append(got)
        if self.r.joker_comes_out:
            out += self.come_out(board, mover, self.controlled(board, mover))
        return out

    # --- a whole turn (section 4) -----------------------------------------------------------
    def card_results(self, board: Board, mover: int, card: str, stuck: int
                     ) -> tuple[set[Layout], set[Layout]]:
        """(results of coming out with a come-out card, every other result) of ``card``."""
        plan = self.cards[card]
        ctrl = self.controlled(board, mover)
        pegs = self.pegs_of(board, ctrl)
        outs: list[Board] = []
        other: list[Board] = []
        if plan.joker:
            for b in self.joker(board, mover):
                # a joker that brings a start peg onto the ring is a way of coming out (I-27)
                came_out = any(p == START and b[i][1] != START for i, (_, p) in enumerate(board))
                (outs if came_out and self.r.stuck_rule == "nc_counting" else other).append(b)
        if plan.out:
            outs += self.come_out(board, mover, ctrl)
        if plan.split in (7, 9):
            finish = (card in self.r.split_finish_with_partner) and not self.team_control
            split = self.splits(board, mover, pegs, plan.split, finish)
            other += split
            if not (plan.must_split and split):
                other += self.singles(board, mover, pegs, plan)
        elif plan.split == 10:
            other += self.ten(board, mover)
        else:
            other += self.singles(board, mover, pegs, plan)
        if plan.swap:
            other += self.swaps(board, pegs)
        rule = self.r.stuck_rule
        if not plan.out and ((rule == "pegoo_cant_play_pile" and stuck >= 2)
                             or (rule == "havasu_fourth_turn" and stuck >= 3)):
            outs += self.come_out(board, mover, ctrl)
        return {self.layout(b) for b in outs}, {self.layout(b) for b in other}

    def outcomes(self, pegs: Layout, mover: int, hand: Iterable[str], stuck: int,
                 first_turn: bool) -> set[Outcome]:
        board: Board = [(s, p) for s, ps in enumerate(pegs) for p in ps]
        if self.r.bluffing:
            return self._bluffing(board, pegs, mover, hand, stuck, first_turn)
        cards = sorted(set(hand), key=RANKS.index)
        found: set[Outcome] = set()
        moving: set[str] = set()
        other_moves = False
        for card in cards:
            outs, other = self.card_results(board, mover, card, stuck)
            if outs or other:
                moving.add(card)
            if other:
                other_moves = True
            found |= {(card, "", False, lay) for lay in outs | other}
        if self.r.stuck_rule == "nc_counting" and stuck >= 2 and not other_moves:
            free = self.come_out(board, mover, self.controlled(board, mover))
            if free:  # I-27: discard any card and come out free
                for card in cards:
                    found |= {(card, "", True, self.layout(b)) for b in free}
                return found
        joker_must = self.r.joker_obligatory and not first_turn and "Joker" in moving
        if not (moving - {"Joker"}) and not joker_must:
            found |= {(card, "", True, pegs) for card in cards}
        return found

    def _bluffing(self, board: Board, pegs: Layout, mover: int, hand: Iterable[str],
                  stuck: int, first_turn: bool) -> set[Outcome]:
        """I-26: any real card may be declared as any rank with a move legal for it."""
        declared: set[tuple[str, Layout]] = set()
        for rank in RANKS:
            outs, other = self.card_results(board, mover, rank, stuck)
            declared |= {(rank, lay) for lay in outs | other}
        real = set(hand)
        found: set[Outcome] = {(c, r, False, lay) for c in real for r, lay in declared}
        if not {r for r, _ in declared} - {"Joker"}:
            found |= {(c, "", True, pegs) for c in real}
        return found
