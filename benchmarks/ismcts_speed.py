#!/usr/bin/env python3
"""Speed of the ISMCTS bot: iterations per second per preset, and time per decision.

For every preset (``pegs.rules.PRESETS``, narrowed by
``--presets``) at ``--players`` seats (default 4), samples ``--positions`` positions from
random games: game ``k`` is ``GameState.new(rules, first_seed + k)`` played at random (a
``random.Random`` of the same seed) to a random point of the game, skipping positions
with a single legal action.  On each position a fresh ``IsmctsBot`` decides with each
budget of ``--iterations`` (default 100 and 1000), given only the seat's view and the legal
actions, timed in CPU time of the process (``time.process_time``).  One process, one
thread.

Per preset it prints the mean legal actions of the positions, iterations per second over
all its decisions, and the mean milliseconds per decision for each iteration budget.

    .venv/bin/python benchmarks/ismcts_speed.py
    .venv/bin/python benchmarks/ismcts_speed.py --presets pegoo basic --positions 5
    .venv/bin/python benchmarks/ismcts_speed.py --iterations 100 --rollout-depth 0
    .venv/bin/python benchmarks/ismcts_speed.py --json
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

import pegs
from pegs.bots.ismcts import DEFAULT_ROLLOUT, DEFAULT_ROLLOUT_DEPTH, IsmctsBot
from pegs.bots.random_bot import random_action
from pegs.rules import PRESETS, GameState, Rules, RulesError, view

DEFAULT_POSITIONS = 3
DEFAULT_ITERATIONS = (100, 1000)
MAX_PLIES = 3000


def sample_positions(rules: Rules, count: int, first_seed: int) -> list[GameState]:
    """``count`` positions, each a random point of a random game, with several legal actions."""
    out: list[GameState] = []
    seed = first_seed
    while len(out) < count:
        rng = random.Random(seed)
        state = GameState.new(rules, seed)
        stop = rng.randrange(MAX_PLIES)
        seen: GameState | None = None
        for ply in range(MAX_PLIES):
            if state.is_over():
                break
            legal = state.legal_actions()
            if len(legal) > 1:
                seen = state
                if ply >= stop:
                    break
            state = state.apply(random_action(rng, legal))
        if seen is not None:
            out.append(seen)  # the chosen point, or the last one before the game ended
        seed += 1
    return out


def run_preset(rules: Rules, positions: list[GameState], budgets: Sequence[int],
               rollout: str, depth: int | None) -> dict[str, Any]:
    ms: dict[int, float] = {}
    iterations = 0
    seconds = 0.0
    for budget in budgets:
        spent = 0.0
        for i, state in enumerate(positions):
            seat = state.current_player
            seen, legal = view(state, seat), state.legal_actions()
            bot = IsmctsBot(seed=i, iterations=budget, rollout=rollout, rollout_depth=depth)
            t0 = time.process_time()
            bot.choose(seen, legal)
            dt = time.process_time() - t0
            spent += dt
            iterations += bot.last_iterations
        seconds += spent
        ms[budget] = 1000 * spent / len(positions)
    return {
        "preset": rules.name,
        "players": rules.players,
        "positions": len(positions),
        "mean_legal": sum(len(s.legal_actions()) for s in positions) / len(positions),
        "iterations_per_second": iterations / seconds if seconds else 0.0,
        "ms_per_decision": {str(b): ms[b] for b in budgets},
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="ISMCTS iterations per second per preset.")
    parser.add_argument("--presets", nargs="+", metavar="PRESET",
                        help="only these presets (space or comma separated)")
    parser.add_argument("--players", type=int, default=4, help="table size (default 4)")
    parser.add_argument("--positions", type=int, default=DEFAULT_POSITIONS,
                        help=f"positions per preset (default {DEFAULT_POSITIONS})")
    parser.add_argument("--iterations", type=int, nargs="+", default=list(DEFAULT_ITERATIONS),
                        help="iteration budgets per decision (default 100 1000)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--rollout", choices=("random", "heuristic"), default=DEFAULT_ROLLOUT)
    parser.add_argument("--rollout-depth", type=int, default=DEFAULT_ROLLOUT_DEPTH,
                        help=f"rollout cap in actions (default {DEFAULT_ROLLOUT_DEPTH}; "
                             "-1 plays rollouts to the end)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    order = list(PRESETS)
    if args.presets:
        asked = [p for item in args.presets for p in item.split(",") if p]
        order = [p for p in asked if p in PRESETS]
    depth = None if args.rollout_depth < 0 else args.rollout_depth
    budgets = list(dict.fromkeys(args.iterations))
    if not args.json:
        print(f"pegs {pegs.__version__}: ISMCTS, {args.positions} positions per preset, "
              f"{args.players} players, rollout {args.rollout} depth "
              f"{'none' if depth is None else depth}, Python {platform.python_version()}")
        print(f"{'preset':<16} {'legal':>6} {'iter/s':>8}"
              + "".join(f" {f'ms@{b}':>10}" for b in budgets))
    results = []
    for preset in order:
        try:
            rules = Rules.preset(preset, players=args.players)
        except RulesError as error:
            if not args.json:
                print(f"{preset:<16} skipped: {error}")
            continue
        positions = sample_positions(rules, args.positions, args.first_seed)
        row = run_preset(rules, positions, budgets, args.rollout, depth)
        results.append(row)
        if not args.json:
            print(f"{preset:<16} {row['mean_legal']:>6.1f} {row['iterations_per_second']:>8.0f}"
                  + "".join(f" {row['ms_per_decision'][str(b)]:>10.1f}" for b in budgets),
                  flush=True)
    if args.json:
        print(json.dumps({"pegs_version": pegs.__version__,
                          "python": platform.python_version(),
                          "rollout": args.rollout, "rollout_depth": depth,
                          "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
