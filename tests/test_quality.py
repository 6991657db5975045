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
    targets = [t for t in ("src", "tests", "benchmarks") if (ROOT / t).exists()]
    proc = _run("ruff", "check", *targets)
    assert proc.returncode == 0, proc.stdout + proc.stderr
