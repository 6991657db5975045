"""Fit the ISMCTS leaf score to game outcomes and write ``src/pegs/bots/leaf_models.py``.

For each preset (4 seats, 2 teams) it plays ``--games`` heuristic self-play games, takes
about one decision point in seven, and fits a ridge logistic regression of the winning
team on the difference of the two teams' evaluation terms (see :mod:`pegs.bots.leaf`).
One game in five is held out to report the log-loss against the even guess (0.693).
``--general`` fits one model to the positions of all the presets together instead and
writes ``src/pegs/bots/leaf_general.py``: the leaf score of a preset without a model of
its own.

    .venv/bin/python scripts/fit_leaf.py --games 4000 --seed 7
    .venv/bin/python scripts/fit_leaf.py --general --games 500 --seed 7
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import fields, replace
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from pegs.bots.heuristic import Evaluator, HeuristicBot, Weights, hand_values
from pegs.rules import PRESETS, GameState, Rules, geometry
from pegs.rules.board_work import Pegs
from pegs.rules.view import view

#: Evaluation terms fitted as they are (each with a unit weight).
PROGRESS = ("out", "hole", "home", "settled", "bind", "block", "few_out")
#: Keep terms of the hand, on top of each card's base worth.
HAND = ("joker_keep", "joker_endgame", "come_out_keep", "small_keep")
TERMS = (*PROGRESS, "danger", "keep", *HAND, "tempo")
SAMPLE = 0.15
RIDGE = 1e-3
BOTS = Path(__file__).resolve().parent.parent / "src" / "pegs" / "bots"
_ZERO = Weights(**{f.name: 0.0 for f in fields(Weights)})


def team_terms(rules: Rules, pegs: Pegs, hands: Sequence[Sequence[str]],
               seat: int) -> list[float]:
    """The evaluation terms of ``seat``'s team, without the tempo."""
    terms = []
    for name in PROGRESS:
        ev = Evaluator(rules, seat, replace(_ZERO, **{name: 1.0}), pegs)
        terms.append(ev.team_value(pegs, ev.team))
    ev = Evaluator(rules, seat, Weights(), pegs)
    terms.append(-ev.danger(pegs))
    base = 0.0
    extra = dict.fromkeys(HAND, 0.0)
    for q in ev.team:
        plain = hand_values(rules, pegs, q, hands[q], _ZERO)
        base += sum(plain[c] for c in hands[q])
        for name in HAND:
            more = hand_values(rules, pegs, q, hands[q], replace(_ZERO, **{name: 1.0}))
            extra[name] += sum(more[c] - plain[c] for c in hands[q])
    return [*terms, base, *extra.values()]


def play(job: tuple[str, int]) -> tuple[list[list[float]], list[float], list[int]]:
    """One self-play game: the sampled positions' term differences (team of seat 0 less
    the other), whether the team of seat 0 won, and the game number."""
    preset, game = job
    rules = Rules.preset(preset, players=4, teams=2)
    geo = geometry(rules)
    mine, other = geo.team_of[0], geo.team_of[1]
    rng = random.Random(game)
    state = GameState.new(rules, game)
    bots = [HeuristicBot(game * 10 + q) for q in range(geo.players)]
    rows: list[list[float]] = []
    while not state.is_over():
        if rng.random() < SAMPLE:
            a = team_terms(rules, state.pegs, state.hands, 0)
            b = team_terms(rules, state.pegs, state.hands, 1)
            to_act = geo.team_of[state.current_player]
            tempo = 1.0 if to_act == mine else -1.0 if to_act == other else 0.0
            rows.append([x - y for x, y in zip(a, b, strict=True)] + [tempo])
        seat = state.current_player
        state = state.apply(bots[seat].choose(view(state, seat), state.legal_actions()))
    outcome = state.outcome()
    won = 1.0 if outcome is not None and 0 in outcome.seats else 0.0
    return rows, [won] * len(rows), [game] * len(rows)


def fit(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE) -> np.ndarray:
    """Ridge logistic regression without intercept (Newton's method on standardized terms)."""
    spread = x.std(axis=0)
    spread[spread == 0] = 1.0
    z = x / spread
    w = np.zeros(z.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        grad = z.T @ (p - y) / len(y) + ridge * w
        hess = (z.T * (p * (1 - p))) @ z / len(y) + ridge * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return np.asarray(w / spread)


def log_loss(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ w))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def model_source(c: dict[str, float]) -> str:
    """The ``LeafModel`` of fitted log-odds coefficients, in holes (``hole`` = 1)."""
    hole, keep = c["hole"], c["keep"]
    if hole <= 0 or keep <= 0:
        raise ValueError(f"a hole and the hand must be worth something, not {hole}, {keep}")
    weights = [f"{n}={c[n] / hole:.3f}" for n in PROGRESS]
    weights += [f"{n}={c[n] / keep:.3f}" for n in HAND]
    lines = textwrap.wrap(f"Weights({', '.join(weights)}),", width=84)
    return ("LeafModel(\n        " + "\n                ".join(lines) + "\n        "
            f"danger={c['danger'] / hole:.3f}, keep={keep / hole:.3f}, "
            f"tempo={c['tempo'] / hole:.3f}, scale={1 / hole:.1f})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--general", action="store_true",
                        help="fit one model to all the presets' positions")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    presets = args.presets.split(",")
    command = f"scripts/fit_leaf.py {'--general ' if args.general else ''}" \
              f"--games {args.games} --seed {args.seed}"
    entries = []
    with Pool(args.jobs) as pool:
        for group in [presets] if args.general else [[p] for p in presets]:
            jobs = [(preset, args.seed * 1_000_000 + g) for preset in group
                    for g in range(args.games)]
            xs: list[list[float]] = []
            ys: list[float] = []
            gs: list[int] = []
            for rows, won, game in pool.imap(play, jobs, chunksize=8):
                xs += rows
                ys += won
                gs += game
            x, y, g = np.array(xs), np.array(ys), np.array(gs)
            train = g % 5 != 0
            w = fit(x[train], y[train])
            held = log_loss(w, x[~train], y[~train])
            name = "general" if args.general else group[0]
            print(f"{name}: {len(y)} positions, held-out log-loss {held:.4f} "
                  f"(even guess {math.log(2):.4f})", file=sys.stderr)
            games = f"{args.games} games each of {len(group)} presets" if args.general else (
                f"{args.games} games")
            entries.append((f"# {len(y)} positions of {games}; held-out log-loss {held:.3f}",
                            model_source(dict(zip(TERMS, w, strict=True)))))
    if args.general:
        (args.out or BOTS / "leaf_general.py").write_text(
            '"""The leaf model of a preset without one of its own, fitted to the positions of\n'
            f'all the presets together (do not edit), written by\n\n    {command}\n"""\n\n'
            "from .heuristic import Weights\nfrom .leaf import LeafModel\n\n"
            f"{entries[0][0]}\nGENERAL = {entries[0][1].replace(chr(10) + '    ', chr(10))}\n")
        return 0
    (args.out or BOTS / "leaf_models.py").write_text(
        '"""Leaf models per preset (do not edit), written by\n\n'
        f'    {command}\n"""\n\n'
        "from .heuristic import Weights\nfrom .leaf import LeafModel\n\n"
        "MODELS: dict[str, LeafModel] = {\n"
        + "\n".join(f"    {comment}\n    \"{preset}\": {model},"
                    for preset, (comment, model) in zip(presets, entries, strict=True))
        + "\n}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
