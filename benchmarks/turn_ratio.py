"""How much slower a turn is under North Carolina and Arizona rules than under the basic
game, on the same positions.

Positions (pegs, seat to move, hand) are sampled from random basic games; each is then
set up under each preset and timed for one turn: legal-action generation plus applying
one legal action.  Each process first plays the turns of ``--warmup`` other positions,
untimed, as a game server or a simulation has played many turns before the one that
counts (what the engine keeps once made, such as a table's plain split parts, is then
made already).  Every preset is timed in a process of its own, as a game server or a
simulation plays one rule set at a time (a process that has just generated thousands of
North Carolina tens runs the basic game slower, and the other way round), in
``--repeat`` rounds of one process per preset in a shuffled order, so a change in the
machine's speed during the run touches every preset alike.  Prints mean microseconds per
turn, mean legal actions, microseconds per legal action, and the ratio of the turn time to
the basic preset's: the ratio of the times summed over the rounds, with a 95% bootstrap
interval (one process's time varies by tens of percent on a shared machine, so a figure
needs many rounds).  Times are CPU time of the process (``time.process_time``), so other
jobs on the machine count only as far as they slow the processor down.

    .venv/bin/python benchmarks/turn_ratio.py [--positions 1000] [--players 4 8] [--repeat 20]
    .venv/bin/python benchmarks/turn_ratio.py --instructions --positions 100
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

from pegs.bots.random_bot import random_action
from pegs.rules import GameState, Rules

Position = tuple[tuple[tuple[int, ...], ...], int, tuple[str, ...], int]
PRESETS = ("basic", "north-carolina", "arizona")
#: The compiled functions a turn runs in (mypyc's names): generating, indexing the listing,
#: applying, and freeing the listing.  Only instructions inside them are counted.
TURN_FUNCTIONS = ("CPyDef_state___GameState___legal_actions", "CPyDef_state___GameState___apply",
                  "CPyDef_legal___Actions___*", "legal___Legal_dealloc")


#: The first game seed of the warm-up positions (the measured ones start at 0).
WARMUP_SEED = 1_000_000


def sample_positions(players: int, count: int, seed: int = 0) -> list[Position]:
    """Positions met in random basic games from game ``seed`` on (about one turn in
    twenty).  The random choice is made among the legal actions ordered by card and the
    layout each leads to, so the positions depend neither on the order in which the engine
    lists its actions nor on which of the equivalent spellings of a split it keeps."""
    out: list[Position] = []
    while len(out) < count:
        state = GameState.new(Rules.preset("basic", players=players), seed)
        rng = random.Random(seed)
        seed += 1
        while not state.is_over() and len(out) < count:
            if rng.random() < 0.05:
                out.append((state.pegs, state.turn, state.hands[state.turn],
                            state.stuck[state.turn]))
            here = state
            state = state.apply(random_action(rng, sorted(
                here.legal_actions(), key=lambda a: (a.card, a.discard, here.result_of(a)))))
    return out


def time_turns(preset: str, players: int, positions: list[Position],
               play: bool = True, warmup: list[Position] | None = None) -> tuple[float, int]:
    """Seconds spent on one turn (generate + apply) of each position, and legal actions,
    after playing the turns of ``warmup`` untimed.  The loop over the positions is timed
    whole, less a loop that only sets them up (a clock read per turn would add about a
    microsecond to each, 2% of a basic turn).  Without ``play`` the positions are only set
    up (for :func:`count_instructions`)."""
    rules = Rules.preset(preset, players=players)
    for pegs, turn, hand, stuck in warmup or []:
        warm = GameState.from_position(rules, pegs, turn, hand, stuck_turns=stuck)
        legal = warm.legal_actions()
        warm.apply(legal[len(legal) // 2])
    start = time.process_time()
    for pegs, turn, hand, stuck in positions:
        GameState.from_position(rules, pegs, turn, hand, stuck_turns=stuck)
    setup = time.process_time() - start
    if not play:
        return 0.0, 0
    legal_total = 0
    start = time.process_time()
    for pegs, turn, hand, stuck in positions:
        fresh = GameState.from_position(rules, pegs, turn, hand, stuck_turns=stuck)
        legal = fresh.legal_actions()
        fresh.apply(legal[len(legal) // 2])
        legal_total += len(legal)
    return time.process_time() - start - setup, legal_total


def count_instructions(preset: str, players: int, positions: int, warmup: int
                       ) -> tuple[int, int]:
    """Instructions the turns of :func:`time_turns` execute, and their legal actions,
    counted by valgrind (callgrind) inside :data:`TURN_FUNCTIONS` only: a process that plays
    the warm-up turns and the turns less one that plays the warm-up turns and only sets up
    the positions.  What the rest of the process does (sampling the games, setting up the
    positions) is left out: counted whole, it moved a preset's figure by up to 15% between
    builds and warm-up sizes (the cycle collector and CPython's caches run on the whole
    process), where this count moves by 0.2-1.5%.  Needs the compiled build; 50-100 times
    slower than a timing."""
    counts = []
    legal = 0
    for extra in ([], ["--setup-only"]):
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
             *(f"--toggle-collect={name}" for name in TURN_FUNCTIONS), sys.executable,
             __file__, "--child", preset, "--players", str(players),
             "--positions", str(positions), "--warmup", str(warmup), *extra],
            check=True, capture_output=True, text=True,
            env={**os.environ, "PYTHONHASHSEED": "0"})
        found = re.search(r"Collected : (\d+)", run.stderr)
        if found is None:
            sys.exit(f"valgrind printed no instruction count:\n{run.stderr[-2000:]}")
        counts.append(int(found.group(1)))
        if not extra:
            legal = int(json.loads(run.stdout)[1])
    if counts[0] == counts[1]:
        sys.exit("no instructions counted in the turn's functions: --instructions needs the "
                 "compiled build (bash scripts/setup.sh)")
    return counts[0] - counts[1], legal


def one_process(preset: str, players: int, positions: int, warmup: int
                ) -> tuple[float, int]:
    """:func:`time_turns` in a fresh Python process."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", preset, "--players", str(players),
         "--positions", str(positions), "--warmup", str(warmup)],
        check=True, capture_output=True, text=True).stdout
    elapsed, legal = json.loads(out)
    return float(elapsed), int(legal)


def print_instructions(players_list: list[int], positions: int, warmup: int) -> None:
    """The instruction counts of :func:`count_instructions`, per turn and against basic."""
    if shutil.which("valgrind") is None:
        sys.exit("--instructions needs valgrind (Debian: apt-get install valgrind)")
    print(f"{'players':>7} {'preset':<15} {'K instr/turn':>12} {'legal':>7} {'x basic':>8}")
    for players in players_list:
        counted = {preset: count_instructions(preset, players, positions, warmup)
                   for preset in PRESETS}
        base = counted[PRESETS[0]][0]
        for preset, (instructions, legal) in counted.items():
            print(f"{players:>7} {preset:<15} {instructions / positions / 1000:>12.1f} "
                  f"{legal / positions:>7.1f} {instructions / base:>8.2f}")


def ratio_interval(times: list[float], base: list[float], rng: random.Random,
                   draws: int = 2000) -> tuple[float, float, float]:
    """The ratio of the summed times of the rounds to basic's, and its 95% bootstrap
    interval (rounds drawn with replacement, a round's two times kept together)."""
    rounds = len(times)
    ratios = []
    for _ in range(draws):
        picked = [rng.randrange(rounds) for _ in range(rounds)]
        ratios.append(sum(times[n] for n in picked) / sum(base[n] for n in picked))
    ratios.sort()
    return sum(times) / sum(base), ratios[draws // 40], ratios[draws - 1 - draws // 40]


def print_timings(players_list: list[int], positions: int, warmup: int, repeat: int) -> None:
    """Time :func:`time_turns` in ``repeat`` rounds of one process per preset (in a shuffled
    order, so a drift of the machine's speed favours no preset), and print each preset's
    mean turn against basic's: the ratio of the summed times, with its 95% interval."""
    rng = random.Random(0)
    print(f"{'players':>7} {'preset':<15} {'us/turn':>9} {'legal':>7} {'us/legal':>9} "
          f"{'x basic':>8} {'95% interval':>13}")
    for players in players_list:
        rounds: dict[str, list[float]] = {preset: [] for preset in PRESETS}
        legal = dict.fromkeys(PRESETS, 0)
        for _ in range(repeat):
            for preset in rng.sample(PRESETS, len(PRESETS)):
                seconds, count = one_process(preset, players, positions, warmup)
                rounds[preset].append(seconds)
                legal[preset] += count
        turns = repeat * positions
        for preset in PRESETS:
            mean = sum(rounds[preset]) / turns
            actions = legal[preset] / turns
            ratio, low, high = ratio_interval(rounds[preset], rounds[PRESETS[0]], rng)
            print(f"{players:>7} {preset:<15} {mean * 1e6:>9.0f} {actions:>7.1f} "
                  f"{mean * 1e6 / actions:>9.2f} {ratio:>8.2f} {low:>6.2f}-{high:<6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--players", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=300,
                        help="positions played untimed first, in every process (0: none)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions with valgrind instead of timing (one round; "
                             "use --positions 100 or so)")
    parser.add_argument("--child", choices=PRESETS, help=argparse.SUPPRESS)
    parser.add_argument("--setup-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        players = args.players[0]
        print(json.dumps(time_turns(args.child, players,
                                    sample_positions(players, args.positions),
                                    play=not args.setup_only,
                                    warmup=sample_positions(players, args.warmup, WARMUP_SEED))))
        return
    if args.instructions:
        print_instructions(args.players, args.positions, args.warmup)
        return
    print_timings(args.players, args.positions, args.warmup, args.repeat)

if __name__ == "__main__":
    main()
