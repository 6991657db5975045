"""How the bots bluff and doubt in Bluffing Joker, and how long their games run against
the basic game.

Plays ``--games`` seeded games between the ``--seats`` bots under ``--rules`` (default
``bluffing-joker``) and, for comparison, as many under ``--against`` (default ``basic``),
dealt and seated exactly as ``pegs simulate`` deals and seats them with the same
``--seed`` (game i: seed + i, the seat list rotated by i, seat s's bot seeded
(seed + i) * 1000 + s).  Prints per preset:

- **card plays per game**: turns that played or discarded a card (doubts, passes and the
  choice of the peg sent back are not counted), over finished games;
- **bluff rate**: the share of face-down plays whose declared rank was not the real card;
- **doubt rate**: the share of declarations that some opponent doubted;
- **doubt success**: the share of doubts that caught a bluff;

and the ratio of the card plays per game to the comparison preset's.

    .venv/bin/python benchmarks/bluffing_stats.py [--games 100] [--seed 1]
    .venv/bin/python benchmarks/bluffing_stats.py --seats heuristic,random,heuristic,random --json
    .venv/bin/python benchmarks/bluffing_stats.py --bot-option heuristic.suspicion=0.2
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from pegs.rules import GameState, Rules, RulesError, view
from pegs.rules.bluff import DOUBT
from pegs.sim.bot_spec import parse_bot_spec, split_specs
from pegs.sim.run import (
    BotOptions,
    Config,
    SimulationError,
    bot_seed,
    expand_seats,
    parse_bot_options,
)


@dataclass
class Tally:
    """Counts over the games of one preset."""

    games: int = 0
    finished: int = 0
    card_plays: int = 0  # in finished games
    declarations: int = 0
    bluffs: int = 0
    doubts: int = 0
    caught: int = 0
    pegs_sent_back: int = 0

    def per_game(self) -> float:
        return self.card_plays / self.finished if self.finished else math.nan

    def rates(self) -> dict[str, float]:
        def share(a: int, b: int) -> float:
            return a / b if b else math.nan

        return {"card_plays_per_game": self.per_game(),
                "bluff_rate": share(self.bluffs, self.declarations),
                "doubt_rate": share(self.doubts, self.declarations),
                "doubt_success": share(self.caught, self.doubts)}


def play(config: Config, game: int, tally: Tally) -> None:
    """Play game ``game`` of ``config`` and add its counts to ``tally``."""
    task = config.task(game)
    rules = config.rules
    state = GameState.new(rules, task.seed)
    specs = [parse_bot_spec(text) for text in task.seats]
    bots = [spec.make(bot_seed(task.seed, s), **task.bot_options.get(spec.kind, {}))
            for s, spec in enumerate(specs)]
    plays = 0
    while not state.is_over() and state.ply < config.max_actions:
        seat = state.current_player
        action = bots[seat].choose(view(state, seat), state.legal_actions())
        pending = state.pending
        if not action.decision:
            plays += 1
            if action.declared:
                tally.declarations += 1
                tally.bluffs += action.declared != action.card
        elif action == DOUBT and pending is not None:
            tally.doubts += 1
            tally.caught += pending.bluff
        elif action.decision.startswith("send "):
            tally.pegs_sent_back += 1
        state = state.apply(action)
    tally.games += 1
    if state.is_over():
        tally.finished += 1
        tally.card_plays += plays


def run(rules: Rules, seats: Sequence[str], games: int, seed: int,
        max_actions: int, options: BotOptions) -> Tally:
    config = Config(rules, expand_seats(seats, rules.players, rules.teams), games, seed,
                    bot_options=options, max_actions=max_actions)
    tally = Tally()
    for game in range(games):
        play(config, game, tally)
    return tally


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="bluffing-joker")
    parser.add_argument("--against", default="basic", help="the preset to compare with")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--teams", type=int, default=2)
    parser.add_argument("--seats", default="heuristic",
                        help="bot spec per seat (or team), comma-separated")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot-option", action="append", default=[], metavar="BOT.NAME=VALUE",
                        help="an option for one bot kind, e.g. heuristic.suspicion=0.2")
    parser.add_argument("--max-actions", type=int, default=30_000)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    seats = split_specs(args.seats)
    out: dict[str, dict[str, float | int]] = {}
    for name in (args.rules, args.against):
        try:
            rules = Rules.preset(name, players=args.players, teams=args.teams)
            tally = run(rules, seats, args.games, args.seed, args.max_actions,
                        parse_bot_options(args.bot_option))
        except (RulesError, SimulationError, ValueError) as e:
            parser.error(str(e))
        out[name] = {**asdict(tally), **tally.rates()}
    ratio = out[args.rules]["card_plays_per_game"] / out[args.against]["card_plays_per_game"]
    if args.json:
        plain = {name: {k: None if v != v else v for k, v in row.items()}  # NaN: none
                 for name, row in out.items()}
        print(json.dumps({"seats": args.seats, "seed": args.seed, "presets": plain,
                          "ratio": ratio}, indent=2))
        return
    print(f"{args.games} games per preset, seats {args.seats}, seed {args.seed}, "
          f"{args.players} players in {args.teams} teams")
    print(f"{'preset':16} {'finished':>8} {'plays/game':>10} {'bluff':>7} {'doubt':>7} "
          f"{'caught':>7} {'sent back/game':>15}")
    for name, row in out.items():
        rates = [row[k] for k in ("bluff_rate", "doubt_rate", "doubt_success")]
        shown = ["    -  " if math.isnan(r) else f"{r:7.1%}" for r in rates]
        back = int(row["pegs_sent_back"]) / max(1, int(row["games"]))
        print(f"{name:16} {row['finished']:>8} {row['card_plays_per_game']:>10.1f} "
              f"{' '.join(shown)} {back:>15.1f}")
    print(f"card plays per game, {args.rules} / {args.against}: {ratio:.2f}")


if __name__ == "__main__":
    main()
