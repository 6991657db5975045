"""Reproducible ladders that grow, and game records that replay and verify."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pegs.bots.random_bot import RandomBot
from pegs.record import from_json
from pegs.rules import Action, Rules, View
from pegs.sim import run
from pegs.sim.ladder import Ladder, run_ladder
from pegs.sim.records import read_records
from pegs.sim.verify import verify

BASIC = Rules.preset("basic", players=4, teams=2)


def _ladder_cli(tmp_path: Path, tag: str, hash_seed: str) -> tuple[str, str]:
    out, records = tmp_path / f"{tag}.jsonl", tmp_path / f"{tag}-records.jsonl"
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-m", "pegs.cli", "ladder", "--rules", "bluffing-joker",
         "--players", "4", "--teams", "2", "--bots",
         "heuristic,ismcts:iterations=12,rollout_depth=1", "--games", "2", "--jobs", "2",
         "--max-actions", "120", "--out", str(out), "--records", str(records), "--quiet"],
        capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0, done.stderr
    lines = sorted(out.read_text().splitlines())
    return "\n".join(lines), "\n".join(sorted(records.read_text().splitlines()))


def test_a_ladder_of_iteration_bounded_bots_plays_the_same_games_every_time(
        tmp_path: Path) -> None:
    first = _ladder_cli(tmp_path, "a", "1")
    second = _ladder_cli(tmp_path, "b", "2")  # another process and string hashing
    assert first == second
    records = [json.loads(r) for r in first[1].splitlines()]
    assert len(records) == 2 and all(len(r["actions"]) == 120 for r in records)
    assert any(" as " in a for r in records for a in r["actions"])  # declarations made
    assert any(a == "doubt" or a == "pass" for r in records for a in r["actions"])


def test_a_ladder_grows_by_the_missing_pairs_and_games_only(tmp_path: Path) -> None:
    out = tmp_path / "l.jsonl"
    small = Ladder(BASIC, ("random", "heuristic"), 2, seed=3, max_actions=40)
    assert len(run_ladder(small, out, jobs=1).lines) == 2
    kept = out.read_text()
    bigger = Ladder(BASIC, ("random", "heuristic", "ismcts:iterations=3"), 4, seed=3,
                    max_actions=40)
    grown = run_ladder(bigger, out, jobs=1)
    assert grown.already == 2 and len(grown.lines) == 12
    assert out.read_text().startswith(kept)
    assert len(out.read_text().splitlines()) == 12  # 10 games played, none twice
    assert run_ladder(bigger, out, jobs=1).already == 12
    fewer = Ladder(BASIC, ("heuristic", "ismcts:iterations=3"), 2, seed=3, max_actions=40)
    assert run_ladder(fewer, out, jobs=1).already == 2
    assert len(out.read_text().splitlines()) == 12
    with pytest.raises(run.SimulationError, match="holds another ladder"):
        run_ladder(Ladder(BASIC, ("random", "heuristic"), 2, seed=4, max_actions=40), out)


def test_simulate_records_replay_and_verify(tmp_path: Path) -> None:
    records = tmp_path / "r.jsonl"
    config = run.Config(BASIC, ("random", "heuristic") * 2, 3, seed=5, max_actions=300,
                        bot_options={"random": {"doubt_rate": 0.2}})
    result = run.simulate(config, None, jobs=1, records=records)
    assert "record" not in result.results[0]
    lines = read_records(records)
    assert [line["game"] for line in lines] == [0, 1, 2]
    for line, game in zip(lines, result.results, strict=True):
        record = from_json(line)  # what pegs replay verifies, action by action
        assert len(record.actions) == game["turns"] and record.names == game["seats"]
        assert line["bot_options"] == {"random": {"doubt_rate": 0.2}}
    assert all("differs" not in r for r in verify(records, jobs=1))


def test_verify_catches_a_changed_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    records = tmp_path / "r.jsonl"
    small = Ladder(BASIC, ("random", "heuristic"), 2, seed=1, max_actions=60)
    run_ladder(small, tmp_path / "l.jsonl", jobs=1, records=records)
    assert all("differs" not in r for r in verify(records, jobs=1))

    def last(self: RandomBot, view: View, legal: list[Action]) -> Action:
        return legal[-1]

    monkeypatch.setattr(RandomBot, "choose", last)
    checked = verify(records, games=1, jobs=1)
    assert len(checked) == 1 and "differs" in checked[0]
    assert "(random) chooses" in checked[0]["differs"]


def test_the_verify_command_reports_and_exits(tmp_path: Path) -> None:
    records = tmp_path / "r.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "pegs.cli", "simulate", "--rules", "basic", "--seats",
         "random", "--games", "2", "--jobs", "1", "--max-actions", "50", "--records",
         str(records), "--quiet"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    ok = subprocess.run([sys.executable, "-m", "pegs.cli", "ladder", "--verify",
                         str(records), "--games", "1", "--jobs", "1"],
                        capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stderr
    assert "all 50 actions the same" in ok.stdout
    assert "1 of 1 games played again the same" in ok.stdout
    line = json.loads(records.read_text().splitlines()[0])
    line["actions"][10] = line["actions"][11]  # a tampered record does not replay
    records.write_text(json.dumps(line) + "\n")
    bad = subprocess.run([sys.executable, "-m", "pegs.cli", "ladder", "--verify",
                          str(records)], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 1 and "differs: cannot be played again" in bad.stdout
