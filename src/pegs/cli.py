"""The ``pegs`` command: play in the terminal, serve online play, demo games, replays, cue
cards, conformance runs, hints and simulations."""

from __future__ import annotations

import argparse
import dataclasses
import json
import signal
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from .bots import make_bot
from .cli_checks import (
    OptionError,
    balance_notes,
    check_distinct,
    check_input,
    check_jobs,
    check_output,
    check_port,
    check_records,
    check_seconds,
)
from .cli_options import (
    add_bot_delay,
    add_bot_option,
    add_hint_seconds,
    hidden_alias,
    with_bot_options,
)
from .cli_verify import verify_command
from .conformance import run_paths, scenario_files
from .cue import cue_card
from .hint import HintError, format_hint, hint
from .house import HouseRules, game_name
from .house import load as load_house
from .notation import acting_seat, announce_line, seat_name, team_name
from .record import Record, RecordError, length_words, load
from .rules import PRESETS, GameState, Rules, RulesError, view
from .server.limits import Limits  # light: the web stack loads only for pegs serve
from .sim import run as sim_run
from .sim import stats as sim_stats
from .sim.bot_spec import parse_bot_spec, split_specs, time_bounded

DEFAULT_MAX_TURNS = 20000
DEFAULT_PRESET = "pegoo"
#: Seconds in an hour (pegs serve takes some times in hours).
HOUR = 3600.0


def _add_table_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", choices=PRESETS, help="preset (default: pegoo)")
    _add_house_option(p)
    _add_size_options(p)


def _add_house_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--house", metavar="FILE",
                   help="a house-rules file: its base preset with its own settings and card "
                        "powers (docs/HOUSE_RULES.md)")


def _add_size_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, metavar="N", help="number of seats, 2-10 (default 4)")
    p.add_argument("--teams", type=int, metavar="N",
                   help="number of teams (0: everyone for themselves; default: the preset's "
                        "for the number of players)")
    p.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE",
        help="override any setting, e.g. --set holes_per_side=20 (repeatable)",
    )


def house_from_args(args: argparse.Namespace) -> HouseRules | None:
    """The house-rules file of ``--house`` (read and checked), or None."""
    if getattr(args, "house", None) is None:
        return None
    if args.rules:
        raise RulesError("give --rules or --house, not both: a house-rules file names its "
                         "own base preset")
    return load_house(args.house)


def rules_from_args(args: argparse.Namespace) -> Rules:
    overrides: dict[str, object] = {}
    if args.players is not None:
        overrides["players"] = args.players
    if args.teams is not None:
        overrides["teams"] = args.teams
    for item in args.set:
        name, eq, value = item.partition("=")
        if not eq:
            raise RulesError(f"--set needs NAME=VALUE, not {item!r}")
        given = overrides.get(name.strip())
        overrides[name.strip()] = sim_run.option_value(value.strip())
        if name.strip() in ("players", "teams") and given not in (None, overrides[name.strip()]):
            raise RulesError(f"--set {item} contradicts --{name.strip()} {given}: give one")
    house = house_from_args(args)
    if house is not None:
        return house.rules(**overrides)
    return Rules.preset(args.rules or DEFAULT_PRESET, **overrides)


def describe_table(rules: Rules) -> str:
    if rules.teams:
        teams = [
            "{}: {}".format(team_name(t), ", ".join(seat_name(s) for s in range(rules.players)
                                             if s % rules.teams == t))
            for t in range(rules.teams)
        ]
        return "; ".join(teams)
    return ", ".join(seat_name(s) for s in range(rules.players))


def cmd_demo(args: argparse.Namespace) -> int:
    if args.max_turns < 1:
        raise OptionError(f"--max-turns must be 1 or more, not {args.max_turns}")
    rules = rules_from_args(args)
    state = GameState.new(rules, args.seed)
    bots = [make_bot("random", args.seed * 1000 + seat) for seat in range(rules.players)]
    house = house_from_args(args)
    record = Record(rules, args.seed, house=house.name if house else None)
    check_output("--save", args.save)
    if args.save is not None:
        record.save(args.save)  # a record that cannot be written is told before the game
    print(f"{game_name(rules, record.house)}, {rules.players} players, seed {args.seed}: "
          f"{describe_table(rules)}")
    turns = 0
    while not state.is_over() and turns < args.max_turns:
        seat = state.current_player
        action = bots[seat].choose(view(state, seat), state.legal_actions())
        if not args.quiet:
            print(f"{state.ply + 1:4}. {announce_line(state, action)}")
        record.actions.append(action)
        turns += not action.decision
        state = state.apply(action)
    length = length_words(record.actions)
    outcome = state.outcome()
    if outcome is None:
        print(f"No winner after {length} (stopped at --max-turns).")
    else:
        who = " and ".join(seat_name(s) for s in outcome.seats)
        if rules.teams:
            print(f"{team_name(outcome.team)} wins after {length}: {who}.")
        else:
            print(f"{who} wins after {length}.")
    if args.save is not None:
        record.save(args.save)
        print(f"Record saved to {args.save} (replay it with: pegs replay {args.save})")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    record = load(args.file)
    rules = record.rules
    print(f"{game_name(rules, record.house)}, {rules.players} players, seed {record.seed}: "
          f"{describe_table(rules)}")
    state = None
    for state, action in record.states():
        if action is not None and not args.quiet:
            print(f"{state.ply + 1:4}. {announce_line(state, action)}")
    assert state is not None
    outcome = state.outcome()
    if outcome is None:
        print(f"Game in progress after {length_words(record.actions)}; "
              f"{seat_name(acting_seat(state))} to play.")
    else:
        who = " and ".join(seat_name(s) for s in outcome.seats)
        print(f"Won after {length_words(record.actions)} by {who}.")
    print(f"All {len(record.actions)} actions verified.")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    house = house_from_args(args)
    if house is None and args.rules is None:
        raise RulesError("name a preset (" + ", ".join(PRESETS) + ") or give --house FILE")
    rules = rules_from_args(args)
    print(cue_card(rules, house.title, house.description) if house else cue_card(rules))
    return 0


def cmd_conformance(args: argparse.Namespace) -> int:
    results = run_paths(args.paths)
    if not results:
        print(f"pegs: no scenarios found in {', '.join(args.paths)} (scenario files: *.json)",
              file=sys.stderr)
        return 1
    for path in map(Path, args.paths):
        if path.is_dir() and not any(scenario_files([path])):
            print(f"pegs: no scenario files (*.json) in {path}", file=sys.stderr)
    passed = sum(r.passed for r in results)
    for r in results:
        print(r.line())
        if args.json:
            print(json.dumps({"name": r.name, "outcomes": list(r.outcomes)}))
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if results and passed == len(results) else 1


def _add_backend_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--backend", choices=sim_run.BACKENDS, default="local",
                   help="local: worker processes here; ray: Ray tasks on a local Ray or the "
                        "cluster at --address (same games, same results; default local)")
    p.add_argument("--address", metavar="HOST:PORT",
                   help="the Ray cluster to join (with --backend ray; default: start a local "
                        "Ray of --jobs CPUs)")


#: The signal that stopped a simulation or ladder, once one came (SIGTERM, ``kill``).
_stopped_by: list[signal.Signals] = []


def _interrupt(signum: int, frame: object) -> None:
    _stopped_by.append(signal.Signals(signum))
    raise KeyboardInterrupt


def _stopped_code() -> int:
    """The exit status of a run stopped by a signal: 128 + its number (130 after Ctrl-C,
    143 after SIGTERM), as the shell reports a process killed by it."""
    return 128 + int(_stopped_by[0] if _stopped_by else signal.SIGINT)


def _run_failed(e: sim_run.SimulationError | sim_run.GameError, out: str | None) -> int:
    """Say why a simulation or ladder failed; a game that fails as the run is being
    stopped (the signal can land anywhere in it) is part of the stop."""
    if _stopped_by and isinstance(e, sim_run.GameError):
        _say_interrupted(-1, -1, out)
        return _stopped_code()
    print(f"pegs: {e}", file=sys.stderr)
    return 1 if isinstance(e, sim_run.GameError) else 2


def plot_file(name: str | None) -> Path | None:
    """The file ``--plot NAME`` writes (None without --plot); refused (OptionError) for a
    format that cannot be drawn or a file that cannot be written."""
    check_output("--plot", name)
    if name is None:
        return None
    from .sim import plots  # matplotlib is imported only when a plot is asked for

    try:
        path = plots.plot_file(name)
    except ValueError as e:
        raise OptionError(f"--plot {name}: {e}") from e
    return check_output("--plot", str(path))


def _note_jobs(args: argparse.Namespace) -> None:
    """Refuse --jobs far above this machine's CPUs (with the local backend), note it above."""
    if args.backend == "local":
        note = check_jobs(args.jobs)
        if note:
            print(f"note: {note}", file=sys.stderr)


def _say_interrupted(done: int, total: int, out: str | None) -> None:
    """The games finished before the stop (``done`` -1: not counted) and where they are."""
    games = f" after {done} of {total} games" if done >= 0 else ""
    kept = f"; the finished games are in {out} (run the same command to resume)" if out else ""
    print(f"interrupted{games}{kept}", file=sys.stderr)


def cmd_simulate(args: argparse.Namespace) -> int:
    try:
        rules = rules_from_args(args)
        seats = sim_run.expand_seats(split_specs(args.bots), rules.players, rules.teams)
        config = sim_run.Config(
            rules, seats, args.games, args.seed,
            sim_run.parse_bot_options(args.bot_option), args.max_actions,
            rotate=not args.no_rotate, duplicate=args.duplicate,
        )
        plot = plot_file(args.plot)
        out = check_output("--out", args.out)
        records = check_records("--records", args.records)
        check_distinct(("--out", out), ("--records", records), ("--plot", plot))
        _note_jobs(args)
        rotation = "rotated each game" if not args.no_rotate else "fixed"
        if args.duplicate:
            rotation += ", each deal played by every side"
        mixed = sim_run.kinds_on_every_side(seats, rules.teams)
        if mixed:
            print(f"note: every team has a {' and a '.join(mixed)} bot, so the win rates per "
                  "bot cannot tell them apart; teammates sit at seats s, s + teams, ... "
                  "(e.g. --bots ismcts,heuristic,ismcts,heuristic)", file=sys.stderr)
        if not args.quiet:
            house = house_from_args(args)
            print(f"{game_name(rules, house and house.name)}, {rules.players} players "
                  f"({describe_table(rules)}); seats "
                  f"{','.join(seats)} {rotation}; {args.games} games, seeds {args.seed}-"
                  f"{config.game_seed(args.games - 1)}", file=sys.stderr)

        def started(already: int, to_play: int) -> None:
            if already:
                print(f"{already} of {args.games} games already in {args.out}; playing "
                      f"{to_play}", file=sys.stderr)

        progress = sim_run.Progress(args.games, quiet=args.quiet)
        signal.signal(signal.SIGTERM, _interrupt)  # `kill` stops a run like Ctrl-C
        result = sim_run.simulate(config, out, args.jobs, progress, started,
                                  args.backend, args.address, records)
    except (sim_run.SimulationError, sim_run.GameError) as e:
        return _run_failed(e, args.out)
    if result.interrupted:
        _say_interrupted(len(result.results), args.games, args.out)
    for note in balance_notes(args.games, rules.players, rules.teams, len(set(seats)) > 1,
                              not args.no_rotate, args.duplicate):
        print(f"note: {note}", file=sys.stderr)
    summary = sim_stats.summarize(result.results, rules.players, rules.teams)
    print(sim_stats.format_summary(summary))
    if plot and result.results:
        from .sim import plots

        try:
            plots.plot_summary(summary, plot, title=(
                f"{rules.name}, {rules.players} players: {','.join(seats)} "
                f"({len(result.results)} games)"))
        except (OSError, ValueError) as e:
            print(f"pegs: cannot write the plot {plot}: {e}", file=sys.stderr)
            return 2
        print(f"plot written to {plot}")
    return _stopped_code() if result.interrupted else 0


def cmd_ladder(args: argparse.Namespace) -> int:
    from .sim import ladder as sim_ladder  # OpenSkill is imported only for ladders

    if args.verify is not None:
        return verify_command(args)
    try:
        if not args.bots:
            raise sim_run.SimulationError("pegs ladder needs --bots (or --verify FILE)")
        rules = rules_from_args(args)
        games = 20 if args.games is None else args.games
        bots = with_bot_options(split_specs(args.bots),
                                sim_run.parse_bot_options(args.bot_option))
        ladder = sim_ladder.Ladder(rules, tuple(bots), games, args.seed, args.max_actions)
        if args.max_actions < 1:
            raise OptionError(f"--max-actions must be 1 or more, not {args.max_actions}")
        plot = plot_file(args.plot)
        out = check_output("--out", args.out)
        records = check_records("--records", args.records)
        check_distinct(("--out", out), ("--records", records), ("--plot", plot))
        _note_jobs(args)
        if not args.quiet:
            house = house_from_args(args)
            print(f"{game_name(rules, house and house.name)}, {rules.players} players "
                  f"({describe_table(rules)}); {len(ladder.pairs)} pairs of {games} games",
                  file=sys.stderr)
        progress = sim_run.Progress(ladder.total, quiet=args.quiet)
        signal.signal(signal.SIGTERM, _interrupt)  # `kill` stops a run like Ctrl-C
        result = sim_ladder.run_ladder(ladder, out, args.jobs, progress, args.backend,
                                       args.address, records)
    except (sim_run.SimulationError, sim_run.GameError) as e:
        return _run_failed(e, args.out)
    if result.interrupted:
        _say_interrupted(len(result.lines), ladder.total, args.out)
    table, pairs = sim_ladder.rate(ladder, result.lines)
    print(sim_ladder.format_ladder(ladder, table, pairs))
    if any(time_bounded(parse_bot_spec(b)) for b in ladder.bots):
        print("note: a bot bounded by seconds plays differently on another machine or "
              "load; bound it by iterations (ismcts:iterations=N) to make the ladder "
              "reproducible", file=sys.stderr)
    if plot and result.lines:
        try:
            sim_ladder.plot_ladder(table, str(plot), f"{rules.name}, {rules.players} players "
                                   f"({len(result.lines)} games)")
        except (OSError, ValueError) as e:
            print(f"pegs: cannot write the plot {plot}: {e}", file=sys.stderr)
            return 2
        print(f"plot written to {plot}")
    return _stopped_code() if result.interrupted else 0


def cmd_bots(args: argparse.Namespace) -> int:
    from .bots.options import manual

    print(manual())
    print("\nA bot spec is NAME or NAME:OPTION=VALUE,OPTION=VALUE, e.g. "
          "ismcts:iterations=400,exploration=0.7 (ismcts:SECONDS: CPU seconds a decision).")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from .tui import launch  # the terminal UI is loaded only for this command

    check_input("--resume", args.resume)
    return launch.play(args, None if args.resume else rules_from_args(args))


def cmd_hint(args: argparse.Namespace) -> int:
    check_seconds("--hint-seconds", args.hint_seconds)
    record = load(args.file)
    try:
        suggestion = hint(record, args.seat, args.hint_seconds)
    except HintError as e:
        print(f"pegs: {e}", file=sys.stderr)
        return 2
    print(format_hint(suggestion, record.replay()))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    check_port(args.port)
    check_seconds("--bot-delay", args.bot_delay, zero=True, most=60)
    check_seconds("--hint-seconds", args.hint_seconds)
    from .server.doors import rates
    from .server.serve import serve  # the web stack loads only for this command

    try:
        budgets = rates(args.rate)
    except ValueError as e:
        raise OptionError(str(e)) from None

    limits = Limits(
        creates_per_minute=args.creates_per_minute, max_waiting_per_address=args.max_waiting,
        connects_per_minute=args.connects_per_minute, waiting_seconds=args.waiting_hours * HOUR,
        min_timer_seconds=args.shortest_clock, hello_seconds=args.hello_seconds,
        request_seconds=args.request_seconds, max_connections=args.max_connections,
        joins_per_minute=args.joins_per_minute,
        lobby_reads_per_minute=args.lobby_reads_per_minute,
        max_live_per_address=args.max_tables_per_address,
        abandoned_seconds=args.abandoned_hours * HOUR,
        forwarded_allow_ips=args.forwarded_allow_ips, limits_url=args.limits_url,
        max_bot_seconds=args.max_bot_seconds, min_bot_delay=args.min_bot_delay,
        lease_seconds=args.lease_seconds)
    limits = dataclasses.replace(limits, **budgets)  # --rate over the older options
    return serve(args.host, args.port, args.database_url, args.bot_delay, args.hint_seconds,
                 limits)


def cmd_db(args: argparse.Namespace) -> int:
    from .server.serve import upgrade_database

    return upgrade_database(args.database_url)


def package_version() -> str:
    try:
        return metadata.version("pegs")
    except metadata.PackageNotFoundError:  # run from a source tree that is not installed
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pegs", description="Pegs and Jokers family of card-and-peg race games."
    )
    parser.add_argument("--version", action="version", version=f"pegs {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    from .tui.launch import DESCRIPTION, EXAMPLES, add_play_options

    p = sub.add_parser("play", help="play a game in the terminal against bots or friends",
                       description=DESCRIPTION, epilog=EXAMPLES,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_table_options(p)
    add_play_options(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "serve", help="run the online game server (HTTP API, WebSockets, the page)",
        description="Hosts tables for online play.  Games are stored in a database (by "
                    "default SQLite in the user's data folder, or PEGS_DATA_DIR) and resumed "
                    "after a restart.",
    )
    p.add_argument("--host", default="127.0.0.1", metavar="HOST",
                   help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, metavar="N", help="port (default 8000)")
    p.add_argument("--database-url", default=None, metavar="URL",
                   help="SQLAlchemy URL, e.g. postgresql+psycopg://user@host/db "
                        "(default: PEGS_DATABASE_URL, else SQLite in the data folder)")
    add_bot_delay(p, None, "pause before each bot move, unless a table sets its own")
    add_hint_seconds(p, None, "seconds a hint searches")
    d = Limits()  # the server's settings: their defaults are the options' defaults
    p.add_argument("--creates-per-minute", type=int, default=d.creates_per_minute, metavar="N",
                   help="new tables one client address may create a minute (default %(default)d; "
                        "0: no limit)")
    p.add_argument("--max-waiting", type=int, default=d.max_waiting_per_address, metavar="N",
                   help="tables waiting for players one client address may have "
                        "(default %(default)d; 0: no cap)")
    p.add_argument("--connects-per-minute", type=int, default=d.connects_per_minute, metavar="N",
                   help="WebSocket connects one client address may make a minute "
                        "(default %(default)d; 0: no limit)")
    p.add_argument("--waiting-hours", type=float, default=d.waiting_seconds / HOUR,
                   metavar="HOURS",
                   help="a table nobody starts is removed after this (default %(default)g)")
    p.add_argument("--shortest-clock", type=float, default=d.min_timer_seconds, metavar="SECONDS",
                   help="the shortest turn timer and away delay a table may set "
                        "(default %(default)g)")
    p.add_argument("--abandoned-hours", type=float, default=d.abandoned_seconds / HOUR,
                   metavar="HOURS",
                   help="a started table with nobody connected and no move for this long is "
                        "ended as abandoned (default %(default)g)")
    p.add_argument("--max-tables-per-address", type=int, default=d.max_live_per_address,
                   metavar="N",
                   help="unfinished tables (waiting or in play) one client address may have "
                        "created (default %(default)d; 0: no cap)")
    p.add_argument("--max-connections", type=int, default=d.max_connections, metavar="N",
                   help="open connections one client address may hold (default %(default)d; "
                        "0: no cap)")
    p.add_argument("--hello-seconds", type=float, default=d.hello_seconds, metavar="SECONDS",
                   help="a WebSocket that sends no hello within this is closed "
                        "(default %(default)g)")
    p.add_argument("--request-seconds", type=float, default=d.request_seconds, metavar="SECONDS",
                   help="an HTTP request (head and body) that has not arrived within this is "
                        "dropped (default %(default)g)")
    p.add_argument("--joins-per-minute", type=int, default=d.joins_per_minute, metavar="N",
                   help="seats one client address may take a minute (default %(default)d; 0: no "
                        "limit)")
    p.add_argument("--lobby-reads-per-minute", type=int, default=d.lobby_reads_per_minute,
                   metavar="N",
                   help="reads of the public table list one client address may make a minute "
                        "(default %(default)d; 0: no limit)")
    p.add_argument("--rate", action="append", default=[], metavar="NAME=N",
                   help="change one per-address budget, in requests a minute (0: no limit): "
                        "page, fixed, creates, lobby, table, joins, changes, reads, house, "
                        "connects, chat, table-chat; see docs/DEPLOY.md (repeatable)")
    p.add_argument("--forwarded-allow-ips", default=d.forwarded_allow_ips, metavar="LIST",
                   help="the reverse proxies (addresses or networks, comma-separated) whose "
                        "X-Forwarded-For names the client (default: none, for serving "
                        "directly)")
    p.add_argument("--limits-url", default=d.limits_url, metavar="URL",
                   help="a Redis or Valkey server (redis://HOST:PORT/DB) in which several "
                        "processes count the per-address limits together (default: each "
                        "process counts in its memory)")
    p.add_argument("--max-bot-seconds", type=float, default=d.max_bot_seconds, metavar="SECONDS",
                   help="the longest a bot searches a move, whatever its strength (default: "
                        "no cap; the strongest searches 1.5)")
    p.add_argument("--min-bot-delay", type=float, default=d.min_bot_delay, metavar="SECONDS",
                   help="the shortest pause before a bot's move, whatever a table asks "
                        "(default %(default)g)")
    p.add_argument("--lease-seconds", type=float, default=d.lease_seconds, metavar="SECONDS",
                   help="(PostgreSQL) how long a table stays with a process that stopped "
                        "renewing its lease before another takes it over; renewals come every "
                        "0.3 of it (default %(default)g)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("db", help="manage the server's database")
    db = p.add_subparsers(dest="db_command", required=True, metavar="COMMAND")
    p = db.add_parser("upgrade", help="bring the database schema to the newest version "
                      "(pegs serve also does this at start)")
    p.add_argument("--database-url", default=None, metavar="URL",
                   help="SQLAlchemy URL (default: PEGS_DATABASE_URL, else SQLite in the data "
                        "folder)")
    p.set_defaults(func=cmd_db)

    p = sub.add_parser("demo", help="play a whole seeded game between random bots")
    _add_table_options(p)
    p.add_argument("--seed", type=int, default=1, metavar="N", help="game seed (default 1)")
    p.add_argument("--save", metavar="FILE", help="write the game record to FILE")
    p.add_argument("--quiet", action="store_true", help="print only the result")
    p.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS, metavar="N",
                   help="stop after N turns, e.g. to try pegs hint on a game in progress "
                        f"(default {DEFAULT_MAX_TURNS})")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("replay", help="replay a game record, verifying every action")
    p.add_argument("file", metavar="FILE",
                   help="a game record (JSON) from pegs demo --save, pegs play or the server")
    p.add_argument("--quiet", action="store_true", help="print only the verdict")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("rules", help="print a preset's (or a house-rules file's) cue card")
    p.add_argument("rules", nargs="?", choices=PRESETS, metavar="PRESET",
                   help=", ".join(PRESETS))
    _add_house_option(p)
    _add_size_options(p)
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("conformance", help="run rules-conformance scenario files")
    p.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders of *.json")
    p.add_argument("--json", action="store_true", help="also print every computed outcome")
    p.set_defaults(func=cmd_conformance)

    p = sub.add_parser(
        "simulate", help="play many bot-vs-bot games in worker processes and sum them up",
        description=(
            "Plays --games seeded games between bots in --jobs worker processes, appends "
            "one JSON line per finished game to --out (an existing file with the same "
            "settings is resumed) and prints win rates per bot and per seat with 95% "
            "Wilson intervals, the first-seat advantage and the game length.  Game i is "
            "dealt with seed --seed + i and its seat s bot seeded (seed + i) * 1000 + s, so "
            "results do not depend on --jobs.  Unless --no-rotate, game i shifts the "
            "--bots list by i mod players (seat s plays entry (s + i) mod players): every "
            "bot sits in every seat, teammates stay teammates."
        ),
    )
    _add_table_options(p)
    p.add_argument("--bots", default="random", metavar="BOT[,BOT...]",
                   help="the bot of each seat, as bot specs, comma-separated: one for "
                        "everyone, one per team (seat s plays entry s mod teams) or one per "
                        "seat, e.g. "
                        "heuristic,ismcts:iterations=400 (pegs bots lists the bots and "
                        "their options; default random)")
    hidden_alias(p, "--seats", "bots", metavar="BOT[,BOT...]")  # its older name
    p.add_argument("--games", type=int, default=100, metavar="N",
                   help="number of games (default 100)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="worker processes (default: one per CPU; 1 plays in this process; "
                        "more than 8 a CPU are refused)")
    p.add_argument("--seed", type=int, default=1, metavar="N",
                   help="seed of game 0 (default 1)")
    p.add_argument("--out", metavar="FILE",
                   help="results file, one JSON line per game; resumed if it exists "
                        "(default: none, the results are only summed up)")
    p.add_argument("--plot", metavar="FILE",
                   help="draw win rates with 95%% intervals and game lengths to FILE (its "
                        "extension names the format, .png when it has none)")
    add_bot_option(p)
    p.add_argument("--max-actions", type=int, default=sim_run.DEFAULT_MAX_ACTIONS,
                   metavar="N", help="stop a game unfinished after N actions "
                        f"(default {sim_run.DEFAULT_MAX_ACTIONS})")
    p.add_argument("--records", metavar="FILE",
                   help="append every played game's record to FILE, one per line (the "
                        "format pegs replay verifies, with the bots of the seats)")
    p.add_argument("--no-rotate", action="store_true",
                   help="keep the --bots order in every game")
    p.add_argument("--duplicate", action="store_true",
                   help="play each deal once per side (team, or seat without teams) in "
                        "consecutive games, so every bot kind gets the same cards and luck "
                        "cancels out")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    _add_backend_options(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser(
        "ladder", help="rate bots by team matches between every pair on duplicate deals",
        description=(
            "Plays --games games for every pair of --bots (one side all one bot, the other "
            "side the other; each deal once from each side), appends one JSON line per game "
            "to --out (resumed if it exists), and prints OpenSkill ratings with their "
            "uncertainty and each pair's score with a 95% Wilson interval.  A bigger "
            "ladder (more bots or games) on an existing file plays only the games it "
            "lacks.  Bots are specs (pegs bots): bound ismcts by iterations "
            "(ismcts:iterations=400) for games that replay the same anywhere."
        ),
    )
    _add_table_options(p)
    p.add_argument("--bots", metavar="BOT,BOT[,...]",
                   help="the bots to rate, e.g. random,heuristic,ismcts:iterations=400")
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help="games a pair, even (default 20: 10 deals from both sides); with "
                        "--verify, the records to play again (default all)")
    p.add_argument("--records", metavar="FILE",
                   help="append every played game's record to FILE, one per line")
    p.add_argument("--verify", metavar="FILE",
                   help="play the games of a records file again with their bots and "
                        "report any game whose moves differ (exit 1)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="worker processes (default: one per CPU; 1 plays in this process; "
                        "more than 8 a CPU are refused)")
    p.add_argument("--seed", type=int, default=1, metavar="N",
                   help="seed of the first deal (default 1)")
    p.add_argument("--out", metavar="FILE",
                   help="results file, one JSON line per game; resumed if it exists "
                        "(default: none, the results are only summed up)")
    p.add_argument("--plot", metavar="FILE", help="draw the ratings to FILE")
    p.add_argument("--max-actions", type=int, default=sim_run.DEFAULT_MAX_ACTIONS,
                   metavar="N", help="stop a game unfinished (a draw) after N actions "
                                     f"(default {sim_run.DEFAULT_MAX_ACTIONS})")
    add_bot_option(p)
    p.add_argument("--quiet", action="store_true", help="no progress display")
    _add_backend_options(p)
    p.set_defaults(func=cmd_ladder)

    p = sub.add_parser("bots", help="list the bots and their options, types and defaults")
    p.set_defaults(func=cmd_bots)

    p = sub.add_parser("hint", help="suggest a move for the seat to act in a game record")
    p.add_argument("file", metavar="FILE",
                   help="a game record (JSON) of a game in progress, e.g. from pegs play")
    p.add_argument("--seat", type=int, metavar="N",
                   help="the seat asking, which must be the seat to act (default: the seat "
                        "to act)")
    add_hint_seconds(p, "--time", "seconds of search for the ismcts bot")
    p.set_defaults(func=cmd_hint)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:  # ``pegs`` alone: the help (the list of commands), not a usage error
        build_parser().print_help()
        return 0
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except (RulesError, RecordError, OptionError) as e:
        print(f"pegs: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return _stopped_code()


if __name__ == "__main__":
    sys.exit(main())
