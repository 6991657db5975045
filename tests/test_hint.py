"""``pegs hint``: a move for the seat to act at the end of a game record."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import no_traceback, pegs, position
from pegs.bots.heuristic import reason as heuristic_reason
from pegs.hint import Hint, HintError, choose, hint, home_words
from pegs.notation import announce
from pegs.record import Record, load
from pegs.rules import Action, GameState, Rules, view


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A game stopped after 37 actions and a finished game, both saved by ``pegs demo``."""
    folder = tmp_path_factory.mktemp("hint")
    paths = {"open": folder / "open.json", "over": folder / "over.json"}
    for name, extra in (("open", ["--max-turns", "37"]), ("over", [])):
        proc = pegs("demo", "--rules", "basic", "--seed", "3", "--quiet",
                    "--save", str(paths[name]), *extra)
        assert proc.returncode == 0, proc.stderr
    return paths


def field(out: str, name: str) -> str:
    for line in out.splitlines():
        if line.startswith(f"{name}:"):
            return line[len(name) + 1:].strip()
    raise AssertionError(f"no {name}: line in {out!r}")


def test_hint_prints_a_legal_move_with_announcement_and_reason(
    records: dict[str, Path]
) -> None:
    state = load(records["open"]).replay()
    seat = state.current_player
    assert not state.is_over() and seat >= 0
    for extra in ([], ["--seat", str(seat)]):
        proc = pegs("hint", str(records["open"]), "--time", "0.2", *extra)
        assert proc.returncode == 0, proc.stderr
        no_traceback(proc)
        action = Action.parse(field(proc.stdout, "move"))
        state.apply(action)  # legal, or IllegalActionError
        assert field(proc.stdout, "say") == announce(state, state.canonical(action))
        assert len(field(proc.stdout, "why")) > 3
        assert f"Seat {seat} " in proc.stdout.splitlines()[0]


def test_hint_for_the_wrong_seat_is_an_error(records: dict[str, Path]) -> None:
    seat = load(records["open"]).replay().current_player
    other = (seat + 1) % 4
    proc = pegs("hint", str(records["open"]), "--seat", str(other))
    assert proc.returncode == 2
    assert f"it is seat {seat}'s turn, not seat {other}'s" in proc.stderr
    no_traceback(proc)
    proc = pegs("hint", str(records["open"]), "--seat", "9")
    assert proc.returncode == 2 and "seat must be 0 to 3" in proc.stderr


def test_hint_after_the_end_of_the_game_is_an_error(records: dict[str, Path]) -> None:
    assert load(records["over"]).replay().is_over()
    proc = pegs("hint", str(records["over"]))
    assert proc.returncode == 2
    assert "the game is over" in proc.stderr
    assert proc.stdout == ""
    no_traceback(proc)


def test_hint_on_a_bad_file_is_an_error(tmp_path: Path) -> None:
    for name, text in (("missing.json", None), ("junk.json", "not json"),
                       ("other.json", '{"format": "something else"}')):
        path = tmp_path / name
        if text is not None:
            path.write_text(text)
        proc = pegs("hint", str(path))
        assert proc.returncode == 2, name
        assert proc.stderr.startswith("pegs: ")
        no_traceback(proc)
    proc = pegs("hint", str(tmp_path / "junk.json"), "--time", "0")
    assert proc.returncode == 2


# --- in process, with quicker bots ------------------------------------------------------------


def test_hint_by_a_quicker_bot_is_legal_reasoned_and_repeatable(
    records: dict[str, Path]
) -> None:
    record = load(records["open"])
    state = record.replay()
    for bot in ("random", "heuristic"):
        h = hint(record, bot=bot)
        assert isinstance(h, Hint) and h.bot == bot and h.seat == state.current_player
        assert h.action in state.legal_actions()
        assert h.announcement == announce(state, h.action)
        why = heuristic_reason(view(state, h.seat), h.action, state.pegs,
                               state.result_of(h.action))
        why = home_words(why, state.geo)
        assert h.reason.lower() == " ".join(why.split()).rstrip(".").lower() + "."
        assert hint(record, bot=bot) == h  # the same record gives the same hint
    with pytest.raises(HintError, match="turn, not seat"):
        hint(record, (state.current_player + 1) % 4, bot="random")


def test_reasons_call_home_holes_as_the_announcements_do() -> None:
    geo = GameState.new(Rules.preset("pegoo"), 1).geo  # 20 holes a side: home 1 is "21"
    assert (home_words("moves the peg at 17 into home at 22", geo)
            == "moves the peg at 17 into home 2")
    assert (home_words("the peg at 18 enters home exactly at 24; keeps the joker", geo)
            == "the peg at 18 enters home exactly at home 4; keeps the joker")
    assert (home_words("moves the peg deeper into home, 21 to 23", geo)
            == "moves the peg deeper into home, home 1 to home 3")
    assert home_words("moves the peg at 17 to 22", geo) == "moves the peg at 17 to 22"


def test_hint_during_a_bluffing_declaration_is_for_the_seat_asked() -> None:
    rules = Rules.preset("bluffing-joker", players=2)
    state = GameState.new(rules, 1)
    first = state.legal_actions()[0]
    record = Record(rules, 1, [first])
    after = record.replay()
    assert after.pending is not None and after.current_player == 1 != after.turn
    h = hint(record, bot="heuristic")
    assert h.seat == 1 and h.action.decision in ("doubt", "pass")
    assert h.announcement in ("Doubt Red's face-down Ace.", "Do not doubt Red's face-down Ace.")
    with pytest.raises(HintError, match="it is seat 1's turn, not seat 0's"):
        hint(record, 0, bot="heuristic")


def test_the_reason_says_what_the_move_does() -> None:
    rules = Rules.preset("basic", players=4)
    state = position(rules, {1: ["0.5"]}, ["A", "2", "3", "4", "5"])
    h = choose(state, 0, 1.0, bot="heuristic")
    assert h.action.card == "A"  # coming out onto the opponent is the obvious play
    assert "back to start" in h.reason.lower() and h.reason.endswith(".")


def test_choose_refuses_a_finished_game_and_a_bad_time(records: dict[str, Path]) -> None:
    over = load(records["over"]).replay()
    with pytest.raises(HintError, match="game is over"):
        choose(over, 0, 1.0)
    state = load(records["open"]).replay()
    with pytest.raises(HintError, match="more than 0"):
        choose(state, state.current_player, 0)
