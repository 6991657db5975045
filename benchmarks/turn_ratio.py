"""How much slower a turn is under North Carolina and Arizona rules than under the basic
game, on the same positions.

Positions (pegs, seat to move, hand) are sampled from random basic games; each is then
set up under each preset and timed for one turn: legal-action generation plus applying
one legal action.  Prints mean microseconds per turn, mean legal actions, microseconds per
legal action, and the ratio of the turn time to the basic preset's.  Times are CPU time of
the process (``time.process_time``), so other jobs on the machine do not distort them.

    .venv/bin/python benchmarks/turn_ratio.py [--positions 400] [--players 4 8]
"""

from __future__ import annotations

import argparse
import random
import time

from pegs.bots.random_bot import random_action
from pegs.rules import GameState, Rules

Position = tuple[tuple[tuple[int, ...], ...], int, tuple[str, ...], int]
PRESETS = ("basic", "north-carolina", "arizona")


def sample_positions(players: int, count: int) -> list[Position]:
    """Positions met in random basic games (about one turn in twenty).  The random choice
    is made among the legal actions in text order, so the positions do not depend on the
    order in which the engine lists them."""
    out: list[Position] = []
    seed = 0
    while len(out) < count:
        state = GameState.new(Rules.preset("basic", players=players), seed)
        rng = random.Random(seed)
        seed += 1
        while not state.is_over() and len(out) < count:
            if rng.random() < 0.05:
                out.append((state.pegs, state.turn, state.hands[state.turn],
                            state.stuck[state.turn]))
            state = state.apply(random_action(rng, sorted(state.legal_actions(), key=str)))
    return out


def time_turns(preset: str, players: int, positions: list[Position], repeat: int
               ) -> tuple[float, float]:
    """Mean seconds per turn (generate + apply) and mean legal actions."""
    rules = Rules.preset(preset, players=players)
    states = [GameState.from_position(rules, pegs, turn, hand, stuck_turns=stuck)
              for pegs, turn, hand, stuck in positions]
    legal_total = 0
    elapsed = 0.0
    for _ in range(repeat):
        for st in states:
            fresh = GameState.from_position(rules, st.pegs, st.turn, st.hands[st.turn],
                                            stuck_turns=st.stuck[st.turn])
            t0 = time.process_time()
            legal = fresh.legal_actions()
            fresh.apply(legal[len(legal) // 2])
            elapsed += time.process_time() - t0  # only generate + apply count
            legal_total += len(legal)
    turns = repeat * len(states)
    return elapsed / turns, legal_total / turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'players':>7} {'preset':<15} {'us/turn':>9} {'legal':>7} {'us/legal':>9} "
          f"{'x basic':>8}")
    for players in args.players:
        positions = sample_positions(players, args.positions)
        base = 0.0
        for preset in PRESETS:
            seconds, legal = time_turns(preset, players, positions, args.repeat)
            base = base or seconds
            print(f"{players:>7} {preset:<15} {seconds * 1e6:>9.0f} {legal:>7.1f} "
                  f"{seconds * 1e6 / legal:>9.2f} {seconds / base:>8.2f}")


if __name__ == "__main__":
    main()
