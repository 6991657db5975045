"""``pegs play``: its options, and starting (or resuming) a game at the terminal."""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path

from ..cli_checks import check_output, check_seconds
from ..cli_options import add_bot_delay, add_hint_seconds
from ..house import load as load_house
from ..notation import seat_name
from ..rules import Rules
from .session import (
    DATA_ENV,
    DEFAULT_THINK,
    STRENGTHS,
    Session,
    SetupError,
    default_path,
    parse_seats,
)

DESCRIPTION = f"""\
Play a full game in the terminal against bots or friends at one keyboard.  With no
options: Pegoo, 4 players in two teams, you (seat 0, Red) with a heuristic partner
against two heuristic opponents.

Seats (--seats, one entry per seat, comma-separated; partners sit alternately):
  human (or you)   a player at this keyboard; with two or more humans a cover screen
                   hides the table between their turns (hot seat)
  easy             random bot: any legal move
  normal           heuristic bot: a club player's judgement
  strong           ismcts bot: searches --think seconds a move (default {DEFAULT_THINK:g})
  (the bot names random, heuristic, ismcts work too)

Every game is saved as it goes, by default in the games folder of your data directory
(or of ${DATA_ENV} when set); quit with q and continue with --resume FILE.  At the end
the record can be replayed with: pegs replay FILE.
"""

#: The longest pause after a bot's move --bot-delay may ask for.
MAX_DELAY = 60.0

EXAMPLES = """\
examples:
  pegs play
  pegs play --rules basic --players 6 --teams 3 --strength strong
  pegs play --players 4 --seats human,easy,human,easy      (two friends against bots)
  pegs play --resume game.json
"""


def add_play_options(p: argparse.ArgumentParser) -> None:
    """The options of ``pegs play`` besides the table options (--rules, --players, ...)."""
    p.add_argument("--seats", metavar="SEAT[,SEAT...]",
                   help="who plays each seat: human, easy, normal or strong "
                        "(default: human, then --strength bots)")
    p.add_argument("--strength", default="normal", choices=sorted(STRENGTHS),
                   help="strength of the bots when --seats is not given (default normal)")
    p.add_argument("--seed", type=int, metavar="N", help="game seed (default: a new random game)")
    p.add_argument("--resume", metavar="FILE",
                   help="continue the game saved in FILE, with its rules, seed and seats "
                        "(--seats may change who plays them; table options are ignored, "
                        "with a note)")
    p.add_argument("--save", metavar="FILE",
                   help=f"save the game to FILE (default: a new file in the games folder; "
                        f"${DATA_ENV} overrides the folder)")
    add_bot_delay(p, "--delay", "seconds each bot move stays before the next (0 is "
                                "instant; + and - change it while playing)")
    p.add_argument("--think", type=float, default=DEFAULT_THINK, metavar="SECONDS",
                   help=f"seconds the strong bot searches per move (default {DEFAULT_THINK:g})")
    add_hint_seconds(p, "--hint-time", "seconds the hint key's bot searches")


def build_session(args: argparse.Namespace, rules: Rules | None) -> Session:
    """The game asked for: resumed from --resume, or new with ``rules``."""
    check_seconds("--think", args.think)
    check_seconds("--hint-seconds", args.hint_seconds)
    check_seconds("--bot-delay", args.bot_delay, zero=True, most=MAX_DELAY)
    save = check_output("--save", args.save)  # a missing folder is refused, not made
    if save is not None and save.exists() and not (
            args.resume and save.resolve() == Path(args.resume).resolve()):
        raise SetupError(f"{save} already exists: continue it with --resume {save}, or save "
                         "the new game under another name")
    if args.resume:
        return Session.resume(Path(args.resume), args.seats, save, args.think)
    assert rules is not None
    seats = parse_seats(args.seats, rules.players, args.strength)
    seed = args.seed if args.seed is not None else secrets.randbelow(1_000_000)
    house = load_house(args.house).name if getattr(args, "house", None) else None
    return Session(rules, seed, seats, save or default_path(rules, seed), think=args.think,
                   house=house)


def ignored_on_resume(args: argparse.Namespace, session: Session) -> list[str]:
    """The table options given with --resume that differ from the saved game (which keeps
    its own), as notes to show."""
    rules = session.rules
    settings = rules.settings()
    given = [
        f"--rules {args.rules}" if args.rules not in (None, rules.name) else "",
        f"--house {args.house}" if getattr(args, "house", None) else "",
        f"--players {args.players}" if args.players not in (None, rules.players) else "",
        f"--teams {args.teams}" if args.teams not in (None, rules.teams) else "",
        f"--seed {args.seed}" if args.seed not in (None, session.seed) else "",
    ]
    for item in args.set:
        name, _, value = item.partition("=")
        if str(settings.get(name.strip())).lower() != value.strip().lower():
            given.append(f"--set {item}")
    given = [g for g in given if g]
    if not given:
        return []
    teams = f"{rules.teams} teams" if rules.teams else "no teams"
    return [f"{', '.join(given)} ignored: the resumed game keeps its own table "
            f"({session.name}, {rules.players} players, {teams}, seed {session.seed})"]


def saves_first(args: argparse.Namespace, session: Session) -> bool:
    """Whether to write the record before the first move: a new game (so that a bad --save
    is told at once) or a resumed one going to another file or to other seats; never a
    finished game, whose record must stay as it is."""
    if session.state.is_over():
        return False
    if not args.resume:
        return True
    return session.path.resolve() != Path(args.resume).resolve() or args.seats is not None


def play(args: argparse.Namespace, rules: Rules | None) -> int:
    """Run the game; print the result and where the record is."""
    try:
        session = build_session(args, rules)
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            raise SetupError("play needs a terminal to draw the game in: run it without a "
                             "pipe or a redirection")
        if saves_first(args, session):
            session.save()
    except SetupError as e:
        print(f"pegs: {e}", file=sys.stderr)
        return 2
    notes = ignored_on_resume(args, session) if args.resume else []
    for note in notes:
        print(f"pegs: note: {note}", file=sys.stderr)
    from .app import PegsApp  # Textual is loaded only for this command

    app = PegsApp(session, delay=args.bot_delay, hint_seconds=args.hint_seconds, notes=notes)
    app.run()
    print(farewell(session, app.finished))
    # stopped by `kill` (SIGTERM): 143, as the shell reports a process the signal ended
    return 128 + int(app.stopped_by) if app.stopped_by else 0


def farewell(session: Session, finished: str) -> str:
    """What is printed when the screen closes: the result and the record, or how to go on."""
    path = session.path
    if finished:
        return f"{finished}\nRecord saved to {path} (replay it with: pegs replay {path})"
    to_act = session.state.current_player
    return (f"Game saved after {len(session.actions)} actions, {seat_name(to_act)} to act.\n"
            f"Continue with: pegs play --resume {path}")
