"""Rule settings and presets against RULES.md section 5 (and sections 1-2)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from pegs.rules import PRESETS, Rules, RulesError

# RULES.md section 5, "Other settings per preset" (defaults for 4 players in 2 teams).
SECTION5 = {
    #                 H,  pegs, hand, order,            pass,  control,            help,
    #                 stuck,                  turn_in, split finish
    "pegoo": (20, 4, 5, "draw_then_play", True, "own_then_partner", "any",
              "pegoo_cant_play_pile", False, {"7", "9"}),
    "basic": (18, 5, 5, "draw_then_play", False, "own_then_partner", "clockwise",
              "none", False, set()),
    "traditional": (18, 5, 5, "draw_then_play", False, "own_then_partner", "clockwise",
                    "none", False, set()),
    "havasu": (18, 5, 5, "play_then_draw", False, "own_then_partner", "clockwise",
               "havasu_fourth_turn", False, {"7", "9"}),
    "arizona": (18, 5, 5, "play_then_draw", False, "team", None, "none", False, set()),
    "kilpatrick": (18, 5, 3, "play_then_draw", False, "team", None, "none", True, set()),
    "north-carolina": (18, 5, 5, "draw_then_play", False, "own_then_partner", "clockwise",
                       "nc_counting", False, {"7", "9"}),
    "social-security": (18, 5, 5, "draw_then_play", False, "own_then_partner", "clockwise",
                        "none", False, set()),
    "bluffing-joker": (18, 5, 5, "draw_then_play", False, "own_then_partner", "clockwise",
                       "none", False, set()),
}

# RULES.md section 5 "decks" row: (players, teams) -> decks, for the tables each preset lists.
DECKS = {
    "pegoo": {(2, 0): 2, (3, 0): 2, (4, 2): 2, (4, 0): 2, (5, 0): 3, (6, 2): 3, (7, 0): 3,
              (8, 2): 3},
    "basic": {(4, 2): 3, (6, 2): 3, (8, 2): 4},
    "traditional": {(2, 0): 3, (4, 2): 3, (6, 2): 3, (6, 3): 3},
    "havasu": {(4, 2): 3, (6, 2): 3},
    "arizona": {(4, 2): 4, (6, 2): 4, (8, 2): 4},
    "kilpatrick": {(4, 2): 4, (6, 2): 4, (8, 2): 4},
    "north-carolina": {(4, 2): 3, (6, 2): 3, (8, 2): 4},
    "social-security": {(2, 0): 3, (4, 2): 3, (6, 2): 3, (6, 3): 3},
    "bluffing-joker": {(4, 2): 3, (6, 2): 3, (8, 2): 4},
}

# RULES.md section 5 card table, as the engine's power tokens (see settings.py docstring):
# "must" splits carry "!" and keep the single full move as the I-08 fallback.
HIGH = {"J": {"out", "+11"}, "Q": {"out", "+12"}, "K": {"out", "+13"}}
TEN = {"J": {"out", "+10"}, "Q": {"out", "+10"}, "K": {"out", "+10"}}
CARDS = {
    "pegoo": {"A": {"out", "+1"}, "2": {"+2", "swap"}, "7": {"+7", "split7"},
              "9": {"+9", "split9"}, "10": {"+10"}, **TEN},
    "basic": {"A": {"out", "+1"}, "2": {"+2"}, "7": {"+7", "split7"}, "9": {"+9"},
              "10": {"+10"}, **TEN},
    "traditional": {"A": {"out", "+1"}, "2": {"+2"}, "7": {"+7", "split7"}, "9": {"+9"},
                    "10": {"+10"}, **TEN},
    "havasu": {"A": {"out", "+1"}, "2": {"+2"}, "7": {"split7!", "+7"},
               "9": {"split9!", "+9"}, "10": {"+10"}, **HIGH},
    "arizona": {"A": {"out", "+1"}, "2": {"+2"}, "7": {"+7", "split7"},
                "9": {"+9", "split9"}, "10": {"+10"}, **TEN},
    "kilpatrick": {"A": {"out", "+1"}, "2": {"+2"}, "7": {"+7", "split7"},
                   "9": {"+9", "split9"}, "10": {"+10"}, **TEN},
    "north-carolina": {"A": {"out", "+1", "-1", "+11"}, "2": {"+2", "swap"},
                       "7": {"split7!", "+7"}, "9": {"split9!", "+9"}, "10": {"split10"},
                       **TEN},
    "social-security": {"A": {"out", "+1"}, "2": {"+2"}, "7": {"+7", "split7"},
                        "9": {"split9!", "+9"}, "10": {"+10"}, **HIGH},
    "bluffing-joker": {"A": {"out", "+1"}, "2": {"+2"}, "7": {"+7", "split7"}, "9": {"+9"},
                       "10": {"+10"}, **TEN},
}
JOKER_RULE = {
    "pegoo": "pegoo", "arizona": "hit_start_first", "kilpatrick": "hit_start_first",
}


def test_every_preset_of_the_spec_exists() -> None:
    assert set(PRESETS) == set(SECTION5)


@pytest.mark.parametrize("name", sorted(SECTION5))
def test_preset_defaults_match_section_5(name: str) -> None:
    r = Rules.preset(name)
    h, pegs, hand, order, pass_own, control, help_order, stuck, turn_in, finish = SECTION5[name]
    assert (r.name, r.players, r.teams) == (name, 4, 2)
    assert r.sides == 4
    assert r.holes_per_side == h
    assert r.pegs == pegs
    assert r.home_holes == pegs  # section 1: home_holes defaults to pegs
    assert r.hand_size == hand
    assert r.turn_order == order
    assert r.may_pass_own is pass_own
    assert r.control == control
    if help_order is not None:
        assert r.help_order == help_order
    assert r.stuck_rule == stuck
    assert r.must_turn_in_at_door is turn_in
    assert set(r.split_finish_with_partner) == finish
    assert r.jokers_per_deck == 2
    assert r.extra_jokers == 0


@pytest.mark.parametrize("name", sorted(SECTION5))
def test_preset_card_powers_match_section_5(name: str) -> None:
    r = Rules.preset(name)
    for rank in ("3", "4", "5", "6"):
        assert set(r.power(rank)) == {f"+{rank}"}
    assert set(r.power("8")) == {"-8"}
    for rank, tokens in CARDS[name].items():
        assert set(r.power(rank)) == tokens, rank
    assert set(r.power("Joker")) == {"joker"}
    assert r.joker_rule == JOKER_RULE.get(name, "hit_from_anywhere")
    assert r.joker_comes_out is (name == "havasu")
    assert r.joker_obligatory is (name == "north-carolina")
    assert r.bluffing is (name == "bluffing-joker")


def test_power_of_unknown_rank_is_a_rules_error() -> None:
    with pytest.raises(RulesError, match="rank"):
        Rules.preset("basic").power("11")


@pytest.mark.parametrize(
    ("name", "players", "teams", "decks"),
    [(n, p, t, d) for n, table in DECKS.items() for (p, t), d in table.items()],
)
def test_decks_per_player_count(name: str, players: int, teams: int, decks: int) -> None:
    r = Rules.preset(name, players=players, teams=teams)
    assert r.decks == decks
    no_jokers = name in ("traditional", "social-security") and players == 2
    assert r.jokers_per_deck == (0 if no_jokers else 2)
    assert r.total_cards == decks * (52 + r.jokers_per_deck) + r.extra_jokers


@pytest.mark.parametrize(
    ("name", "players", "teams"),
    [
        ("pegoo", 2, 0), ("pegoo", 5, 0), ("pegoo", 8, 0), ("pegoo", 4, 2), ("pegoo", 6, 3),
        ("pegoo", 8, 4), ("pegoo", 6, 2), ("pegoo", 8, 2),
        ("traditional", 2, 0), ("traditional", 4, 2), ("traditional", 6, 3),
        ("traditional", 6, 2), ("havasu", 10, 2), ("havasu", 8, 2), ("basic", 8, 2),
    ],
)
def test_tables_listed_in_section_5_are_accepted(name: str, players: int, teams: int) -> None:
    r = Rules.preset(name, players=players, teams=teams)
    assert (r.players, r.teams) == (players, teams)
    expected_sides = 4 if players == 2 else players
    assert r.sides == expected_sides


def test_default_teams_follow_the_table_size() -> None:
    assert Rules.preset("pegoo", players=6).teams == 2
    assert Rules.preset("pegoo", players=3).teams == 0
    assert Rules.preset("pegoo", players=2).teams == 0
    assert Rules.preset("traditional", players=2).teams == 0


def test_overrides_change_exactly_the_named_settings() -> None:
    base = Rules.preset("pegoo")
    r = Rules.preset("pegoo", holes_per_side=18, pegs=5, may_pass_own=False, hand_size=6)
    assert (r.holes_per_side, r.pegs, r.may_pass_own, r.hand_size) == (18, 5, False, 6)
    assert r.home_holes == 5  # follows the new pegs when not given
    for f in ("turn_order", "control", "help_order", "stuck_rule", "decks", "joker_rule"):
        assert getattr(r, f) == getattr(base, f)
    r = Rules.preset("basic", home_holes=7, extra_jokers=4, turn_order="play_then_draw")
    assert (r.home_holes, r.pegs, r.extra_jokers, r.turn_order) == (7, 5, 4, "play_then_draw")
    assert r.total_cards == 3 * 54 + 4
    r = Rules.preset("traditional", players=6, teams=3)
    assert (r.players, r.teams, r.sides) == (6, 3, 6)
    r = Rules.preset("basic", players=3, teams=0, sides=6)
    assert r.sides == 6


def test_with_settings_validates() -> None:
    r = Rules.preset("basic").with_settings(hand_size=4)
    assert r.hand_size == 4 and r.name == "basic"
    with pytest.raises(RulesError, match="holes_per_side"):
        Rules.preset("basic").with_settings(holes_per_side=30)


def test_with_settings_pegs_keeps_home_holes_defaulting_to_pegs() -> None:
    # RULES.md section 1: home_holes defaults to pegs; changing pegs on a preset that never
    # set home_holes must not fail on a value the caller did not choose.
    r = Rules.preset("basic").with_settings(pegs=6)
    assert (r.pegs, r.home_holes) == (6, 6)


def _error(**kwargs: object) -> str:
    name = str(kwargs.pop("preset", "basic"))
    with pytest.raises(RulesError) as info:
        Rules.preset(name, **kwargs)
    assert isinstance(info.value, ValueError)
    return str(info.value)


def test_seven_players_cannot_make_two_teams() -> None:
    msg = _error(players=7, teams=2)
    assert "teams" in msg and "7" in msg
    assert "0" in msg  # 7 players can only play without teams


def test_six_players_in_four_teams_lists_allowed_team_counts() -> None:
    msg = _error(players=6, teams=4)
    assert "teams" in msg
    for allowed in ("0", "2", "3"):
        assert allowed in msg


def test_one_team_is_impossible() -> None:
    assert "teams" in _error(players=4, teams=1)


@pytest.mark.parametrize(
    ("kwargs", "setting", "bounds"),
    [
        ({"holes_per_side": 30}, "holes_per_side", ("18", "25")),
        ({"holes_per_side": 17}, "holes_per_side", ("18", "25")),
        ({"pegs": 2}, "pegs", ("3", "6")),
        ({"pegs": 7}, "pegs", ("3", "6")),
        ({"players": 11}, "players", ("2", "10")),
        ({"players": 1}, "players", ("2", "10")),
        ({"home_holes": 4}, "home_holes", ("5",)),
        ({"turn_order": "sideways"}, "turn_order", ("draw_then_play", "play_then_draw")),
        ({"stuck_rule": "x"}, "stuck_rule", ("none", "pegoo_cant_play_pile")),
        ({"control": "all"}, "control", ("own_then_partner", "team")),
        ({"may_pass_own": "yes"}, "may_pass_own", ()),
        ({"players": True}, "players", ()),
        ({"holes_per_side": 20.0}, "holes_per_side", ()),
    ],
)
def test_impossible_values_name_the_setting_and_allowed_values(
    kwargs: dict[str, object], setting: str, bounds: tuple[str, ...]
) -> None:
    msg = _error(**kwargs)
    assert setting in msg
    for b in bounds:
        assert b in msg


def test_unknown_setting_is_named() -> None:
    msg = _error(holes=20)
    assert "'holes'" in msg
    assert "holes_per_side" in msg  # the valid names are listed


def test_unknown_preset_is_named_with_the_choices() -> None:
    msg = _error(preset="wahoo")
    assert "wahoo" in msg
    for name in ("pegoo", "basic", "havasu"):
        assert name in msg


def test_too_few_decks_is_refused() -> None:
    # 10 hands of 5 (plus a draw) cannot come out of one 54-card deck.
    msg = _error(players=10, decks=1)
    assert "decks" in msg
    assert "decks" in _error(preset="pegoo", players=8, teams=0, decks=1)


def test_rules_is_frozen_and_hashable() -> None:
    a, b = Rules.preset("pegoo"), Rules.preset("pegoo")
    assert a == b and hash(a) == hash(b)
    assert len({a, b, Rules.preset("basic")}) == 2
    assert {a: 1}[b] == 1
    assert Rules.preset("pegoo", players=6) != a
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.players = 6  # type: ignore[misc]


def _variants() -> list[Rules]:
    out = [Rules.preset(name) for name in PRESETS]
    out += [
        Rules.preset("pegoo", players=6, teams=3, holes_per_side=22, pegs=3, home_holes=5),
        Rules.preset("traditional", players=2),
        Rules.preset("havasu", players=10, extra_jokers=4, decks=5),
        Rules.preset("basic", players=5, teams=0, sides=6, may_pass_own=True),
        Rules.preset("kilpatrick", split_finish_with_partner=("9",),
                     powers={"4": ["-4", "out"], "10": ["split10"]}),
    ]
    return out


@pytest.mark.parametrize("rules", _variants(), ids=lambda r: f"{r.name}-{r.players}")
def test_settings_round_trip(rules: Rules) -> None:
    data = rules.settings()
    text = json.dumps(data)  # JSON-friendly
    again = Rules.from_settings(json.loads(text))
    assert again == rules
    assert hash(again) == hash(rules)
    assert again.settings() == data


@pytest.mark.parametrize("rules", _variants(), ids=lambda r: f"{r.name}-{r.players}")
def test_a_preset_takes_its_own_settings_as_json_gives_them(rules: Rules) -> None:
    """What ``settings()`` writes, read back from JSON, is what ``preset`` takes (a
    conformance scenario or a table states every setting so)."""
    data = json.loads(json.dumps(rules.settings()))
    name = data.pop("name")
    assert Rules.preset(name, **data) == rules
    with pytest.raises(RulesError, match="split_finish_with_partner must be a list"):
        Rules.preset(name, **{**data, "split_finish_with_partner": "79"})


@pytest.mark.parametrize("bad", [None, [], {}, {"name": 3}, {"players": 4}])
def test_from_settings_needs_a_preset_name(bad: object) -> None:
    with pytest.raises(RulesError):
        Rules.from_settings(bad)  # type: ignore[arg-type]
