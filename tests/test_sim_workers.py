"""Stopping a simulation with many worker processes: a SIGTERM to the whole process group
(what ``timeout`` sends) must end ``pegs simulate`` within seconds, even when some workers
are idle for lack of games (the case in which a shared-queue pool waited forever)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pegs.sim.workers import WorkerCrashed, in_workers


def _alive(pgid: int) -> list[int]:
    """Processes of group ``pgid`` that still run (zombies waiting for their reaper are
    already stopped)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(int(entry.name))
    return alive


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table in /proc")
def test_a_group_sigterm_stops_twelve_workers_at_once_with_some_idle(tmp_path: Path) -> None:
    """16 games for 12 workers: once 6 are done, the queue is empty and two workers idle
    (the old pool hung in about half of these runs).  A game takes about a second of CPU,
    so the others are still playing when the signal comes."""
    out = tmp_path / "r.jsonl"
    jobs, games = 12, 16
    proc = subprocess.Popen(
        [sys.executable, "-m", "pegs.cli", "simulate", "--rules", "basic", "--seats",
         "ismcts,heuristic,ismcts,heuristic", "--bot-option", "ismcts.iterations=20",
         "--games", str(games), "--jobs", str(jobs), "--out", str(out), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None and (
                not out.exists() or out.read_text().count("\n") < 6):
            time.sleep(0.01)
        assert proc.poll() is None, "the run ended before it could be stopped"
        os.killpg(proc.pid, signal.SIGTERM)
        stopped = time.monotonic()
        _, stderr = proc.communicate(timeout=30)
        took = time.monotonic() - stopped
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert took < 10, f"exited {took:.1f} s after SIGTERM"
    assert "Traceback" not in stderr, stderr
    done = [json.loads(line) for line in out.read_text().splitlines()]
    # 143 after its own SIGTERM; 130 when the workers' deaths were seen before it
    assert 6 <= len(done) <= games and proc.returncode in (0, 130, 143)
    deadline = time.monotonic() + 10
    while _alive(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _alive(proc.pid) == []


def _exit_at_game_one(task: int) -> dict[str, object]:
    if task == 1:
        os._exit(3)
    return {"game": task}


def test_a_worker_that_dies_without_a_signal_is_reported() -> None:
    with pytest.raises(WorkerCrashed, match="exit code 3"):
        list(in_workers([0, 1, 2], 2, _exit_at_game_one))
