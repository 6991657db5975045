"""A newcomer's first run: ``pegs`` alone prints the help, and ``scripts/setup.sh`` tells
what it is doing (steps and rough times on a terminal, plain lines for CI).

The set-up script runs for real on a copy of itself, with a fake Python whose pip writes a
few lines of log and sleeps instead of installing, and fake Debian tools: its structure,
its two kinds of output and a second run are tested, not the downloads.
"""

from __future__ import annotations

import os
import pty
import re
import select
import shlex
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

from helpers import pegs

ROOT = Path(__file__).resolve().parents[1]

#: A stand-in for ``python3 -m venv`` and ``.venv/bin/python -m pip install``: records its
#: arguments in $FAKE_CALLS, writes pip's kind of log lines, sleeps a little.
FAKE_PYTHON = r"""#!/usr/bin/env bash
set -eu
echo "$*" >> "$FAKE_CALLS"
if [ "$1 $2" = "-m venv" ]; then
  mkdir -p "$3/bin" && cp "$0" "$3/bin/python" && exit 0
fi
log=""; prev=""
for a in "$@"; do [ "$prev" = "--log" ] && log=$a; prev=$a; done
case "$*" in *"-e .[dev]"*)
  echo "2025-01-01T00:00:00 Collecting fastapi>=0.110" >> "$log"; sleep 3
  echo "2025-01-01T00:00:03 Building editable for pegs (pyproject.toml)" >> "$log"; sleep 3
  [ -z "${FAKE_PIP_FAILS:-}" ] || { echo "ERROR: no network" >&2; exit 1; } ;;
esac
exit 0
"""

FAKE_TOOL = "#!/bin/sh\necho \"$(basename \"$0\") $*\" >> \"$FAKE_CALLS\"\n"


def checkout(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A folder with a copy of the set-up script, and the environment of fake tools."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "setup.sh", tmp_path / "scripts" / "setup.sh")
    fakes = tmp_path / "fakes"
    fakes.mkdir()
    for name, text in [("python3", FAKE_PYTHON), *((tool, FAKE_TOOL) for tool in (
            "chromium", "tmux", "redis-server", "npm", "apt-get", "sudo"))]:
        (fakes / name).write_text(text)
        (fakes / name).chmod(stat.S_IRWXU)
    env = {**os.environ, "PATH": f"{fakes}:{os.environ['PATH']}",
           "PYTHON": str(fakes / "python3"), "FAKE_CALLS": str(tmp_path / "calls")}
    env.pop("CI", None)
    return tmp_path, env


def run_setup(folder: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "scripts/setup.sh"], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=120)


def run_on_a_terminal(folder: Path, env: dict[str, str]) -> tuple[int, str]:
    """The script's exit code and output with a pseudo-terminal as its output."""
    main, child = pty.openpty()
    process = subprocess.Popen(["bash", "scripts/setup.sh"], cwd=folder, env=env,
                               stdin=subprocess.DEVNULL, stdout=child, stderr=child)
    os.close(child)
    out = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 1)
        if ready:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the terminal closed with the script
                break
            if not chunk:
                break
            out += chunk
        elif process.poll() is not None:
            break
    os.close(main)
    return process.wait(30), out.decode(errors="replace")


def test_pegs_alone_prints_the_help_and_succeeds() -> None:
    proc = pegs()
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage: pegs") and "serve" in proc.stdout
    assert "required" not in proc.stdout + proc.stderr


def test_setup_without_a_terminal_prints_plain_steps(tmp_path: Path) -> None:
    folder, env = checkout(tmp_path)
    env["CI"] = "true"
    proc = run_setup(folder, env)
    assert proc.returncode == 0, proc.stderr
    steps = [line for line in proc.stdout.splitlines() if line.startswith("Step ")]
    assert [s.split(":")[0] for s in steps] == [f"Step {n} of 5" for n in (1, 2, 3, 4, 5)]
    lines = proc.stdout.splitlines()
    assert "minutes" in lines[lines.index(steps[3]) + 1]  # the long step says how long
    assert "\r" not in proc.stdout and "\033" not in proc.stdout  # a plain log
    assert "so far" not in proc.stdout
    assert proc.stdout.splitlines()[-2].startswith("Ready in ")
    calls = (folder / "calls").read_text()
    assert "-m venv .venv" in calls and "--quiet" in calls and "-e .[dev]" in calls
    assert "npm ci --prefix tests/browser" in calls  # axe-core for the accessibility checks
    # run again: safe, the environment is kept
    proc = run_setup(folder, env)
    assert proc.returncode == 0, proc.stderr
    assert "already there" in proc.stdout
    assert (folder / "calls").read_text().count("-m venv") == 1


def test_setup_on_a_terminal_shows_the_time_spent_and_what_pip_does(tmp_path: Path) -> None:
    folder, env = checkout(tmp_path)
    code, out = run_on_a_terminal(folder, env)
    assert code == 0, out
    assert "Step 4 of 5: installing about 90 Python packages" in out
    assert "\r" in out and "so far" in out  # a ticker redrawn on one line
    assert "so far: Collecting fastapi" in out or "so far: Building editable" in out, out
    assert "Ready in " in out


def test_setup_says_where_pips_log_is_when_pip_fails(tmp_path: Path) -> None:
    folder, env = checkout(tmp_path)
    env["CI"] = "true"
    env["FAKE_PIP_FAILS"] = "1"
    proc = run_setup(folder, env)
    assert proc.returncode == 1
    assert "ERROR: no network" in proc.stderr
    assert "pip failed; its full log is in .venv/pip.log" in proc.stderr
    assert "Ready" not in proc.stdout


def test_the_quick_test_runs_the_readme_names_collect_tests() -> None:
    commands = [line.split("#")[0].split("-m pytest", 1)[1]
                for line in (ROOT / "README.md").read_text().splitlines()
                if line.startswith("    .venv/bin/python -m pytest ")]
    quick = [args for args in map(shlex.split, commands)
             if any(a.startswith("tests") for a in args)]  # besides the whole suite
    assert len(quick) >= 2, commands
    for args in quick:
        proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only",
                               "-p", "no:cacheprovider", *args],
                              cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, (args, proc.stdout[-2000:], proc.stderr[-2000:])
        found = re.search(r"(\d+)(/\d+)? tests? collected", proc.stdout)
        assert found and int(found[1]) > 0, proc.stdout[-2000:]
        if "-m" in args:  # the marker leaves out the tests that start PostgreSQL or Redis
            assert "deselected" in proc.stdout and "[postgresql]" not in proc.stdout
