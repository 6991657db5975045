"""Every ``pegs`` command example of README.md (and of the docs it sends programmers,
researchers and server operators to) runs as written.

The examples are the lines of the README's code blocks that run ``pegs`` (or
``.venv/bin/pegs``).  They run in order in one temporary folder holding a copy of
``tests/scenarios``, with the files they write in ``/tmp`` written to another temporary
folder instead (so ``pegs replay /tmp/game.json`` finds the record an earlier example
saved), and nothing written in the folder they run in (a checkout stays clean), with only
their size bounded: at most two simulated games of at most 60 actions, one worker, ISMCTS
thinking 0.02 s.  Examples that
cannot run in a test are listed in NOT_RUN with the reason and checked with ``--help``
(which still parses every option before it).
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import no_traceback, pegs

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: The README and the docs whose examples are part of it (moved there to keep it short).
DOCS = [README, *(ROOT / "docs" / name for name in (
    "PLAYING.md", "ENGINE.md", "RESEARCH.md", "LEARNING.md", "SERVER.md"))]


def readme_text() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in DOCS)

#: Commands that are not run, with the reason.
NOT_RUN = {
    "serve": "a server runs until it is stopped (tests/server start real ones)",
    "play": "a full-screen game waits for keys (tests/test_tui_tmux.py plays it in tmux)",
}

COMMAND = re.compile(r"\s*(\.venv/bin/)?pegs\s")
BOUNDS = {"--games": "2", "--jobs": "1"}


def examples() -> list[list[str]]:
    """The README's ``pegs`` commands, as argument lists (without ``pegs``)."""
    found: list[list[str]] = []
    fenced = False
    # a line ending in a backslash goes on on the next one
    text = readme_text().replace("\\\n", " ")
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if not (fenced or line.startswith("    ")):
            continue
        if COMMAND.match(line):
            found.append(shlex.split(line, comments=True)[1:])
    return found


def on_a_cluster(args: list[str]) -> bool:
    """An example that joins a Ray cluster by its address (none runs in a test)."""
    return "--address" in args


def bounded(args: list[str]) -> list[str]:
    """``args`` with the size of a simulation bounded (nothing else changes)."""
    out = list(args)
    for i, word in enumerate(out[:-1]):
        if word in BOUNDS:
            out[i + 1] = BOUNDS[word]
        elif word == "--bot-option" and out[i + 1].startswith("ismcts.seconds="):
            out[i + 1] = "ismcts.seconds=0.02"
    if out[0] in ("simulate", "ladder"):
        out += ["--max-actions", "60", "--quiet"]
    return out


def in_folder(args: list[str], folder: Path) -> list[str]:
    """``args`` with the files they name in ``/tmp`` in ``folder`` instead."""
    return [f"{folder}/{arg[len('/tmp/'):]}" if arg.startswith("/tmp/") else arg
            for arg in args]


def test_the_readme_has_examples_of_every_command() -> None:
    commands = {args[0] for args in examples()}
    assert {"demo", "replay", "play", "serve", "simulate", "ladder", "rules", "hint",
            "conformance"} <= commands, commands


def test_every_readme_example_runs_as_written(tmp_path: Path) -> None:
    checkout, scratch = tmp_path / "checkout", tmp_path / "tmp"
    scratch.mkdir()
    shutil.copytree(ROOT / "tests" / "scenarios", checkout / "tests" / "scenarios")
    shutil.copytree(ROOT / "examples", checkout / "examples")
    for args in examples():
        args = in_folder(args, scratch)
        if args[0] in NOT_RUN or on_a_cluster(args):
            proc = pegs(*args, "--help", cwd=checkout)
            assert proc.returncode == 0 and "usage: pegs" in proc.stdout, (args, proc.stderr)
            continue
        proc = pegs(*bounded(args), cwd=checkout)
        no_traceback(proc)
        assert proc.returncode == 0, (args, proc.stdout[-2000:], proc.stderr)
        assert re.search(r"\S", proc.stdout), args
    assert sorted(p.name for p in checkout.iterdir()) == ["examples", "tests"]  # kept clean
    assert {"game.json", "middle.json", "ladder.jsonl"} <= {p.name for p in scratch.iterdir()}


def python_blocks() -> list[str]:
    """The README's ``python`` code blocks."""
    return re.findall(r"^```python\n(.*?)^```", readme_text(),
                      re.MULTILINE | re.DOTALL)


def test_every_readme_python_example_runs_as_written(tmp_path: Path) -> None:
    """In a folder holding a copy of the published ladders (docs/ladders), which an example
    reads."""
    blocks = python_blocks()
    shutil.copytree(ROOT / "docs" / "ladders", tmp_path / "docs" / "ladders")
    assert any("from pegs.rules import" in block for block in blocks)  # the engine's
    for block in blocks:
        proc = subprocess.run([sys.executable, "-c", block], capture_output=True, text=True,
                              timeout=300, cwd=tmp_path)
        assert proc.returncode == 0, (block, proc.stderr[-2000:])
