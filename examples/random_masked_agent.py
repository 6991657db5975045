#!/usr/bin/env python3
"""A random agent that only picks allowed tokens, playing every seat of the PettingZoo
environment; prints the environment steps a second (CPU time of this process).

    python examples/random_masked_agent.py
    python examples/random_masked_agent.py --rules north-carolina --players 6 --games 3
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pegs.adapters.pettingzoo import env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="basic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    e = env(rules=args.rules, players=args.players, seed=args.seed)
    rng = np.random.default_rng(args.seed)
    steps = 0
    start = time.process_time()
    for game in range(args.games):
        e.reset()
        final = {}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, _ = e.last()
            if terminated or truncated:
                final[agent] = reward
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        print(f"game {game}: rewards {final}")
    seconds = time.process_time() - start
    print(f"{args.rules}, {args.players} seats: {steps} steps in {seconds:.2f} s CPU, "
          f"{steps / seconds:.0f} steps a second")


if __name__ == "__main__":
    main()
