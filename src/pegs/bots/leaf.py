"""The ISMCTS leaf score fitted to game outcomes: a position's win chances per team.

A :class:`LeafModel` is the heuristic bot's evaluation (:class:`~pegs.bots.heuristic.Evaluator`)
with weights fitted by logistic regression to the winners of heuristic self-play games
(``scripts/fit_leaf.py`` plays them and writes :mod:`pegs.bots.leaf_models`).  A team's
worth, in holes of progress, is its pegs' value less ``danger`` times the heuristic bot's
expected loss of its ring pegs, plus ``keep`` times what its hands are worth keeping, plus
``tempo`` when one of its seats is to act; the teams' win chances are a softmax of the
worths over ``scale`` holes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..rules import Rules
from ..rules.board_work import Pegs
from .heuristic import Evaluator, Weights, hand_worth, tables

Rewards = tuple[float, ...]


@dataclass(frozen=True)
class LeafModel:
    """Fitted weights of a leaf score (see the module notes)."""

    weights: Weights  # the progress terms (out ... few_out) and the hand's keep terms
    danger: float  # times the heuristic bot's expected loss of the team's ring pegs
    keep: float  # times the hand's keep worth under ``weights``
    tempo: float  # holes for the team with the seat to act
    scale: float  # holes of worth that make one team's win odds e times another's

    @property
    def danger_weights(self) -> Weights:
        """The default evaluation's danger term, times ``danger`` (made once per model)."""
        got = _DANGER.get(id(self))
        if got is not None and got[0] is self:
            return got[1]
        made = replace(Weights(), danger=self.danger)
        _DANGER[id(self)] = (self, made)
        return made


#: :attr:`LeafModel.danger_weights` by the identity of the model.
_DANGER: dict[int, tuple[LeafModel, Weights]] = {}


def fitted_rewards(model: LeafModel, rules: Rules, pegs: Pegs,
                   hands: Sequence[Sequence[str]] = (), mover: int = -1) -> Rewards:
    """Each seat's team's win chance in this position by ``model`` (they sum to 1 over
    the teams); ``mover`` is the seat to act (-1: none counted)."""
    geo = tables(rules).geo
    worth: dict[int, float] = {}
    danger = model.danger_weights
    for seat in range(geo.players):
        team = geo.team_of[seat]
        if team not in worth:
            ev = Evaluator(rules, seat, model.weights, pegs, danger)
            worth[team] = ev.team_value(pegs, ev.team) - ev.danger(pegs)
    for seat, hand in enumerate(hands):
        worth[geo.team_of[seat]] += model.keep * hand_worth(rules, pegs, seat, hand,
                                                            model.weights)
    if mover >= 0:
        worth[geo.team_of[mover]] += model.tempo
    return team_chances(geo.team_of, worth, model.scale)


def team_chances(team_of: Sequence[int], worth: dict[int, float], scale: float) -> Rewards:
    """Per seat, its team's share of a softmax of the teams' ``worth`` over ``scale``."""
    top = max(worth.values())
    weight = {t: math.exp((w - top) / scale) for t, w in worth.items()}
    norm = sum(weight.values())
    return tuple(weight[t] / norm for t in team_of)
