"""``pegs play`` without the screen: seats, where games are saved, records and resuming."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from helpers import no_traceback, pegs
from pegs.record import Record, load
from pegs.rules import Rules
from pegs.tui.launch import farewell
from pegs.tui.session import Session, SetupError, default_path, games_dir, parse_seats


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("PEGS_DATA_DIR", str(folder))
    return folder


def test_seats_by_default_and_by_name() -> None:
    assert parse_seats(None, 4) == ("human", "heuristic", "heuristic", "heuristic")
    assert parse_seats(None, 3, "strong") == ("human", "ismcts", "ismcts")
    assert parse_seats("you, easy,Normal,ismcts", 4) == ("human", "random", "heuristic", "ismcts")
    with pytest.raises(SetupError, match="one entry per seat: 4 for this table, not 2"):
        parse_seats("human,easy", 4)
    with pytest.raises(SetupError, match="unknown seat 'wizard'"):
        parse_seats("human,wizard", 2)
    with pytest.raises(SetupError, match="--strength names a bot"):
        parse_seats(None, 2, "human")


def test_games_are_saved_under_the_data_dir(private_data_dir: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # one clock second for both names, however slow the machine
    monkeypatch.setattr(time, "strftime", lambda fmt: "20261121-120000")
    assert games_dir() == private_data_dir / "games"
    path = default_path(Rules.preset("pegoo"), 42)
    assert path.parent == private_data_dir / "games"
    assert path.name.endswith("-pegoo-4p-42.json")
    path.parent.mkdir(parents=True)
    path.write_text("{}", encoding="utf-8")
    again = default_path(Rules.preset("pegoo"), 42)
    assert again != path and again.name.endswith("-42-2.json")  # never over another game


def test_every_action_is_saved_and_resumes_exactly(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "game.json"
    rules = Rules.preset("basic", players=3, teams=0)
    session = Session(rules, 9, ("human", "easy", "normal"), path)
    session.save()
    for _ in range(30):
        seat = session.to_act
        words = session.play(session.bot(seat).choose(session.view_for(seat),
                                                      session.state.legal_actions())
                             if not session.is_human(seat)
                             else session.state.legal_actions()[0])
        assert words.startswith(f"Seat {seat} (")
        session.save()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["seats"] == ["human", "random", "heuristic"]
    assert len(data["actions"]) == 30
    record = load(path)
    assert record.replay() == session.state
    replayed = pegs("replay", str(path))
    assert replayed.returncode == 0 and "All 30 actions verified." in replayed.stdout
    resumed = Session.resume(path)
    assert resumed.recent == session.recent and len(resumed.recent) == 8
    assert resumed.state == session.state
    assert resumed.seats == session.seats
    assert resumed.path == path
    other = Session.resume(path, "human,human,easy", save_to=tmp_path / "copy.json")
    assert other.seats == ("human", "human", "random")
    assert other.path == tmp_path / "copy.json"
    assert not list(path.parent.glob("*.tmp"))


def test_a_demo_record_resumes_with_a_human_in_seat_0(tmp_path: Path) -> None:
    rules = Rules.preset("pegoo")
    record = Record(rules, 3)
    path = tmp_path / "demo.json"
    record.save(path)
    session = Session.resume(path)
    assert session.seats == ("human", "heuristic", "heuristic", "heuristic")


def test_bad_records_are_refused_clearly(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(SetupError, match="not a JSON game record"):
        Session.resume(broken)
    with pytest.raises(SetupError, match="cannot read"):
        Session.resume(tmp_path / "missing.json")
    session = Session(Rules.preset("pegoo"), 1, ("human",) * 4, tmp_path / "ok.json")
    session.path = tmp_path / "missing-folder-is-a-file"
    session.path.write_text("", encoding="utf-8")
    session.path = session.path / "game.json"
    with pytest.raises(SetupError, match="cannot save the game"):
        session.save()


def test_play_command_errors_are_clear(tmp_path: Path) -> None:
    existing = tmp_path / "old-game.json"
    existing.write_text("kept", encoding="utf-8")
    for args, message in [
        (("--seats", "human,wizard,easy,easy"), "unknown seat 'wizard'"),
        (("--players", "3", "--seats", "human,easy"), "one entry per seat"),
        (("--resume", str(tmp_path / "nothing.json")), "cannot read"),
        (("--delay", "-1"), "--bot-delay must be 0 or more seconds, not -1"),
        (("--delay", "inf"), "--bot-delay must be 0 or more seconds, not inf"),
        (("--think", "nan"), "--think must be a number of seconds above 0, not nan"),
        (("--hint-time", "0"), "--hint-seconds must be a number of seconds above 0, not 0"),
        (("--save", str(existing)), "already exists: continue it with --resume"),
        (("--players", "11"), "players"),
    ]:
        proc = pegs("play", *args)
        no_traceback(proc)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert message in proc.stderr, (args, proc.stderr)
    assert not (tmp_path / "data").exists()
    assert existing.read_text(encoding="utf-8") == "kept"


def test_play_help_documents_the_seats_and_strengths() -> None:
    proc = pegs("play", "--help")
    assert proc.returncode == 0
    for words in ("easy", "random bot", "normal", "heuristic bot", "strong", "ismcts bot",
                  "--resume", "PEGS_DATA_DIR", "hot seat"):
        assert words in proc.stdout, words


def test_the_words_after_the_screen_closes(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    session = Session(Rules.preset("pegoo"), 1, ("human",) * 4, path)
    assert farewell(session, "") == (
        "Game saved after 0 actions, Seat 0 (Red, R) to act.\n"
        f"Continue with: pegs play --resume {path}")
    done = farewell(session, "Team 0 wins after 9 actions: Seat 0 (Red, R).")
    assert done.splitlines() == [
        "Team 0 wins after 9 actions: Seat 0 (Red, R).",
        f"Record saved to {path} (replay it with: pegs replay {path})",
    ]


def test_the_log_words_every_action_as_the_replay_does(tmp_path: Path) -> None:
    from pegs.notation import announce_line, announce_outcome

    rules = Rules.preset("bluffing-joker", players=2, teams=0)
    record_path = tmp_path / "bj.json"
    proc = pegs("demo", "--rules", "bluffing-joker", "--players", "2", "--teams", "0",
                "--seed", "3", "--max-turns", "60", "--quiet", "--save", str(record_path))
    assert proc.returncode == 0, proc.stderr
    actions = load(record_path).actions
    assert any(a.decision for a in actions)
    session = Session(rules, 3, ("random", "random"), tmp_path / "g.json")
    outcomes = 0
    for action in actions:
        before = session.state
        words = session.play(action)
        assert words == announce_line(before, action)
        outcome = announce_outcome(before, action, session.state)
        if outcome:
            outcomes += 1
            assert words.endswith(outcome)  # the log tells what a doubt or pass led to
    assert outcomes
