"""``pegs ladder``: pairs of bots on duplicate deals, resume, ratings, table and plot."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pegs.rules import Rules
from pegs.sim.ladder import Ladder, rate, read_ladder, run_ladder
from pegs.sim.run import Progress, SimulationError

BASIC = Rules.preset("basic", players=4, teams=2)


def test_every_pair_plays_each_deal_from_both_sides() -> None:
    ladder = Ladder(BASIC, ("random", "heuristic", "ismcts:0.5"), 4, seed=7)
    assert ladder.pairs == [("random", "heuristic"), ("random", "ismcts:0.5"),
                            ("heuristic", "ismcts:0.5")]
    assert ladder.total == 12
    assert [ladder.deal(g) for g in range(4)] == [7, 7, 8, 8]
    assert ladder.deal(4) == 7  # the next pair gets the same deals
    assert ladder.seats(0) == ("random", "heuristic", "random", "heuristic")
    assert ladder.seats(1) == ("heuristic", "random", "heuristic", "random")
    assert ladder.seats(11) == ("ismcts:0.5", "heuristic", "ismcts:0.5", "heuristic")


class _StopAfter(Progress):
    def __init__(self, games: int) -> None:
        super().__init__(0, quiet=True)
        self.games = games

    def update(self, done: int) -> None:
        super().update(done)
        if done >= self.games:
            raise KeyboardInterrupt


def test_a_tiny_ladder_rates_heuristic_above_random_and_resumes(tmp_path: Path) -> None:
    ladder = Ladder(BASIC, ("random", "heuristic"), 4, seed=3)
    out = tmp_path / "l.jsonl"
    first = run_ladder(ladder, out, jobs=1, progress=_StopAfter(2))
    assert first.interrupted and len(first.lines) == 2
    second = run_ladder(ladder, out, jobs=1)
    assert second.already == 2 and not second.interrupted
    lines = second.lines
    assert [g["game"] for g in lines] == [0, 1, 2, 3]
    assert all(g["pair"] == ["random", "heuristic"] for g in lines)
    assert len(read_ladder(out, ladder)) == 4
    table, pairs = rate(ladder, lines)
    assert [t.bot for t in table] == ["heuristic", "random"]
    assert table[0].mu > table[1].mu and table[0].sigma < 25 / 3
    assert pairs[0].games == 4 and pairs[0].a_score == 4 - table[0].score


def test_a_file_of_another_ladder_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "l.jsonl"
    run_ladder(Ladder(BASIC, ("random", "heuristic"), 2, seed=3), out, jobs=1)
    with pytest.raises(SimulationError, match="holds another ladder"):
        run_ladder(Ladder(BASIC, ("random", "heuristic"), 2, seed=4), out, jobs=1)


@pytest.mark.parametrize(("rules", "bots", "games", "message"), [
    (Rules.preset("basic", players=6, teams=3), ("random", "heuristic"), 2, "two sides"),
    (BASIC, ("random",), 2, "two or more different bots"),
    (BASIC, ("random", "clever"), 2, "unknown bot 'clever'"),
    (BASIC, ("random", "ismcts:-1"), 2, "positive finite number"),
    (BASIC, ("random", "heuristic"), 3, "even number"),
])
def test_bad_ladders_are_refused_with_a_message(
        rules: Rules, bots: tuple[str, ...], games: int, message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        Ladder(rules, bots, games)


def test_the_command_prints_the_table_and_draws_it(tmp_path: Path) -> None:
    out, plot = tmp_path / "l.jsonl", tmp_path / "l.png"
    done = subprocess.run(
        [sys.executable, "-m", "pegs.cli", "ladder", "--rules", "basic", "--players", "2",
         "--teams", "0", "--bots", "random,heuristic", "--games", "2", "--jobs", "1",
         "--out", str(out), "--plot", str(plot), "--quiet"],
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "rating" in done.stdout and "random vs heuristic" in done.stdout
    assert plot.read_bytes()[:4] == b"\x89PNG"
    assert len(out.read_text().splitlines()) == 2
    bad = subprocess.run([sys.executable, "-m", "pegs.cli", "ladder", "--bots", "random",
                          "--quiet"], capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2 and "two or more different bots" in bad.stderr
    assert "Traceback" not in bad.stderr
    assert json.loads(out.read_text().splitlines()[0])["pair"] == ["random", "heuristic"]
