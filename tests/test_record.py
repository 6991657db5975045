"""Game records: settings + seed + actions, saved, loaded, verified (DESIGN: the one idea)."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from helpers import random_game
from pegs.record import FORMAT, VERSION, Record, RecordError, from_json, load
from pegs.rules import Action, GameState, Rules

RULES = Rules.preset("pegoo", players=2)  # short games
SEED = 4


def _game(rules: Rules = RULES, seed: int = SEED) -> tuple[list[Action], GameState]:
    actions: list[Action] = []
    final = None
    for state, action in random_game(rules, seed, seed + 1):
        if isinstance(action, Action):
            actions.append(action)
        else:
            final = state
    assert final is not None and final.is_over()
    return actions, final


@pytest.fixture(scope="module")
def game() -> tuple[list[Action], GameState]:
    return _game()


@pytest.fixture
def data(game: tuple[list[Action], GameState]) -> dict[str, Any]:
    actions, _ = game
    return json.loads(json.dumps(Record(RULES, SEED, actions).to_json()))


def test_to_json_holds_settings_seed_actions_and_result(
    game: tuple[list[Action], GameState], data: dict[str, Any]
) -> None:
    actions, final = game
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert data["rules"] == RULES.settings()
    assert data["seed"] == SEED
    assert data["actions"] == [str(a) for a in actions]
    assert final.outcome() is not None
    assert data["result"] == {"team": final.outcome().team, "seats": list(final.outcome().seats)}


def test_save_and_load_round_trip(
    tmp_path: Path, game: tuple[list[Action], GameState]
) -> None:
    actions, final = game
    path = tmp_path / "game.json"
    Record(RULES, SEED, actions, names=["Ann", "Bob"]).save(path)
    loaded = load(path)
    assert loaded.rules == RULES
    assert loaded.seed == SEED
    assert loaded.actions == actions
    assert loaded.names == ["Ann", "Bob"]
    assert loaded.replay().key() == final.key()
    # and again: saving what was loaded gives the same file
    again = tmp_path / "again.json"
    loaded.save(again)
    assert json.loads(again.read_text()) == json.loads(path.read_text())


def test_unfinished_game_has_no_result() -> None:
    st = GameState.new(RULES, 1)
    actions = []
    for _ in range(10):
        a = st.legal_actions()[0]
        actions.append(a)
        st = st.apply(a)
    data = Record(RULES, 1, actions).to_json()
    assert "result" not in data
    assert from_json(data).replay().key() == st.key()


def test_states_pair_each_state_with_its_action(game: tuple[list[Action], GameState]) -> None:
    actions, final = game
    pairs = list(Record(RULES, SEED, actions).states())
    assert [a for _, a in pairs] == [*actions, None]
    assert pairs[0][0].key() == GameState.new(RULES, SEED).key()
    assert pairs[-1][0].key() == final.key()
    for (state, action), (nxt, _) in itertools.pairwise(pairs):
        assert state.apply(action).key() == nxt.key()  # type: ignore[arg-type]


def test_replay_reports_the_first_illegal_action(game: tuple[list[Action], GameState]) -> None:
    actions, _ = game
    bad = list(actions)
    bad[6] = Action.parse("K: 9.1>9.11")
    with pytest.raises(RecordError, match="action 7"):
        Record(RULES, SEED, bad).replay()


# --- tampered records -------------------------------------------------------------------


def _reject(data: Any) -> str:
    with pytest.raises(RecordError) as info:
        from_json(data)
    assert isinstance(info.value, ValueError)
    return str(info.value)


@pytest.mark.parametrize("index", [0, 5, 17])
def test_changed_action_is_reported_by_number(data: dict[str, Any], index: int) -> None:
    data["actions"][index] = "K: 9.1>9.11"  # no side 9 on this board
    msg = _reject(data)
    assert f"action {index + 1}" in msg


def test_swapped_actions_are_reported(
    game: tuple[list[Action], GameState], data: dict[str, Any]
) -> None:
    actions, _ = game
    texts = data["actions"]
    # the first pair of turns where the second seat's action is not legal for the first
    states = [s for s, _ in Record(RULES, SEED, actions).states()]
    i = next(
        i for i in range(len(actions) - 1)
        if actions[i + 1] not in states[i].legal_actions()
    )
    texts[i], texts[i + 1] = texts[i + 1], texts[i]
    assert f"action {i + 1}" in _reject(data)


def test_malformed_action_text_is_reported_by_number(data: dict[str, Any]) -> None:
    data["actions"][3] = "garbage"
    msg = _reject(data)
    assert "action 4" in msg


@pytest.mark.parametrize("bad", [5, None, ["5: discard"], {"card": "5"}])
def test_non_text_action_is_reported_by_number(data: dict[str, Any], bad: object) -> None:
    data["actions"][2] = bad
    assert "action 3" in _reject(data)


def test_extra_action_after_the_end(data: dict[str, Any]) -> None:
    data["actions"].append(data["actions"][-1])
    msg = _reject(data)
    assert f"action {len(data['actions'])}" in msg
    assert "over" in msg


@pytest.mark.parametrize("version", [0, 2, "1", None])
def test_wrong_version(data: dict[str, Any], version: object) -> None:
    data["version"] = version
    assert "version" in _reject(data)


@pytest.mark.parametrize("fmt", ["pegs", None, 1])
def test_wrong_format(data: dict[str, Any], fmt: object) -> None:
    data["format"] = fmt
    assert FORMAT in _reject(data)


@pytest.mark.parametrize("whole", [[], None, "record", 3])
def test_not_an_object(whole: object) -> None:
    _reject(whole)


@pytest.mark.parametrize(
    "change",
    [
        {"players": 11},
        {"holes_per_side": 30},
        {"teams": 3},
        {"name": "wahoo"},
        {"stuck_rule": "never"},
        {"players": "4"},
        {"split_finish_with_partner": "79"},
        {"split_finish_with_partner": ["8"]},
        {"colour": "red"},
        {"powers": 5},
        {"powers": [["A", "+99"]]},
    ],
    ids=str,
)
def test_bad_settings(data: dict[str, Any], change: dict[str, Any]) -> None:
    data["rules"].update(change)
    assert "settings" in _reject(data)


@pytest.mark.parametrize("rules", [None, [], "pegoo", {"players": 4}])
def test_settings_not_an_object_with_a_name(data: dict[str, Any], rules: object) -> None:
    data["rules"] = rules
    assert "settings" in _reject(data)


def test_changed_settings_break_the_replay(data: dict[str, Any]) -> None:
    data["rules"]["holes_per_side"] = 18
    msg = _reject(data)
    assert "action" in msg or "claims" in msg


def test_changed_seed_breaks_the_replay(data: dict[str, Any]) -> None:
    data["seed"] = SEED + 1
    assert "action" in _reject(data)


@pytest.mark.parametrize("seed", ["4", 4.0, None, True])
def test_seed_must_be_a_whole_number(data: dict[str, Any], seed: object) -> None:
    data["seed"] = seed
    assert "seed" in _reject(data)


@pytest.mark.parametrize("actions", ["9: H3>H4", None, {"1": "A: S>0.5"}, 5])
def test_actions_must_be_a_list(data: dict[str, Any], actions: object) -> None:
    data["actions"] = actions
    assert "actions" in _reject(data)


@pytest.mark.parametrize("names", ["Ann", [1, 2], {"0": "Ann"}])
def test_names_must_be_strings(data: dict[str, Any], names: object) -> None:
    data["names"] = names
    assert "names" in _reject(data)


def test_wrong_claimed_result(data: dict[str, Any]) -> None:
    real = data["result"]["seats"]
    data["result"]["seats"] = [1 - real[0]]
    msg = _reject(data)
    assert "claims" in msg


@pytest.mark.parametrize("result", [{"seats": "x"}, [0], "seat 0", {"team": 0}])
def test_malformed_claimed_result(data: dict[str, Any], result: object) -> None:
    data["result"] = result
    _reject(data)


def test_claimed_result_of_an_unfinished_game(data: dict[str, Any]) -> None:
    data["actions"] = data["actions"][:-1]
    assert "no winner" in _reject(data)


def test_truncated_actions_without_result_load(data: dict[str, Any]) -> None:
    del data["result"]
    data["actions"] = data["actions"][:20]
    assert len(from_json(data).actions) == 20


# --- files ---------------------------------------------------------------------------------


def test_truncated_file(tmp_path: Path, data: dict[str, Any]) -> None:
    text = json.dumps(data)
    path = tmp_path / "cut.json"
    path.write_text(text[: len(text) // 2])
    with pytest.raises(RecordError, match="JSON"):
        load(path)


@pytest.mark.parametrize("content", [b"", b"\xff\xfe\x00garbage", b"{]"])
def test_unreadable_files(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(RecordError):
        load(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load(tmp_path / "nope.json")


@pytest.mark.parametrize("name", ["basic", "havasu", "north-carolina", "bluffing-joker"])
def test_records_of_other_presets_round_trip(name: str) -> None:
    rules = Rules.preset(name)
    rng = random.Random(3)
    st = GameState.new(rules, 3)
    actions = []
    for _ in range(300):
        if st.is_over():
            break
        a = rng.choice(list(st.legal_actions()))
        actions.append(a)
        st = st.apply(a)
    again = from_json(json.loads(json.dumps(Record(rules, 3, actions).to_json())))
    assert again.actions == actions
    assert again.replay().key() == st.key()


def test_a_seats_bluffing_record_hides_undoubted_cards_of_others() -> None:
    # I-26: undoubted face-down cards are never shown to other seats; the seed (which
    # would reveal every hand) is left out.
    rules = Rules.preset("bluffing-joker")
    rng = random.Random(8)
    st = GameState.new(rules, 8)
    actions: list[Action] = []
    declared_at: dict[int, int] = {}  # action index -> declarer
    doubted: set[int] = set()
    current = -1
    while len(actions) < 400 and not st.is_over():
        legal = list(st.legal_actions())
        if st.pending is not None and st.pending.chooser < 0:
            a = legal[0] if rng.random() < 0.2 else legal[1]  # doubt, pass
            if a.decision == "doubt":
                doubted.add(current)
        else:
            a = rng.choice(legal)
            if a.declared:
                current = len(actions)
                declared_at[current] = st.turn
        actions.append(a)
        st = st.apply(a)
    assert doubted and set(declared_at) - doubted
    record = Record(rules, 8, actions)
    full = record.to_json()["actions"]
    for seat in range(rules.players):
        mine = record.for_seat(seat)
        assert "seed" not in mine
        assert mine["seat"] == seat
        for i, text in enumerate(mine["actions"]):
            if i in declared_at and i not in doubted and declared_at[i] != seat:
                assert text.startswith("? as "), text
                assert text.split(" as ", 1)[1] == full[i].split(" as ", 1)[1]
            else:
                assert text == full[i]
