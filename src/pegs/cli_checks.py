"""Checks of command-line values made before anything runs: seconds, ports, worker counts
and the files a command will write.  Each refusal is one line saying what is wrong."""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path

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
