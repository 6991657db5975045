#!/usr/bin/env python3
"""Throughput of ``pegs simulate``: games per second with one worker and with all workers.

For each bot kind (random, and heuristic when ``pegs.bots.heuristic`` is installed; narrow
or extend with ``--bots``), plays the same ``--games`` games of ``--rules`` at
``--players`` seats, every seat that bot, through :func:`pegs.sim.run.simulate` with no
results file: once with 1 worker (games played in this process) and once with ``--jobs``
workers (default: one per CPU, spawned processes).  Times are wall-clock
(``time.perf_counter``) for the whole run, worker start-up included, so the scaling ratio
(all workers / one worker) is what a user of ``pegs simulate`` gets; short runs understate
it, and so does a machine busy with other work (the load average is printed: compare the
CPU cost per game of the one-worker run, which load hardly changes).  Both runs play
identical games (same seeds), which the script checks.

    .venv/bin/python benchmarks/simulate_speed.py
    .venv/bin/python benchmarks/simulate_speed.py --bots random heuristic ismcts \\
        --bot-option ismcts.iterations=50 --games 8
    .venv/bin/python benchmarks/simulate_speed.py --json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Any

import pegs
from pegs.bots import make_bot
from pegs.rules import Rules
from pegs.sim.run import Config, parse_bot_options, simulate

DEFAULT_GAMES = 40


def available(kind: str) -> bool:
    try:
        make_bot(kind, 0)
    except ImportError:
        return False
    return True


def cpu_seconds() -> float:
    """CPU time of this process and of its finished (joined) children."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def timed(config: Config, jobs: int) -> tuple[float, float, list[dict[str, Any]]]:
    """Wall seconds, CPU seconds (workers included) and the results of one run."""
    start, cpu = time.perf_counter(), cpu_seconds()
    result = simulate(config, None, jobs)
    return time.perf_counter() - start, cpu_seconds() - cpu, result.results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="basic", help="preset (default basic)")
    parser.add_argument("--players", type=int, default=4, help="seats (default 4)")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                        help=f"games per run (default {DEFAULT_GAMES})")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="workers of the parallel run (default: one per CPU)")
    parser.add_argument("--bots", nargs="+", default=["random", "heuristic"],
                        help="bot kinds to measure (default: random heuristic)")
    parser.add_argument("--bot-option", action="append", default=[], metavar="BOT.NAME=VALUE")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    rules = Rules.preset(args.rules, players=args.players)
    options = parse_bot_options(args.bot_option)
    rows: list[dict[str, Any]] = []
    if not args.json:
        print(f"pegs {pegs.__version__}, Python {platform.python_version()} on "
              f"{platform.machine()}, {os.cpu_count()} CPUs (load average "
              f"{os.getloadavg()[0]:.1f}): {args.games} games of {rules.name} at "
              f"{rules.players} seats per run")
        print(f"{'bot':<10} {'1 worker':>12} {f'{args.jobs} workers':>12} {'scaling':>8} "
              f"{'CPU ms/game':>12} {'mean length':>11}")
    for kind in args.bots:
        if not available(kind):
            if not args.json:
                print(f"{kind:<10} not available here (its module is not installed)")
            rows.append({"bot": kind, "available": False})
            continue
        config = Config(rules, (kind,) * rules.players, args.games, args.seed,
                        {k: v for k, v in options.items() if k == kind})
        one_s, one_cpu, one = timed(config, 1)
        many_s, _, many = timed(config, args.jobs)
        same = one == many
        one_rate, many_rate = args.games / one_s, args.games / many_s
        length = sum(r["turns"] for r in one) / len(one)
        row = {
            "bot": kind, "available": True, "games": args.games,
            "one_worker_games_per_second": round(one_rate, 3),
            "workers": args.jobs,
            "all_workers_games_per_second": round(many_rate, 3),
            "scaling": round(many_rate / one_rate, 3),
            "cpu_seconds_per_game": round(one_cpu / args.games, 4),
            "mean_length": round(length, 1), "identical_results": same,
        }
        rows.append(row)
        if not args.json:
            note = "" if same else "  (results differ between the runs!)"
            print(f"{kind:<10} {one_rate:>8.2f} g/s {many_rate:>8.2f} g/s "
                  f"{many_rate / one_rate:>7.2f}x {1000 * one_cpu / args.games:>12.0f} "
                  f"{length:>11.1f}{note}", flush=True)
    if args.json:
        print(json.dumps({
            "pegs_version": pegs.__version__, "python": platform.python_version(),
            "cpus": os.cpu_count(), "rules": rules.name, "players": rules.players,
            "results": rows,
        }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
