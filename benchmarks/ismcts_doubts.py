"""How well ISMCTS reads Bluffing Joker declarations: its doubts against the heuristic bot,
with the face-down card dealt uniformly (``belief=uniform``, before) and by the
declaration (``belief=declarations``, after).

Plays ``--games`` games of 4 seats in 2 teams, ISMCTS (``--ismcts`` spec, iteration-bounded
so the run is reproducible) in one team and the heuristic bot in the other, each deal
once from each side, dealt and seated as ``pegs ladder`` does; the two beliefs play the
same deals and seats, game by game in turn (so load affects both alike).  By default the
ISMCTS seats search only their doubt-or-pass decisions and the heuristic bot plays their
other moves (cheap, and every belief meets the same kind of declarations); ``--full``
lets ISMCTS play every decision of its seats (then the score means something).  Prints per belief,
over the declarations the heuristic seats put to an ISMCTS seat:

- **doubt accuracy**: the share of ISMCTS's doubts that caught a bluff;
- **bluff detection**: the share of the bluffs put to ISMCTS that it doubted;
- **false alarms**: the share of the true declarations put to it that it doubted;
- the team's score (wins, half the unfinished games) and the CPU seconds a decision.

    .venv/bin/python benchmarks/ismcts_doubts.py --games 20 --seed 1
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

from pegs.rules import GameState, Rules, view
from pegs.rules.bluff import DOUBT
from pegs.sim.bot_spec import BotSpecError, parse_bot_spec
from pegs.sim.run import bot_seed

BELIEFS = ("uniform", "declarations")


@dataclass
class Tally:
    games: int = 0
    score: float = 0.0
    asked: int = 0  # declarations of a heuristic seat put to an ISMCTS seat
    bluffs: int = 0  # ... of them bluffs
    doubts: int = 0
    caught: int = 0
    false_alarms: int = 0
    decisions: int = 0
    cpu: float = 0.0

    def line(self, name: str) -> str:
        def share(a: float, b: float) -> str:
            return f"{a / b:7.1%}" if b else "    -  "

        per = self.cpu / self.decisions if self.decisions else math.nan
        return (f"{name:13} {self.games:5} {share(self.score, self.games)} "
                f"{self.asked:6} {share(self.bluffs, self.asked)} "
                f"{share(self.caught, self.doubts)} {share(self.caught, self.bluffs)} "
                f"{share(self.false_alarms, self.asked - self.bluffs)} {per:9.3f}")


def play(rules: Rules, ismcts: str, deal: int, side: int, max_actions: int,
         tally: Tally, full: bool) -> None:
    """One game: ISMCTS (``ismcts`` spec) in the seats ``s % 2 == side`` (at their doubt
    decisions only unless ``full``)."""
    heuristic = [parse_bot_spec("heuristic").make(bot_seed(deal, s))
                 for s in range(rules.players)]
    search = [parse_bot_spec(ismcts).make(bot_seed(deal, s)) for s in range(rules.players)]
    state = GameState.new(rules, deal)
    while not state.is_over() and state.ply < max_actions:
        seat = state.current_player
        legal = state.legal_actions()
        searching = seat % 2 == side and (full or DOUBT in legal)
        started = time.process_time()
        bot = search[seat] if searching else heuristic[seat]
        action = bot.choose(view(state, seat), legal)
        if searching:
            tally.cpu += time.process_time() - started
            tally.decisions += 1
        pending = state.pending
        if searching and pending is not None and action.decision in ("doubt", "pass") \
                and pending.declarer % 2 != side:
            tally.asked += 1
            tally.bluffs += pending.bluff
            if action == DOUBT:
                tally.doubts += 1
                tally.caught += pending.bluff
                tally.false_alarms += not pending.bluff
        state = state.apply(action)
    outcome = state.outcome()
    tally.games += 1
    tally.score += 0.5 if outcome is None else float(outcome.team == side)


def spec(ismcts: str, belief: str) -> str:
    """``ismcts`` with ``belief`` added to its options."""
    return f"{ismcts}{',' if ':' in ismcts else ':'}belief={belief}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per belief (even)")
    parser.add_argument("--seed", type=int, default=1, help="the first deal")
    parser.add_argument("--ismcts", default="ismcts:iterations=200",
                        help="the ISMCTS spec, without belief")
    parser.add_argument("--max-actions", type=int, default=3000)
    parser.add_argument("--full", action="store_true",
                        help="ISMCTS plays every decision of its seats, not just its doubts")
    args = parser.parse_args(argv)
    rules = Rules.preset("bluffing-joker", players=4, teams=2)
    try:
        for belief in BELIEFS:
            parse_bot_spec(spec(args.ismcts, belief))
    except BotSpecError as e:
        parser.error(str(e))
    tallies = {belief: Tally() for belief in BELIEFS}
    for game in range(args.games):
        for belief in BELIEFS:
            play(rules, spec(args.ismcts, belief), args.seed + game // 2, game % 2,
                 args.max_actions, tallies[belief], args.full)
    what = "every decision" if args.full else "the doubts (heuristic moves otherwise)"
    print(f"bluffing-joker 2v2, {args.ismcts} against heuristic, {args.games} games a "
          f"belief (deals {args.seed}-{args.seed + (args.games - 1) // 2}, both sides); "
          f"ISMCTS decides {what}")
    print(f"{'belief':13} {'games':>5} {'score':>7} {'asked':>6} {'bluffs':>7} "
          f"{'doubt accuracy':>7} {'bluff detection':>7} {'false alarms':>7} "
          f"{'cpu s/decision':>9}")
    for belief, tally in tallies.items():
        print(tally.line(belief))


if __name__ == "__main__":
    main()
