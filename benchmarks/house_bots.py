#!/usr/bin/env python3
"""The heuristic bot against random play in house-rule games.

The heuristic bot reads what each card can do from the rules (come-out cards, moves
forward and back, splits, what an opponent may hit with), so house powers change its play.
For each house-rule set below, one team of heuristic bots plays one team of random bots
(4 seats, 2 teams) for ``--games`` seeded games, the heuristic team taking the first
seat in every other game; it prints the heuristic team's win rate with a 95% Wilson
interval.  One process, CPU time.

    .venv/bin/python benchmarks/house_bots.py --games 40
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from typing import Any

from pegs.bots import RandomBot
from pegs.bots.heuristic import HeuristicBot
from pegs.rules import GameState, Rules, view

#: (name, preset, changed powers) of each house-rule set played.
HOUSES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("fours go back, nines split", "basic", {"4": ["-4"], "9": ["+9", "split9"]}),
    ("only fives come out", "basic", {"A": ["+1"], "J": ["+11"], "Q": ["+12"], "K": ["+13"],
                                      "5": ["out", "+5"]}),
    ("jokers come out, threes swap, eights either way", "north-carolina",
     {"Joker": ["joker", "out"], "3": ["+3", "swap"], "8": ["-8", "+8"]}),
    ("sixes either way, obligatory seven splits", "pegoo",
     {"6": ["+6", "-6"], "7": ["split7!", "+7"]}),
)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def heuristic_wins(rules: Rules, seed: int, heuristic_first: bool) -> bool:
    """Does the heuristic team win game ``seed`` (heuristic bots on the even seats when
    ``heuristic_first``, else on the odd ones)?"""
    state = GameState.new(rules, seed)
    smart = 0 if heuristic_first else 1
    bots = [HeuristicBot(seed * 10 + q) if q % 2 == smart else RandomBot(seed * 10 + q)
            for q in range(rules.players)]
    while not state.is_over():
        seat = state.current_player
        state = state.apply(bots[seat].choose(view(state, seat), state.legal_actions()))
    outcome = state.outcome()
    return outcome is not None and smart in outcome.seats


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per house-rule set")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    args = parser.parse_args(argv)
    print(f"heuristic team against random team, 4 seats, {args.games} games each")
    for name, preset, powers in HOUSES:
        rules = Rules.preset(preset, players=4, teams=2, powers=powers)
        start = time.process_time()
        wins = sum(heuristic_wins(rules, args.seed + g, g % 2 == 0) for g in range(args.games))
        low, high = wilson(wins, args.games)
        print(f"  {preset} + {name}: {wins}/{args.games} = {wins / args.games:.0%} "
              f"[{low:.0%}, {high:.0%}] ({time.process_time() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
