"""Information Set Monte Carlo Tree Search (single observer, Cowling, Powley & Whitehouse 2012).

The bot sees only its seat's :class:`~pegs.rules.View` and the legal actions.  Each
iteration deals the unseen cards at random with
:func:`pegs.rules.determinize.sample_state` (a *determinization*) and walks one tree
whose edges are actions, so every determinization shares the same nodes:

* **selection**: among the children whose action is legal in this determinization, UCB1
  ``mean + c * sqrt(ln(available) / visits)``, where ``available`` counts the iterations
  in which the child's action was legal when its parent was visited;
* **expansion**: one untried legal action (see *widening* below);
* **rollout**: the heuristic bot (or random play) for at most ``rollout_depth`` actions;
  a position the rollout leaves unfinished is scored by the *leaf score*, worth at most
  ``SCORED_WEIGHT`` of a real win; a result ``k`` actions below the root is weighed by
  ``discount ** k`` against the even share of the teams, so the search prefers quick wins
  (without it every move of a won position looks the same);
* **backup**: a result is one reward per seat (1 for every seat of the winning team, or
  only the winner's seat without teams; partners share a win), and each node adds the
  reward of the seat that chose the action leading to it.

**Rollouts.**  Games last hundreds of actions, so rollouts are always cut off.  By
default (``rollout="heuristic"``, ``rollout_depth=3``) the heuristic bot plays the next
three actions from the new leaf (at four seats, the other seats' replies to the move) on
the sampled cards, and the leaf score judges the position they leave.  The search then
meets replies a good player makes instead of judging a move before anyone answers it.  It
costs about three fifths of the iterations (basic, 8 positions of random games at 200
iterations a decision, ``benchmarks/ismcts_speed.py``: 15,300 a second against 38,800
with ``rollout_depth=0``; the rollout's heuristic bot decides among the codes of the
sampled state itself, :meth:`~pegs.bots.heuristic.HeuristicBot.play_out`), and it wins
more: in 2v2 against two heuristic bots at 1,000 iterations a move, on the same deals and
seats, 20 of 26 games in basic where scoring the leaf at once won 14, and 20 of 23 in
pegoo where it won 15.  ``rollout_depth=0`` scores the new leaf at once (the tree itself,
which deals the opponents' cards anew every iteration, then supplies the look-ahead);
``rollout="random"`` plays random moves (as :func:`~pegs.bots.random_bot.random_action`
chooses); ``rollout_depth=None`` plays to the end.
Where a position has more than :data:`ROLLOUT_CHOICES` legal actions (a North Carolina
ten, a Bluffing Joker hand), the rollout's heuristic bot chooses among a random sample of
that many.

**Leaf score.**  The default (``leaf="fitted"``, :func:`pegs.bots.leaf.fitted_rewards`)
is the heuristic bot's evaluation with its weights fitted by logistic regression to the
winners of heuristic self-play games, one model per preset (:mod:`pegs.bots.leaf_models`,
written by ``scripts/fit_leaf.py``, named by the preset's record; a preset without one
takes the general model, :mod:`pegs.bots.leaf_general`, fitted to all the presets'
positions together): each team's pegs, the danger they are in, the cards its seats hold
and whether it is to act, turned into win chances.  The hand-tuned
``leaf="heuristic"`` (:func:`heuristic_rewards`) scores the same terms with the heuristic
bot's own weights over :data:`HEURISTIC_SCALE` holes, which proved far too sure of itself:
on held-out pegoo positions its log-loss was 0.91, worse than the even guess (0.69), and
the fitted model's 0.58.  In 2v2 pegoo against two heuristic bots at 1,000 iterations a
move (with the guard, scoring the leaf at once) the fitted score won 44 of 72 games
(61.1%); on the 63 deals and seats both played, it won 40 and the hand-tuned score 34; at
1 s a move it won 130 of 200 (65.0%).  ``leaf="progress"`` (:func:`progress_rewards`)
counts only how far the pegs have come; it won 0 of 10 games at 300 iterations.

**Guard.**  A short search is noisy: at 200 to 1,000 iterations the most visited move
was often worse than the heuristic bot's choice, and the bot lost to it.  So the heuristic
bot's choice is tried first and kept unless the search found another move's mean reward
better by more than ``guard`` standard errors of the difference (:data:`DEFAULT_GUARD`);
a long search overrules it wherever its evidence is clear.

Children are keyed by ``(seat to act, action)``: with a Bluffing Joker the seat that acts
after a doubt (the doubter or the declarer) depends on the face-down card, i.e. on the
determinization, and one node must not mix the statistics of two seats.  The search plays
integer codes (:meth:`~pegs.rules.GameState.legal_codes`, ``apply_code``): a one-peg move
or a discard has one code at every position where it is legal, so such a child is keyed
by its code and no :class:`Action` is made for it; any other code (a split, a ten, a
swap, a Bluffing Joker choice) may be an index into the position's listing,
which depends on the hand dealt, so such a child is keyed by its action.  The root's
children are keyed by their index in the root's listing, which is the same in every
determinization (the board, the hand and the counters are the view's).

**Widening.**  North Carolina tens and Arizona jokers can give hundreds of legal actions.
A node holds at most ``max(WIDEN_MIN, widening * sqrt(visits))`` children (progressive
widening): it expands a new child only while under that limit (or when none of its
children is legal in the current determinization) and otherwise selects among the
children it has.  Untried actions are expanded at random, except at the root, where they
are tried best first by the leaf score of the position they lead to, so an immediately winning
or strongly advancing move is among the first children even when the widening leaves most
of the root's actions untried.

The hidden cards of the real game never reach this module: the only full game states it
handles are the ones ``sample_state`` returns (and their successors).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Protocol, cast

from mypy_extensions import mypyc_attr

from ..rules import PRESETS, Action, Outcome, Rules, View, determinize, geometry
from ..rules.bluff import DOUBT, PASS
from ..rules.board import START
from ..rules.board_work import Pegs
from ..rules.code_list import kind_of
from ..rules.listing import MoveMemo
from ..rules.powers import DISCARD, MOVE
from .belief import face_down_belief
from .heuristic import Evaluator, HeuristicBot, Weights, hand_worth, tables
from .leaf import fitted_rewards, team_chances
from .leaf_general import GENERAL
from .leaf_models import MODELS
from .random_bot import DEFAULT_DOUBT_RATE

#: Iterations per decision when neither ``iterations`` nor ``seconds`` is given.
DEFAULT_ITERATIONS = 500
#: Who plays the rollouts, and how many actions before the leaf score judges the position
#: (see the module notes).
DEFAULT_ROLLOUT = "heuristic"
DEFAULT_ROLLOUT_DEPTH = 3
#: A position scored by progress is worth at most this share of a win (the rest is spread
#: evenly), so a won game always beats a position that merely looks won.
SCORED_WEIGHT = 0.9
#: Safety cap of a rollout asked to play to the end (``rollout_depth=None``).
UNLIMITED_ROLLOUT_CAP = 20_000
#: Per action from the root, a result's weight against the even share of the teams.
DEFAULT_DISCOUNT = 0.99
#: A node may always hold this many children, however few its visits.
WIDEN_MIN = 8
#: Sharpness of the progress score: a team ahead by one peg of eight carried from start to
#: home (a team score lead of 1/8) is worth about 0.73 against one other team.
PROGRESS_SHARPNESS = 8.0
#: Holes of heuristic worth that make one team's score e (2.7) times another's (leaf="heuristic").
HEURISTIC_SCALE = 40.0
#: Weight of the heuristic bot's keep value of every card held, in the heuristic leaf score
#: (0.5 values a joker at 15 holes, as :data:`JOKER_WORTH` does when ``keep`` is 0).
DEFAULT_KEEP = 0.5
#: Holes of worth of a joker held, in the heuristic leaf score without ``keep``.
JOKER_WORTH = 15.0
#: Holes of heuristic score per unit of reward in the root prior (about the slope of the
#: two-team leaf score at an even position, ``4 * HEURISTIC_SCALE``).
PRIOR_HOLES = 4 * HEURISTIC_SCALE
#: Standard errors by which the search must find a move better than the heuristic bot's
#: choice to play it instead (see ``guard``).  In 2v2 pegoo against two heuristic bots it
#: raised the win rate from 36.6% to 50.0% at 200 iterations a move (112 games each) and
#: from 47.7% (44 games) to 54.0% (63 games) at 1,000.
DEFAULT_GUARD = 2.0
#: Iterations between two checks whether the leading root child can still be overtaken.
_STOP_CHECK = 32
#: Random picks tried for an untried action before the whole legal list is scanned.
_UNTRIED_PROBES = 8
#: A heuristic rollout scores at most this many legal actions, drawn at random (a North
#: Carolina ten or a Bluffing Joker hand can have hundreds; no basic game position of
#: 5,280 in heuristic self-play had more than 64).
ROLLOUT_CHOICES = 64

Rewards = tuple[float, ...]


class _Game(Protocol):
    """What the search uses of a determinized game state (from ``sample_state``)."""

    @property
    def rules(self) -> Rules: ...

    @property
    def pegs(self) -> Pegs: ...

    @property
    def current_player(self) -> int: ...

    def is_over(self) -> bool: ...

    def outcome(self) -> Outcome | None: ...

    def legal_actions(self) -> Sequence[Action]: ...

    def legal_codes(self) -> Sequence[int]: ...

    def action_of(self, code: object) -> Action: ...

    @property
    def hands(self) -> tuple[tuple[str, ...], ...]: ...

    def apply(self, action: Action) -> _Game: ...

    def apply_code(self, code: object) -> _Game: ...

    def code_results(self, codes: Sequence[int]) -> tuple[list[Pegs], list[str]]: ...


@mypyc_attr(acyclic=True)  # a tree: no node refers back to one above it
class Node:
    """One tree node: the statistics of the action that leads to it, from the point of view
    of the seat that chose it (``mover``), and its children (see the module notes).  The
    action is its ``code`` where it was first listed, and also, below the root, the
    :class:`Action` itself where that code means nothing at another position."""

    __slots__ = ("action", "available", "bias", "children", "code", "mover", "squares",
                 "total", "visits")

    def __init__(self, mover: int = -1, code: int = -1, action: Action | None = None
                 ) -> None:
        self.mover = mover
        self.code = code
        self.action = action
        self.children: dict[object, Node] = {}
        self.bias = 0.0  # at the root: the heuristic's opinion of the action (``prior``)
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.squares = 0.0  # sum of the squared rewards, for the spread of the mean

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0

    def error(self) -> float:
        """Standard error of :meth:`mean` (infinite below two visits)."""
        if self.visits < 2:
            return math.inf
        mean = self.total / self.visits
        spread = max(0.0, self.squares / self.visits - mean * mean)
        return math.sqrt(spread / (self.visits - 1))


# --- evaluation ------------------------------------------------------------------------------


def seat_progress(rules: Rules, pegs: Pegs) -> list[float]:
    """Each seat's progress in ``[0, 1]``: the mean over its pegs of 0 in start, 1 at home,
    and in between on the ring by the distance still to go to its door."""
    geo = geometry(rules)
    ring = geo.ring_size
    out: list[float] = []
    for seat, ps in enumerate(pegs):
        door = geo.door[seat]
        score = 0.0
        for p in ps:
            if p == START:
                continue
            if p >= ring:
                score += 1.0
            else:
                score += 0.2 + 0.7 * (1.0 - ((door - p) % ring) / ring)
        out.append(score / len(ps))
    return out


def progress_rewards(rules: Rules, pegs: Pegs, sharpness: float = PROGRESS_SHARPNESS) -> Rewards:
    """A cheap score of an unfinished position, one reward in ``[0, 1]`` per seat.

    Each team's (or, without teams, each seat's) progress is the mean of its seats'
    :func:`seat_progress`; the teams' rewards are a softmax of those progresses, so equal
    teams share evenly, the rewards of the teams sum to 1 like win chances, and every seat
    gets its team's reward.
    """
    geo = geometry(rules)
    progress = seat_progress(rules, pegs)
    teams = sorted(set(geo.team_of))
    team_score = {
        t: sum(progress[q] for q in range(geo.players) if geo.team_of[q] == t)
        / sum(1 for q in range(geo.players) if geo.team_of[q] == t)
        for t in teams
    }
    top = max(team_score.values())
    weight = {t: math.exp(sharpness * (s - top)) for t, s in team_score.items()}
    norm = sum(weight.values())
    return tuple(weight[geo.team_of[q]] / norm for q in range(geo.players))


def heuristic_rewards(rules: Rules, pegs: Pegs, hands: Sequence[Sequence[str]] = (),
                      scale: float = HEURISTIC_SCALE, keep: float = 0.0) -> Rewards:
    """A club player's score of an unfinished position, one reward in ``[0, 1]`` per seat.

    Each team's worth is the heuristic bot's evaluation of its own pegs (progress, home
    binding, pegs out) less the danger its ring pegs are in
    (:class:`pegs.bots.heuristic.Evaluator`); the teams' rewards are a softmax of those
    worths over ``scale`` holes, so they sum to 1 like win chances.  The cards in the
    ``hands`` count too: each joker :data:`JOKER_WORTH` holes, or with ``keep`` every card
    ``keep`` times what the heuristic bot would pay to keep it
    (:func:`pegs.bots.heuristic.hand_worth`).
    """
    geo = geometry(rules)
    weights = Weights()
    worth: dict[int, float] = {}
    for seat in range(geo.players):
        team = geo.team_of[seat]
        if team not in worth:
            ev = Evaluator(rules, seat, weights, pegs)
            worth[team] = ev.team_value(pegs, ev.team) - ev.danger(pegs)
    for seat, hand in enumerate(hands):
        if keep:
            worth[geo.team_of[seat]] += keep * hand_worth(rules, pegs, seat, hand, weights)
        else:
            worth[geo.team_of[seat]] += JOKER_WORTH * hand.count("Joker")
    return team_chances(geo.team_of, worth, scale)


def discounted(rules: Rules, rewards: Rewards, weight: float) -> Rewards:
    """``rewards`` pulled toward the even share ``1 / teams`` by ``weight`` (1: unchanged),
    so that a quicker win is worth more and a later loss costs less."""
    even = (1.0 - weight) / tables(rules).teams
    return tuple(weight * r + even for r in rewards)


def outcome_rewards(players: int, outcome: Outcome) -> Rewards:
    """1 for every winning seat (the whole team), 0 for the others."""
    return tuple(1.0 if q in outcome.seats else 0.0 for q in range(players))


# --- the bot ---------------------------------------------------------------------------------


class IsmctsBot:
    """Single-observer ISMCTS; see the module docstring.

    ``iterations`` (deterministic: a bot built with the same seed gives the same choices for
    the same views and count)
    and/or ``seconds`` (wall clock) bound each decision, whichever ends first; with neither
    it runs :data:`DEFAULT_ITERATIONS`.  ``rollout`` is ``"heuristic"`` (the heuristic bot
    plays the rollouts) or ``"random"``.  ``rollout_depth`` caps
    the actions of a rollout (``None``: play to the end); ``exploration`` is the UCB1
    constant; ``widening`` the progressive widening factor (``None``: no limit);
    ``discount`` (at most 1) weighs a result reached ``k`` actions below the root by
    ``discount ** k`` against the even share ``1 / teams``, so quicker wins score higher;
    ``doubt_rate`` is the rollouts' chance of doubting a Bluffing Joker declaration;
    ``sharpness`` that of the progress score (:data:`PROGRESS_SHARPNESS`); ``leaf`` scores
    unfinished positions by the fitted model of the preset, else the general one
    (``"fitted"``, :func:`pegs.bots.leaf.fitted_rewards`), by the heuristic bot's evaluation
    (``"heuristic"``, :func:`heuristic_rewards`) or by ``"progress"``
    (:func:`progress_rewards`).  ``prior`` gives the
    heuristic bot's opinion of each root action the weight of that many visits (progressive
    bias; 0: none); ``keep`` values the cards in the hands in the ``"heuristic"`` leaf score (see
    :func:`heuristic_rewards`); ``clock`` measures ``seconds`` as ``"wall"`` time or as the
    process's ``"cpu"`` time (for simulations sharing a machine); ``guard`` (0: off) plays
    the heuristic bot's choice unless the search finds another action better by more than
    ``guard`` standard errors; ``belief="declarations"`` deals a face-down declared card by
    how likely the declarer was to declare it (:mod:`pegs.bots.belief`), and a doubt then
    starts from the belief's likelier choice instead of the heuristic bot's;
    ``"uniform"`` deals it like any unseen card.
    The search stops early once no other root action can
    catch up with the most visited one.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        rollout: str = DEFAULT_ROLLOUT,
        exploration: float = 0.7,
        rollout_depth: int | None = DEFAULT_ROLLOUT_DEPTH,
        widening: float | None = 2.0,
        discount: float = DEFAULT_DISCOUNT,
        doubt_rate: float = DEFAULT_DOUBT_RATE,
        sharpness: float = PROGRESS_SHARPNESS,
        leaf: str = "fitted",
        prior: float = 0.0,
        keep: float = DEFAULT_KEEP,
        clock: str = "wall",
        guard: float = DEFAULT_GUARD,
        belief: str = "declarations",
    ) -> None:
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be 1 or more, not {iterations}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"seconds must be positive, not {seconds}")
        if rollout not in ("random", "heuristic"):
            raise ValueError(f"rollout must be 'random' or 'heuristic', not {rollout!r}")
        if leaf not in ("progress", "heuristic", "fitted"):
            raise ValueError(f"leaf must be 'progress', 'heuristic' or 'fitted', not {leaf!r}")
        if not 0 < discount <= 1:
            raise ValueError(f"discount must be in (0, 1], not {discount}")
        if belief not in ("declarations", "uniform"):
            raise ValueError(f"belief must be 'declarations' or 'uniform', not {belief!r}")
        if clock not in ("wall", "cpu"):
            raise ValueError(f"clock must be 'wall' or 'cpu', not {clock!r}")
        if prior < 0 or keep < 0 or guard < 0:
            raise ValueError(f"prior, keep and guard must be 0 or more, not {prior}, {keep} "
                             f"and {guard}")
        if rollout_depth is not None and rollout_depth < 0:
            raise ValueError(f"rollout_depth must be 0 or more, not {rollout_depth}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        if iterations is None and seconds is None:
            self.iterations = DEFAULT_ITERATIONS
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.widening = widening
        self.discount = discount
        self.doubt_rate = doubt_rate
        self.sharpness = sharpness
        self.leaf = leaf
        self.rollout = rollout
        self.prior = prior
        self._now = time.perf_counter if clock == "wall" else time.process_time
        self.keep = keep
        self.guard = guard
        self.belief = belief
        self._heuristic = HeuristicBot(seed)
        #: The rollouts' player (None: random).  The bot, not its bound method, so that a
        #: copy of this bot (``copy.deepcopy``, a cloned environment) plays its own copy.
        self._policy: HeuristicBot | None = self._heuristic if rollout == "heuristic" else None
        #: The root's heuristic opinions of the current decision (see :meth:`_root_bias`).
        self._bias: list[float] = []
        #: Iterations run by the last :meth:`choose` (0 when it had a single choice).
        self.last_iterations = 0
        #: The last root's children: action -> (visits, mean reward), for inspection.
        self.last_stats: dict[Action, tuple[int, float]] = {}

    # --- the decision --------------------------------------------------------------------
    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        self.last_iterations = 0
        self.last_stats = {}
        if len(legal) == 1:
            return legal[0]
        if view.seat < 0 or view.current_player != view.seat:
            raise ValueError(f"seat {view.seat} is not the seat to act ({view.current_player})")
        root = Node()
        codes: Sequence[int] = ()
        order: list[int] = []
        started = self._now()
        deadline = None if self.seconds is None else started + self.seconds
        self._bias = self._root_bias(view, legal)
        unseen = determinize.unseen_cards(view)
        face = face_down_belief(view, unseen) if self.belief == "declarations" else None
        fallback = None
        if self.guard and face is not None and DOUBT in legal:
            fallback = face.decide(view)  # the likelier choice of the belief
        elif self.guard:
            fallback = self._heuristic.choose(view, legal)
        kept = None if fallback is None else list(legal).index(fallback)
        memo = MoveMemo()  # the tree's boards recur in every determinization
        sample = determinize.sample_state  # (looked up, so that a test may watch it)
        done = 0
        while True:
            card = None if face is None else face.draw(self.rng)
            state = sample(view, self.rng, unseen, memo, card)
            if not order:  # the root's listing is the same in every determinization
                codes = state.legal_codes()
                if len(codes) != len(legal):
                    raise ValueError("the legal actions given are not the view's")
                order = self._root_order(state, codes)
                if kept is not None:  # tried first, so the guard can judge it
                    order.remove(kept)
                    order.insert(0, kept)
            self._iterate(root, state, codes, order)
            done += 1
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and self._now() >= deadline:
                break
            if done % _STOP_CHECK == 0 and self._settled(root, done, started, deadline):
                break
        self.last_iterations = done
        return self._best(root, legal, kept)

    def _settled(self, root: Node, done: int, started: float, deadline: float | None) -> bool:
        """Can no other root child reach the leader's visits in the iterations left?  The
        choice (by visits) is then already made, so the search stops early."""
        left = math.inf
        if self.iterations is not None:
            left = float(self.iterations - done)
        if deadline is not None:
            now = self._now()
            left = min(left, done / max(now - started, 1e-9) * (deadline - now))
        visits = sorted((c.visits for c in root.children.values()), reverse=True)
        return len(visits) > 1 and visits[0] - visits[1] > left

    def _root_bias(self, view: View, legal: Sequence[Action]) -> list[float]:
        """Per root action, the heuristic bot's opinion of it against its best, in reward
        units (0 for its choice, negative for the others); empty without ``prior``."""
        if not self.prior:
            return []
        scores = self._heuristic.play_scores(view, legal)
        if scores is None:
            return []
        best = max(scores)
        return [max(-1.0, (v - best) / PRIOR_HOLES) for v in scores]

    def _best(self, root: Node, legal: Sequence[Action], fallback: int | None) -> Action:
        """The most visited root action; with a ``guard``, the heuristic bot's choice (the
        ``fallback``-th action) unless the search found that action's mean reward better
        than the fallback's by more than ``guard`` standard errors of their difference."""
        stats = {cast(int, i): c for i, c in root.children.items()}  # keyed by index
        self.last_stats = {legal[i]: (c.visits, c.mean()) for i, c in stats.items()
                           if c.visits}
        if not stats:
            return legal[0 if fallback is None else fallback]
        best = max(stats.values(), key=lambda c: (c.visits, c.mean()))
        kept = None if fallback is None else stats.get(fallback)
        if fallback is not None and best is not kept and (
                kept is None or best.mean() - kept.mean() <= self.guard * math.hypot(
                    best.error(), kept.error())):
            return legal[fallback]
        return next(legal[i] for i, c in stats.items() if c is best)

    def _root_order(self, state: _Game, codes: Sequence[int]) -> list[int]:
        """The indices of the root's actions, best first (ties at random): by the heuristic
        bot's opinion with a ``prior``, else by the leaf score of the position they lead
        to."""
        order = list(range(len(codes)))
        self.rng.shuffle(order)
        bias = self._bias
        if bias:
            order.sort(key=lambda i: -bias[i])
            return order
        if self.widening is None or len(order) <= WIDEN_MIN:
            return order
        seat = state.current_player
        rules = state.rules
        afters = state.code_results(codes)[0]
        scores = [self._score(rules, after, state.hands, -1)[seat] for after in afters]
        order.sort(key=lambda i: -scores[i])
        return order

    # --- one iteration -------------------------------------------------------------------
    def _limit(self, node: Node) -> float:
        if self.widening is None:
            return math.inf
        return max(WIDEN_MIN, self.widening * math.sqrt(node.visits))

    def _iterate(self, root: Node, state: _Game, root_codes: Sequence[int],
                 root_order: list[int]) -> None:
        path: list[Node] = []
        node = root
        expanded = False
        while not state.is_over() and not expanded:
            mover = state.current_player
            children = node.children
            child: Node | None = None
            if node is root:
                codes = root_codes
                available = list(children.values())
                if len(available) < len(codes) and len(children) < self._limit(node):
                    i = next(i for i in root_order if i not in children)
                    child = children[i] = Node(mover, codes[i])  # the same code everywhere
                    child.bias = self._bias[i] if self._bias else 0.0
            else:
                codes = state.legal_codes()[:]
                available = _available(state, codes, children, mover)
                if len(available) < len(codes) and (len(children) < self._limit(node)
                                                    or not available):
                    child = self._untried(state, codes, children, mover)
            if child is not None:
                available.append(child)
                expanded = True
                state = state.apply_code(child.code)
            else:
                child = self._select(available, node is root)
                action = child.action
                state = state.apply_code(child.code) if action is None else state.apply(action)
            for c in available:
                c.available += 1
            path.append(child)
            node = child
        rewards = self._rollout(state, len(path))
        root.visits += 1
        for n in path:
            reward = rewards[n.mover]
            n.visits += 1
            n.total += reward
            n.squares += reward * reward

    def _untried(self, state: _Game, codes: Sequence[int], children: dict[object, Node],
                 mover: int) -> Node | None:
        """A new child for a random legal code that ``mover`` has not tried at this node
        (None if none)."""
        rng = self.rng
        n = len(codes)
        for _ in range(_UNTRIED_PROBES):
            code = codes[rng.randrange(n)]
            key, action = _key(state, mover, code)
            if key not in children:
                child = children[key] = Node(mover, code, action)
                return child
        left = []
        for code in codes:
            key, action = _key(state, mover, code)
            if key not in children:
                left.append((key, code, action))
        if not left:
            return None
        key, code, action = left[rng.randrange(len(left))]
        child = children[key] = Node(mover, code, action)
        return child

    def _select(self, available: list[Node], root: bool) -> Node:
        """The available child with the best UCB1 score (availability counts for ln N),
        plus at the root the heuristic's opinion, worth ``prior`` visits (progressive bias)."""
        c = self.exploration
        biased = root and bool(self._bias)
        best, best_score = available[0], -math.inf
        for child in available:
            if child.visits == 0:
                return child
            score = child.total / child.visits + c * math.sqrt(
                math.log(child.available) / child.visits)
            if biased:
                score += child.bias * self.prior / (child.visits + self.prior)
            if score > best_score:
                best, best_score = child, score
        return best

    def _rollout(self, state: _Game, plies: int) -> Rewards:
        """Play on from ``state`` (``plies`` actions below the root) and score the end:
        the outcome, or the progress of an unfinished position, discounted by the actions
        from the root to it."""
        rng = self.rng
        limit = UNLIMITED_ROLLOUT_CAP if self.rollout_depth is None else self.rollout_depth
        policy = self._policy
        for _ in range(limit):
            if state.is_over():
                break
            codes = state.legal_codes()[:]  # (a list: cheaper to iterate than a listing)
            if policy is None:
                code = _random_code(rng, state, codes, self.doubt_rate)
            else:
                code = policy.play_out(state, rollout_choices(rng, codes))  # type: ignore[arg-type]
            state = state.apply_code(code)
            plies += 1
        rules = state.rules
        outcome = state.outcome()
        if outcome is not None:
            rewards = outcome_rewards(rules.players, outcome)
        else:
            rewards = discounted(rules, self._score(rules, state.pegs, state.hands,
                                                    state.current_player), SCORED_WEIGHT)
        return discounted(rules, rewards, self.discount ** plies)

    def _score(self, rules: Rules, pegs: Pegs, hands: Sequence[Sequence[str]],
               mover: int) -> Rewards:
        """The leaf score of an unfinished position (see ``leaf``)."""
        if self.leaf == "fitted":
            model = MODELS.get(PRESETS[rules.name].leaf_model or "", GENERAL)
            return fitted_rewards(model, rules, pegs, hands, mover)
        if self.leaf == "heuristic":
            return heuristic_rewards(rules, pegs, hands, keep=self.keep)
        return progress_rewards(rules, pegs, self.sharpness)


def rollout_choices(rng: random.Random, codes: Sequence[int]) -> Sequence[int]:
    """The codes a heuristic rollout scores: all, or a random :data:`ROLLOUT_CHOICES` of
    them when there are more (a ten's hundreds of splits)."""
    n = len(codes)
    if n > ROLLOUT_CHOICES:
        return [codes[i] for i in rng.sample(range(n), ROLLOUT_CHOICES)]
    return codes


def _stable(code: int) -> bool:
    """Does ``code`` name the same action at every position where it is legal (a one-peg
    move or a discard), rather than an index of its position's listing?"""
    return kind_of(code) in (MOVE, DISCARD)


def _key(state: _Game, mover: int, code: int) -> tuple[object, Action | None]:
    """The key of ``mover``'s child for a legal code of ``state``, and the action where the
    key is the action."""
    if _stable(code):
        return code << 4 | mover, None
    action = state.action_of(code)
    return (mover, action), action


def _available(state: _Game, codes: Sequence[int], children: dict[object, Node],
               mover: int) -> list[Node]:
    """The children of ``mover`` whose action is legal in ``state`` (``codes``)."""
    legal: Sequence[Action] | None = None
    hand = state.hands[mover]
    out: list[Node] = []
    for child in children.values():
        if child.mover != mover:
            continue
        action = child.action
        if action is None:
            if child.code in codes:
                out.append(child)
        elif not action.card or action.card in hand:  # (a card not held is not played)
            if legal is None:
                legal = state.legal_actions()
            if action in legal:
                out.append(child)
    return out


def _random_code(rng: random.Random, state: _Game, codes: Sequence[int],
                 doubt_rate: float) -> int:
    """A uniformly random legal code, except doubt-or-pass, which doubts at ``doubt_rate``
    (as :func:`pegs.bots.random_bot.random_action`)."""
    if (len(codes) == 2 and state.rules.bluffing and state.action_of(codes[0]) == DOUBT
            and state.action_of(codes[1]) == PASS):
        return codes[0] if rng.random() < doubt_rate else codes[1]
    return codes[rng.randrange(len(codes))]
