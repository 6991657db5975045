#!/usr/bin/env python3
"""Steps a second of the PettingZoo environment under a random masked agent.

For each preset (default basic and North Carolina) at ``--players`` seats, plays
``--games`` games (seeds 1 onwards) through the AEC loop of ``pegs.adapters.pettingzoo``:
``last()``, a uniform choice among the allowed tokens, ``step()``.  A step is one token
choice; an action of the engine takes one or more.  One process, timed in CPU time
(``time.process_time``), so other jobs on the machine do not distort the figures.  Also
prints the engine actions a second of the same games and the steps an action takes.
``--profile`` plays the first preset's games again under ``cProfile`` and prints the
functions with the most own time and the share of the engine's ``legal_actions`` and
``apply`` (the adapters are never compiled, so the profile sees inside them; read its
shares, not its times).

    python benchmarks/env_steps.py
    python benchmarks/env_steps.py --presets north-carolina --players 8 --games 3
    python benchmarks/env_steps.py --presets basic --profile
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import time

import numpy as np

from pegs.adapters.pettingzoo import raw_env


def measure(preset: str, players: int, games: int) -> tuple[int, int, float]:
    """Steps, engine actions and CPU seconds of ``games`` random masked games."""
    e = raw_env(rules=preset, players=players, seed=1)
    rng = np.random.default_rng(0)
    steps = actions = 0
    start = time.process_time()
    for _ in range(games):
        e.reset()
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        actions += e.state.ply
    return steps, actions, time.process_time() - start


def profile(preset: str, players: int, games: int) -> None:
    """Where a step's time goes: the top functions and the engine's share."""
    profiler = cProfile.Profile()
    profiler.runcall(measure, preset, players, games)
    stats = pstats.Stats(profiler)
    total = max(stats.total_tt, 1e-9)  # type: ignore[attr-defined]
    engine = sum(row[3] for (_, _, name), row in stats.stats.items()  # type: ignore[attr-defined]
                 if name in ("<method 'legal_actions' of 'GameState' objects>",
                             "<method 'apply' of 'GameState' objects>"))
    print(f"\n{preset}: the engine's legal_actions and apply take {engine / total:.0%} of "
          "the profiled time (the rest: the adapters, PettingZoo and the random agent)")
    stats.sort_stats("tottime").print_stats(15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presets", nargs="+", default=["basic", "north-carolina"])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--profile", action="store_true",
                        help="profile the first preset's games (see the module notes)")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {args.players} seats, {args.games} games each")
    print(f"{'preset':16} {'steps':>8} {'actions':>8} {'steps/action':>12} {'steps/s':>9} "
          f"{'actions/s':>9}")
    for preset in args.presets:
        steps, actions, seconds = measure(preset, args.players, args.games)
        print(f"{preset:16} {steps:8d} {actions:8d} {steps / actions:12.2f} "
              f"{steps / seconds:9.0f} {actions / seconds:9.0f}")
    if args.profile:
        profile(args.presets[0], args.players, args.games)


if __name__ == "__main__":
    main()
