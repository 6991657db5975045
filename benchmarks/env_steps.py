#!/usr/bin/env python3
"""Steps a second of the PettingZoo environment under a random masked agent.

For each preset (default basic and North Carolina) at ``--players`` seats, plays
``--games`` games (seeds 1 onwards) through the AEC loop of ``pegs.adapters.pettingzoo``:
``last()``, a uniform choice among the allowed tokens, ``step()``.  A step is one token
choice; an action of the engine takes one or more.  One process, timed in CPU time
(``time.process_time``), so other jobs on the machine do not distort the figures.  Also
prints the engine actions a second of the same games and the steps an action takes.
``--profile`` plays the first preset's games again and says where a step's time goes:
the engine's share (listing the codes and applying the one played at each position of
the same games, timed alone), the views' share (``view`` of the seat to act at each
position), the random agent's (its choice from each mask), and the rest (the adapters and
PettingZoo); then a ``cProfile`` of the games' interpreted functions (the engine and the
environment's codec, token choices and observation encoder are compiled: cProfile counts
their time in the Python function that calls them).

    python benchmarks/env_steps.py
    python benchmarks/env_steps.py --presets north-carolina --players 8 --games 3
    python benchmarks/env_steps.py --presets basic --profile
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import gc
import platform
import pstats
import time

import numpy as np
import numpy.typing as npt

from pegs.adapters.pettingzoo import raw_env
from pegs.rules import Action, GameState, view


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


def recorded(preset: str, players: int, games: int
             ) -> tuple[list[tuple[GameState, int]], list[npt.NDArray[np.int8]]]:
    """The games of :func:`measure` again: the position before each action with the code
    played there, and the mask of each step."""
    e = raw_env(rules=preset, players=players, seed=1)
    rng = np.random.default_rng(0)
    played: list[tuple[GameState, int]] = []
    masks: list[npt.NDArray[np.int8]] = []
    for _ in range(games):
        e.reset()
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            before = e.state
            masks.append(obs["action_mask"])
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if e.state is not before:
                played.append((before, before.code_of(Action.parse(e.last_action))))
    return played, masks


def profile(preset: str, players: int, games: int) -> None:
    """Where a step's time goes: the shares of the engine, the views and the random agent
    (each timed alone on the same games), then the top interpreted functions."""
    steps, _, seconds = measure(preset, players, games)
    played, masks = recorded(preset, players, games)
    fresh = [copy.copy(state) for state, _ in played]  # equal states with nothing cached
    # (the collector off: these thousands of states kept at once, which the environment
    # never holds, would make its passes long)
    gc.collect()
    gc.disable()
    start = time.process_time()
    for state, (_, code) in zip(fresh, played, strict=True):
        state.legal_codes()
        state.apply_code(code)
    engine = time.process_time() - start
    start = time.process_time()
    for state, _ in played:
        view(state, state.current_player)
    views = time.process_time() - start
    rng = np.random.default_rng(0)
    start = time.process_time()
    for mask in masks:
        int(rng.choice(np.flatnonzero(mask)))
    agent = time.process_time() - start
    gc.enable()
    micro = 1e6 / steps
    print(f"\n{preset}: {seconds * micro:.1f} us a step: the engine (legal_codes, apply_code) "
          f"{engine * micro:.1f} ({engine / seconds:.0%}), the views {views * micro:.1f} "
          f"({views / seconds:.0%}), the random agent {agent * micro:.1f} ({agent / seconds:.0%}),"
          f" the adapters and PettingZoo (with the actions they have the engine spell) "
          f"{(seconds - engine - views - agent) * micro:.1f} "
          f"({(seconds - engine - views - agent) / seconds:.0%})")
    profiler = cProfile.Profile()
    profiler.runcall(measure, preset, players, games)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


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
