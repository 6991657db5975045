"""The Ray backend of ``pegs simulate`` on a local Ray of 2 CPUs: the same games as the
local backend, interruption and resume, and the command joining a running Ray."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray

from pegs.rules import Rules
from pegs.sim.run import Config, Progress, SimulationError, simulate


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


CONFIG = Config(Rules.preset("basic"), ("heuristic", "random", "heuristic", "random"), 6,
                seed=11, duplicate=True)


def _lines(path: Path) -> list[dict[str, Any]]:
    return sorted((json.loads(line) for line in path.read_text().splitlines()),
                  key=lambda line: line["game"])


def test_ray_writes_exactly_the_games_of_the_local_backend(
        ray_address: str, tmp_path: Path) -> None:
    local, on_ray = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    simulate(CONFIG, local, jobs=1)
    result = simulate(CONFIG, on_ray, jobs=2, backend="ray")
    assert not result.interrupted and result.played == CONFIG.games
    assert _lines(on_ray) == _lines(local)


class _StopAfter(Progress):
    """A progress display that presses Ctrl-C once ``games`` games are done."""

    def __init__(self, games: int) -> None:
        super().__init__(0, quiet=True)
        self.games = games

    def update(self, done: int) -> None:
        super().update(done)
        if done >= self.games:
            raise KeyboardInterrupt


def test_an_interrupted_ray_run_keeps_its_games_and_resumes(
        ray_address: str, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    first = simulate(CONFIG, out, jobs=2, progress=_StopAfter(2), backend="ray")
    assert first.interrupted and len(_lines(out)) == 2
    second = simulate(CONFIG, out, jobs=2, backend="ray")
    assert second.already == 2 and not second.interrupted
    assert len(second.results) == CONFIG.games
    local = tmp_path / "local.jsonl"
    simulate(CONFIG, local, jobs=1)
    assert _lines(out) == _lines(local)


def test_the_command_joins_a_running_ray_and_stops_on_sigterm(
        ray_address: str, tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "pegs.cli", "simulate", "--rules", "basic", "--seats",
         "random", "--games", "4000", "--backend", "ray", "--address", ray_address,
         "--jobs", "2", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None and (
                not out.exists() or out.read_text().count("\n") < 2):
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGTERM)
        stopped = time.monotonic()
        _, stderr = proc.communicate(timeout=60)
        took = time.monotonic() - stopped
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, stderr  # as the local backend and PLAYING.md say
    assert "interrupted after" in stderr and "Traceback" not in stderr
    assert took < 20
    assert 2 <= len(_lines(out)) < 4000


def test_an_address_without_the_ray_backend_is_refused() -> None:
    with pytest.raises(SimulationError, match="--address needs --backend ray"):
        simulate(CONFIG, None, jobs=1, address="127.0.0.1:6379")


def test_a_ladder_on_ray_plays_the_games_of_a_local_ladder(
        ray_address: str, tmp_path: Path) -> None:
    from pegs.sim.ladder import Ladder, run_ladder

    ladder = Ladder(Rules.preset("basic", players=2, teams=0), ("random", "heuristic"), 2)
    on_ray = run_ladder(ladder, tmp_path / "ray.jsonl", jobs=2, backend="ray")
    local = run_ladder(ladder, tmp_path / "local.jsonl", jobs=1)
    assert on_ray.lines == local.lines and len(local.lines) == 2


def test_an_address_where_no_cluster_answers_is_reported_at_once() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pegs.cli", "simulate", "--rules", "basic", "--games", "2",
         "--backend", "ray", "--address", "127.0.0.1:1", "--quiet"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "no Ray cluster answers at 127.0.0.1:1" in done.stderr
    assert "Traceback" not in done.stderr
