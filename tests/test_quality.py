"""Static checks: the engine type-checks under ``mypy --strict`` and the code is ruff-clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_mypy_strict_on_the_rules_engine() -> None:
    proc = _run("mypy", "--strict", "src/pegs/rules")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_check() -> None:
    targets = [t for t in ("src", "tests", "benchmarks", "scripts") if (ROOT / t).exists()]
    proc = _run("ruff", "check", *targets)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _compiled_sources() -> list[Path]:
    """The engine modules that setup.py compiles with mypyc."""
    text = (ROOT / "setup.py").read_text()
    return [ROOT / line.strip().strip('",') for line in text.splitlines()
            if line.strip().startswith('"src/pegs/')]


def test_the_engine_runs_compiled_and_up_to_date() -> None:
    """The tests exercise what the benchmarks measure: the compiled modules, built from the
    sources as they are now (after editing one, rerun the setup command)."""
    import importlib
    import os

    sources = _compiled_sources()
    assert len(sources) >= 4 and all(p.exists() for p in sources)
    if os.environ.get("PEGS_PURE", "") not in ("", "0"):
        return
    for source in sources:
        module = importlib.import_module(
            ".".join(source.relative_to(ROOT / "src").with_suffix("").parts))
        built = Path(module.__file__ or "")
        assert built.suffix == ".so", f"{source.name} is not compiled: run bash scripts/setup.sh"
        assert built.stat().st_mtime >= source.stat().st_mtime, (
            f"{source.name} changed after it was compiled: run bash scripts/setup.sh")
