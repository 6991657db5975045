"""``pegs simulate``: worker processes, JSONL results, resume, statistics and plots.

Only random bots play here, so these tests do not depend on the stronger bots.
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from pegs.notation import team_name
from pegs.rules import RANKS, Rules
from pegs.sim import run, stats
from pegs.sim.run import Config, SimulationError, read_results, seats_for_game

ROOT = Path(__file__).resolve().parents[1]
BASIC = ("--rules", "basic", "--players", "4", "--seats", "random")


def pegs(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pegs.cli", *args],
        capture_output=True, text=True, timeout=300, cwd=cwd,
    )


def lines(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def by_game(path: Path) -> dict[int, dict[str, Any]]:
    return {line["game"]: line for line in lines(path)}


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stdout


@pytest.fixture(scope="module")
def six(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """Six games of the basic game, 4 random bots, two workers."""
    out = tmp_path_factory.mktemp("sim") / "results.jsonl"
    proc = pegs("simulate", *BASIC, "--games", "6", "--jobs", "2", "--seed", "11",
                "--out", str(out))
    return out, proc


# --- the command ----------------------------------------------------------------------------


def test_simulate_writes_one_json_line_per_game(
    six: tuple[Path, subprocess.CompletedProcess[str]]
) -> None:
    out, proc = six
    assert proc.returncode == 0, proc.stderr
    no_traceback(proc)
    games = lines(out)
    assert sorted(g["game"] for g in games) == list(range(6))
    settings = json.loads(json.dumps(Rules.preset("basic", players=4).settings()))
    for g in games:
        assert set(run.LINE_KEYS) <= set(g)
        assert g["seed"] == 11 + g["game"]
        assert g["rules"] == settings
        assert g["seats"] == ["random"] * 4
        assert g["finished"] is True and g["turns"] > 0
        assert g["winner_team"] in (0, 1)
        assert g["winner_seats"] == [s for s in range(4) if s % 2 == g["winner_team"]]
        assert [s["bot"] for s in g["seat_stats"]] == g["seats"]
        for s in g["seat_stats"]:
            assert s["moves"] > 0 and s["hits"] >= 0 and s["discards"] >= 0
        assert sum(s["moves"] + s["discards"] for s in g["seat_stats"]) <= g["turns"]
    assert "win rate" in proc.stdout and "95% CI" in proc.stdout
    assert "first-seat advantage" in proc.stdout
    assert re.search(r"game length \(actions\): mean [\d.]+, sd [\d.]+", proc.stdout)
    assert "6/6 games" in proc.stderr  # progress, one line per tenth when not a terminal


def test_results_do_not_depend_on_the_number_of_workers(
    six: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    out, _ = six
    alone = tmp_path / "one.jsonl"
    proc = pegs("simulate", *BASIC, "--games", "6", "--jobs", "1", "--seed", "11",
                "--out", str(alone), "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("games/s") == 0  # --quiet: no progress
    assert by_game(alone) == by_game(out)
    # and a single game played in this process gives the same line again
    config = Config(Rules.preset("basic", players=4), ("random",) * 4, 6, seed=11)
    assert run.play_game(config.task(3)) == by_game(out)[3]


def test_a_game_of_random_bots_is_the_demo_game_with_that_seed(
    six: tuple[Path, subprocess.CompletedProcess[str]]
) -> None:
    out, _ = six
    game = by_game(out)[2]
    demo = pegs("demo", "--rules", "basic", "--players", "4", "--seed", str(game["seed"]),
                "--quiet")
    assert f"wins after {game['turns']} turns" in demo.stdout
    assert f"{team_name(game['winner_team'])} wins" in demo.stdout


def test_resume_plays_only_the_missing_games(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    first = pegs("simulate", *BASIC, "--games", "4", "--jobs", "1", "--out", str(out), "--quiet")
    assert first.returncode == 0, first.stderr
    before = out.read_text()
    assert len(before.splitlines()) == 4
    second = pegs("simulate", *BASIC, "--games", "6", "--jobs", "2", "--out", str(out),
                  "--quiet")
    assert second.returncode == 0, second.stderr
    assert "4 of 6 games already in" in second.stderr and "playing 2" in second.stderr
    after = out.read_text()
    assert after.startswith(before)
    games = [g["game"] for g in lines(out)]
    assert len(games) == 6 and sorted(games) == list(range(6))
    assert re.search(r"^6 games", second.stdout, re.M)
    third = pegs("simulate", *BASIC, "--games", "6", "--out", str(out), "--quiet")
    assert "playing 0" in third.stderr and out.read_text() == after


def test_results_written_before_settings_kept_the_whole_power_table_resume(
        tmp_path: Path) -> None:
    """A results file of the release before kept no ``powers`` (a preset game) or only the
    house-changed ones: it resumes as the same games, and other powers are refused."""
    house = tmp_path / "house.toml"
    house.write_text('title = "Back fours"\nbase = "basic"\n[cards]\n"4" = ["-4"]\n')
    for rules, args, changed in ((Rules.preset("basic"), BASIC, {}),
                                 (Rules.preset("basic", powers={"4": ["-4"]}),
                                  ("--house", str(house), "--seats", "random"), {"4": ["-4"]})):
        out = tmp_path / f"r{len(changed)}.jsonl"
        done = pegs("simulate", *args, "--games", "3", "--jobs", "1", "--out", str(out),
                    "--quiet")
        assert done.returncode == 0, done.stderr
        older = []
        for line in lines(out):
            assert list(line["rules"]["powers"]) == list(RANKS)  # written whole now
            settings = {k: v for k, v in line["rules"].items() if k != "powers"}
            older.append({**line, "rules": settings | ({"powers": changed} if changed else {})})
        out.write_text("".join(json.dumps(line) + "\n" for line in older))
        config = Config(rules, ("random",) * 4, 3)
        assert sorted(read_results(out, config)) == [0, 1, 2]
        other = Config(Rules.preset("basic", powers={"4": ["-3"]}), ("random",) * 4, 3)
        with pytest.raises(SimulationError, match="rules setting powers"):
            read_results(out, other)


def test_duplicate_plays_each_deal_once_per_side(tmp_path: Path) -> None:
    out = tmp_path / "d.jsonl"
    proc = pegs("simulate", *BASIC, "--seats", "heuristic,random,heuristic,random",
                "--games", "4", "--seed", "7", "--duplicate", "--out", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    games = by_game(out)
    assert [games[g]["seed"] for g in range(4)] == [7, 7, 8, 8]
    for first in (0, 2):  # the same cards, the heuristic bots on the other team
        teams = [games[g]["seats"].index("heuristic") % 2 for g in (first, first + 1)]
        assert sorted(teams) == [0, 1]
    assert re.search(r"^4 games", proc.stdout, re.M)
    three = Config(Rules.preset("basic", players=6, teams=3), ("random",) * 6, 6,
                   seed=1, duplicate=True)
    assert [three.task(g).seed for g in range(6)] == [1, 1, 1, 2, 2, 2]
    no = pegs("simulate", *BASIC, "--duplicate", "--no-rotate", "--games", "2", "--quiet")
    assert no.returncode == 2 and "--duplicate needs the seat rotation" in no.stderr


def test_mismatched_settings_in_the_results_file_are_an_error(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    assert pegs("simulate", *BASIC, "--games", "2", "--jobs", "1", "--out", str(out),
                "--quiet").returncode == 0
    kept = out.read_text()
    for extra, word in (
        (["--set", "holes_per_side=20"], "holes_per_side"),
        (["--bot-option", "random.doubt_rate=0.5"], "bot_options"),
    ):
        proc = pegs("simulate", *BASIC, "--games", "3", "--out", str(out), "--quiet", *extra)
        assert proc.returncode == 2, (extra, proc.stderr)
        no_traceback(proc)
        assert "other settings" in proc.stderr and word in proc.stderr, proc.stderr
        assert out.read_text() == kept
    basic = Rules.preset("basic", players=4)
    same = Config(basic, ("random",) * 4, 3)
    assert sorted(read_results(out, same)) == [0, 1]
    for config, word in (
        (Config(basic, ("random",) * 4, 3, seed=5), "seed"),
        (Config(basic, ("random",) * 4, 3, max_actions=100), "max_actions"),
        (Config(Rules.preset("basic", players=4, teams=0), ("random",) * 4, 3), "teams"),
    ):
        with pytest.raises(SimulationError, match=word):
            read_results(out, config)
    assert out.read_text() == kept


def test_a_file_that_is_not_results_is_an_error(tmp_path: Path) -> None:
    out = tmp_path / "notes.jsonl"
    out.write_text('{"hello": 1}\n')
    proc = pegs("simulate", *BASIC, "--games", "2", "--out", str(out), "--quiet")
    assert proc.returncode == 2 and "not a pegs simulate result" in proc.stderr
    out.write_text("hello\n{}\n")
    proc = pegs("simulate", *BASIC, "--games", "2", "--out", str(out), "--quiet")
    assert proc.returncode == 2 and "line 1 is not JSON" in proc.stderr
    no_traceback(proc)


def test_a_last_line_cut_short_is_dropped(tmp_path: Path) -> None:
    config = Config(Rules.preset("pegoo", players=2), ("random", "random"), 3)
    out = tmp_path / "r.jsonl"
    line = json.dumps(run.play_game(config.task(0)))
    out.write_text(line + "\n" + line[: len(line) // 2])
    assert list(read_results(out, config)) == [0]
    assert out.read_text() == line + "\n"
    result = run.simulate(config, out, jobs=1)
    assert [r["game"] for r in result.results] == [0, 1, 2]
    assert (result.already, result.played) == (1, 2)
    assert len(lines(out)) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seats", "random,random,random"], "3 bots for 4 players"),
        (["--seats", "random,robot,random,random"], "unknown bot 'robot'"),
        (["--bot-option", "random.no_such_option=1"], "random has no option 'no_such_option'"),
        (["--bot-option", "heuristic.hole=1"], "plays no seat"),
        (["--bot-option", "seconds=1"], "BOT.NAME=VALUE"),
        (["--games", "0"], "--games must be 1 or more"),
        (["--jobs", "0"], "--jobs must be 1 or more"),
        (["--teams", "3"], "teams=3 is impossible"),
    ],
)
def test_bad_options_are_reported_without_a_traceback(args: list[str], message: str) -> None:
    proc = pegs("simulate", "--rules", "basic", "--players", "4", "--games", "2", "--quiet",
                *args)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    no_traceback(proc)


def test_bot_options_reach_the_bots_and_the_results(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    proc = pegs("simulate", "--rules", "bluffing-joker", "--players", "2", "--games", "2",
                "--jobs", "1", "--bot-option", "random.doubt_rate=0", "--out", str(out),
                "--max-actions", "300", "--quiet")
    assert proc.returncode == 0, proc.stderr
    for g in lines(out):
        assert g["bot_options"] == {"random": {"doubt_rate": 0}}
    # with doubt_rate 0 nobody ever doubts: the same game replays without any doubt
    config = Config(Rules.preset("bluffing-joker", players=2), ("random",) * 2, 1,
                    bot_options={"random": {"doubt_rate": 1}}, max_actions=300)
    assert run.play_game(config.task(0)) != by_game(out)[0]


def test_games_stopped_at_the_action_cap_are_unfinished(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    proc = pegs("simulate", *BASIC, "--games", "2", "--jobs", "1", "--max-actions", "40",
                "--out", str(out), "--quiet")
    assert proc.returncode == 0, proc.stderr
    for g in lines(out):
        assert g["finished"] is False and g["turns"] == 40
        assert g["winner_team"] is None and g["winner_seats"] == []
    assert "2 stopped at the action cap" in proc.stdout
    assert "no finished games" in proc.stdout


def test_plot_writes_a_png(six: tuple[Path, subprocess.CompletedProcess[str]],
                           tmp_path: Path) -> None:
    out, _ = six
    picture = tmp_path / "sim.png"
    proc = pegs("simulate", *BASIC, "--games", "6", "--seed", "11", "--out", str(out),
                "--plot", str(picture), "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert "playing 0" in proc.stderr
    data = picture.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 10_000
    bad = pegs("simulate", *BASIC, "--games", "6", "--seed", "11", "--out", str(out),
               "--plot", str(tmp_path / "no" / "such" / "x.png"), "--quiet")
    assert bad.returncode == 2 and "no such folder" in bad.stderr


def _ctrl_c_at_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("stop", ["ctrl-c", "kill"])
def test_stopping_a_run_stops_the_workers_and_keeps_finished_games(
        tmp_path: Path, stop: str) -> None:
    """Ctrl-C reaches the whole process group; ``kill`` (SIGTERM) only the parent.  The
    run starts with Ctrl-C at its default, as from a terminal (a shell starting the tests
    in the background hands them Ctrl-C ignored, and Python then keeps it ignored).  The
    run is far longer than the wait for its first games (a minute at 60 games a second), so
    it cannot end on its own before the signal however slowly this test is scheduled."""
    out = tmp_path / "r.jsonl"
    games = 4000
    proc = subprocess.Popen(
        [sys.executable, "-m", "pegs.cli", "simulate", *BASIC, "--games", str(games), "--jobs",
         "2", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=_ctrl_c_at_default,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
            not out.exists() or out.read_text().count("\n") < 2
        ):
            time.sleep(0.05)
        if stop == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            os.kill(proc.pid, signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == (130 if stop == "ctrl-c" else 143), stderr  # 128 + the signal
    assert "Traceback" not in stderr, stderr
    assert "interrupted after" in stderr and "run the same command to resume" in stderr
    done = lines(out)
    assert 2 <= len(done) < games
    assert len({g["game"] for g in done}) == len(done)
    assert re.search(rf"^{len(done)} games", stdout, re.M)


# --- seating and settings -------------------------------------------------------------------


def test_seats_rotate_so_every_bot_sits_everywhere() -> None:
    seats = ("a", "b", "c", "d")
    assert seats_for_game(seats, 0) == seats
    assert seats_for_game(seats, 1) == ("b", "c", "d", "a")
    assert seats_for_game(seats, 5) == ("b", "c", "d", "a")
    assert seats_for_game(seats, 3, rotate=False) == seats
    for seat in range(4):
        assert {seats_for_game(seats, g)[seat] for g in range(4)} == set(seats)


@pytest.mark.parametrize(("players", "teams"), [(4, 2), (6, 2), (6, 3), (8, 4), (10, 5)])
def test_rotation_keeps_teammates_together(players: int, teams: int) -> None:
    seats = tuple(f"bot{s % teams}" for s in range(players))  # one kind per team
    for game in range(players):
        now = seats_for_game(seats, game)
        for team in range(teams):
            assert len({now[s] for s in range(players) if s % teams == team}) == 1


def test_kinds_sitting_on_every_side_are_noticed() -> None:
    assert run.kinds_on_every_side(["a", "b", "a", "b"], 2) == []
    assert run.kinds_on_every_side(["a", "a", "b", "b"], 2) == ["a", "b"]
    assert run.kinds_on_every_side(["a", "a", "a", "a"], 2) == []
    assert run.kinds_on_every_side(["a", "b", "a"], 0) == []
    assert run.kinds_on_every_side(["a", "b", "b", "a", "b", "b"], 3) == []
    assert run.kinds_on_every_side(["a", "b", "b", "b", "a", "b"], 3) == ["b"]


def test_seat_lists_and_bot_options_are_parsed() -> None:
    assert run.expand_seats(["random"], 3) == ("random",) * 3
    assert run.expand_seats(["random", " heuristic"], 2) == ("random", "heuristic")
    with pytest.raises(SimulationError):
        run.expand_seats(["random", "random"], 4)
    assert run.parse_bot_options(["ismcts.seconds=1.5", "ismcts.rollout=heuristic",
                                  "random.doubt_rate=0"]) == {
        "ismcts": {"seconds": 1.5, "rollout": "heuristic"}, "random": {"doubt_rate": 0}}
    with pytest.raises(SimulationError):
        run.parse_bot_options(["nobody.x=1"])


def test_progress_shows_rate_and_eta() -> None:
    tty = io.StringIO()
    bar = run.Progress(20, stream=tty, tty=True, interval=0)
    for done in range(1, 21):
        bar.update(done)
    bar.close()
    assert tty.getvalue().count("\r") == 20 and "20/20 games" in tty.getvalue()
    assert "games/s" in tty.getvalue() and "ETA" in tty.getvalue()
    throttled = io.StringIO()
    bar = run.Progress(1000, stream=throttled, tty=True, interval=3600)
    for done in range(1, 1001):
        bar.update(done)
    assert throttled.getvalue().count("\r") == 2  # the first and the last
    log = io.StringIO()
    bar = run.Progress(200, stream=log, tty=False)
    for done in range(1, 201):
        bar.update(done)
    assert len(log.getvalue().splitlines()) == 10 and "\r" not in log.getvalue()
    quiet = io.StringIO()
    bar = run.Progress(5, stream=quiet, tty=True, quiet=True)
    bar.update(5)
    bar.close()
    assert quiet.getvalue() == ""


def test_progress_keeps_counting_while_slow_games_run() -> None:
    log = io.StringIO()
    bar = run.Progress(5, stream=log, tty=False, heartbeat=0.01)
    bar.begin()  # shown at once, then a line whenever none was for the heartbeat
    end = time.monotonic() + 30
    while log.getvalue().count("\n") < 3:
        assert time.monotonic() < end, log.getvalue()
        time.sleep(0.01)
    bar.close()
    assert all("0/5 games" in line for line in log.getvalue().splitlines())
    slow = io.StringIO()
    bar = run.Progress(100, stream=slow, tty=False, every=0)
    bar.update(1)  # a game after a while: a line, though no tenth was passed
    assert "1/100 games" in slow.getvalue()


# --- statistics -----------------------------------------------------------------------------


def test_wilson_interval_known_values() -> None:
    lo, hi = stats.wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = stats.wilson_interval(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = stats.wilson_interval(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == 1
    lo, hi = stats.wilson_interval(81, 263)
    assert lo == pytest.approx(0.2553, abs=1e-4) and hi == pytest.approx(0.3662, abs=1e-4)
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)
    assert stats.wilson_interval(2.5, 5)[0] < 0.5 < stats.wilson_interval(2.5, 5)[1]
    with pytest.raises(ValueError):
        stats.wilson_interval(6, 5)


def test_mean_std_expected_rate_and_z_test() -> None:
    mean, sd = stats.mean_std([2, 4, 4, 4, 5, 5, 7, 9])
    assert mean == 5 and sd == pytest.approx(math.sqrt(32 / 7))
    assert stats.mean_std([3]) == (3, 0)
    assert all(math.isnan(x) for x in stats.mean_std([]))
    assert stats.expected_win_rate(4, 2) == 0.5
    assert stats.expected_win_rate(6, 3) == pytest.approx(1 / 3)
    assert stats.expected_win_rate(3, 0) == pytest.approx(1 / 3)
    z, p = stats.z_test(60, 100, 0.5)
    assert z == pytest.approx(2.0) and p == pytest.approx(0.0455, abs=1e-4)


def _result(seats: list[str], winners: list[int], turns: int,
            finished: bool = True) -> dict[str, Any]:
    return {"seats": seats, "winner_seats": winners if finished else [], "turns": turns,
            "finished": finished}


def test_summary_of_two_kinds_in_teams() -> None:
    a, b = ["x", "y", "x", "y"], ["y", "x", "y", "x"]
    results = [
        _result(a, [0, 2], 100),  # x wins, x first
        _result(b, [1, 3], 200),  # x wins, y first
        _result(a, [1, 3], 300),  # y wins, x first
        _result(b, [1, 3], 400),  # x wins, y first
        _result(a, [], 999, finished=False),
    ]
    s = stats.summarize(results, players=4, teams=2)
    assert (s.games, s.finished, s.unfinished) == (5, 4, 1)
    assert s.expected == 0.5
    rates = {r.label: (r.wins, r.games) for r in s.per_bot}
    assert rates == {"x": (3, 4), "y": (1, 4)}
    assert [(r.wins, r.games) for r in s.per_seat] == [(1, 4), (3, 4), (1, 4), (3, 4)]
    assert (s.first_seat.wins, s.first_seat.games) == (1, 4)
    assert s.first_seat_advantage == pytest.approx(-0.25)
    assert s.lengths == (100, 200, 300, 400)
    assert s.length_mean == 250 and s.length_std == pytest.approx(129.0994, abs=1e-3)
    text = stats.format_summary(s)
    assert "5 games (4 finished, 1 stopped at the action cap)" in text
    assert re.search(r"x\s+4\s+75\.0%\s+\[", text)
    assert re.search(r"0 \(plays first\)\s+0\s+4\s+25\.0%", text)
    assert "-25.0 points" in text


def test_summary_of_a_kind_on_several_sides_uses_its_share_of_seats() -> None:
    seats = ["x", "x", "y"]  # three players alone
    s = stats.summarize([_result(seats, [0], 10), _result(seats, [2], 20)], 3, 0)
    rates = {r.label: (r.wins, r.games) for r in s.per_bot}
    assert rates == {"x": (0.5, 2), "y": (1, 2)}
    assert s.expected == pytest.approx(1 / 3)
    assert stats.summarize([], 4, 2).finished == 0
    assert "no finished games" in stats.format_summary(stats.summarize([], 4, 2))
