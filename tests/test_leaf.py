"""The fitted ISMCTS leaf score and the script that fits it."""

from __future__ import annotations

import importlib.util
import math
import random
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from helpers import position
from pegs.bots.leaf import fitted_rewards
from pegs.bots.leaf_general import GENERAL
from pegs.bots.leaf_models import MODELS
from pegs.rules import PRESETS, GameState, Rules, RulesError

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "fit_leaf.py"
PEGOO = Rules.preset("pegoo")


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fit_leaf", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _states(rules: Rules, count: int, seed: int) -> list[GameState]:
    """Positions of random games, a few dozen actions apart."""
    out = []
    rng = random.Random(seed)
    state = GameState.new(rules, seed)
    while len(out) < count:
        if state.is_over():
            state = GameState.new(rules, rng.randrange(10**6))
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
        if rng.random() < 0.05 and not state.is_over():
            out.append(state)
    return out


def test_every_preset_names_a_fitted_model() -> None:
    assert {p.leaf_model for p in PRESETS.values()} == set(MODELS)
    for model in [*MODELS.values(), GENERAL]:
        assert model.scale > 0 and model.keep > 0


@pytest.mark.parametrize(("players", "teams"), [(4, 2), (6, 3), (6, 2), (3, 0), (8, 4)])
def test_win_chances_sum_to_one_over_the_teams(players: int, teams: int) -> None:
    tried = 0
    for name in PRESETS:
        try:
            rules = Rules.preset(name, players=players, teams=teams)
        except RulesError:  # e.g. team control without teams
            continue
        tried += 1
        for state in _states(rules, 3, players * 10 + teams):
            model = MODELS[PRESETS[name].leaf_model or ""]
            rewards = fitted_rewards(model, rules, state.pegs, state.hands, state.current_player)
            firsts = {}
            for seat, team in enumerate(state.geo.team_of):
                firsts.setdefault(team, rewards[seat])
                assert rewards[seat] == pytest.approx(firsts[team])  # partners share
            assert sum(firsts.values()) == pytest.approx(1.0)
            assert all(0.0 < r < 1.0 for r in rewards)
    assert tried >= 5


def test_the_team_ahead_and_the_team_to_act_are_scored() -> None:
    model = MODELS["pegoo"]
    even = position(PEGOO, {0: ["1.10"], 1: ["2.10"], 2: ["3.10"], 3: ["0.10"]}, ["A"])
    ahead = position(PEGOO, {0: ["1.10", "1.12"], 1: ["2.10"], 2: ["3.10"], 3: ["0.10"]},
                     ["A"])
    hands = [["3"]] * 4
    assert fitted_rewards(model, PEGOO, even.pegs, hands) == pytest.approx((0.5,) * 4)
    assert fitted_rewards(model, PEGOO, ahead.pegs, hands)[0] > 0.55
    to_act = fitted_rewards(model, PEGOO, even.pegs, hands, mover=1)[1]
    assert to_act == pytest.approx(1 / (1 + math.exp(-model.tempo / model.scale)))


def test_the_model_written_gives_the_fitted_log_odds() -> None:
    """Coefficients turned into a LeafModel (as the script writes it) score every position
    exactly as the regression does on the two teams' terms."""
    fit = _script()
    rng = random.Random(3)
    for name in ("pegoo", "basic", "north-carolina"):
        rules = Rules.preset(name)
        coefficients = {t: rng.uniform(0.2, 2.0) / 100 for t in fit.TERMS}
        namespace: dict[str, object] = {}
        exec(f"from pegs.bots.heuristic import Weights\nfrom pegs.bots.leaf import LeafModel\n"
             f"model = {fit.model_source(coefficients)}", namespace)
        model = namespace["model"]
        for state in _states(rules, 6, 5):
            mover = state.current_player
            a = fit.team_terms(rules, state.pegs, state.hands, 0)
            b = fit.team_terms(rules, state.pegs, state.hands, 1)
            tempo = 1.0 if state.geo.team_of[mover] == state.geo.team_of[0] else -1.0
            terms = [x - y for x, y in zip(a, b, strict=True)] + [tempo]
            expected = sum(coefficients[t] * v for t, v in zip(fit.TERMS, terms, strict=True))
            rewards = fitted_rewards(model, rules, state.pegs, state.hands, mover)  # type: ignore[arg-type]
            assert math.log(rewards[0] / rewards[1]) == pytest.approx(expected, abs=2e-3)


def test_the_regression_recovers_known_coefficients() -> None:
    fit = _script()
    rng = np.random.default_rng(1)
    x = rng.normal(size=(40_000, 3)) * np.array([1.0, 20.0, 0.1])
    true = np.array([0.8, -0.05, 6.0])
    y = (rng.random(40_000) < 1 / (1 + np.exp(-(x @ true)))).astype(float)
    got = fit.fit(x, y)
    assert got == pytest.approx(true, rel=0.1)
    assert fit.log_loss(got, x, y) < fit.log_loss(np.zeros(3), x, y) - 0.1


def test_a_worthless_hole_is_refused() -> None:
    fit = _script()
    coefficients = dict.fromkeys(fit.TERMS, 0.01)
    coefficients["hole"] = -0.01
    with pytest.raises(ValueError, match="worth"):
        fit.model_source(coefficients)
