"""The ``pegs`` command, run as a subprocess like a user would."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from helpers import no_traceback, pegs
from pegs.rules import PRESETS, Rules

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"




# --- demo and replay -----------------------------------------------------------------------

WIN = re.compile(r"wins after (\d+) turns")


def test_demo_ends_with_a_winner_and_is_repeatable() -> None:
    first = pegs("demo", "--seed", "2")
    assert first.returncode == 0, first.stderr
    no_traceback(first)
    lines = first.stdout.strip().splitlines()
    m = WIN.search(lines[-1])
    assert m, lines[-1]
    numbered = [ln for ln in lines if re.match(r"\s*\d+\. Seat \d", ln)]
    assert len(numbered) == int(m.group(1))
    second = pegs("demo", "--seed", "2")
    assert second.stdout == first.stdout
    other = pegs("demo", "--seed", "3")
    assert other.stdout != first.stdout


def test_demo_announces_in_the_pegoo_style() -> None:
    out = pegs("demo", "--seed", "2").stdout
    moves = [ln.split(": ", 1)[1] for ln in out.splitlines() if re.match(r"\s*\d+\. ", ln)]
    words = ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
             "Jack", "Queen", "King", "Joker")
    assert moves
    for text in moves:
        assert text.split(".")[0] in words, text
        assert text.endswith(".")


def test_demo_save_then_replay_verifies(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    demo = pegs("demo", "--seed", "5", "--quiet", "--save", str(path))
    assert demo.returncode == 0, demo.stderr
    m = WIN.search(demo.stdout)
    assert m
    data = json.loads(path.read_text())
    assert data["seed"] == 5 and data["rules"]["name"] == "pegoo"
    assert len(data["actions"]) == int(m.group(1))
    replay = pegs("replay", str(path))
    assert replay.returncode == 0, replay.stderr
    no_traceback(replay)
    assert f"All {len(data['actions'])} actions verified." in replay.stdout
    assert f"after {m.group(1)} turns" in replay.stdout
    quiet = pegs("replay", "--quiet", str(path))
    assert quiet.returncode == 0
    assert len(quiet.stdout.splitlines()) < 5


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_demo_for_every_implemented_preset(preset: str, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    proc = pegs("demo", "--rules", preset, "--seed", "1", "--quiet", "--save", str(path))
    assert proc.returncode == 0, proc.stderr
    assert WIN.search(proc.stdout)
    replay = pegs("replay", "--quiet", str(path))
    assert replay.returncode == 0, replay.stderr
    assert "verified" in replay.stdout


def test_demo_table_options() -> None:
    proc = pegs("demo", "--rules", "basic", "--players", "6", "--teams", "3",
                "--set", "holes_per_side=20", "--seed", "1", "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert "6 players" in proc.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["demo", "--players", "7", "--teams", "2"],
        ["demo", "--set", "holes_per_side=30"],
        ["demo", "--set", "pegs=2"],
        ["demo", "--players", "11"],
        ["demo", "--set", "nonsense=1"],
        ["demo", "--set", "novalue"],
    ],
)
def test_impossible_tables_are_one_line_errors(args: list[str]) -> None:
    proc = pegs(*args)
    assert proc.returncode == 2
    no_traceback(proc)
    assert len(proc.stderr.strip().splitlines()) == 1
    assert proc.stderr.startswith("pegs: ")


@pytest.fixture(scope="module")
def good_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("rec") / "good.json"
    assert pegs("demo", "--seed", "2", "--quiet", "--save", str(path)).returncode == 0
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _tampered(data: dict[str, Any], how: str) -> str:
    if how == "truncated":
        text = json.dumps(data)
        return text[: len(text) // 3]
    data = json.loads(json.dumps(data))
    if how == "action":
        data["actions"][9] = "K: 9.1>9.11"
    elif how == "garbled-action":
        data["actions"][9] = "not a move"
    elif how == "version":
        data["version"] = 99
    elif how == "format":
        data["format"] = "chess"
    elif how == "settings":
        data["rules"]["players"] = 11
    elif how == "powers":
        data["rules"]["powers"] = 5
    elif how == "actions-not-list":
        data["actions"] = "A: S>0.5"
    elif how == "result":
        data["result"]["seats"] = [9]
    elif how == "seed":
        data["seed"] = "two"
    elif how == "array":
        data = [data]
    elif how == "null":
        data = None
    return json.dumps(data)


@pytest.mark.parametrize(
    "how",
    ["truncated", "action", "garbled-action", "version", "format", "settings", "powers",
     "actions-not-list", "result", "seed", "array", "null"],
)
def test_replay_of_a_bad_record_is_a_one_line_error(
    tmp_path: Path, how: str, good_record: dict[str, Any]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(_tampered(good_record, how))
    proc = pegs("replay", str(path))
    no_traceback(proc)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("pegs: ")
    if how in ("action", "garbled-action"):
        assert "action 10" in lines[0]


def test_replay_of_a_missing_file(tmp_path: Path) -> None:
    proc = pegs("replay", str(tmp_path / "missing.json"))
    no_traceback(proc)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1


def test_replay_of_a_directory(tmp_path: Path) -> None:
    proc = pegs("replay", str(tmp_path))
    no_traceback(proc)
    assert proc.returncode == 2


# --- cue cards ------------------------------------------------------------------------------


def _card_line(text: str, name: str) -> str:
    for line in text.splitlines():
        if line.strip().startswith(name + " "):
            return line
    raise AssertionError(f"no {name} line in:\n{text}")


def test_havasu_cue_card_has_high_faces() -> None:
    proc = pegs("rules", "havasu")
    assert proc.returncode == 0
    for name, n in (("Jack", "11"), ("Queen", "12"), ("King", "13")):
        line = _card_line(proc.stdout, name)
        assert re.search(rf"\b{n}\b", line), line
        assert "out" in line.lower()


def test_basic_cue_card_faces_move_ten() -> None:
    proc = pegs("rules", "basic")
    for name in ("Jack", "Queen", "King"):
        line = _card_line(proc.stdout, name)
        assert re.search(r"\b10\b", line) and not re.search(r"\b1[123]\b", line)


@pytest.mark.parametrize("preset", PRESETS)
def test_cue_card_for_every_preset(preset: str) -> None:
    proc = pegs("rules", preset)
    assert proc.returncode == 0, proc.stderr
    assert f"({preset})" in proc.stdout.splitlines()[0]
    r = Rules.preset(preset)
    assert f"{r.holes_per_side} holes" in proc.stdout
    for name in ("Ace", "Joker"):
        _card_line(proc.stdout, name)


def test_cue_card_with_table_options() -> None:
    proc = pegs("rules", "pegoo", "--players", "6", "--teams", "3")
    assert proc.returncode == 0
    assert "3 teams of 2" in proc.stdout


def test_unknown_preset_is_refused() -> None:
    proc = pegs("rules", "wahoo")
    assert proc.returncode == 2
    no_traceback(proc)


# --- conformance ----------------------------------------------------------------------------

SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed$")


def _conformance(*paths: Path | str, extra: tuple[str, ...] = ()
                 ) -> tuple[subprocess.CompletedProcess[str], int, int]:
    proc = pegs("conformance", *extra, *map(str, paths))
    no_traceback(proc)
    lines = proc.stdout.strip().splitlines()
    m = SUMMARY.match(lines[-1])
    assert m, lines[-1]
    for line in lines[:-1]:
        if not extra:
            assert line.startswith(("PASS ", "FAIL ")), line
    return proc, int(m.group(1)), int(m.group(2))


def _scenario(**changes: Any) -> dict[str, Any]:
    sc: dict[str, Any] = {
        "name": "ace-comes-out",
        "rules": "pegoo",
        "pegs": {"0": ["S", "S", "S", "S"]},
        "to_move": 0,
        "hand": ["A"],
        "expect": {"exactly": [{"card": "A", "pegs": {"0": ["0.5", "S", "S", "S"]}}]},
    }
    sc.update(changes)
    return sc


def _write(tmp_path: Path, name: str, content: Any) -> Path:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def test_conformance_passing_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "ok.json", [_scenario(), _scenario(name="second")])
    proc, passed, failed = _conformance(path)
    assert (passed, failed) == (2, 0)
    assert proc.returncode == 0
    assert "PASS ace-comes-out" in proc.stdout


def test_conformance_failing_scenario_names_missing_and_unexpected(tmp_path: Path) -> None:
    wrong = _scenario(expect={"exactly": [{"card": "A", "pegs": {"0": ["0.6", "S", "S", "S"]}}]})
    path = _write(tmp_path, "wrong.json", [_scenario(), wrong])
    proc, passed, failed = _conformance(path)
    assert (passed, failed) == (1, 1)
    assert proc.returncode == 1
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("FAIL"))
    assert "missing" in line and "unexpected" in line and "0.6" in line and "0.5" in line


def test_conformance_json_prints_outcomes(tmp_path: Path) -> None:
    path = _write(tmp_path, "ok.json", [_scenario()])
    proc, passed, _ = _conformance(path, extra=("--json",))
    assert passed == 1
    outs = [json.loads(ln) for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert outs and outs[0]["outcomes"] == [{"card": "A", "pegs": {"0": ["0.5", "S", "S", "S"]}}]


BAD_SCENARIOS: dict[str, Any] = {
    "invalid-json": "[{\"name\": ",
    "not-an-array": "5",
    "missing-expect": [{k: v for k, v in _scenario().items() if k != "expect"}],
    "missing-hand": [{k: v for k, v in _scenario().items() if k != "hand"}],
    "missing-rules": [{k: v for k, v in _scenario().items() if k != "rules"}],
    "missing-to-move": [{k: v for k, v in _scenario().items() if k != "to_move"}],
    "wrong-seat": [_scenario(pegs={"7": ["S", "S", "S", "S"]})],
    "to-move-out-of-range": [_scenario(to_move=4)],
    "unknown-preset": [_scenario(rules="wahoo")],
    "bad-position": [_scenario(pegs={"0": ["0.99", "S", "S", "S"]})],
    "wrong-peg-count": [_scenario(pegs={"0": ["S", "S"]})],
    "two-pegs-one-hole": [_scenario(pegs={"0": ["0.5", "S", "S", "S"], "1": ["0.5", "S", "S",
                                                                                "S"]})],
    "bad-card": [_scenario(hand=["Z"])],
    "bad-setup": [_scenario(setup={"players": 7, "teams": 2})],
    "expect-empty": [_scenario(expect={})],
    "not-an-object": [5],
    "outcome-for-a-missing-seat": [_scenario(expect={"exactly": [
        {"card": "A", "pegs": {"9": ["0.5", "S", "S", "S"]}}]})],
    "outcome-pegs-not-an-object": [_scenario(expect={"exactly": [
        {"card": "A", "pegs": ["0.5", "S", "S", "S"]}]})],
    "outcome-without-card": [_scenario(expect={"exactly": [{"pegs": {}}]})],
}


@pytest.mark.parametrize("case", sorted(BAD_SCENARIOS))
def test_conformance_malformed_scenarios_fail_cleanly(tmp_path: Path, case: str) -> None:
    bad = _write(tmp_path, "bad.json", BAD_SCENARIOS[case])
    good = _write(tmp_path, "good.json", [_scenario()])
    proc, passed, failed = _conformance(good, bad)
    assert proc.returncode == 1
    assert passed == 1 and failed >= 1
    fails = [ln for ln in proc.stdout.splitlines() if ln.startswith("FAIL")]
    assert fails and all(len(ln) > len("FAIL x: ") for ln in fails)


def test_conformance_missing_file_fails(tmp_path: Path) -> None:
    proc, _, failed = _conformance(tmp_path / "nope.json")
    assert proc.returncode == 1 and failed == 1


def test_conformance_of_nothing_is_not_a_pass(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    proc = pegs("conformance", str(tmp_path / "empty"))
    assert proc.returncode == 1 and "passed" not in proc.stdout
    assert "no scenarios found" in one_line_error(proc)


def test_conformance_of_every_preset(tmp_path: Path) -> None:
    path = _write(tmp_path, "presets.json", [
        _scenario(name=f"sc-{p}", rules=p, pegs={}, hand=["A"],
                  expect={"includes": [{"card": "A", "pegs": {"0": (
                      ["0.5"] + ["S"] * (Rules.preset(p).pegs - 1))}}]})
        for p in PRESETS
    ])
    proc, passed, failed = _conformance(path)
    assert (passed, failed) == (len(PRESETS), 0)
    for p in PRESETS:
        assert f"PASS sc-{p}" in proc.stdout


def test_conformance_on_the_project_scenarios() -> None:
    proc, passed, _ = _conformance(SCENARIOS)
    fails = [ln for ln in proc.stdout.splitlines() if ln.startswith("FAIL")]
    for line in fails:
        assert "preset not implemented" in line, line
    assert passed > 0
    assert proc.returncode == (1 if fails else 0)


# --- files that cannot be read or written ----------------------------------------------------


def one_line_error(proc: subprocess.CompletedProcess[str]) -> str:
    no_traceback(proc)
    assert proc.returncode != 0, proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


@pytest.mark.parametrize("where", ["missing-folder", "a-folder", "full-disk"])
def test_demo_refuses_a_save_it_cannot_write_before_playing(tmp_path: Path,
                                                            where: str) -> None:
    target = {"missing-folder": str(tmp_path / "nope" / "game.json"),
              "a-folder": str(tmp_path), "full-disk": "/dev/full"}[where]
    proc = pegs("demo", "--seed", "2", "--save", target)
    line = one_line_error(proc)
    assert line.startswith((f"pegs: cannot save the record to {target}",
                            f"pegs: --save {target}"))
    assert "Seat" not in proc.stdout  # refused before the game, not after it
    assert not (tmp_path / "nope").exists()


@pytest.mark.parametrize("command", [
    ["replay", "{deep}"], ["hint", "{deep}"], ["play", "--resume", "{deep}"],
    ["simulate", "--games", "1", "--jobs", "1", "--quiet", "--out", "{deep}"],
])
def test_deeply_nested_json_is_a_one_line_error(tmp_path: Path, command: list[str]) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "\n")
    proc = pegs(*(arg.format(deep=deep) for arg in command))
    assert "nests lists or objects too deeply" in one_line_error(proc)
    assert deep.read_text() == "[" * 200_000 + "\n"  # left as it was


def test_deeply_nested_scenario_file_fails_cleanly(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("{\"a\": " * 100_000)
    proc = pegs("conformance", str(deep))
    no_traceback(proc)
    assert proc.returncode == 1
    assert "nests lists or objects too deeply" in proc.stdout


@pytest.mark.parametrize("seconds", ["inf", "nan", "-1", "0"])
def test_hint_refuses_a_search_time_that_is_not_a_positive_number(
        tmp_path: Path, seconds: str) -> None:
    path = tmp_path / "game.json"
    assert pegs("demo", "--seed", "2", "--quiet", "--max-turns", "5",
                "--save", str(path)).returncode == 0
    line = one_line_error(pegs("hint", str(path), "--time", seconds))
    assert line.startswith("pegs: --hint-seconds must be a number of seconds above 0")


# --- simulate seats and options --------------------------------------------------------------

SMALL_RUN = ("--games", "1", "--jobs", "1", "--max-actions", "20")


@pytest.mark.parametrize(("table", "seats", "expanded"), [
    (("--players", "4", "--teams", "2"), "heuristic,random",
     "heuristic,random,heuristic,random"),
    (("--players", "6", "--teams", "3"), "random,heuristic,random",
     "random,heuristic,random,random,heuristic,random"),
    (("--players", "4", "--teams", "2"), "random,random,heuristic,heuristic",
     "random,random,heuristic,heuristic"),
])
def test_simulate_seats_are_one_bot_per_team_or_per_seat(
        table: tuple[str, ...], seats: str, expanded: str) -> None:
    proc = pegs("simulate", "--rules", "basic", *table, "--seats", seats, *SMALL_RUN)
    assert proc.returncode == 0, proc.stderr
    assert f"seats {expanded} rotated" in proc.stderr


def test_simulate_seats_of_no_size_are_refused_naming_the_sizes() -> None:
    proc = pegs("simulate", "--rules", "basic", "--players", "4", "--teams", "2",
                "--seats", "random,random,heuristic", *SMALL_RUN)
    line = one_line_error(proc)
    assert "one bot for everyone, one per team (2) or one per seat (4)" in line


@pytest.mark.parametrize(("option", "says"), [
    ("ismcts.nosuch=1", "ismcts has no option 'nosuch'"),
    ("ismcts.seconds=abc", "ismcts option seconds (number or none) cannot be 'abc'"),
    ("ismcts.clock=gpu", "ismcts option clock (wall or cpu) cannot be 'gpu'"),
    ("random.doubt_rate=yes", "random option doubt_rate (number) cannot be True"),
])
def test_a_wrong_bot_option_lists_the_bots_options_and_types(option: str, says: str) -> None:
    kind = option.split(".")[0]
    proc = pegs("simulate", "--seats", kind, "--bot-option", option, *SMALL_RUN)
    line = one_line_error(proc)
    assert says in line
    assert "its options: " in line and " (number" in line.split("its options: ")[1]


def test_the_listed_bot_options_are_the_bots_constructor_arguments() -> None:
    import ast

    from pegs.bots.heuristic import WEIGHT_NAMES
    from pegs.bots.options import OPTIONS

    def arguments(module: str, cls: str) -> list[tuple[str, str]]:
        tree = ast.parse((ROOT / "src" / "pegs" / "bots" / module).read_text())
        init = next(f for c in tree.body if isinstance(c, ast.ClassDef) and c.name == cls
                    for f in c.body if isinstance(f, ast.FunctionDef) and f.name == "__init__")
        return [(a.arg, ast.unparse(a.annotation or ast.Constant(None)))
                for a in init.args.args[2:]]  # after self and seed

    def declared(kind: str) -> list[tuple[str, str]]:
        spell = {int: "int", float: "float", str: "str"}
        return [(o.name, spell[o.kind] + (" | None" if o.optional else ""))
                for o in OPTIONS[kind]]

    assert declared("ismcts") == arguments("ismcts.py", "IsmctsBot")
    assert declared("random") == arguments("random_bot.py", "RandomBot")
    assert {o.name for o in OPTIONS["heuristic"]} == WEIGHT_NAMES


def test_plot_names_the_file_it_writes_and_refuses_a_bad_format_first(tmp_path: Path) -> None:
    proc = pegs("simulate", "--plot", "myplot", *SMALL_RUN, "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "plot written to myplot.png" in proc.stdout
    assert (tmp_path / "myplot.png").stat().st_size > 0
    proc = pegs("simulate", "--plot", "p.docx", "--out", "r.jsonl", *SMALL_RUN, cwd=tmp_path)
    line = one_line_error(proc)
    assert line.startswith("pegs: --plot p.docx: cannot draw a plot as .docx") and "png" in line
    assert not (tmp_path / "r.jsonl").exists()  # refused before any game


# --- small things ------------------------------------------------------------------------------


def test_version() -> None:
    proc = pegs("--version")
    assert proc.returncode == 0 and re.fullmatch(r"pegs \d+\.\d+\.\d+\S*\n", proc.stdout)


def test_conformance_on_a_folder_without_scenarios_says_so(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    proc = pegs("conformance", str(tmp_path / "empty"))
    assert proc.returncode == 1
    assert proc.stderr == (f"pegs: no scenarios found in {tmp_path / 'empty'} (scenario "
                           "files: *.json)\n")


def test_a_game_without_teams_ends_naming_the_winner() -> None:
    proc = pegs("demo", "--players", "3", "--teams", "0", "--seed", "4")
    last = proc.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"Seat \d \(\w+, \w\) wins after \d+ turns\.", last), last
    numbered = [ln for ln in proc.stdout.splitlines() if re.match(r"\s*\d+\. Seat \d", ln)]
    assert f"wins after {len(numbered)} turns" in last


def test_demo_and_replay_do_not_count_doubt_decisions_as_turns(tmp_path: Path) -> None:
    path = tmp_path / "bj.json"
    demo = pegs("demo", "--rules", "bluffing-joker", "--seed", "3", "--quiet",
                "--save", str(path))
    actions = json.loads(path.read_text())["actions"]
    decisions = [a for a in actions if a.split(" ")[0] in ("doubt", "pass")
                 or a.startswith("send ")]
    assert decisions
    turns = len(actions) - len(decisions)
    words = f"after {turns} turns ({len(actions)} actions with the doubt decisions)"
    assert words in demo.stdout
    assert words in pegs("replay", str(path), "--quiet").stdout


@pytest.mark.parametrize(("command", "words"), [
    (["rules", "--help"], ["--players N  number of seats", "--teams N",
                           "number of teams", "--set NAME=VALUE", "override any setting"]),
    (["replay", "--help"], ["FILE", "a game record (JSON)"]),
    (["hint", "--help"], ["FILE", "a game record (JSON) of a game in progress"]),
])
def test_help_explains_every_argument(command: list[str], words: list[str]) -> None:
    proc = pegs(*command)
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    for w in words:
        assert " ".join(w.split()) in text, w


def test_simulate_drops_only_a_cut_results_line_never_a_foreign_file(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text("[" * 200_000)  # no newline: the last line, but no results line
    line = one_line_error(pegs("simulate", "--out", str(out), *SMALL_RUN, "--quiet"))
    assert "nests lists or objects too deeply" in line
    assert out.read_text() == "[" * 200_000
    assert pegs("simulate", "--out", str(out.with_name("ok.jsonl")), *SMALL_RUN,
                "--games", "2").returncode == 0
    whole = out.with_name("ok.jsonl").read_text()
    first, second = whole.splitlines()
    out.write_text(first + "\n" + second[:40])  # a write cut short by a crash
    proc = pegs("simulate", "--out", str(out), *SMALL_RUN, "--games", "2")
    assert proc.returncode == 0, proc.stderr
    assert "dropping the unfinished last line" in proc.stderr
    assert len(out.read_text().splitlines()) == 2


# --- bad values and files: one line, before anything runs (issue 39) --------------------------

LADDER = ("ladder", "--bots", "random,heuristic", "--games", "2", "--jobs", "1",
          "--max-actions", "20", "--quiet")


@pytest.fixture
def unwritable(tmp_path: Path) -> Path:
    """A folder this process cannot create files in (root writes anywhere but ``/sys``)."""
    if os.geteuid() == 0:
        return Path("/sys")
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    return folder


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("command", [
    ("simulate", *SMALL_RUN, "--quiet"), LADDER,
])
def test_results_in_an_unwritable_folder_are_refused_in_one_line(
        command: tuple[str, ...], unwritable: Path) -> None:
    out = unwritable / "pegs-results.jsonl"
    line = one_line_error(pegs(*command, "--out", str(out)))
    assert line.startswith(f"pegs: --out {out}: cannot write in the folder {unwritable}"), line
    assert not out.exists()


@pytest.mark.parametrize("content", [b"\x89PNG\r\n\x1a\n\xf0\x28\x8c\x28", b"[" * 200_000])
def test_ladder_refuses_a_results_file_that_is_binary_or_nests_deeply(
        tmp_path: Path, content: bytes) -> None:
    out = tmp_path / "r.jsonl"
    out.write_bytes(content)
    line = one_line_error(pegs(*LADDER, "--out", str(out)))
    assert "not a ladder results file" in line
    assert out.read_bytes() == content


@pytest.mark.parametrize(("args", "says"), [
    (("hint", "game.json", "--time", "1e9"), "--hint-seconds must be a number of seconds above 0"),
    (("ladder", "--bots", "random,heuristic", "--max-actions", "0"),
     "--max-actions must be 1 or more, not 0"),
    (("simulate", "--jobs", "1000"), "--jobs 1000 is far more than the"),
    (("ladder", "--bots", "random,heuristic", "--jobs", "1000"), "--jobs 1000 is far more"),
    (("serve", "--port", "70000"), "--port must be a port number from 1 to 65535, not 70000"),
    (("serve", "--port", "0"), "--port must be a port number from 1 to 65535, not 0"),
    (("serve", "--port", "-1"), "--port must be a port number from 1 to 65535, not -1"),
    (("serve", "--bot-delay", "nan"), "--bot-delay must be 0 or more seconds, not nan"),
    (("serve", "--hint-seconds", "inf"), "--hint-seconds must be a number of seconds above"),
    (("play", "--delay", "1e9"), "--bot-delay must be 0 or more seconds, not 1e+09 (at most 60)"),
    (("play", "--think", "1e9"), "--think must be a number of seconds above 0, not 1e+09"),
    (("simulate", "--out", ""), "--out needs a file name"),
    (("ladder", "--bots", "random,heuristic", "--out", ""), "--out needs a file name"),
    (("simulate", "--plot", ""), "--plot needs a file name"),
    (("demo", "--save", ""), "--save needs a file name"),
    (("play", "--save", ""), "--save needs a file name"),
    (("play", "--save", "no/such/game.json"), "--save no/such/game.json: no such folder"),
    (("ladder", "--bots", "random,heuristic", "--plot", "x.xyz", "--out", "r.jsonl"),
     "--plot x.xyz: cannot draw a plot as .xyz"),
    (("simulate", "--plot", "."), "--plot . is a folder"),
    (("demo", "--max-turns", "0"), "--max-turns must be 1 or more, not 0"),
    (("demo", "--players", "4", "--set", "players=3"), "players=3 contradicts --players 4"),
    (("ladder", "--bots", "random,heuristic", "--plot", "."), "--plot . is a folder"),
])
def test_absurd_values_are_refused_in_one_line_creating_nothing(
        tmp_path: Path, args: tuple[str, ...], says: str) -> None:
    env = {**os.environ, "PEGS_DATA_DIR": str(tmp_path / "data")}
    proc = subprocess.run([sys.executable, "-m", "pegs.cli", *args], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, env=env)
    assert says in one_line_error(proc)
    assert proc.returncode == 2 and proc.stdout == ""
    assert listing(tmp_path) == []


def test_jobs_above_the_cpus_is_noted() -> None:
    jobs = (os.cpu_count() or 1) + 1
    proc = pegs("simulate", *SMALL_RUN, "--quiet", "--jobs", str(jobs))
    assert proc.returncode == 0, proc.stderr
    assert f"note: --jobs {jobs} is more than the {jobs - 1} CPUs here" in proc.stderr


def test_ladder_plot_without_extension_names_the_file_it_writes(tmp_path: Path) -> None:
    proc = pegs(*LADDER, "--plot", "rating", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "plot written to rating.png" in proc.stdout
    assert listing(tmp_path) == ["rating.png"]


@pytest.mark.parametrize("env", ["database-url", "data-folder"])
def test_serve_refuses_an_unwritable_database_in_one_line(
        tmp_path: Path, unwritable: Path, env: str) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "PEGS_DATABASE_URL"}
    args = ["--port", "1"]  # never reached: the database is checked first
    if env == "database-url":
        args += ["--database-url", f"sqlite:///{unwritable / 'pegs.db'}"]
    else:
        environ["PEGS_DATA_DIR"] = str(unwritable / "pegs-data")
    proc = subprocess.run([sys.executable, "-m", "pegs.cli", "serve", *args],
                          capture_output=True, text=True, timeout=120, env=environ)
    line = one_line_error(proc)
    assert line.startswith(f"pegs: cannot use the database at {unwritable}"), line
    assert proc.returncode == 2
    proc = subprocess.run([sys.executable, "-m", "pegs.cli", "db", "upgrade", *args[2:]],
                          capture_output=True, text=True, timeout=120, env=environ)
    assert "pegs: cannot" in one_line_error(proc) and proc.returncode == 2


@pytest.fixture(scope="module")
def record_text(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("rec") / "game.json"
    assert pegs("demo", "--seed", "2", "--quiet", "--max-turns", "6", "--save",
                str(path)).returncode == 0
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@pytest.mark.parametrize("command", ["replay", "hint"])
def test_a_record_with_a_huge_action_is_a_short_error(
        tmp_path: Path, record_text: dict[str, Any], command: str) -> None:
    path = tmp_path / "huge.json"
    path.write_text(json.dumps({**record_text, "actions": [
        *record_text["actions"][:2], "7" * 10_000_000]}))
    line = one_line_error(pegs(command, str(path)))
    assert line.startswith("pegs: action 3 ('7777") and len(line) < 400, line[:1000]
    assert "has no ':'" in line


@pytest.mark.parametrize(("seats", "says"), [
    (["human", "robot", "easy", "easy"], "has an unknown seat in 'seats'"),
    (["human"], "has bad 'seats' (1 listed for 4 players)"),
    ("human,easy", "has bad 'seats' (not a list for 4 players)"),
])
def test_resuming_a_record_with_bad_seats_blames_the_record(
        tmp_path: Path, record_text: dict[str, Any], seats: Any, says: str) -> None:
    path = tmp_path / "seats.json"
    path.write_text(json.dumps({**record_text, "seats": seats}))
    line = one_line_error(pegs("play", "--resume", str(path)))
    assert line.startswith(f"pegs: the record {path} {says}") and "--seats" in line, line
    assert "--seats needs" not in line


def test_conformance_on_a_game_record_or_an_empty_list_says_so(
        tmp_path: Path, record_text: dict[str, Any]) -> None:
    record = _write(tmp_path, "game.json", record_text)
    proc, passed, failed = _conformance(record)
    assert (proc.returncode, passed, failed) == (1, 0, 1)
    assert "is a game record, not a conformance scenario file" in proc.stdout
    assert "unknown preset" not in proc.stdout and len(proc.stdout) < 400
    empty = _write(tmp_path, "empty.json", [])
    proc, passed, failed = _conformance(empty)
    assert (proc.returncode, passed, failed) == (1, 0, 1)
    assert "no scenarios found" in proc.stdout
    huge = _write(tmp_path, "huge.json", [{"name": "n" * 3_000_000, "rules": "x" * 1000}])
    proc, passed, failed = _conformance(huge)
    assert (proc.returncode, passed, failed) == (1, 0, 1)
    assert "'rules' must name a preset" in proc.stdout and len(proc.stdout) < 500


@pytest.mark.parametrize("players", ["2", "3", "5"])
@pytest.mark.parametrize("preset", ["arizona", "kilpatrick"])
def test_team_control_presets_at_a_table_without_teams_give_advice_that_works(
        preset: str, players: str) -> None:
    line = one_line_error(pegs("demo", "--rules", preset, "--players", players, "--quiet"))
    assert "set teams to" not in line, line
    assert "play it with 4, 6, 8, 9, 10 players" in line
    assert "or set control to own_then_partner" in line
    followed = pegs("demo", "--rules", preset, "--players", players, "--quiet",
                    "--set", "control=own_then_partner")
    assert followed.returncode == 0, followed.stderr


def test_play_without_a_terminal_is_refused_without_escape_codes(tmp_path: Path) -> None:
    env = {**os.environ, "PEGS_DATA_DIR": str(tmp_path / "data")}
    proc = subprocess.run([sys.executable, "-m", "pegs.cli", "play", "--players", "2",
                           "--teams", "0"], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, env=env)
    assert "play needs a terminal" in one_line_error(proc)
    assert proc.stdout == "" and "\x1b" not in proc.stderr
    assert not (tmp_path / "data").exists()


# --- stopping a simulation ---------------------------------------------------------------------

SLOW_GAMES = ("simulate", "--seats", "ismcts", "--bot-option", "ismcts.seconds=0.5")


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"  # a zombie has exited


def wait_for_condition(test: Callable[[], bool], what: str, seconds: float) -> None:
    end = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < end, f"{what} did not happen in {seconds} s"
        time.sleep(0.05)


def test_simulate_workers_exit_when_the_command_is_killed_outright() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "pegs.cli", *SLOW_GAMES, "--games", "4",
                             "--jobs", "2", "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: set[int] = set()
    try:
        wait_for_condition(lambda: len(children(proc.pid)) >= 2, "two workers started", 120)
        workers = children(proc.pid)
        proc.kill()  # SIGKILL, as `timeout -s KILL` sends: the command cannot clean up
        proc.wait(timeout=30)
        wait_for_condition(lambda: not any(map(running, workers)), "the workers exiting", 30)
    finally:
        proc.kill()
        for pid in workers:
            if running(pid):
                os.kill(pid, signal.SIGKILL)


def test_slow_games_show_progress_at_once_and_sigterm_exits_143(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "pegs.cli", *SLOW_GAMES, "--games", "3",
                             "--jobs", "1", "--out", str(tmp_path / "r.jsonl")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    stderr = proc.stderr
    assert stderr is not None
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in stderr])
    reader.start()
    try:
        seen: list[str] = []
        while not any("0/3 games" in line for line in seen):
            seen.append(lines.get(timeout=60))  # the count, long before a game ends
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    finally:
        proc.kill()
        reader.join(timeout=30)
    seen += list(lines.queue)
    assert proc.returncode == 143, "".join(seen)
    assert "interrupted after 0 of 3 games" in seen[-1], seen
    assert "Traceback" not in "".join(seen)


def test_a_game_failing_as_the_run_is_stopped_counts_as_the_stop(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from pegs import cli
    from pegs.sim.run import GameError

    failed = GameError("game 0 failed: RuntimeError: cut short")
    assert cli._run_failed(failed, "r.jsonl") == 1  # no signal: a failed game
    assert "game 0 failed" in capsys.readouterr().err
    monkeypatch.setattr(cli, "_stopped_by", [signal.SIGTERM])
    assert cli._run_failed(failed, "r.jsonl") == 143
    assert capsys.readouterr().err == ("interrupted; the finished games are in r.jsonl (run the "
                                       "same command to resume)\n")
