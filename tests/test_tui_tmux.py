"""Smoke test: ``pegs play`` in a real terminal (tmux on a private socket), driven by keys."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegs.record import load


@pytest.fixture
def tmux() -> Iterator[list[str]]:
    """The tmux command on a socket of this test's own; its server is killed at the end."""
    assert shutil.which("tmux"), "tmux is needed (scripts/setup.sh installs it)"
    base = ["tmux", "-L", f"pegs-test-{os.getpid()}", "-f", os.devnull]
    yield base
    socket = subprocess.run([*base, "display-message", "-p", "#{socket_path}"],
                            capture_output=True, text=True, timeout=10).stdout.strip()
    subprocess.run([*base, "kill-server"], capture_output=True, timeout=10)
    if socket:
        Path(socket).unlink(missing_ok=True)


def screen(tmux: list[str]) -> str:
    return subprocess.run([*tmux, "capture-pane", "-p", "-t", "play"], capture_output=True,
                          text=True, timeout=10).stdout


def wait_for(tmux: list[str], text: str, seconds: float = 30) -> str:
    end = time.monotonic() + seconds
    while True:
        shown = screen(tmux)
        if text in shown:
            return shown
        assert time.monotonic() < end, f"{text!r} never appeared; the screen:\n{shown}"
        time.sleep(0.2)


def keys(tmux: list[str], *names: str) -> None:
    subprocess.run([*tmux, "send-keys", "-t", "play", *names], check=True, timeout=10)


def test_play_in_a_real_terminal(tmux: list[str], tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    command = [
        sys.executable, "-m", "pegs.cli", "play", "--players", "2", "--teams", "0",
        "--seats", "human,easy", "--seed", "13", "--delay", "0", "--save", str(record),
    ]
    # COLUMNS and LINES from the test's own environment would override the pane's size
    shell = (f"env -u COLUMNS -u LINES PEGS_DATA_DIR={shlex.quote(str(tmp_path / 'data'))} "
             f"{shlex.join(command)}; echo PLAY-EXITED; sleep 60")
    subprocess.run([*tmux, "new-session", "-d", "-s", "play", "-x", "160", "-y", "50", shell],
                   check=True, timeout=10)
    subprocess.run([*tmux, "resize-window", "-t", "play", "-x", "160", "-y", "50"],
                   check=True, timeout=10)
    for words in ("Choose a card", "Red R", "Blue B", "Hand of Seat 0 (Red, R)", "Draw pile",
                  "8 back from the out-hole", "New game, saved as it goes"):
        wait_for(tmux, words)
    keys(tmux, "c")
    wait_for(tmux, "press any key to close")
    keys(tmux, "Space")
    wait_for(tmux, "Choose a card")
    keys(tmux, "t")
    for ch in "K: S>3.9":
        keys(tmux, "-l", ch)
    keys(tmux, "Enter")
    wait_for(tmux, "Not legal")
    keys(tmux, "Escape")
    time.sleep(0.5)  # an Escape followed at once by Enter reads as Alt+Enter
    for _ in range(3):
        keys(tmux, "Enter")
        time.sleep(0.3)
    wait_for(tmux, "Seat 0 (Red, R): ")
    keys(tmux, "q")
    shown = wait_for(tmux, "PLAY-EXITED")
    assert "Continue with: pegs play --resume" in shown
    assert "Traceback" not in shown
    saved = load(record)
    assert saved.actions and saved.seed == 13
    assert not (tmp_path / "data").exists()  # --save was used: nothing else written
