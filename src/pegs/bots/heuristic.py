"""A heuristic bot that plays like a good club player, from its seat's view only.

For every legal action it looks at the peg layout the action leads to and scores it with
a weighted evaluation (:class:`Weights`), then subtracts what the card played was worth
keeping in the hand.  Only the view and the legal actions are used.  Layouts of plain
moves and swaps are read off the action's steps (:func:`quick_result`); the others (hits,
decisions) come from one state sampled from the view per decision
(:func:`pegs.rules.determinize.sample_state` and ``result_of``): the board result of an
action never depends on the hidden cards, so any sample gives the right layout.  The
evaluation is incremental: per-seat values are cached by the seat's pegs and the danger
map of the board before the decision is corrected only for the pegs an action moves, so
the hundreds of North Carolina tens cost little.

The evaluation, from the side of the seat to decide (partners' pegs count as its own):

- progress: a peg out of start is worth ``out``; each hole travelled from the out-hole
  towards the door ``hole``; a peg in home ``home`` more plus its depth; a peg settled at
  the far end of home ``settled`` more;
- binding up home ("Kiss of Death"): ``bind`` per empty hole ahead of a home peg that is
  not all the way in, ``block`` per peg still outside that can no longer fit behind it;
- pegs on the ring: ``few_out`` per missing movable peg below two per player;
- danger: each own-team ring peg loses ``danger`` times its value times the chance that an
  opponent hits it before the team moves again (opponents' out-holes while they have pegs
  in start, 8 behind an out-hole, opponents' doors, opponents' pegs within reach behind
  or 8 ahead);
- opponents: their progress counts against (with several opposing teams, half the mean
  and half the leader), so hits are worth more the further the victim had come;
- ``partner_door`` extra for sending a partner's peg to its door.

Cards kept in the hand are worth something too (:func:`keep_values`): the joker a lot
(``joker_keep``, ``joker_endgame`` once the team is close to winning), come-out cards while
pegs wait in start, small cards while pegs are near home.  Playing or discarding a card
costs its keep value, so the bot holds jokers, uses the least useful card and throws away
the least useful one when it cannot move.

Bluffing Joker (every declaration's worth, bluff or not, is the layout it leads to):

- bluffing: a card declared as another rank pays ``bluff`` plus the chance of a doubt
  times what a caught bluff costs (the move and the ring peg the doubter likes least, or an
  extra turn for the doubter).  The bot reckons with a doubt ``doubted`` of the time for a
  rank as plausible as one with no copy seen, more for rarer ones (a joker, a rank mostly
  seen, from the public cards; always when every copy is seen), so it bluffs when no card
  in its hand makes a move nearly as good, with plausible ranks.  It never bluffs a move a
  card in its hand makes truly.
- doubting (:func:`weigh_doubt`): the chance of a bluff follows from the declarer's
  possible hands (the cards the seat has not seen) and its options (:class:`Suspicion`:
  the best move of every rank on the board, a declarer bluffing only when the declared
  move beats its best true one by more than the doubt it reckons with would cost it); a
  caught bluff gains the move and the declarer's ring peg the seat likes most (or an extra
  turn), a wrong doubt costs the seat's own ring peg that hurts most (or gives the
  declarer an extra turn).  It doubts at random on a logistic curve (``doubt_temper``) in
  the expected gain less ``doubt_margin``, and always when every copy of the rank is seen.
- sending back: the peg whose loss helps its team most (the most advanced).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any

from mypy_extensions import mypyc_attr

from ..notation import peg_hits
from ..rules import Action, Rules, View
from ..rules.bluff import DOUBT, PASS, redo, ring_pegs
from ..rules.board import START, Geometry, geometry
from ..rules.board_work import moved
from ..rules.coded import Coded
from ..rules.determinize import sample_state
from ..rules.listing import CardPlan, card_plans, controlled
from ..rules.powers import COUNTED_OUT, DISCARD
from ..rules.settings import RANKS
from ..rules.state import GameState
from ..rules.view import view as view_of

Pegs = tuple[tuple[int, ...], ...]

#: Score of a layout in which the deciding seat's team has won.
WIN = 100_000.0
#: Layouts of one seat's pegs whose value the evaluations keep (per rule set and weights).
SEAT_VALUES = 8192


@dataclass(frozen=True)
class Weights:
    """The weights of the evaluation (in "holes" of progress); any may be given as a bot option."""

    out: float = 12.0  # a peg out of start
    hole: float = 1.0  # per hole travelled from the out-hole
    home: float = 10.0  # a peg in home (safe)
    settled: float = 12.0  # a peg settled at the far end of home
    bind: float = 2.5  # per empty home hole ahead of a peg not all the way in
    block: float = 4.0  # per outside peg that no longer fits behind such a peg
    few_out: float = 5.0  # per movable peg missing below two on the ring per player
    danger: float = 1.0  # times the expected loss of own-team ring pegs
    partner_door: float = 4.0  # a partner's peg sent to its door by a landing
    opponents: float = 1.0  # weight of the opponents' progress
    joker_keep: float = 30.0  # the value of holding a joker
    joker_endgame: float = 5.0  # ... once the team is close to winning
    come_out_keep: float = 5.0  # an A, J, Q or K while pegs wait in start
    small_keep: float = 2.5  # a card moving 6 or less forward (A to 6) while pegs are near home
    bluff: float = 1.0  # a declaration with another card than the declared rank
    doubt_temper: float = 3.0  # the spread (in holes) of the doubt's logistic curve
    doubt_margin: float = 10.0  # the expected gain (in holes) a doubt must promise
    doubted: float = 0.45  # a bluffer reckons with a doubt this often (of a plausible rank)
    extra_turn: float = 10.0  # an extra turn won by a doubt when no ring peg can go back

    def __deepcopy__(self, memo: dict[int, Any]) -> Weights:
        return self  # immutable: a copied bot (a cloned environment) shares its weights

    def __reduce__(self) -> tuple[Any, ...]:
        # compiled, a frozen dataclass cannot be restored field by field: rebuild it
        return (Weights, tuple(getattr(self, f.name) for f in fields(self)))


WEIGHT_NAMES = frozenset(f.name for f in fields(Weights))
DEFAULT_WEIGHTS = Weights()

_CARD_BASE = {
    "A": 2.5, "2": 1.5, "3": 1.0, "4": 1.5, "5": 1.0, "6": 1.0, "7": 3.0, "8": 2.5,
    "9": 2.0, "10": 1.5, "J": 1.5, "Q": 1.5, "K": 1.5, "Joker": 0.0,
}
#: What a power is worth keeping, for a card whose powers a house rule changed (the
#: preset's cards keep :data:`_CARD_BASE`): the best of its powers counts.
_SPLIT_WORTH = {7: 3.0, 9: 2.0, 10: 1.5}


def _house_worth(plan: CardPlan) -> float:
    """The keep value of a card with house powers, read off its powers."""
    worth = [1.5 if plan.out else 0.0, 1.5 if plan.swap else 0.0,
             _SPLIT_WORTH.get(plan.split, 0.0)]
    worth += [2.5 if n >= 4 else 1.5 for n in plan.backward]
    worth += [1.0 if n <= 6 else 1.5 for n in plan.forward]
    return max(worth)


def _keep_tables(rules: Rules, plans: dict[str, CardPlan]
                 ) -> tuple[dict[str, float], frozenset[str], frozenset[str]]:
    """Each card's base keep value, the cards that come out, the small movers (a move
    forward of 6 or less), read off the powers."""
    changed = rules.changed_powers()
    base = {rank: _house_worth(plans[rank]) if rank in changed else _CARD_BASE[rank]
            for rank in plans}
    base["Joker"] = 0.0  # valued by the weights
    out = frozenset(rank for rank, plan in plans.items() if plan.out)
    small = frozenset(rank for rank, plan in plans.items() if any(n <= 6 for n in plan.forward))
    return base, out, small


# --- tables per rule set -------------------------------------------------------------------


class Tables:
    """What the evaluation needs that follows from the rules alone."""

    def __init__(self, rules: Rules) -> None:
        geo = geometry(rules)
        self.geo: Geometry = geo
        ring = geo.ring_size
        self.ring = ring
        #: holes from the out-hole to the door
        self.track = ring - 5
        #: to_door[q][h]: holes from ring hole h forward to seat q's door
        self.to_door = tuple(
            tuple((geo.door[q] - h) % ring for h in range(ring)) for q in range(geo.players)
        )
        plans = card_plans(rules)
        #: each card's keep value, the cards that come out, the small movers
        self.card_base, self.comes_out, self.small = _keep_tables(rules, plans)
        total = rules.total_cards
        per_rank = Counter({r: 4 * rules.decks for r in plans})
        per_rank["Joker"] = rules.decks * rules.jokers_per_deck + rules.extra_jokers
        hand = rules.hand_size + (1 if rules.turn_order == "draw_then_play" else 0)
        fwd = [0.0] * 14
        back = [0.0] * 14
        out = 0.0
        jokers = per_rank["Joker"] / total
        for rank, plan in plans.items():
            share = per_rank[rank] / total
            if plan.out:
                out += share
            for n in plan.forward:
                fwd[n] += share
            for n in plan.backward:
                back[n] += share
            if plan.split == 7:
                for n in range(1, 7):
                    fwd[n] += 0.5 * share
            elif plan.split == 9:
                for n in range(1, 9):
                    fwd[n] += 0.3 * share
                    back[n] += 0.3 * share
            elif plan.split == 10:
                for n in range(1, 10):
                    fwd[n] += 0.2 * share
                    back[n] += 0.2 * share

        def chance(share: float) -> float:
            return 1.0 - (1.0 - min(share, 1.0)) ** hand

        #: chance that an opponent peg d holes behind (ahead) can land on a hole, d 0..13
        self.p_fwd = tuple(chance(s) * 0.8 for s in fwd)
        self.p_back = tuple(chance(s) * 0.8 for s in back)
        self.reach_fwd = max((d for d in range(14) if fwd[d] > 0), default=0)
        self.reach_back = max((d for d in range(14) if back[d] > 0), default=0)
        #: an opponent with pegs in start comes out on its out-hole
        self.p_out = chance(out) * 0.6
        #: ... and then goes back 8 (two turns away)
        self.p_corner = chance(out) * chance(back[8]) * 0.3
        self.p_door = 0.05
        self.p_joker = 0.25 * chance(jokers) if rules.joker_rule != "hit_start_first" else 0.0
        self.per_rank = per_rank
        self.plans = plans
        #: log of the chance to miss a hole d holes ahead of an opponent's peg (d mod ring)
        rel = [0.0] * ring
        for d in range(1, self.reach_fwd + 1):
            rel[d] += math.log(1.0 - self.p_fwd[d])
        for d in range(1, self.reach_back + 1):
            rel[ring - d] += math.log(1.0 - self.p_back[d])
        self.rel = tuple(rel)
        #: how many teams (or seats playing for themselves) the table has
        self.teams = len(set(geo.team_of))
        #: per seat: its team, its opponents and the opponents by team
        self.sides: list[tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]]
        self.sides = []
        for seat in range(geo.players):
            opps = tuple(q for q in range(geo.players) if geo.opponent[seat][q])
            teams: dict[int, list[int]] = {}
            for q in opps:
                teams.setdefault(geo.team_of[q], []).append(q)
            self.sides.append((geo.team_seats[seat], opps,
                               tuple(tuple(v) for v in teams.values())))
        #: :meth:`Evaluator.static_danger` by seat and which opponents wait in start (one
        #: bit per opponent, above the seat's 4 bits)
        self.static: dict[int, list[float]] = {}
        #: the :class:`Kept` values of each set of weights in use, by its identity
        self._kept: dict[int, tuple[Weights, Kept]] = {}

    def kept(self, weights: Weights) -> Kept:
        got = self._kept.get(id(weights))
        if got is not None and got[0] is weights:
            return got[1]
        if len(self._kept) >= 16:
            self._kept.clear()
        made = Kept(self.geo.players)
        self._kept[id(weights)] = (weights, made)
        return made


class Kept:
    """Values under one set of weights that follow from a few inputs each, shared by the
    evaluations with these weights (the inputs recur from decision to decision)."""

    __slots__ = ("cards", "seats")

    def __init__(self, players: int) -> None:
        #: per seat, :meth:`Evaluator.seat_value` by the seat's pegs (at most
        #: :data:`SEAT_VALUES` a seat)
        self.seats: list[dict[tuple[int, ...], float]] = [{} for _ in range(players)]
        #: a card's keep value (:func:`hand_values`, held once) by the layout's bearing on
        #: it (pegs wait in start: 1, pegs near home: 2, the end near: 4) and the card
        self.cards: list[dict[str, float]] = [{} for _ in range(8)]


#: The tables of the rule sets in use, by the identity of the rules (a rule set's hash is
#: worked out in Python: too slow for every decision of a search).
_TABLES: dict[int, tuple[Rules, Tables]] = {}


def tables(rules: Rules) -> Tables:
    got = _TABLES.get(id(rules))
    if got is not None and got[0] is rules:
        return got[1]
    if len(_TABLES) >= 64:
        _TABLES.clear()
    made = Tables(rules)
    _TABLES[id(rules)] = (rules, made)
    return made


# --- the evaluation ------------------------------------------------------------------------


@mypyc_attr(acyclic=True)  # holds no objects that could refer back to it
class Evaluator:
    """Scores peg layouts from one seat's side.

    Built around a base layout (the board before the decision): a layout that differs from
    it in a peg or two costs a few dictionary look-ups for the seats' progress and a short
    loop over the team's ring pegs for the danger, whose distance part is the base's
    threat to the hole (worked out for the holes asked about) corrected for the opponents'
    pegs that moved.
    """

    def __init__(self, rules: Rules, seat: int, weights: Weights, base: Pegs,
                 danger_weights: Weights | None = None) -> None:
        t = tables(rules)
        self.t = t
        self.w = weights
        #: the weights of the danger term (a peg's value at risk and ``danger``)
        self.dw = weights if danger_weights is None else danger_weights
        geo = t.geo
        self.geo = geo
        self.seat = seat
        self.team, self.opps, self.opp_teams = t.sides[seat]
        #: per seat, the values of its pegs' layouts met so far
        self._seat = t.kept(weights).seats
        self._base_values: list[float | None] = [None] * geo.players
        ring = t.ring
        self.rel = t.rel
        self.base = base
        #: the opponents' ring pegs of the base layout, whose threat :meth:`threat` sums
        self._threats = [g for q in self.opps for g in base[q] if 0 <= g < ring]
        #: :meth:`threat` by hole (1.0 where not yet worked out: a log is at most 0)
        self._threat = [1.0] * ring
        #: :meth:`_peg_loss` by team seat and hole (NaN where not yet worked out)
        self._losses = [math.nan] * (len(self.team) * ring)
        self.base_static = self.static_danger(base)

    def threat(self, h: int) -> float:
        """The log of the chance that the base layout's opponent pegs miss ring hole ``h``
        (by the distance from each, :attr:`Tables.rel`)."""
        log = self._threat[h]
        if log <= 0.0:
            return log
        rel, ring = self.rel, self.t.ring
        log = 0.0
        for g in self._threats:
            log += rel[(h - g) % ring]
        self._threat[h] = log
        return log

    # -- progress of one seat ---------------------------------------------------------------
    def seat_value(self, q: int, ps: tuple[int, ...]) -> float:
        known = self._seat[q]
        got = known.get(ps)
        if got is not None:
            return got
        w, t = self.w, self.t
        ring, holes = t.ring, t.geo.home_holes
        value = 0.0
        start = on_ring = 0
        home: list[int] = []
        for p in ps:
            if p == START:
                start += 1
            elif p < ring:
                on_ring += 1
                value += w.out + w.hole * (t.track - t.to_door[q][p])
            else:
                home.append(p - ring + 1)
        if home:
            home.sort()
            top = holes
            i = len(home) - 1
            while i >= 0 and home[i] == top:
                top -= 1
                i -= 1
            settled = len(home) - 1 - i
            base = w.out + w.hole * t.track + w.home
            value += sum(base + w.hole * k for k in home) + w.settled * settled
            if i >= 0:  # pegs in home not all the way in
                outside = start + on_ring
                ahead = 0
                nxt = top + 1
                for k in reversed(home[: i + 1]):
                    ahead += nxt - k - 1
                    nxt = k
                value -= w.bind * ahead * (1.0 if outside else 0.5)
                value -= w.block * max(0, outside - (home[0] - 1))
        missing = max(0, min(2, start + on_ring) - on_ring)
        value -= w.few_out * missing
        if len(known) >= SEAT_VALUES:
            known.clear()
        known[ps] = value
        return value

    # -- danger to the team's ring pegs ----------------------------------------------------
    def static_danger(self, pegs: Pegs) -> list[float]:
        """Per ring hole: the log of the chance to escape the hits that do not depend on
        distance (a joker, an opponent's door, out-hole and the hole 8 behind it)."""
        key = self.seat
        bit = 16
        for q in self.opps:
            if START in pegs[q]:
                key |= bit
            bit <<= 1
        got = self.t.static.get(key)
        if got is not None:
            return got
        t, geo = self.t, self.geo
        miss = [math.log(1.0 - t.p_joker)] * t.ring
        for q in self.opps:
            miss[geo.door[q]] += math.log(1.0 - t.p_door)
            if START in pegs[q]:
                out = geo.out_hole[q]
                miss[out] += math.log(1.0 - t.p_out)
                miss[(out - 8) % t.ring] += math.log(1.0 - t.p_corner)
        t.static[key] = miss
        return miss

    def danger(self, pegs: Pegs) -> float:
        """The expected loss of the team's ring pegs before the team moves again."""
        t, base = self.t, self.base
        ring = t.ring
        static = self.base_static
        added: list[int] = []
        removed: list[int] = []
        moved = False
        for q in self.opps:
            now, was = pegs[q], base[q]
            if now is not was and now != was:
                moved = True
                static = self.static_danger(pegs)
                added += [g for g in now if 0 <= g < ring and g not in was]
                removed += [g for g in was if 0 <= g < ring and g not in now]
        dw = self.dw
        loss = 0.0
        if not moved:  # the opponents as in the base: a peg's loss depends on its hole
            losses = self._losses
            at = 0
            for q in self.team:
                for h in pegs[q]:
                    if 0 <= h < ring:
                        one = losses[at + h]
                        if one != one:  # not worked out yet (NaN)
                            one = losses[at + h] = self._peg_loss(q, h)
                        loss += one
                at += ring
            return dw.danger * loss
        rel, exp = self.rel, math.exp
        out, hole, track = dw.out, dw.hole, t.track
        for q in self.team:
            to_door = t.to_door[q]
            for h in pegs[q]:
                if not 0 <= h < ring:
                    continue
                log = static[h] + self.threat(h)
                for g in added:
                    log += rel[(h - g) % ring]
                for g in removed:
                    log -= rel[(h - g) % ring]
                loss += (1.0 - exp(log)) * (out + hole * (track - to_door[h]))  # the peg's value
        return dw.danger * loss

    def _peg_loss(self, q: int, h: int) -> float:
        """The term of :meth:`danger` of ``q``'s peg on ring hole ``h`` when the opponents
        stand as in the base layout."""
        dw, t = self.dw, self.t
        log = self.base_static[h] + self.threat(h)
        return (1.0 - math.exp(log)) * (dw.out + dw.hole * (t.track - t.to_door[q][h]))

    # -- the whole board ---------------------------------------------------------------------
    def team_value(self, pegs: Pegs, seats: tuple[int, ...]) -> float:
        value = 0.0
        base, values = self.base, self._base_values
        for q in seats:
            ps = pegs[q]
            if ps is base[q]:  # a seat the layout leaves as it was
                known = values[q]
                if known is None:
                    known = values[q] = self.seat_value(q, ps)
                value += known
            else:
                value += self.seat_value(q, ps)
        return value

    def board(self, pegs: Pegs) -> float:
        """The layout's worth for the deciding seat's team (higher is better)."""
        home = self.geo.all_home
        won = True
        for q in self.team:
            if pegs[q] != home:
                won = False
                break
        if won:
            return WIN
        own = self.team_value(pegs, self.team) - self.danger(pegs)
        if not self.opp_teams:
            return own
        if len(self.opp_teams) == 1:
            return own - self.w.opponents * self.team_value(pegs, self.opp_teams[0])
        values = [self.team_value(pegs, seats) for seats in self.opp_teams]
        # several opposing teams: half the mean, half the leader
        opp = 0.5 * sum(values) / len(values) + 0.5 * max(values)
        return own - self.w.opponents * opp


# --- layouts without the engine ----------------------------------------------------------------


@lru_cache(maxsize=256)
def _position_names(rules: Rules, mover: int) -> dict[str, tuple[int, int]]:
    """Step text -> (owner, position) as ``mover`` writes them; owner -1 for a ring hole
    (whoever stands there)."""
    geo = geometry(rules)
    names = geo.names_for(mover)
    out: dict[str, tuple[int, int]] = {}
    for q, row in enumerate(names):
        for i, text in enumerate(row):
            pos = i - 1
            if 0 <= pos < geo.ring_size:
                out[text] = (-1, pos)
            elif "@" in text or q == mover:
                out[text] = (q, pos)
    return out


def quick_result(rules: Rules, pegs: Pegs, mover: int, action: Action) -> Pegs | None:
    """The layout after ``action`` when no peg lands on another (plain moves and swaps),
    read off its steps; None when the engine must resolve hits."""
    if action.decision:
        return None
    if not action.steps:
        return pegs
    names = _position_names(rules, mover)
    ring = geometry(rules).ring_size
    moves: list[tuple[int, int, int]] = []
    occupant = {p: q for q, ps in enumerate(pegs) for p in ps if 0 <= p < ring}
    for step in action.steps:
        if step.hit:
            return None
        a, b = names.get(step.src), names.get(step.dst)
        if a is None or b is None:
            return None
        owner, src = a
        dst = b[1]
        if owner < 0:
            owner = occupant.get(src, -1)
            if owner < 0:
                return None
        if step.op == "~":
            other = occupant.get(dst, -1)
            if other < 0:
                return None
            moves += [(owner, src, dst), (other, dst, src)]
            occupant[src], occupant[dst] = other, owner
            continue
        if dst in occupant:  # a landing (a ten may land on its own colour, unmarked)
            return None
        moves.append((owner, src, dst))
        occupant.pop(src, None)
        if 0 <= dst < ring:
            occupant[dst] = owner
    out = list(pegs)
    for q, src, dst in moves:
        lst = list(out[q])
        if src not in lst:
            return None
        lst[lst.index(src)] = dst
        lst.sort()
        out[q] = tuple(lst)
    return tuple(out)


# --- the hand --------------------------------------------------------------------------------


def endgame(view: View) -> bool:
    """Is the viewing seat's team (or an opponent) close to winning?"""
    return near_end(view.rules, view.pegs, view.seat)


def near_end(rules: Rules, pegs: Pegs, seat: int) -> bool:
    """Is ``seat``'s team (or an opponent) close to winning in this layout?"""
    geo = tables(rules).geo
    ring = geo.ring_size

    def left(seats: Sequence[int]) -> int:
        return sum(1 for q in seats for p in pegs[q] if p < ring)

    team = geo.team_seats[seat]
    if left(team) <= len(team):
        return True
    opponents = [q for q in range(geo.players) if geo.opponent[seat][q]]
    return any(left(geo.team_seats[q]) <= 1 for q in opponents)


def keep_values(view: View, weights: Weights) -> dict[str, float]:
    """What each card of the hand is worth keeping (the cost of playing or discarding it)."""
    return hand_values(view.rules, view.pegs, view.seat, view.hand, weights)


def hand_values(rules: Rules, pegs: Pegs, seat: int, hand: Sequence[str],
                weights: Weights) -> dict[str, float]:
    """What each card of ``seat``'s ``hand`` is worth keeping in this layout."""
    t = tables(rules)
    geo = t.geo
    ring = geo.ring_size
    seats = controlled(geo, pegs, seat) or (seat,)
    start = False
    near = False
    for q in seats:
        ps = pegs[q]
        if START in ps:
            start = True
        door = geo.door[q]
        for p in ps:
            on_ring_near = 0 <= p < ring and (door - p) % ring <= 8
            if on_ring_near or (p >= ring and ps != geo.all_home):
                near = True
    end = "Joker" in hand and near_end(rules, pegs, seat)
    kept = t.kept(weights).cards[int(start) | int(near) << 1 | int(end) << 2]
    values: dict[str, float] = {}
    for card in hand:
        if card in values:
            continue
        got = kept.get(card)
        if got is None:
            v = t.card_base.get(card, 1.0)
            if card == "Joker":
                v = weights.joker_endgame if end else weights.joker_keep
            if start and card in t.comes_out:
                v += weights.come_out_keep
            if near and card in t.small:
                v += weights.small_keep
            if t.plans[card].split == 10:  # the North Carolina ten
                v += 2.0
            got = kept[card] = v
        values[card] = got if hand.count(card) == 1 else got * 0.6
    return values


def hand_worth(rules: Rules, pegs: Pegs, seat: int, hand: Sequence[str],
               weights: Weights) -> float:
    """The sum of :func:`hand_values` over every card of the hand (copies included)."""
    values = hand_values(rules, pegs, seat, hand, weights)
    return sum(values[card] for card in hand)


# --- Bluffing Joker decisions --------------------------------------------------------------


def _none_held(unseen: int, left: int, held: int) -> float:
    """The chance that ``held`` cards drawn from ``unseen`` miss all ``left`` copies."""
    none = 1.0
    for i in range(min(held, unseen)):
        none *= max(0.0, (unseen - left - i) / (unseen - i))
    return none


def unseen_copies(view: View, rank: str, public_only: bool = False) -> int:
    """The copies of ``rank`` this seat has not seen: not in the public discards and piles,
    nor in its own hand unless ``public_only`` (what the other seats know of it)."""
    seen = view.discards.count(rank) + sum(pile.count(rank) for pile in view.piles)
    if not public_only:
        seen += view.hand.count(rank)
    return max(0, tables(view.rules).per_rank[rank] - seen)


def holds_chance(view: View, rank: str, held: int, public_only: bool = False) -> float:
    """The chance that a hand of ``held`` cards this seat has not seen holds ``rank``
    (0.0 when every copy is accounted for; ``public_only`` as in :func:`unseen_copies`)."""
    left = unseen_copies(view, rank, public_only)
    if left == 0:
        return 0.0
    known = len(view.discards) + sum(len(pile) for pile in view.piles)
    if not public_only:
        known += len(view.hand)
    return 1.0 - _none_held(view.rules.total_cards - known, left, held)


class Suspicion:
    """How likely a declaration is a bluff, from the declarer's best move with each rank
    (``values``: what each is worth to the declarer) and the chance that its hand holds each
    rank (``holds``).

    A declarer plays its best true move unless a bluff beats it by more than a hurdle (what
    a doubt would cost it times the chance of one, plus ``bluff``); with no true move at
    all it must bluff, with any rank.  A bluffer picks any of the ranks that make the move;
    a declarer holding the declared rank declares this move when it holds no rank with a
    better one."""

    def __init__(self, values: dict[str, float], holds: dict[str, float]) -> None:
        self.ranked = sorted(values.items(), key=lambda kv: -kv[1])
        self.holds = holds

    def bluff(self, declared: str, move: float, hurdle: float, temper: float) -> float:
        """The chance that declaring ``declared`` for a move worth ``move`` is a bluff (a
        bluff that beats the best true move by about the hurdle is a toss-up: ``temper``)."""
        holds = self.holds.get(declared, 0.0)
        if holds <= 0.0:
            return 1.0
        none = 1.0  # no rank held so far in the ranking
        lacking = 0.0  # a declarer without the rank would bluff this move
        nothing_better = 1.0
        same = 1  # the ranks that make as good a move: a bluffer picks one of them
        for rank, value in self.ranked:
            if rank == declared:
                continue
            h = self.holds.get(rank, 0.0)
            lacking += none * h * logistic((move - value - hurdle) / temper)
            if value > move:
                nothing_better *= 1.0 - h
            if abs(value - move) < 1e-9:
                same += 1
            none *= 1.0 - h
        lacks = (1.0 - holds) * (lacking + none / max(1, len(self.ranked))) / same
        truth = holds * nothing_better
        return lacks / (lacks + truth) if lacks + truth > 0.0 else 1.0


def doubt_guess(view: View, rank: str, held: int, weights: Weights) -> float:
    """The chance a bluffer reckons with that a declaration of ``rank`` is doubted, from the
    public cards alone: ``doubted`` for a rank as plausible as one with no copy seen, more
    for a rank less likely in a hand of ``held`` cards (a joker, or a rank mostly seen),
    certain when every copy is seen."""
    holds = holds_chance(view, rank, held, True)
    if holds <= 0.0:
        return 1.0
    rules = view.rules
    known = len(view.discards) + sum(len(pile) for pile in view.piles)
    typical = 1.0 - _none_held(rules.total_cards - known, 4 * rules.decks, held)
    return min(1.0, weights.doubted * typical / holds)


def doubt_chance(bluff: float, caught: float, wrong: float, temper: float,
                 margin: float = 0.0) -> float:
    """How often to doubt a declaration that is a bluff with chance ``bluff`` when catching
    the bluff gains ``caught`` and a wrong doubt loses ``wrong`` (in holes): always when it
    must be a bluff, otherwise a logistic curve in the expected gain, so that a clear loss
    is hardly ever doubted and a close call is a toss of a coin."""
    if bluff >= 1.0:
        return 1.0
    return logistic((bluff * caught - (1.0 - bluff) * wrong - margin) / temper)


def logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, -x))))


def sent_back(ev: Evaluator, pegs: Pegs, seat: int, chooser_is_us: bool) -> float | None:
    """The worth (to ``ev``'s side) of the board after one of ``seat``'s ring pegs goes
    back to start, the chooser picking the best peg for its side; None without ring pegs."""
    values = [ev.board(moved(pegs, ((seat, p, START),)))
              for p in set(ring_pegs(ev.geo, pegs, seat))]
    if not values:
        return None
    return max(values) if chooser_is_us else min(values)


@dataclass(frozen=True)
class Doubt:
    """A doubt weighed by the seat asked: the chance of a bluff, what catching it gains and
    what a wrong doubt loses (in holes), and the chance to doubt that follows."""

    bluff: float
    chance: float
    caught: float
    wrong: float

    def why(self, declared: str, doubts: bool) -> str:
        """The one-line reason of the decision."""
        if self.bluff >= 1.0:
            return f"doubts the declared {declared}: every {declared} is accounted for"
        odds = (f"a bluff {self.bluff:.0%} likely; catching it gains {self.caught:.0f} holes, "
                f"a wrong doubt costs {self.wrong:.0f}")
        if doubts:
            return f"doubts the declared {declared}: {odds}"
        return f"lets the declared {declared} pass: {odds}"


def weigh_doubt(view: View, ev: Evaluator, weights: Weights) -> Doubt:
    """How the seat asked about the pending declaration weighs a doubt, from its view: the
    declarer's hand (its size before playing, drawn from the cards the seat has not seen)
    holds the declared rank or not; a caught bluff undoes the move and sends the
    declarer's best ring peg back (or gives an extra turn), a wrong doubt costs the seat's
    own ring peg that hurts most (or gives the declarer an extra turn)."""
    pending = view.pending
    assert pending is not None
    w, seat, pegs = weights, view.seat, view.pegs
    made = ev.board(pending.result)
    caught = caught_gain(ev, pegs, pending.declarer, made, w)
    if not ring_pegs(ev.geo, pegs, seat):
        wrong = w.extra_turn
    else:
        lost = sent_back(ev, pending.result, seat, False)
        wrong = 0.0 if lost is None else made - lost
    bluff = bluff_chance(view, ev, w, caught)
    return Doubt(bluff, doubt_chance(bluff, caught, wrong, w.doubt_temper, w.doubt_margin),
                 caught, wrong)


def caught_gain(ev: Evaluator, pegs: Pegs, declarer: int, made: float,
                weights: Weights) -> float:
    """What catching a bluff gains ``ev``'s side, in holes, against the declared move's
    board worth ``made``: the move undone and the declarer's ring peg it likes most sent
    back, or an extra turn when the declarer has none."""
    back = sent_back(ev, pegs, declarer, True)
    return (ev.board(pegs) + weights.extra_turn if back is None else back) - made


def bluff_chance(view: View, ev: Evaluator, weights: Weights, caught: float) -> float:
    """The chance that the pending declaration is a bluff, as an opponent of the declarer
    with this view reckons it (:class:`Suspicion`): ``ev`` evaluates for an opponent of the
    declarer, ``caught`` is what catching a bluff would gain it (in holes)."""
    pending = view.pending
    assert pending is not None
    w, pegs = weights, view.pegs
    made = ev.board(pending.result)
    declarer = pending.declarer
    options = Coded(ev.geo, pegs, declarer, RANKS, view.stuck[declarer],
                    view.turns_taken[declarer] == 0)
    values: dict[str, float] = {}
    for i in range(len(options)):
        code = options.code(i)
        if code & 7 not in (DISCARD, COUNTED_OUT):
            card = options.card(code)
            worth = -ev.board(options.result(code))  # to the declarer: what one side gains
            values[card] = max(values.get(card, worth), worth)  # the other loses
    held = view.hand_sizes[declarer] + 1
    holds = {rank: holds_chance(view, rank, held) for rank in values}
    declared = pending.action.declared
    hurdle = doubt_guess(view, declared, held, w) * max(caught, 0.0) + w.bluff
    return Suspicion(values, holds).bluff(declared, -made, hurdle, w.doubt_temper)


# --- the bot -----------------------------------------------------------------------------------


@dataclass
class Choice:
    action: Action
    after: Pegs
    score: float
    why: str = ""  # the reason, when the layouts alone do not tell it


class Results:
    """The layouts that actions lead to: plain moves read off their steps, the rest from
    one state sampled from the view (made when first needed).  Given a ``sample`` (a state
    that a search sampled from the view), every layout is read off that state."""

    def __init__(self, view: View, rng: random.Random, sample: GameState | None = None
                 ) -> None:
        self.view = view
        self.rng = rng
        self._state = sample
        self._given = sample is not None

    def state(self) -> GameState:
        if self._state is None:
            self._state = sample_state(self.view, self.rng)
        return self._state

    def after(self, action: Action) -> Pegs:
        if self._given:
            return self.state().result_of(action)
        v = self.view
        quick = quick_result(v.rules, v.pegs, v.turn, action)
        return quick if quick is not None else self.state().result_of(action)


class HeuristicBot:
    """Scores every legal action with a club player's evaluation; ties broken by its seed."""

    name = "heuristic"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        unknown = set(options) - WEIGHT_NAMES
        if unknown:
            raise ValueError(
                f"unknown heuristic option {sorted(unknown)[0]!r}; options are: "
                + ", ".join(sorted(WEIGHT_NAMES))
            )
        self.weights = (replace(DEFAULT_WEIGHTS, **{k: float(v) for k, v in options.items()})
                        if options else DEFAULT_WEIGHTS)  # (the default shares kept values)
        if self.weights.doubt_temper <= 0:
            raise ValueError("heuristic option doubt_temper must be more than 0")
        self.rng = random.Random(seed)
        self._sample_rng = random.Random(f"heuristic-sample-{seed}")

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return self._decide(view, legal).action

    def play_out(self, state: GameState, codes: Sequence[int]) -> int:
        """The choice of :meth:`choose` among legal ``codes`` (see
        :meth:`~pegs.rules.GameState.legal_codes`) for the seat to act in ``state``, a
        state that a search sampled from its own view (a rollout): the layouts are read
        off the state's listing (the board result of an action never depends on the hidden
        cards) and, outside Bluffing Joker, the evaluation needs nothing but the board and
        the seat's hand, so no view and no :class:`Action` is made for a one-peg move."""
        if len(codes) == 1:
            return codes[0]
        seat = state.current_player
        rules = state.rules
        if rules.bluffing or not codes:
            legal = [state.action_of(c) for c in codes]
            chosen = self._decide(view_of(state, seat), legal, state).action
            return codes[legal.index(chosen)]
        afters, cards = state.code_results(codes)
        pegs = state.pegs
        ev = Evaluator(rules, seat, self.weights, pegs)
        keep = hand_values(rules, pegs, seat, state.hands[seat], self.weights)
        values = self._values(ev, seat, pegs, afters)
        return codes[self._top([values[i] - keep.get(cards[i], 0.0)
                                for i in range(len(codes))])]

    def explain(self, view: View, legal: Sequence[Action]) -> tuple[Action, str]:
        """The chosen action and a one-line reason in plain words."""
        choice = self._decide(view, legal)
        action = choice.action
        why = choice.why or reason(view, action, view.pegs, choice.after)
        if action.declared and action.declared != action.card:
            said = f"(bluffs a {action.declared} with a {action.card}"
            guess = doubt_guess(view, action.declared, len(view.hand), self.weights)
            why = why.replace(said, f"{said}: no true card does as well, and it reckons "
                              f"with a doubt {guess:.0%} of the time")
        return action, why

    # -- deciding -------------------------------------------------------------------------------
    def _decide(self, view: View, legal: Sequence[Action], sample: GameState | None = None
                ) -> Choice:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 2 and legal[0] == DOUBT and legal[1] == PASS:
            return self._doubt_or_pass(view)
        results = Results(view, self._sample_rng, sample)
        if len(legal) == 1:
            only = legal[0]
            return Choice(only, view.pegs if only.decision else results.after(only), 0.0)
        ev = Evaluator(view.rules, view.seat, self.weights, view.pegs)
        if legal[0].decision:
            return self._send(view, legal, results, ev)
        return self._best_play(view, legal, results, ev)

    def _pick(self, scored: list[Choice]) -> Choice:
        best = max(c.score for c in scored)
        top = [c for c in scored if c.score >= best - 1e-9]
        return top[0] if len(top) == 1 else top[self.rng.randrange(len(top))]

    def play_scores(self, view: View, legal: Sequence[Action]) -> list[float] | None:
        """The score of each legal action (higher is better), or None when the decision is
        not a card play (a doubt, or the peg to send back)."""
        if not legal or legal[0].decision or (len(legal) == 2 and legal[0] == DOUBT
                                               and legal[1] == PASS):
            return None
        ev = Evaluator(view.rules, view.seat, self.weights, view.pegs)
        results = Results(view, self._sample_rng)
        return self._scores(view.rules, view.seat, view.pegs, view.hand, legal, results.after,
                            ev, view)[0]

    def _best_play(self, view: View, legal: Sequence[Action], results: Results,
                   ev: Evaluator) -> Choice:
        scores, afters = self._scores(view.rules, view.seat, view.pegs, view.hand, legal,
                                      results.after, ev, view)
        i = self._top(scores)
        return Choice(legal[i], afters[i], scores[i])

    def _top(self, scores: list[float]) -> int:
        """The index of the best score (ties within 1e-9 broken by the seed)."""
        best = max(scores)
        top = [i for i, v in enumerate(scores) if v >= best - 1e-9]
        return top[0] if len(top) == 1 else top[self.rng.randrange(len(top))]

    def _scores(self, rules: Rules, seat: int, before: Pegs, hand: Sequence[str],
                legal: Sequence[Action], after_of: Callable[[Action], Pegs], ev: Evaluator,
                view: View | None) -> tuple[list[float], list[Pegs]]:
        """Each action's score and layout; ``view`` is needed with Bluffing Joker only."""
        w = self.weights
        keep = hand_values(rules, before, seat, hand, w)
        back = 0.0  # what a caught bluff leaves: the doubter sends back the peg it likes
        if rules.bluffing:
            lost = sent_back(ev, before, seat, False)
            back = ev.board(before) - w.extra_turn if lost is None else lost
        guesses: dict[str, float] = {}
        afters = [after_of(action) for action in legal]
        values = self._values(ev, seat, before, afters)
        scores: list[float] = []
        for i, action in enumerate(legal):
            value = values[i]
            score = value - keep.get(action.card, 0.0)
            if action.declared and action.declared != action.card:
                guess = guesses.get(action.declared)
                if guess is None:
                    assert view is not None
                    guess = doubt_guess(view, action.declared, len(hand), w)
                    guesses[action.declared] = guess
                score -= w.bluff + guess * (value - back)
            scores.append(score)
        if rules.bluffing:  # never bluff a move that a card in the hand makes truly
            true_moves = {afters[i] for i, a in enumerate(legal) if a.card == a.declared}
            for i, a in enumerate(legal):
                if a.card != a.declared and afters[i] in true_moves:
                    scores[i] = -math.inf
        return scores, afters

    def _values(self, ev: Evaluator, seat: int, before: Pegs, afters: list[Pegs]
                ) -> list[float]:
        """The worth of each layout to ``seat`` (its evaluation, and ``partner_door`` for
        each partner's peg a landing sent to its door)."""
        w = self.weights
        geo = ev.geo
        partners = [q for q in ev.team if q != seat]
        still = math.nan  # the worth of the board as it was (the discards), once known
        values: list[float] = []
        for after in afters:
            if after is before:
                if still != still:
                    still = ev.board(before)
                values.append(still)
                continue
            value = ev.board(after)
            for q in partners:
                door = geo.door[q]
                if after[q] != before[q] and door in after[q] and door not in before[q]:
                    value += w.partner_door
            values.append(value)
        return values

    def _send(self, view: View, legal: Sequence[Action], results: Results,
              ev: Evaluator) -> Choice:
        state = results.state()
        pending = state.pending
        scored: list[Choice] = []
        for action in legal:
            after = state.result_of(action)
            final = after
            if pending is not None and pending.declarer == view.seat and not pending.bluff:
                made = redo(state, pending, after)  # our true declaration is made next
                final = after if made is None else made
            scored.append(Choice(action, after, ev.board(final)))
        return self._pick(scored)

    def _doubt_or_pass(self, view: View) -> Choice:
        pending = view.pending
        assert pending is not None
        ev = Evaluator(view.rules, view.seat, self.weights, view.pegs)
        weighed = weigh_doubt(view, ev, self.weights)
        doubt = self.rng.random() < weighed.chance
        return Choice(DOUBT if doubt else PASS, view.pegs, weighed.chance,
                      weighed.why(pending.action.declared, doubt))


# --- reasons -----------------------------------------------------------------------------------


def _moves(before: Pegs, after: Pegs, seat: int) -> tuple[list[int], list[int]]:
    gone = Counter(before[seat]) - Counter(after[seat])
    came = Counter(after[seat]) - Counter(before[seat])
    return sorted(gone.elements()), sorted(came.elements())


def _peg_moves(view: View, action: Action, before: Pegs, after: Pegs
               ) -> list[tuple[int, int, int, bool]]:
    """(seat, from, to, by_step) for every peg that moved: first the action's steps in
    order, then the pegs moved by landings (hits), read off the layouts."""
    ring = geometry(view.rules).ring_size
    names = _position_names(view.rules, view.turn)
    occupant = {p: q for q, ps in enumerate(before) for p in ps if 0 <= p < ring}
    out: list[tuple[int, int, int, bool]] = []
    for step in action.steps:
        a, b = names.get(step.src), names.get(step.dst)
        if a is None or b is None:
            continue
        owner, src = a
        dst = b[1]
        if owner < 0:
            owner = occupant.get(src, -1)
        if owner < 0:
            continue
        if step.op == "~":
            other = occupant.get(dst, -1)
            out.append((owner, src, dst, True))
            if other >= 0:
                out.append((other, dst, src, True))
            continue
        out.append((owner, src, dst, True))
        occupant.pop(src, None)
    # what the steps do not explain moved by a landing
    explained = [(q, src, dst) for q, src, dst, _ in out]
    out += [(q, f, t, False) for q, f, t in peg_hits(before, after, explained)]
    return out


def reason(view: View, action: Action, before_pegs: Pegs, after_pegs: Pegs) -> str:
    """Why ``action`` is good, in plain words with Pegoo hole numbers, e.g. ``sends the
    opponent at 17 back to start``, ``enters home exactly``, ``brings a peg out``."""
    geo = geometry(view.rules)
    ring = geo.ring_size
    num = geo.pegoo_number
    seat = view.seat
    declared = view.pending.action.declared if view.pending is not None else ""
    if action.decision == "doubt":
        return f"doubts the declared {declared or 'card'}: unlikely after the cards seen"
    if action.decision == "pass":
        return f"lets the declared {declared or 'card'} pass: it is probably true"
    if action.decision:
        for q in range(geo.players):
            gone, came = _moves(before_pegs, after_pegs, q)
            if gone and came == [START]:
                return f"sends the opponent at {num(gone[0])} back to start"
        return "sends an opponent's peg back to start"
    if action.discard and not action.steps:
        return f"no move possible: discards the least useful card ({action.card})"
    team = geo.team_seats[seat]
    danger_spots = {geo.out_hole[q] for q in range(geo.players)
                    if geo.opponent[seat][q] and START in before_pegs[q]}
    first: list[str] = []  # the headline effects
    parts: list[str] = []
    for q, g, c, by_step in _peg_moves(view, action, before_pegs, after_pegs):
        if geo.opponent[seat][q]:
            if c == START:
                first.append(f"sends the opponent at {num(g)} back to start")
            elif by_step:
                way = "back" if (g - c) % ring < ring // 2 else "on"
                parts.append(f"moves the opponent at {num(g)} {way} to {num(c)}")
            continue
        peg = "the peg" if q == seat else ("the partner's peg" if q in team else "a peg")
        if g == START:
            parts.append("brings a peg out" if q == seat else f"brings {peg} out")
        elif c == START:
            parts.append(f"loses {peg} at {num(g)}")
        elif not by_step and c == geo.door[q]:
            first.append("moves the partner's peg to its door" if q != seat
                         else f"sends its own peg at {num(g)} to its door")
        elif c >= ring and g < ring:
            if _settled(geo, after_pegs[q], c):
                first.append(f"{peg} at {num(g)} enters home exactly at {num(c)}")
            else:
                parts.append(f"moves {peg} at {num(g)} into home at {num(c)}")
        elif c >= ring:
            parts.append(f"moves {peg} deeper into home, {num(g)} to {num(c)}")
        elif g in danger_spots:
            parts.append(f"moves {peg} at {num(g)} off an opponent's out-hole to {num(c)}")
        else:
            parts.append(f"moves {peg} at {num(g)} to {num(c)}")
    text = "; ".join(first + parts) or "makes the move"
    if action.card == "Joker" or action.declared == "Joker":
        text = "uses the joker: " + text
    elif "Joker" in view.hand:
        text += "; keeps the joker"
    if action.declared and action.declared != action.card:
        text += f" (bluffs a {action.declared} with a {action.card})"
    if action.discard:
        text = f"discards the {action.card} and {text}"
    return text


def _settled(geo: Geometry, ps: tuple[int, ...], pos: int) -> bool:
    """Does the home peg at ``pos`` sit at the far end with every hole after it filled?"""
    last = geo.ring_size + geo.home_holes - 1
    return all(h in ps for h in range(pos, last + 1))


__all__ = [
    "WEIGHT_NAMES",
    "Evaluator",
    "HeuristicBot",
    "Suspicion",
    "Weights",
    "bluff_chance",
    "caught_gain",
    "doubt_chance",
    "holds_chance",
    "keep_values",
    "reason",
    "weigh_doubt",
]
