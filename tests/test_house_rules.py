"""House rules: card powers as settings, house-rules files, their cue cards, and games
played and replayed under them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegs.cli import main
from pegs.cue import cue_card
from pegs.house import HouseRulesError, load
from pegs.record import Record, RecordError, from_json
from pegs.rules import PRESETS, RANKS, GameState, Rules, RulesError

GRANDMA = """\
title = "Grandma's rules"
description = "Fours go back, twenty holes a side."
base = "basic"

[settings]
holes_per_side = 20

[cards]
"4" = ["-4"]
"9" = ["+9", "split9"]
"""


@pytest.fixture
def grandma(tmp_path: Path) -> Path:
    path = tmp_path / "grandma.toml"
    path.write_text(GRANDMA)
    return path


def test_a_house_file_changes_settings_and_card_powers(grandma: Path) -> None:
    house = load(grandma)
    rules = house.rules(players=6, teams=3)
    assert (house.title, house.base) == ("Grandma's rules", "basic")
    assert rules.holes_per_side == 20 and rules.players == 6
    assert rules.power("4") == ("-4",) and rules.power("9") == ("+9", "split9")
    assert rules.power("7") == Rules.preset("basic").power("7")
    assert rules.changed_powers() == {"4": ["-4"], "9": ["+9", "split9"]}
    written = rules.settings()["powers"]  # a record or table keeps the whole table
    assert list(written) == list(RANKS) and written["4"] == ["-4"]
    assert written["7"] == list(Rules.preset("basic").power("7"))


def test_a_house_file_with_a_list_setting_reads_and_writes_back(tmp_path: Path) -> None:
    text = GRANDMA.replace("holes_per_side = 20", 'split_finish_with_partner = ["7"]')
    (tmp_path / "a.toml").write_text(text)
    house = load(tmp_path / "a.toml")
    assert house.rules().split_finish_with_partner == ("7",)
    (tmp_path / "b.toml").write_text(house.toml())
    assert load(tmp_path / "b.toml") == house


def test_a_four_that_goes_back_is_played_back() -> None:
    rules = Rules.preset("basic", powers={"4": ["-4"]})
    state = GameState.from_position(rules, tuple(
        (9 + 18 * q, -1, -1, -1, -1) if q == 0 else (-1,) * 5 for q in range(4)), 0, ["4"])
    moves = {str(a) for a in state.legal_actions()}
    assert moves == {"4: 0.10<0.6"}, moves


def test_settings_carry_the_whole_power_table_and_older_ones_read_as_the_preset() -> None:
    rules = Rules.preset("north-carolina")
    data = rules.settings()
    assert data["powers"] == {rank: list(tokens) for rank, tokens in rules.powers}
    older = {k: v for k, v in data.items() if k != "powers"}  # a record before issue 48
    assert Rules.from_settings(older) == rules


@pytest.mark.parametrize(("powers", "words"), [
    ({"4": ["back4"]}, "card 4: unknown power 'back4'"),
    ({"X": ["+1"]}, "card 'X' is not a rank"),
    ({"4": "-4"}, "card 4: give its powers as a non-empty list"),
    ({"4": []}, "card 4: give its powers as a non-empty list"),
    ({"4": ["+30"]}, "card 4: a move of +30 is out of range"),
    ({"4": ["split7", "split9"]}, "card 4: one split at most"),
    ({"2": ["joker"]}, "card 2: joker is the Joker's own power"),
    ({"4": ["+4", "+4"]}, "card 4: a power is listed twice"),
    (["4"], "powers must map card ranks to lists of powers"),
])
def test_bad_powers_name_the_rank_and_token(powers: object, words: str) -> None:
    with pytest.raises(RulesError, match="^" + words.replace("+", r"\+")):
        Rules.preset("basic", powers=powers)


@pytest.mark.parametrize(("text", "words"), [
    (GRANDMA.replace("base = ", "colour = \"red\"\nbase = "), "unknown key 'colour'"),
    (GRANDMA.replace('"basic"', '"poker"'), "base: 'poker' is not a preset"),
    (GRANDMA.replace("holes_per_side = 20", "holes_per_side = 40"),
     "holes_per_side must be a whole number from 18 to 25, not 40"),
    (GRANDMA.replace("holes_per_side", "holes"), "unknown setting 'holes'"),
    (GRANDMA.replace('"4" = ["-4"]', '"4" = ["back4"]'), "card 4: unknown power 'back4'"),
    (GRANDMA.replace('"4" = ', '"Z" = '), "cards.Z: not a card rank"),
    (GRANDMA.replace('title = "Grandma\'s rules"\n', ""), "title is required"),
    (GRANDMA.replace("Grandma's", "Grandma\\u202e's"),
     "title: the text may not hold characters that change the direction of text (U+202E)"),
    (GRANDMA.replace("Grandma's", "\\u0000"), "title: the text may not hold control characters"),
    (GRANDMA.replace("Grandma's", "x" * 80), "title: the text is at most 80 characters, not 86"),
    (GRANDMA.replace('"Fours go back, twenty holes a side."', '"\\u200b\\u3164\\u2800"'),
     "description: the text needs a visible character"),
    (GRANDMA.replace("[cards]", "[cards"), "not a valid TOML file"),
    ("\xff\xfe", "not a valid TOML file"),
])
def test_a_bad_house_file_is_one_line_naming_the_key(tmp_path: Path, text: str,
                                                     words: str) -> None:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    with pytest.raises(HouseRulesError) as e:
        load(path)
    assert words in str(e.value) and "\n" not in str(e.value)
    assert str(e.value).startswith(str(path))


def test_titles_and_descriptions_are_cleaned_like_all_typed_text(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(GRANDMA.replace('"Grandma\'s rules"', '"  Grandma\'s\\u200b   rules "')
                    .replace('"Fours go back, twenty holes a side."',
                             '"""\nFours go back,  \n\n\n  twenty holes a side.\n"""'))
    house = load(path)
    assert house.title == "Grandma's rules"
    assert house.description == "Fours go back,\ntwenty holes a side."


def test_the_cue_card_marks_and_describes_the_changed_cards(grandma: Path) -> None:
    house = load(grandma)
    card = cue_card(house.rules(), house.title, house.description)
    lines = card.splitlines()
    assert lines[:3] == ["Grandma's rules", "Fours go back, twenty holes a side.",
                         "House rules based on Pegs and Jokers, basic rules (basic)"]
    assert "  4*     move a peg back 4" in lines
    assert any(line.startswith("  9*     split 9 between two pegs") or
               line.startswith("  9*     move a peg forward 9") for line in lines)
    assert "  5      move a peg forward 5" in lines
    assert "*" not in cue_card(Rules.preset("basic"))


def test_cli_plays_replays_and_describes_a_house_game(grandma: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--house", str(grandma)]) == 0
    assert capsys.readouterr().out.startswith("Grandma's rules\n")
    game = tmp_path / "game.json"
    assert main(["demo", "--house", str(grandma), "--players", "6", "--teams", "3",
                 "--seed", "3", "--quiet", "--save", str(game)]) == 0
    data = json.loads(game.read_text())
    assert {rank: tokens for rank, tokens in data["rules"]["powers"].items()
            if tokens != list(Rules.preset("basic").power(rank))} == {
        "4": ["-4"], "9": ["+9", "split9"]}
    assert data["rules"]["holes_per_side"] == 20
    grandma.unlink()  # the record replays without the file
    capsys.readouterr()
    assert main(["replay", str(game), "--quiet"]) == 0
    assert "verified" in capsys.readouterr().out


def test_demo_replay_and_simulate_name_the_house_rules(grandma: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    game = tmp_path / "game.json"
    assert main(["demo", "--house", str(grandma), "--players", "6", "--teams", "3",
                 "--seed", "3", "--quiet", "--save", str(game)]) == 0
    named = "Grandma's rules (house rules on basic), 6 players, seed 3: Team A: "
    assert capsys.readouterr().out.startswith(named)
    data = json.loads(game.read_text())
    assert data["house"] == {"title": "Grandma's rules",
                             "description": "Fours go back, twenty holes a side."}
    assert main(["replay", str(game), "--quiet"]) == 0
    assert capsys.readouterr().out.startswith(named)
    assert main(["simulate", "--house", str(grandma), "--games", "1", "--jobs", "1",
                 "--max-actions", "5"]) == 0
    assert capsys.readouterr().err.startswith("Grandma's rules (house rules on basic), 4 players")


@pytest.mark.parametrize("house", [["a title"], {"title": ""}, {"title": "x", "colour": "red"},
                                   {"title": "a\u202etitle"}])
def test_a_record_with_a_bad_house_name_is_refused(house: object) -> None:
    data = Record(Rules.preset("basic"), 1).to_json()
    from_json({**data, "house": None})  # no name: a preset's game
    with pytest.raises(RecordError, match="house"):
        from_json({**data, "house": house})


def test_cli_refuses_rules_and_house_together_and_bad_files(
        grandma: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--rules", "basic", "--house", str(grandma)]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["rules", "--house", str(tmp_path / "none.toml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read the house rules" in err
    assert main(["rules"]) == 2
    assert "name a preset" in capsys.readouterr().err


TOKENS = ["out", "swap", "split7", "split9", "split10", "split7!", "split9!",
          *(f"+{n}" for n in range(1, 21)), *(f"-{n}" for n in range(1, 21))]


@st.composite
def house_powers(draw: st.DrawFn) -> dict[str, list[str]]:
    ranks = draw(st.lists(st.sampled_from(RANKS[:-1]), min_size=1, max_size=5, unique=True))
    powers: dict[str, list[str]] = {}
    for rank in ranks:
        tokens = draw(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=4, unique=True))
        splits = [t for t in tokens if t.startswith("split")]
        powers[rank] = [t for t in tokens if not t.startswith("split")] + splits[:1]
    return powers


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(list(PRESETS)), house_powers(), st.integers(0, 2**31))
def test_random_house_powers_never_crash_and_every_listed_action_applies(
        preset: str, powers: dict[str, list[str]], seed: int) -> None:
    try:
        rules = Rules.preset(preset, powers=powers)
    except RulesError as e:  # powers no game could finish under are refused, only those
        assert "can never finish a game" in str(e)
        return
    assert Rules.from_settings(rules.settings()) == rules
    state = GameState.new(rules, seed)
    rng = random.Random(seed)
    actions = []
    for ply in range(120):
        if state.is_over():
            break
        legal = state.legal_actions()
        assert len(legal) > 0
        if ply % 15 == 0:
            for a in list(legal)[:200]:
                state.apply(a)
        action = legal[rng.randrange(len(legal))]
        actions.append(action)
        state = state.apply(action)
    record = from_json(json.loads(json.dumps(Record(rules, seed, actions).to_json())))
    assert [s for s, _ in record.states()][-1] == state


def test_a_house_file_saved_with_a_byte_order_mark_reads_and_a_missing_title_is_named(
        tmp_path: Path) -> None:
    path = tmp_path / "gran.toml"
    path.write_text('title = "Gran"\nbase = "basic"\n[cards]\n4 = ["-4"]\n', encoding="utf-8-sig")
    assert load(path).title == "Gran"
    path.write_text('base = "basic"\n', encoding="utf-8")
    with pytest.raises(HouseRulesError, match="title is required"):
        load(path)
