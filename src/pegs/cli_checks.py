"""Checks of command-line values made before anything runs: seconds, ports, worker counts
and the files a command will write.  Each refusal is one line saying what is wrong."""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path

from .jsonfile import JsonError, parse_json

#: The longest search or pause any option may ask for (an hour).
MAX_SECONDS = 3600.0
#: Worker processes per CPU above which ``--jobs`` is refused (more only share the CPUs).
JOBS_PER_CPU = 8


class OptionError(ValueError):
    """A command-line value that cannot be used, saying why."""


def check_seconds(option: str, value: float, *, zero: bool = False,
                  most: float = MAX_SECONDS) -> None:
    """``value`` is a number of seconds above 0 (or 0 when ``zero``) and at most ``most``."""
    low_ok = value >= 0 if zero else value > 0
    if not (math.isfinite(value) and low_ok and value <= most):
        low = "0 or more seconds" if zero else "a number of seconds above 0"
        raise OptionError(f"{option} must be {low}, not {value:g} (at most {most:g})")


def check_port(value: int) -> None:
    if not 1 <= value <= 65535:
        raise OptionError(f"--port must be a port number from 1 to 65535, not {value}")


def check_jobs(jobs: int | None, cpus: int | None = None) -> str:
    """Refuse ``--jobs`` below 1 or far above this machine's CPUs; a note when it is above
    them (worker processes beyond the CPUs only share them), else ''."""
    if jobs is None:
        return ""
    cpus = cpus or os.cpu_count() or 1
    if jobs < 1:
        raise OptionError(f"--jobs must be 1 or more, not {jobs}")
    if jobs > JOBS_PER_CPU * cpus:
        raise OptionError(f"--jobs {jobs} is far more than the {cpus} CPUs here: at most "
                          f"{JOBS_PER_CPU * cpus} (one per CPU is fastest)")
    if jobs > cpus:
        return (f"--jobs {jobs} is more than the {cpus} CPUs here: the extra workers only "
                "share them")
    return ""


def check_input(option: str, name: str | None) -> None:
    """Refuse an empty file name given to ``option`` (which reads the file): Python would
    read the current folder, or take it for no file at all."""
    if name is not None and not name.strip():
        raise OptionError(f"{option} needs a file name, not an empty one")


def check_output(option: str, name: str | None) -> Path | None:
    """The file ``option`` names (None when not given), refused when it cannot be written:
    an empty name, a folder, a missing folder, or a folder this process cannot write in
    (tried with a nameless temporary file, so nothing is left behind)."""
    if name is None:
        return None
    if not name.strip():
        raise OptionError(f"{option} needs a file name, not an empty one")
    path = Path(name)
    if path.is_dir():
        raise OptionError(f"{option} {name} is a folder: name a file (in it, or elsewhere)")
    folder = path.resolve().parent
    if not folder.is_dir():
        raise OptionError(f"{option} {name}: no such folder {path.parent}")
    if path.exists() and not os.access(path, os.W_OK):
        raise OptionError(f"{option} {name}: the file cannot be written (no permission)")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        raise OptionError(f"{option} {name}: cannot write in the folder {path.parent} "
                          f"({e.strerror or e})") from None
    return path


def check_records(option: str, name: str | None) -> Path | None:
    """:func:`check_output` for a records file (``--records``), which is appended to: an
    existing file must be one, its first line a game record."""
    path = check_output(option, name)
    if path is None or not path.is_file() or path.stat().st_size == 0:
        return path
    with path.open("rb") as f:
        first = f.readline()
    try:
        line = parse_json(first.decode("utf-8-sig"), str(path))
    except (UnicodeDecodeError, JsonError):
        line = None
    if not (isinstance(line, dict) and line.get("format") == "pegs-record"):
        raise OptionError(f"{option} {name} is not a records file (its first line is not a "
                          "game record): name a new file, or one that --records wrote")
    return path


def check_distinct(*files: tuple[str, Path | None]) -> None:
    """Refuse two options (``(option, path)`` pairs) naming the same file."""
    given = [(option, path) for option, path in files if path is not None]
    for i, (option, path) in enumerate(given):
        for other, other_path in given[:i]:
            same = (os.path.samefile(path, other_path) if path.exists()
                    and other_path.exists() else path.resolve() == other_path.resolve())
            if same:
                raise OptionError(f"{other} and {option} name the same file {path}: give "
                                  "each its own")


def check_alone(option: str, given: dict[str, bool], why: str) -> None:
    """Refuse the options of ``given`` that are True (given) with ``option``, which does
    not use them (``why`` says what it does instead)."""
    names = [name for name, on in given.items() if on]
    if names:
        raise OptionError(f"{', '.join(names)} cannot go with {option}: {why}")


def balance_notes(games: int, players: int, teams: int, mixed: bool, rotate: bool,
                  duplicate: bool) -> list[str]:
    """Notes on a simulation whose games do not fill the seat rotation (with different
    bots) or, with ``--duplicate``, leave the last deal unplayed by some side."""
    notes = []
    if games % players and mixed and rotate:
        notes.append(f"{games} games is not a multiple of {players} players, so the seat "
                     "rotation is not exactly balanced")
    sides = teams or players
    if duplicate and games % sides:
        notes.append(f"{games} games is not a multiple of the {sides} sides, so the last "
                     f"deal is played by {games % sides} of them and its luck does not "
                     "cancel out (--duplicate)")
    return notes
