#!/usr/bin/env python3
"""Throughput of the rules engine in full games of uniformly random play.

For every preset (``pegs.rules.PRESETS``, narrowed by
``--presets``) at 4 and 8 players, plays ``--games`` games with the seeds
``--first-seed`` onwards.  Each game is ``GameState.new(rules, seed)`` followed by the loop
``state.legal_actions()`` / random choice / ``state.apply(action)`` until
``state.is_over()``, with the choices drawn from a ``random.Random(seed)`` of its own.  One
process, one thread, timed in CPU time of the process (``time.process_time``), so other
jobs sharing the machine do not distort the figures.

``--budget`` (default 50 s) caps the whole run: each table may use the time still left
divided by the tables still to run, and stops starting new games (after at least one) when
that share is used up, so the seeds it plays are always a prefix of the fixed set and the
``games`` column says how many.  ``--budget 0`` always plays every seed.

    .venv/bin/python benchmarks/random_games.py
    .venv/bin/python benchmarks/random_games.py --presets basic havasu --games 50
    .venv/bin/python benchmarks/random_games.py --profile --presets basic
    .venv/bin/python benchmarks/random_games.py --json
"""

from __future__ import annotations

import argparse
import cProfile
import json
import platform
import pstats
import random
import sys
import textwrap
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pegs
from pegs.bots.random_bot import random_action
from pegs.rules import PRESETS, GameState, Rules, RulesError

DEFAULT_PLAYERS = (4, 8)
DEFAULT_GAMES = 20
DEFAULT_MAX_ACTIONS = 50_000
DEFAULT_BUDGET = 50.0
PROFILE_TOP = 15

# pstats' table: (file, line, function) -> (primitive calls, calls, own time, cumulative
# time, {caller: (primitive calls, calls, own time, cumulative time)}).
Label = tuple[str, int, str]
CallerStats = tuple[int, int, float, float]
FuncStats = tuple[int, int, float, float, dict[Label, CallerStats]]
StatsTable = dict[Label, FuncStats]


# --- playing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """One random game: its actions, the legal-action counts it saw and its loop time."""

    actions: int
    legal_total: int
    legal_max: int
    finished: bool
    loop_seconds: float


def play(rules: Rules, seed: int, max_actions: int) -> GameResult:
    """Play one game of uniformly random legal actions.

    Stops early (``finished`` false) if the game reaches ``max_actions`` actions or the
    seat to move has no legal action, so a bug in the engine cannot hang the benchmark.
    """
    state = GameState.new(rules, seed)
    rng = random.Random(seed)
    actions = legal_total = legal_max = 0
    finished = True
    start = time.process_time()
    while not state.is_over():
        if actions >= max_actions:
            finished = False
            break
        legal = state.legal_actions()
        count = len(legal)
        if not count:
            finished = False
            break
        legal_total += count
        if count > legal_max:
            legal_max = count
        state = state.apply(random_action(rng, legal))
        actions += 1
    loop_seconds = time.process_time() - start
    return GameResult(actions, legal_total, legal_max, finished, loop_seconds)


@dataclass(frozen=True)
class TableResult:
    """All games of one preset at one table size."""

    preset: str
    players: int
    games: int
    planned: int  # games in the seed set (more than ``games`` when the budget ran out)
    seconds: float  # whole games, GameState.new included
    loop_seconds: float  # the legal_actions / choice / apply loops only
    actions: int
    legal_total: int
    legal_max: int
    unfinished: int

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.loop_seconds if self.loop_seconds else 0.0

    @property
    def mean_legal(self) -> float:
        return self.legal_total / self.actions if self.actions else 0.0

    @property
    def mean_length(self) -> float:
        return self.actions / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "players": self.players,
            "games": self.games,
            "planned_games": self.planned,
            "seconds": round(self.seconds, 6),
            "loop_seconds": round(self.loop_seconds, 6),
            "games_per_second": round(self.games_per_second, 3),
            "actions_per_second": round(self.actions_per_second, 1),
            "actions": self.actions,
            "mean_legal_actions": round(self.mean_legal, 3),
            "max_legal_actions": self.legal_max,
            "mean_game_length": round(self.mean_length, 2),
            "unfinished_games": self.unfinished,
        }


def run_table(rules: Rules, seeds: Sequence[int], max_actions: int,
              budget: float = 0.0) -> TableResult:
    """Play one game per seed and total them up; with a ``budget`` (seconds), start no new
    game once the games played so far have used it up."""
    GameState.new(rules, seeds[0]).legal_actions()  # warm the per-rules caches, untimed
    seconds = loop_seconds = 0.0
    actions = legal_total = legal_max = unfinished = games = 0
    for seed in seeds:
        if budget and games and seconds >= budget:
            break
        games += 1
        start = time.process_time()
        game = play(rules, seed, max_actions)
        seconds += time.process_time() - start
        loop_seconds += game.loop_seconds
        actions += game.actions
        legal_total += game.legal_total
        legal_max = max(legal_max, game.legal_max)
        unfinished += not game.finished
    return TableResult(rules.name, rules.players, games, len(seeds), seconds, loop_seconds,
                       actions, legal_total, legal_max, unfinished)


# --- text output --------------------------------------------------------------------------

HEADER = (f"{'preset':<16} {'players':>7} {'games':>5} {'games/s':>9} {'actions/s':>10} "
          f"{'mean legal':>10} {'max legal':>9} {'mean length':>11} {'seconds':>8}")


def table_row(r: TableResult) -> str:
    row = (f"{r.preset:<16} {r.players:>7} {r.games:>5} {r.games_per_second:>9.2f} "
           f"{r.actions_per_second:>10,.0f} {r.mean_legal:>10.1f} {r.legal_max:>9} "
           f"{r.mean_length:>11.1f} {r.seconds:>8.2f}")
    if r.unfinished:
        row += f"  ({r.unfinished} unfinished)"
    return row


def skipped_row(preset: str, players: int, error: str) -> str:
    return f"{preset:<16} {players:>7}  skipped: {error}"


# --- profiling ----------------------------------------------------------------------------

_PACKAGE_DIR = Path(pegs.__file__).resolve().parent
_THIS_FILE = Path(__file__).resolve()
_LOOP = "benchmark loop"


def module_of(filename: str) -> str | None:
    """The module a profiled function belongs to, or None for built-in functions and
    generated code (``~`` and ``<string>``), whose time belongs to their callers."""
    if filename == "~" or filename.startswith("<"):
        return None
    path = Path(filename).resolve()
    if path == _THIS_FILE:
        return _LOOP
    if path.is_relative_to(_PACKAGE_DIR):
        parts = path.relative_to(_PACKAGE_DIR.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        return ".".join(parts)
    return path.stem


def describe(label: Label) -> str:
    filename, line, name = label
    if filename == "~":
        return name
    return f"{Path(filename).name}:{line}({name})"


def own_time_by_module(table: StatsTable) -> dict[str, float]:
    """Own time per module, built-in and generated-code time charged to the module of the
    caller (in proportion to the time spent under each caller)."""
    totals: dict[str, float] = {}

    def charge(label: Label, amount: float, depth: int) -> None:
        module = module_of(label[0])
        callers = table[label][4] if label in table else {}
        if module is None and callers and depth < 50:
            shares = {caller: stats[2] for caller, stats in callers.items()}
            whole = sum(shares.values())
            for caller, share in shares.items():
                part = share / whole if whole else 1 / len(shares)
                charge(caller, amount * part, depth + 1)
            return
        key = module if module is not None else "built-ins (top level)"
        totals[key] = totals.get(key, 0.0) + amount

    for label, stats in table.items():
        if stats[2]:
            charge(label, stats[2], 0)
    return dict(sorted(totals.items(), key=lambda kv: -kv[1]))


def profile_label(func: Any) -> Label:
    """The label cProfile gives ``func``: by its code object for a Python function; a
    compiled method (mypyc) has none and is profiled as a built-in, by its repr
    (``<method 'legal_actions' of 'GameState' objects>``)."""
    code = getattr(func, "__code__", None)
    if code is not None:
        return (code.co_filename, code.co_firstlineno, code.co_name)
    return ("~", 0, repr(func))


def inclusive_time(table: StatsTable, func: Any) -> float:
    """Cumulative time of a function, Python or compiled."""
    stats = table.get(profile_label(func))
    return stats[3] if stats else 0.0


@dataclass(frozen=True)
class ProfileReport:
    preset: str
    players: tuple[int, ...]
    games: int
    actions: int
    total: float
    top: list[dict[str, Any]]
    phases: dict[str, float]
    modules: dict[str, float]

    def summary(self) -> str:
        def pct(seconds: float) -> str:
            return f"{100 * seconds / self.total:.1f}%" if self.total else "0%"

        sizes = [str(p) for p in self.players]
        tables = " and ".join([", ".join(sizes[:-1]), sizes[-1]] if len(sizes) > 1 else sizes)
        modules = ", ".join(f"{name} {pct(sec)}" for name, sec in self.modules.items()
                            if sec >= 0.0005 * self.total)
        return (
            f"Profiled {self.games} games of {self.preset} ({tables} players, "
            f"{self.actions:,} actions) for {self.total:.2f} s of profiled time. "
            f"Legal generation (GameState.legal_actions and everything it calls) took "
            f"{pct(self.phases['legal_generation'])}, apply (GameState.apply and everything "
            f"it calls) {pct(self.phases['apply'])}, and other work (dealing in "
            f"GameState.new, is_over, the random choice and the loop itself) "
            f"{pct(self.phases['other'])}. By module, with the time of built-in functions "
            f"and generated code charged to the module that called them: {modules}. "
            f"cProfile's per-call overhead inflates call-heavy code, so read the shares, "
            f"not the absolute times."
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "players": list(self.players),
            "games": self.games,
            "actions": self.actions,
            "profiled_seconds": round(self.total, 6),
            "top_by_own_time": self.top,
            "phases_seconds": {k: round(v, 6) for k, v in self.phases.items()},
            "modules_seconds": {k: round(v, 6) for k, v in self.modules.items()},
            "summary": self.summary(),
        }


def profile_preset(preset: str, tables: Mapping[int, Sequence[int]], max_actions: int,
                   top: int) -> ProfileReport | None:
    """Run the preset's games under cProfile: ``tables`` maps table sizes to their seeds."""
    games: list[tuple[Rules, int]] = []
    for n, seeds in tables.items():
        try:
            rules = Rules.preset(preset, players=n)
        except RulesError:
            continue
        GameState.new(rules, seeds[0]).legal_actions()  # warm the caches outside the profile
        games += [(rules, seed) for seed in seeds]
    if not games:
        return None
    profiler = cProfile.Profile()
    actions = 0
    profiler.enable()
    for rules, seed in games:
        actions += play(rules, seed, max_actions).actions
    profiler.disable()

    stats = pstats.Stats(profiler)
    table: StatsTable = cast(Any, stats).stats  # typeshed does not declare Stats.stats
    total = sum(s[2] for s in table.values())
    legal = inclusive_time(table, GameState.legal_actions)
    apply = inclusive_time(table, GameState.apply)
    ranked = sorted(table.items(), key=lambda kv: -kv[1][2])[:top]
    top_rows = [
        {
            "function": describe(label),
            "module": module_of(label[0]) or "built-in",
            "calls": s[1],
            "own_seconds": round(s[2], 6),
            "cumulative_seconds": round(s[3], 6),
        }
        for label, s in ranked
    ]
    return ProfileReport(
        preset=preset,
        players=tuple(dict.fromkeys(rules.players for rules, _ in games)),
        games=len(games),
        actions=actions,
        total=total,
        top=top_rows,
        phases={"legal_generation": legal, "apply": apply,
                "other": max(0.0, total - legal - apply)},
        modules=own_time_by_module(table),
    )


def print_profile(report: ProfileReport) -> None:
    print()
    print(f"Profile of {report.preset}: top {len(report.top)} functions by own time")
    print(f"{'calls':>10} {'own s':>8} {'own %':>6} {'cumul s':>8}  function")
    for row in report.top:
        share = 100 * row["own_seconds"] / report.total if report.total else 0.0
        print(f"{row['calls']:>10,} {row['own_seconds']:>8.3f} {share:>5.1f}% "
              f"{row['cumulative_seconds']:>8.3f}  {row['function']}")
    print()
    print(textwrap.fill(report.summary(), width=100, break_on_hyphens=False))


# --- command line -------------------------------------------------------------------------


def ordered_presets(wanted: Sequence[str] | None) -> tuple[list[str], list[str]]:
    """The presets to run (in the order asked, else the engine's preset order) and the
    names asked for that are not presets."""
    if wanted is None:
        return list(PRESETS), []
    asked = [name for item in wanted for name in item.split(",") if name]
    asked = list(dict.fromkeys(asked))
    return [p for p in asked if p in PRESETS], [p for p in asked if p not in PRESETS]


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Games and actions per second of the rules engine under random play.")
    parser.add_argument("--games", type=positive, default=DEFAULT_GAMES,
                        help=f"games (seeds) per preset and table size (default {DEFAULT_GAMES})")
    parser.add_argument("--first-seed", type=int, default=0,
                        help="seed of the first game; the others follow it (default 0)")
    parser.add_argument("--presets", nargs="+", metavar="PRESET",
                        help="only these presets (space or comma separated): "
                             + ", ".join(PRESETS))
    parser.add_argument("--players", nargs="+", type=positive, default=list(DEFAULT_PLAYERS),
                        metavar="N", help="table sizes (default 4 8)")
    parser.add_argument("--max-actions", type=positive, default=DEFAULT_MAX_ACTIONS,
                        help="give up on a game after this many actions "
                             f"(default {DEFAULT_MAX_ACTIONS:,})")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, metavar="SECONDS",
                        help="time for all tables together; a table stops starting games when "
                             "its share is used up, so some may play fewer than --games "
                             f"(default {DEFAULT_BUDGET:g}; 0 = no limit)")
    parser.add_argument("--profile", action="store_true",
                        help="then run the first selected preset's games again (the same seeds "
                             "as its tables played) under cProfile and print the top "
                             f"{PROFILE_TOP} functions and where the time goes")
    parser.add_argument("--json", action="store_true",
                        help="print the results as one JSON object instead of tables")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    presets, unknown = ordered_presets(args.presets)
    if unknown:
        print(f"not a preset, left out: {', '.join(unknown)}", file=sys.stderr)
    if not presets:
        print("no preset selected; choose from: " + ", ".join(PRESETS),
              file=sys.stderr)
        return 2
    seeds = list(range(args.first_seed, args.first_seed + args.games))
    players: list[int] = list(dict.fromkeys(args.players))

    if not args.json:
        limit = f"budget {args.budget:g} s" if args.budget > 0 else "no time budget"
        print(f"pegs {pegs.__version__}: {args.games} random games per table "
              f"(seeds {seeds[0]}-{seeds[-1]}, {limit}), Python {platform.python_version()} "
              f"on {platform.machine()}, one process")
        print(HEADER)
    tables: list[tuple[str, int, Rules | RulesError]] = []
    for preset in presets:
        for n in players:
            try:
                tables.append((preset, n, Rules.preset(preset, players=n)))
            except RulesError as error:
                tables.append((preset, n, error))
    left = sum(isinstance(rules, Rules) for _, _, rules in tables)
    run_start = time.perf_counter()
    results: list[TableResult] = []
    skipped: list[dict[str, Any]] = []
    for preset, n, table in tables:
        if isinstance(table, RulesError):
            skipped.append({"preset": preset, "players": n, "error": str(table)})
            if not args.json:
                print(skipped_row(preset, n, str(table)), flush=True)
            continue
        share = 0.0
        if args.budget > 0:
            share = max(0.0, args.budget - (time.perf_counter() - run_start)) / left
        left -= 1
        result = run_table(table, seeds, args.max_actions, share)
        results.append(result)
        if not args.json:
            print(table_row(result), flush=True)
    if not args.json and any(r.games < r.planned for r in results):
        print(f"(a games count below {args.games} means the table's share of the time budget "
              "ran out; --budget 0 plays every seed)")

    report = None
    if args.profile:
        played = {r.players: seeds[:r.games] for r in results if r.preset == presets[0]}
        report = profile_preset(presets[0], played, args.max_actions, PROFILE_TOP)
        if report is None and not args.json:
            print(f"\nnothing to profile: {presets[0]} allows none of the table sizes")
        elif report is not None and not args.json:
            print_profile(report)

    if args.json:
        out: dict[str, Any] = {
            "pegs_version": pegs.__version__,
            "python": platform.python_version(),
            "machine": platform.machine(),
            "games_per_table": args.games,
            "seeds": [seeds[0], seeds[-1]],
            "max_actions": args.max_actions,
            "budget_seconds": args.budget,
            "results": [r.to_json() for r in results],
            "skipped": skipped,
        }
        if args.profile:
            out["profile"] = report.to_json() if report is not None else None
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
