"""Bad command lines (issue 51): each is one clear line on stderr, a non-zero exit, and
nothing created; run as subprocesses like a user would."""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import no_traceback
from pegs.cli import build_parser
from pegs.rules import PRESETS


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def run(folder: Path, *args: str, env: dict[str, str] | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "PEGS_DATABASE_URL"}
    environ["PEGS_DATA_DIR"] = str(folder / "data")
    return subprocess.run([sys.executable, "-m", "pegs.cli", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=folder, env={**environ, **(env or {})})


def refused(folder: Path, *args: str, env: dict[str, str] | None = None,
            code: int = 2) -> str:
    """The one line ``pegs ARGS`` (in ``folder``) says; it exits ``code`` and creates or
    changes no file there."""
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    proc = run(folder, *args, env=env)
    no_traceback(proc)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    assert proc.stdout == ""
    after = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert after == before
    return lines[0]


@pytest.fixture(scope="module")
def demo_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    path = tmp_path_factory.mktemp("rec") / "game.json"
    proc = run(path.parent, "demo", "--seed", "7", "--players", "2", "--quiet",
               "--max-turns", "10", "--save", str(path))
    assert proc.returncode == 0, proc.stderr
    data: dict[str, object] = json.loads(path.read_text())
    return data


# --- files nested too deeply, empty names, byte-order marks --------------------------------


@pytest.mark.parametrize("command", ["rules", "demo"])
def test_a_house_file_nested_too_deeply_is_one_line(tmp_path: Path, command: str) -> None:
    (tmp_path / "deep.toml").write_text('title = "x"\nbase = ' + "[" * 5000 + "\n")
    line = refused(tmp_path, command, "--house", "deep.toml")
    assert line == ("pegs: deep.toml: not a house-rules file: it nests lists or tables too "
                    "deeply to be read")


def test_a_house_file_without_base_says_it_is_required(tmp_path: Path) -> None:
    (tmp_path / "nobase.toml").write_text('title = "x"\n')
    line = refused(tmp_path, "rules", "--house", "nobase.toml")
    assert line.startswith("pegs: nobase.toml: base is required: name the preset")
    assert line.endswith("presets: " + ", ".join(PRESETS))


@pytest.mark.parametrize(("args", "says"), [
    (("rules", "--house", ""), "pegs: --house needs a file name, not an empty one"),
    (("replay", ""), "pegs: the file name is empty: name the file of a JSON game record"),
    (("hint", ""), "pegs: the file name is empty: name the file of a JSON game record"),
    (("play", "--resume", ""), "pegs: --resume needs a file name, not an empty one"),
])
def test_an_empty_file_name_is_refused(tmp_path: Path, args: tuple[str, ...],
                                       says: str) -> None:
    assert refused(tmp_path, *args) == says


def test_replay_accepts_a_byte_order_mark(tmp_path: Path,
                                          demo_record: dict[str, object]) -> None:
    path = tmp_path / "notepad.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(demo_record).encode())
    proc = run(tmp_path, "replay", "--quiet", "notepad.json")
    assert proc.returncode == 0, proc.stderr
    assert "actions verified" in proc.stdout


def test_a_house_file_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    (tmp_path / "house.toml").write_bytes(b'\xef\xbb\xbftitle = "x"\nbase = "basic"\n')
    proc = run(tmp_path, "rules", "--house", "house.toml")
    assert proc.returncode == 0, proc.stderr


# --- results and records files ---------------------------------------------------------------

SIM = ("simulate", "--players", "2", "--games", "2", "--jobs", "1", "--max-actions", "30",
       "--quiet")
LADDER = ("ladder", "--bots", "random,heuristic", "--players", "2", "--games", "2",
          "--jobs", "1", "--max-actions", "30", "--quiet")


@pytest.mark.parametrize("command", [SIM, LADDER])
def test_out_and_records_naming_one_file_are_refused(tmp_path: Path,
                                                     command: tuple[str, ...]) -> None:
    line = refused(tmp_path, *command, "--out", "r.jsonl", "--records", "./r.jsonl")
    assert line == "pegs: --out and --records name the same file r.jsonl: give each its own"
    (tmp_path / "a.jsonl").write_text("")
    (tmp_path / "b.jsonl").hardlink_to(tmp_path / "a.jsonl")
    assert "name the same file" in refused(tmp_path, *command, "--out", "a.jsonl",
                                           "--records", "b.jsonl")


@pytest.mark.parametrize("content", ["hello\n", "[" * 200_000 + "\n", '{"game": 0}\n'])
def test_records_are_not_appended_to_another_file(tmp_path: Path, content: str) -> None:
    (tmp_path / "notes.txt").write_text(content)
    line = refused(tmp_path, *SIM, "--records", "notes.txt")
    assert line.startswith("pegs: --records notes.txt is not a records file"), line


def test_records_are_appended_to_a_records_file(tmp_path: Path) -> None:
    for _ in range(2):
        proc = run(tmp_path, *SIM, "--records", "games.jsonl")
        assert proc.returncode == 0, proc.stderr
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 4


@pytest.mark.parametrize(("args", "says"), [
    (("--bots", "random,heuristic", "--out", "x.jsonl", "--records", "y.jsonl"),
     "pegs: --bots, --out, --records cannot go with --verify: it plays each record again"),
    (("--jobs", "0"), "pegs: --jobs must be 1 or more, not 0"),
    (("--backend", "ray"), "pegs: --backend cannot go with --verify"),
])
def test_verify_refuses_options_it_does_not_use(tmp_path: Path, args: tuple[str, ...],
                                                says: str) -> None:
    assert run(tmp_path, *SIM, "--records", "games.jsonl").returncode == 0
    assert refused(tmp_path, "ladder", "--verify", "games.jsonl", *args).startswith(says)


def test_verify_of_a_demo_record_says_it_has_no_bots(
        tmp_path: Path, demo_record: dict[str, object]) -> None:
    (tmp_path / "demo.jsonl").write_text(json.dumps(demo_record) + "\n")
    line = refused(tmp_path, "ladder", "--verify", "demo.jsonl")
    assert line == ("pegs: demo.jsonl holds no bots to play again (names): only the records "
                    "of pegs simulate --records or pegs ladder --records can be verified")


def test_verify_names_a_record_without_a_game_number_by_its_place(
        tmp_path: Path, demo_record: dict[str, object]) -> None:
    assert run(tmp_path, *SIM, "--records", "games.jsonl").returncode == 0
    with (tmp_path / "games.jsonl").open("a") as f:
        f.write(json.dumps(demo_record) + "\n")
    proc = run(tmp_path, "ladder", "--verify", "games.jsonl", "--jobs", "1")
    assert proc.returncode == 1
    assert ("record 3 (seed 7) differs: cannot be played again: the record does not name "
            "the bot of every seat") in proc.stdout


@pytest.mark.parametrize(("content", "says"), [
    (bytes(range(256)) * 4, "pegs: bad.jsonl is not a text file (UTF-8): not a records file"),
    (b"[" * 200_000, "pegs: bad.jsonl line 1 nests lists or objects too deeply to be read"),
])
def test_verify_of_a_file_that_is_not_records_is_one_line(tmp_path: Path, content: bytes,
                                                           says: str) -> None:
    (tmp_path / "bad.jsonl").write_bytes(content)
    assert refused(tmp_path, "ladder", "--verify", "bad.jsonl") == says


# --- the server's data folder ----------------------------------------------------------------


@pytest.mark.parametrize("command", [("serve", "--port", "1"), ("db", "upgrade")])
def test_a_data_folder_in_a_missing_folder_is_refused_like_a_database_url(
        tmp_path: Path, command: tuple[str, ...]) -> None:
    data = tmp_path / "nope" / "data"
    line = refused(tmp_path, *command, env={"PEGS_DATA_DIR": str(data)})
    assert line == (f"pegs: PEGS_DATA_DIR={data}: no such folder {tmp_path / 'nope'} (the "
                    "data folder is made only in an existing one)")
    assert listing(tmp_path) == []
    line = refused(tmp_path, *command, "--database-url", f"sqlite:///{data / 'pegs.db'}")
    assert line == f"pegs: no such folder for the database: {data}"


def test_db_upgrade_makes_a_data_folder_in_an_existing_folder(tmp_path: Path) -> None:
    proc = run(tmp_path, "db", "upgrade", env={"PEGS_DATA_DIR": str(tmp_path / "data")})
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "data" / "pegs.db").is_file()


def test_serve_warns_once_at_start_when_the_limits_server_does_not_answer(
        tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    environ = {k: v for k, v in os.environ.items() if k != "PEGS_DATABASE_URL"}
    environ["PEGS_DATA_DIR"] = str(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "pegs.cli", "serve", "--port", str(port),
                             "--limits-url", "redis://127.0.0.1:1/0"],
                            stderr=subprocess.PIPE, text=True, env=environ)
    try:
        assert proc.stderr is not None
        lines = [proc.stderr.readline() for _ in range(2)]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert lines[0].startswith("pegs: warning: the limits server redis://127.0.0.1:1/0 does "
                               "not answer ("), lines
    assert lines[0].rstrip().endswith("until it does, requests are let through without "
                                      "the per-address limits")
    assert lines[1].startswith("pegs: serving on")


def test_duplicate_with_games_not_filling_the_sides_is_noted(tmp_path: Path) -> None:
    proc = run(tmp_path, *SIM[:4], "3", *SIM[5:], "--duplicate")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        "note: 3 games is not a multiple of the 2 sides, so the last deal is played by 1 of "
        "them and its luck does not cancel out (--duplicate)"]
    proc = run(tmp_path, *SIM, "--duplicate")
    assert proc.returncode == 0 and proc.stderr == ""


# --- one name, one default and one placeholder for one idea ----------------------------------

PLACEHOLDERS = {"N", "SECONDS", "HOURS", "FILE", "PATH", "HOST", "URL", "LIST", "PRESET", "COMMAND",
                "HOST:PORT", "NAME=VALUE", "NAME=N", "BOT.NAME=VALUE", "BOT[,BOT...]",
                "BOT,BOT[,...]", "SEAT[,SEAT...]"}


def _commands() -> list[tuple[str, argparse.ArgumentParser]]:
    out = []
    for action in build_parser()._subparsers._group_actions:  # type: ignore[union-attr]
        for name, parser in action.choices.items():
            out.append((name, parser))
            for sub in parser._subparsers._group_actions if parser._subparsers else ():
                out += [(f"{name} {n}", p) for n, p in sub.choices.items()]
    return out


def _shown_options() -> list[tuple[str, argparse.Action]]:
    return [(command, action) for command, parser in _commands()
            for action in parser._actions
            if action.help != argparse.SUPPRESS and not isinstance(
                action, argparse._HelpAction | argparse._SubParsersAction)]


def test_every_placeholder_is_of_one_style() -> None:
    for command, action in _shown_options():
        if action.nargs == 0 or (action.choices and action.metavar is None):
            continue
        assert action.metavar in PLACEHOLDERS, (command, action.option_strings, action.metavar)


def test_every_default_is_shown() -> None:
    for command, action in _shown_options():
        if action.nargs == 0 or (action.default in (None, [], False) and (
                action.dest not in ("teams", "seat", "jobs"))):
            continue
        assert "default" in str(action.help), (command, action.option_strings)


def test_one_idea_has_one_name_and_one_default() -> None:
    seen: dict[str, set[tuple[str, str]]] = {}
    for _, action in _shown_options():
        for name in action.option_strings:
            seen.setdefault(name, set()).add((action.dest, repr(action.default)))
    assert seen["--hint-seconds"] == {("hint_seconds", "1.0")}
    assert seen["--bot-delay"] == {("bot_delay", "0.5")}
    # (a ladder counts games a pair and must be given its bots; play deals a new game)
    assert all(len(uses) == 1 for name, uses in seen.items()
               if name not in ("--games", "--seed", "--bots")), seen
    assert {"--time", "--hint-time", "--delay", "--seats"} & set(seen) == {"--seats"}
    commands = dict(_commands())
    assert "--bot-option" in commands["ladder"].format_help()
    assert "--bots" in commands["simulate"].format_help()


@pytest.mark.parametrize(("old", "new"), [
    (["hint", "g.json", "--time", "3"], ("hint_seconds", 3.0)),
    (["play", "--hint-time", "3"], ("hint_seconds", 3.0)),
    (["play", "--delay", "0"], ("bot_delay", 0.0)),
    (["simulate", "--seats", "heuristic"], ("bots", "heuristic")),
])
def test_the_old_spellings_still_work(old: list[str], new: tuple[str, object]) -> None:
    assert getattr(build_parser().parse_args(old), new[0]) == new[1]


def test_a_ladder_takes_bot_options_into_the_bots_names(tmp_path: Path) -> None:
    proc = run(tmp_path, *LADDER[:2], "random,ismcts:iterations=5", *LADDER[3:],
               "--bot-option", "ismcts.exploration=0.5", "--out", "l.jsonl")
    assert proc.returncode == 0, proc.stderr
    assert "ismcts:iterations=5,exploration=0.5" in proc.stdout
    assert refused(tmp_path, *LADDER, "--bot-option", "ismcts.exploration=0.5") == (
        "pegs: --bot-option for 'ismcts', which is not one of the bots (random,heuristic)")
