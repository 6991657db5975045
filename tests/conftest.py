"""Before any test: the compiled engine modules must be built from the sources as they
are now, or the tests would run the old code (mypyc's modules load before their sources).
A stale or missing one stops the run at once, naming it and the command that rebuilds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REBUILD = ".venv/bin/python -m pip install --no-deps -e ."


def stale_modules(root: Path = ROOT) -> list[str]:
    """The compiled modules (setup.py's list) missing or older than their sources."""
    text = (root / "setup.py").read_text()
    stale = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith('"src/pegs/'):
            continue
        source = root / line.strip('",')
        built = sorted(source.parent.glob(source.stem + ".cpython-*.so"))
        if not built or built[-1].stat().st_mtime < source.stat().st_mtime:
            stale.append(str(source.relative_to(root)))
    return stale


def pytest_sessionstart(session: pytest.Session) -> None:
    if os.environ.get("PEGS_PURE", "") not in ("", "0"):
        return  # the sources interpreted, on purpose
    stale = stale_modules()
    if stale:
        more = f" and {len(stale) - 3} more" if len(stale) > 3 else ""
        pytest.exit(f"compiled engine modules older than their sources: "
                    f"{', '.join(stale[:3])}{more}; rebuild them with `{REBUILD}` "
                    "(or run the sources interpreted with PEGS_PURE=1)", returncode=2)
