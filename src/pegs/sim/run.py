"""Running many bot-vs-bot games in worker processes, one JSON line per finished game.

Determinism: game ``i`` of a run with base seed ``S`` is dealt with seed ``S + i`` and the
bot in seat ``s`` is built as ``make_bot(kind, (S + i) * 1000 + s, **options)`` (the seat
seeding of ``pegs demo``, so a game of random bots can be watched with
``pegs demo --seed S+i``).  A game's line therefore depends only on its index and the
settings, never on the number of workers or the order in which games finish; bots limited
by time (``ismcts.seconds``) are the exception, as their search depends on the machine.

Seating: ``--bots`` lists one bot kind for everyone, one per team (teammates get the
same kind) or one per seat.  Unless rotation is
turned off, game ``i`` shifts that list by ``i mod players``: seat ``s`` plays entry
``(s + i) mod players``.  Over any ``players`` consecutive games every entry sits in every
seat once, so each bot kind plays first (seat 0) equally often and the seat effect and
the bot effect can be told apart; run a multiple of ``players`` games for an exact
balance.  Teams are ``seat mod teams`` and teams divide the players, so a shift maps every
team onto a team: bots listed as teammates stay teammates (``ismcts,heuristic,ismcts,
heuristic`` is always two ismcts against two heuristic bots, seated alternately).

Duplicate deals (``--duplicate``): each deal is played once per side (team, or seat
without teams) in consecutive games: game ``i`` is dealt with seed ``S + i // sides``, and
its seating is still shifted by ``i mod players``, so the side that held the cards of a
deal is played by a different bot kind each time, as in duplicate bridge.  Card luck then
largely cancels out of a comparison of bot kinds.

Results file: each finished game appends one line immediately (flushed)::

    {"game": 3, "seed": 4, "rules": {...settings...}, "seats": ["heuristic", "ismcts", ...],
     "bot_options": {"ismcts": {"seconds": 1}}, "max_actions": 30000,
     "winner_team": 1, "winner_seats": [1, 3], "turns": 812, "finished": true,
     "seat_stats": [{"bot": "heuristic", "moves": 190, "hits": 4, "discards": 12}, ...]}

``turns`` is the number of actions played (``state.ply``); ``moves`` counts a seat's
actions that moved a peg, ``hits`` its steps marked ``x`` (landing on another colour) and
``discards`` its discarding actions.  A game stopped at ``max_actions`` has
``"finished": false`` and no winner.  Lines appear in the order games finish.

Resume: when the file exists, the games it holds are kept and skipped, provided every line
was made with the same settings (rules, base seed, seating, bot options, action cap);
otherwise :class:`SimulationError` says which setting differs.  A last line cut short by
a crash is dropped.  Ctrl-C (or SIGTERM from the command) stops the workers within seconds,
however many there are (see :mod:`pegs.sim.workers`); finished games stay in the file.

Backends: worker processes on this machine, or Ray tasks on a local Ray or a cluster
(:mod:`pegs.sim.ray_backend`); both play the same tasks, so they write the same lines.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from ..bots import Bot
from ..bots.base import BOTS
from ..bots.options import check_option
from ..jsonfile import JsonError, parse_json
from ..record import Record
from ..rules import Action, GameState, Rules, RulesError, view
from .bot_spec import BotSpecError, parse_bot_spec
from .ray_backend import RayUnavailable, in_ray
from .records import keep_records
from .workers import WorkerCrashed, WorkersStopped, in_workers

DEFAULT_MAX_ACTIONS = 30000

#: Keys every results line has.
LINE_KEYS = (
    "game", "seed", "rules", "seats", "bot_options", "max_actions", "winner_team",
    "winner_seats", "turns", "finished", "seat_stats",
)

BotOptions = dict[str, dict[str, Any]]

#: How every results line begins (``game`` is its first key), so that a cut last line can be
#: told from a file that is not a results file.
CUT_LINE_START = '{"game": '



class SimulationError(ValueError):
    """A simulation that cannot start: bad seats, options or results file."""


class GameError(RuntimeError):
    """A game that failed in a worker (with the worker's traceback in the message)."""


# --- settings ---------------------------------------------------------------------------


def option_value(text: str) -> Any:
    """A command-line option value: true/false, a whole number, a decimal, else text."""
    low = text.lower()
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_bot_options(items: Iterable[str]) -> BotOptions:
    """``["ismcts.seconds=1", "random.doubt_rate=0.2"]`` -> ``{"ismcts": {"seconds": 1}, ...}``."""
    out: BotOptions = {}
    for item in items:
        key, eq, value = item.partition("=")
        kind, dot, name = key.strip().partition(".")
        if not eq or not dot or not kind or not name:
            raise SimulationError(
                f"--bot-option needs BOT.NAME=VALUE (e.g. ismcts.seconds=1), not {item!r}")
        if kind not in BOTS:
            raise SimulationError(f"--bot-option {item!r}: unknown bot {kind!r}; "
                                  f"bots are: {', '.join(BOTS)}")
        try:
            checked = check_option(kind, name.strip(), option_value(value.strip()))
        except ValueError as e:
            raise SimulationError(f"--bot-option {item!r}: {e}") from e
        out.setdefault(kind, {})[name.strip()] = checked
    return out


def expand_seats(kinds: Sequence[str], players: int, teams: int = 0) -> tuple[str, ...]:
    """One bot spec per seat (:mod:`pegs.sim.bot_spec`) from a list of one (everyone),
    ``teams`` (one per team: seat ``s`` plays entry ``s mod teams``, as teams are ``seat mod
    teams``) or ``players`` specs."""
    kinds = [k.strip() for k in kinds]
    if not kinds or any(not k for k in kinds):
        raise SimulationError("--bots needs bot names separated by commas, e.g. "
                              "ismcts,heuristic,ismcts,heuristic")
    try:
        kinds = [parse_bot_spec(k).text for k in kinds]
    except BotSpecError as e:
        raise SimulationError(f"--bots: {e}") from None
    if len(kinds) == 1:
        return tuple(kinds) * players
    if teams and len(kinds) == teams:
        return tuple(kinds[s % teams] for s in range(players))
    if len(kinds) != players:
        per_team = f", one per team ({teams})" if teams > 1 else ""
        raise SimulationError(
            f"--bots lists {len(kinds)} bots for {players} players: give one bot for "
            f"everyone{per_team} or one per seat ({players})")
    return tuple(kinds)


def seats_for_game(seats: Sequence[str], game: int, rotate: bool = True) -> tuple[str, ...]:
    """The bot kind per seat in game ``game``: the list shifted by ``game mod players``."""
    n = len(seats)
    shift = game % n if rotate else 0
    return tuple(seats[(s + shift) % n] for s in range(n))


def kinds_on_every_side(seats: Sequence[str], teams: int) -> list[str]:
    """The bot kinds that sit on every side (team, or every seat without teams) when more
    than one kind plays: their win rates cannot tell the kinds apart."""
    kinds = list(dict.fromkeys(seats))
    if len(kinds) < 2:
        return []
    sides = teams or len(seats)
    return [k for k in kinds
            if all(any(seats[s] == k for s in range(t, len(seats), sides))
                   for t in range(sides))]


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` (as in ``pegs demo``)."""
    return game_seed * 1000 + seat


def _plain(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def settings_now(data: Any) -> Any:
    """Settings read back from a results file as this release writes them (a line written
    before settings kept the whole power table gains it), or ``data`` when they are not
    settings at all."""
    try:
        return _plain(Rules.from_settings(data).settings())
    except (RulesError, TypeError, ValueError):
        return data


@dataclass(frozen=True)
class Config:
    """What a simulation plays: the same for every game except the seed and the seating."""

    rules: Rules
    seats: tuple[str, ...]
    games: int
    seed: int = 1
    bot_options: BotOptions = field(default_factory=dict)
    max_actions: int = DEFAULT_MAX_ACTIONS
    rotate: bool = True
    duplicate: bool = False

    def __post_init__(self) -> None:
        if self.duplicate and not self.rotate:
            raise SimulationError("--duplicate needs the seat rotation (drop --no-rotate)")
        if len(self.seats) != self.rules.players:
            raise SimulationError(f"{len(self.seats)} seats for {self.rules.players} players")
        if self.games < 1:
            raise SimulationError(f"--games must be 1 or more, not {self.games}")
        if self.max_actions < 1:
            raise SimulationError(f"--max-actions must be 1 or more, not {self.max_actions}")
        unused = sorted(set(self.bot_options) - {parse_bot_spec(s).kind for s in self.seats})
        if unused:
            raise SimulationError(
                f"--bot-option for {unused[0]!r}, which plays no seat "
                f"(seats: {','.join(self.seats)})")

    def game_seats(self, game: int) -> tuple[str, ...]:
        return seats_for_game(self.seats, game, self.rotate)

    def game_seed(self, game: int) -> int:
        """The deal's seed: one per game, or one per ``sides`` games with ``duplicate``."""
        if not self.duplicate:
            return self.seed + game
        return self.seed + game // (self.rules.teams or self.rules.players)

    def task(self, game: int) -> Task:
        return Task(game, self.game_seed(game), self.rules.settings(), self.game_seats(game),
                    self.bot_options, self.max_actions)

    def expected(self, game: int) -> dict[str, Any]:
        """The settings part of game ``game``'s line, as read back from JSON."""
        return {
            "seed": self.game_seed(game),
            "rules": _plain(self.rules.settings()),
            "seats": list(self.game_seats(game)),
            "bot_options": _plain(self.bot_options),
            "max_actions": self.max_actions,
        }


def check_bots(config: Config) -> None:
    """Build one bot of each kind with its options, so a missing bot module or a bad option
    is reported before any game starts."""
    for text in dict.fromkeys(config.seats):
        spec = parse_bot_spec(text)
        kind = spec.kind
        options = {**config.bot_options.get(kind, {}), **spec.options}
        try:
            spec.make(0, **options)
        except ImportError as e:
            raise SimulationError(f"bot {kind!r} is not available here: {e}") from e
        except (TypeError, ValueError) as e:
            shown = ", ".join(f"{k}={v!r}" for k, v in options.items()) or "no options"
            raise SimulationError(f"bot {kind!r} with {shown}: {e}") from e


# --- one game -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    """One game to play, in plain picklable values."""

    game: int
    seed: int
    settings: dict[str, Any]
    seats: tuple[str, ...]
    bot_options: BotOptions
    max_actions: int
    keep_record: bool = False  # add the game record to the line (``--records``)


def play_game(task: Task) -> dict[str, Any]:
    """Play one game and return its results line (as a dict)."""
    try:
        return _play(task)
    except Exception as e:
        detail = traceback.format_exc()
        raise GameError(f"game {task.game} (seed {task.seed}, seats {','.join(task.seats)}) "
                        f"failed: {type(e).__name__}: {e}\n{detail}") from None


def _play(task: Task) -> dict[str, Any]:
    specs = [parse_bot_spec(text) for text in task.seats]
    bots = [spec.make(bot_seed(task.seed, s), **task.bot_options.get(spec.kind, {}))
            for s, spec in enumerate(specs)]
    return play_with(task, bots)


def play_with(task: Task, bots: Sequence[Bot]) -> dict[str, Any]:
    """Play the game of ``task`` with one bot per seat; its results line."""
    rules = Rules.from_settings(task.settings)
    state = GameState.new(rules, task.seed)
    n = rules.players
    moves, hits, discards = [0] * n, [0] * n, [0] * n
    actions: list[Action] = []
    while not state.is_over() and state.ply < task.max_actions:
        seat = state.current_player
        legal = state.legal_actions()
        if not legal:
            break
        action = bots[seat].choose(view(state, seat), legal)
        if action.steps:
            moves[seat] += 1
            hits[seat] += sum(step.hit for step in action.steps)
        if action.discard:
            discards[seat] += 1
        actions.append(action)
        state = state.apply(action)
    outcome = state.outcome()
    line = {
        "game": task.game,
        "seed": task.seed,
        "rules": rules.settings(),
        "seats": list(task.seats),
        "bot_options": task.bot_options,
        "max_actions": task.max_actions,
        "winner_team": outcome.team if outcome else None,
        "winner_seats": list(outcome.seats) if outcome else [],
        "turns": state.ply,
        "finished": outcome is not None,
        "seat_stats": [
            {"bot": kind, "moves": moves[s], "hits": hits[s], "discards": discards[s]}
            for s, kind in enumerate(task.seats)
        ],
    }
    if task.keep_record:  # taken off the line for the records file (pegs.sim.records)
        line["record"] = {**Record(rules, task.seed, actions, list(task.seats)).to_json(state),
                          "game": task.game, "bot_options": task.bot_options,
                          "max_actions": task.max_actions}
    return line


# --- the results file ---------------------------------------------------------------------


def _difference(line: Mapping[str, Any], expected: Mapping[str, Any]) -> str:
    for key, want in expected.items():
        have = line.get(key)
        if have == want:
            continue
        if key == "rules" and isinstance(have, dict):
            for name in sorted(set(have) | set(want)):
                if have.get(name) != want.get(name):
                    return (f"rules setting {name} is {have.get(name)!r} there, "
                            f"{want.get(name)!r} now")
        return f"{key} is {json.dumps(have)} there, {json.dumps(want)} now"
    return "they differ"


def read_results(path: Path, config: Config) -> dict[int, dict[str, Any]]:
    """The games already in the results file (by game number), checked against ``config``.

    A last line cut short (no newline, not JSON, begun as a results line) is removed from
    the file; any other bad
    line, or a line made with other settings, raises :class:`SimulationError`.
    """
    if not path.exists():
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise SimulationError(f"cannot read the results file {path}: {e.strerror or e}") from e
    except UnicodeDecodeError:
        raise SimulationError(f"{path} is not a text file: not a pegs simulate results "
                              "file") from None
    lines = text.split("\n")
    done: dict[int, dict[str, Any]] = {}
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            line = parse_json(raw, f"{path} line {number}")
        except JsonError as e:
            if number == len(lines) and raw.startswith(CUT_LINE_START):  # a cut write
                print(f"pegs: dropping the unfinished last line of {path}", file=sys.stderr)
                text = text[: len(text) - len(raw)]
                with path.open("r+", encoding="utf-8") as f:
                    f.truncate(len(text.encode("utf-8")))
                break
            raise SimulationError(f"{e}; is it a pegs simulate results file?") from e
        if not isinstance(line, dict) or any(k not in line for k in LINE_KEYS) or not (
            isinstance(line["game"], int) and line["game"] >= 0
        ):
            raise SimulationError(f"{path} line {number} is not a pegs simulate result")
        game = line["game"]
        line["rules"] = settings_now(line["rules"])
        expected = config.expected(game)
        if any(line.get(k) != v for k, v in expected.items()):
            raise SimulationError(
                f"{path} holds games of other settings (line {number}, game {game}: "
                f"{_difference(line, expected)}); use another --out, or the settings the "
                "file was made with to resume it")
        done.setdefault(game, line)
    if text and not text.endswith("\n") and done:
        with path.open("a", encoding="utf-8") as f:
            f.write("\n")
    return done


# --- progress -----------------------------------------------------------------------------


def _duration(seconds: float) -> str:
    s = int(seconds + 0.5)
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    if s >= 60:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s}s"


class Progress:
    """Games done / total, games per second and time left, on a stream (stderr).

    On a terminal one line is redrawn with ``\\r`` (at most every ``interval`` seconds,
    and at the end); otherwise a line is printed at each tenth of the work, and after each
    game once ``every`` seconds have passed since the last line (slow games: a line a
    game).  Between :meth:`begin` and :meth:`close` a thread keeps the count alive while
    games run: the terminal line is redrawn every second (its clock goes on), elsewhere a
    line is printed when none was for ``heartbeat`` seconds.  ``quiet`` prints nothing.
    """

    def __init__(self, total: int, done: int = 0, stream: TextIO | None = None,
                 quiet: bool = False, tty: bool | None = None, interval: float = 0.1,
                 every: float = 10.0, heartbeat: float = 60.0) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.total = total
        self.done = done
        self.first = done
        self.quiet = quiet
        self.tty = self.stream.isatty() if tty is None else tty
        self.start = time.monotonic()
        self.tenth = 0
        self.interval = interval
        self.every = every
        self.heartbeat = heartbeat
        self.drawn = -math.inf
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def text(self) -> str:
        played = self.done - self.first
        elapsed = time.monotonic() - self.start
        rate = played / elapsed if elapsed > 0 else 0.0
        width = 24
        filled = width * self.done // self.total if self.total else width
        bar = "#" * filled + "." * (width - filled)
        eta = _duration((self.total - self.done) / rate) if rate > 0 else "?"
        return (f"[{bar}] {self.done}/{self.total} games  {rate:.2f} games/s  "
                f"ETA {eta}  ({_duration(elapsed)} so far)")

    def _draw(self) -> None:
        self.drawn = time.monotonic()
        if self.tty:
            self.stream.write("\r" + self.text() + "\x1b[K")
        else:
            self.stream.write(self.text() + "\n")
        self.stream.flush()

    def begin(self) -> None:
        """Show the count at once and keep it alive until :meth:`close`."""
        if self.quiet or self._ticker is not None:
            return
        with self._lock:
            self._draw()
        ticker = threading.Thread(target=self._tick, name="progress", daemon=True)
        ticker.start()  # kept only once started: a stop may come in between
        self._ticker = ticker

    def _tick(self) -> None:
        period = 1.0 if self.tty else self.heartbeat
        while not self._stop.wait(min(period, 1.0)):
            with self._lock:
                if time.monotonic() - self.drawn >= period and not self._stop.is_set():
                    self._draw()

    def update(self, done: int) -> None:
        self.done = done
        if self.quiet:
            return
        with self._lock:
            now = time.monotonic()
            if self.tty:
                if now - self.drawn >= self.interval or done >= self.total:
                    self._draw()
                return
            tenth = 10 * done // self.total if self.total else 10
            if tenth > self.tenth or now - max(self.drawn, self.start) >= self.every:
                self.tenth = max(tenth, self.tenth)
                self._draw()

    def close(self) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        if not self.quiet and self.tty:
            self.stream.write("\n")
            self.stream.flush()


# --- running ------------------------------------------------------------------------------


@dataclass
class RunResult:
    """What :func:`simulate` did: every result of the requested games (sorted by game),
    how many were already in the file, and whether Ctrl-C stopped it."""

    results: list[dict[str, Any]]
    already: int
    played: int
    interrupted: bool = False


def _in_process(tasks: Sequence[Any], play: Callable[[Any], dict[str, Any]],
                ) -> Generator[dict[str, Any], None, None]:
    for task in tasks:
        yield play(task)


def default_jobs() -> int:
    return os.cpu_count() or 1


BACKENDS = ("local", "ray")


def games_stream(tasks: Sequence[Any], jobs: int | None, backend: str = "local",
                 address: str | None = None,
                 play: Callable[[Any], dict[str, Any]] = play_game,
                 ) -> Generator[dict[str, Any], None, None]:
    """``play(task)`` of each task as they finish: in this process (``jobs`` 1), in
    ``jobs`` worker processes (default one per CPU), or as Ray tasks (``jobs`` at a time;
    default: the cluster's CPUs) on a local Ray or the cluster at ``address``."""
    if backend == "ray":
        return in_ray(tasks, jobs, address, play)
    jobs = min(default_jobs() if jobs is None else jobs, len(tasks))
    return _in_process(tasks, play) if jobs <= 1 else in_workers(tasks, jobs, play)


def record(stream: Generator[dict[str, Any], None, None], out: Path | None,
           wanted: dict[int, dict[str, Any]], progress: Progress | None) -> bool:
    """Append each result of ``stream`` to ``out`` (flushed) and to ``wanted`` by game;
    True when Ctrl-C (or a worker stopped by a signal) ended it early."""
    with contextlib.ExitStack() as stack:
        stack.callback(stream.close)
        try:
            f = stack.enter_context(out.open("a", encoding="utf-8")) if out else None
        except OSError as e:
            raise SimulationError(f"cannot write the results file {out}: "
                                  f"{e.strerror or e}") from None
        try:
            if progress is not None:
                progress.begin()
            for result in stream:
                if f is not None:
                    try:
                        f.write(json.dumps(result) + "\n")
                        f.flush()
                    except OSError as e:  # a full disk
                        raise SimulationError(f"cannot write the results file {out}: "
                                              f"{e.strerror or e}") from None
                wanted[result["game"]] = result
                if progress is not None:
                    progress.update(len(wanted))
        except (KeyboardInterrupt, WorkersStopped):
            return True
        except WorkerCrashed as e:
            raise GameError(str(e)) from None
        except RayUnavailable as e:
            raise SimulationError(str(e)) from None
        finally:
            if progress is not None:
                progress.close()
    return False


def simulate(
    config: Config,
    out: Path | None = None,
    jobs: int | None = None,
    progress: Progress | None = None,
    on_start: Callable[[int, int], None] | None = None,
    backend: str = "local",
    address: str | None = None,
    records: Path | None = None,
) -> RunResult:
    """Play the games of ``config`` not yet in ``out``, appending each result to ``out`` as
    it finishes; ``jobs`` worker processes (default: one per CPU; 1 plays in this process),
    or with ``backend="ray"`` Ray tasks (see :func:`games_stream`); each played game's
    record is appended to ``records`` (:mod:`pegs.sim.records`).

    ``on_start(already, to_play)`` is called once the results file has been read.  Ctrl-C
    (or a worker stopped by a signal) returns the games finished so far with
    ``interrupted`` set.
    """
    if jobs is not None and jobs < 1:
        raise SimulationError(f"--jobs must be 1 or more, not {jobs}")
    if backend not in BACKENDS:
        raise SimulationError(f"--backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if address is not None and backend != "ray":
        raise SimulationError("--address needs --backend ray")
    check_bots(config)
    done = read_results(out, config) if out is not None else {}
    wanted = {g: r for g, r in done.items() if g < config.games}
    tasks = [config.task(g) for g in range(config.games) if g not in wanted]
    if on_start is not None:
        on_start(len(wanted), len(tasks))
    already = len(wanted)
    if progress is not None:
        progress.total, progress.done, progress.first = config.games, already, already
    interrupted = False
    if tasks:
        if records is not None:
            tasks = [replace(t, keep_record=True) for t in tasks]
        stream = keep_records(games_stream(tasks, jobs, backend, address), records)
        interrupted = record(stream, out, wanted, progress)
    results = [wanted[g] for g in sorted(wanted)]
    return RunResult(results, already, len(results) - already, interrupted)
