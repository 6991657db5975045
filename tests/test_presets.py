"""A preset is one record (pegs.rules.presets): a throwaway record registered here plays
through the engine, its conformance scenarios, the bots, the cue card, the command line
and ``/api/presets`` without a line elsewhere; records, stored tables and ladder files
written before they kept the whole power table still replay."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from helpers import random_game
from pegs.bots import make_bot
from pegs.bots.heuristic import HeuristicBot
from pegs.cli import main
from pegs.conformance import run_scenario
from pegs.cue import cue_card
from pegs.record import Record, from_json, load
from pegs.rules import PRESETS, RANKS, GameState, Preset, Rules, RulesError, view
from pegs.rules.presets import COMMON, power_table
from pegs.rules.settings import SETTING_NAMES
from pegs.server.api import presets_json
from pegs.server.app import create_app
from pegs.server.database import migrate, open_engine
from pegs.server.limits import new_token, token_hash
from pegs.server.store import SeatRow, Store, TableRow
from pegs.sim.ladder import Ladder, read_ladder
from server.helpers import auth, new_table

RECORDS = Path(__file__).parent / "records"
LADDERS = Path(__file__).parent.parent / "docs" / "ladders"

#: A preset of mechanics the engine has, declared once (never registered outside a test).
THROWAWAY = Preset(
    "throwaway", "Throwaway rules (a test preset)",
    power_table({"4": ("-4",), "9": ("split9!", "+9"), "2": ("+2", "swap")}),
    decks=((4, 2), (10, 4)), stuck_rule="havasu_fourth_turn",
    settings={"holes_per_side": 19, "hand_size": 4, "joker_rule": "hit_start_first"},
    two_players={"jokers_per_deck": 1})


@pytest.fixture
def throwaway(monkeypatch: pytest.MonkeyPatch) -> Iterator[Preset]:
    monkeypatch.setitem(PRESETS, THROWAWAY.name, THROWAWAY)
    presets_json.cache_clear()
    yield THROWAWAY
    presets_json.cache_clear()


def test_every_record_is_complete_and_builds_at_every_table_size() -> None:
    for preset in PRESETS.values():
        assert set(preset.powers) == set(RANKS), preset.name
        assert set(COMMON) | set(preset.settings) | set(preset.two_players) <= SETTING_NAMES
        sizes = []
        for players in range(2, 11):
            try:
                rules = Rules.preset(preset.name, players=players)
            except RulesError:
                continue
            sizes.append(players)
            assert rules.stuck_rule == preset.stuck_rule
            assert dict(rules.powers) == preset.powers
            assert Rules.from_settings(json.loads(json.dumps(rules.settings()))) == rules
        assert {4, 6, 8} <= set(sizes), preset.name


def test_a_registered_record_sets_every_rule_of_its_games(throwaway: Preset) -> None:
    rules = Rules.preset("throwaway")
    assert (rules.holes_per_side, rules.hand_size, rules.decks, rules.pegs) == (19, 4, 2, 5)
    assert rules.power("4") == ("-4",) and rules.power("9") == ("split9!", "+9")
    assert rules.stuck_rule == "havasu_fourth_turn" and rules.joker_rule == "hit_start_first"
    two = Rules.preset("throwaway", players=2)
    assert (two.jokers_per_deck, two.sides) == (1, 4)
    assert Rules.preset("throwaway", players=6).decks == 4
    assert rules.changed_powers() == {}
    assert Rules.preset("throwaway", powers={"4": ["+4"]}).changed_powers() == {"4": ["+4"]}


def test_a_registered_preset_takes_conformance_scenarios(throwaway: Preset) -> None:
    """Its scenarios (the other half of adding a preset) run as any preset's."""
    four_back = {"name": "throwaway-four-goes-back", "rules": "throwaway",
                 "pegs": {"0": ["0.12", "S", "S", "S", "S"]}, "to_move": 0, "hand": ["4"],
                 "expect": {"exactly": [{"card": "4", "pegs": {"0": ["0.8", "S", "S", "S",
                                                                       "S"]}}]}}
    assert run_scenario(four_back).passed, run_scenario(four_back).line()
    wrong = {**four_back, "expect": {"includes": [{"card": "4", "pegs": {
        "0": ["0.16", "S", "S", "S", "S"]}}]}}
    assert not run_scenario(wrong).passed


def test_a_registered_preset_plays_to_the_end_and_its_record_replays(
        throwaway: Preset, tmp_path: Path) -> None:
    rules = Rules.preset("throwaway")
    *_, (final, _) = random_game(rules, 3, 4)
    assert final.is_over()
    # the heuristic bot plays it from the rules, and the record replays without the preset
    state = GameState.new(rules, 5)
    bots = [HeuristicBot(seed) for seed in range(rules.players)]
    actions = []
    while not state.is_over():
        seat = state.current_player
        action = bots[seat].choose(view(state, seat), state.legal_actions())
        actions.append(action)
        state = state.apply(action)
    record = Record(rules, 5, actions)
    data = record.to_json(state)
    assert data["rules"]["powers"]["4"] == ["-4"]
    assert from_json(json.loads(json.dumps(data))).replay().outcome() == state.outcome()


def test_the_default_search_plays_a_preset_without_a_fitted_model(throwaway: Preset) -> None:
    """No leaf model is fitted to the new preset: the search scores its leaves with the
    general model instead of refusing."""
    state = GameState.new(Rules.preset("throwaway"), 3)
    rng = random.Random(1)
    for _ in range(40):  # into the game, where positions have choices
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    bot = make_bot("ismcts", 5, iterations=60, rollout_depth=2)
    legal = state.legal_actions()
    assert bot.choose(view(state, state.current_player), legal) in legal


def test_the_cue_card_and_the_command_line_name_a_registered_preset(
        throwaway: Preset, capsys: pytest.CaptureFixture[str]) -> None:
    card = cue_card(Rules.preset("throwaway"))
    assert card.startswith("Throwaway rules (a test preset) (throwaway)")
    assert "  4      move a peg back 4" in card and "19 holes" in card
    assert main(["demo", "--rules", "throwaway", "--players", "2", "--seed", "2",
                 "--quiet"]) == 0
    assert "throwaway, 2 players" in capsys.readouterr().out


def test_the_server_lists_a_registered_preset_and_seats_a_table_of_it(
        throwaway: Preset, tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'pegs.db'}", bot_delay=0)) as http:
        listed = {p["name"]: p for p in http.get("/api/presets").json()["presets"]}
        assert list(listed) == list(PRESETS)
        mine = listed["throwaway"]
        assert mine["title"] == "Throwaway rules (a test preset)"
        assert mine["defaults"] == Rules.preset("throwaway").settings()
        assert mine["cards"]["4"] == ["-4"] and mine["cue"].startswith("Throwaway rules")
        assert mine["players"] == list(range(2, 11))
        code, _ = new_table(http, humans=1, preset="throwaway", players=4)
        table = http.get(f"/api/tables/{code}").json()
        assert table["preset"] == "throwaway" and table["title"] == mine["title"]
        assert table["settings"]["holes_per_side"] == 19


@pytest.mark.parametrize("name", ["house_powers_before_whole_tables.json",
                                  "pegoo_before_powers.json"])
def test_records_written_before_records_kept_the_whole_power_table_replay(
        name: str, tmp_path: Path) -> None:
    """Written by the release before records carried every rank's powers: one keeps only
    the house-changed powers, the other (a preset game) none."""
    old = json.loads((RECORDS / name).read_text())
    record = load(RECORDS / name)
    final = record.replay()
    assert final.outcome() is not None
    assert final.outcome().seats == tuple(old["result"]["seats"])  # type: ignore[union-attr]
    changed = old["rules"].get("powers", {})
    assert record.rules.changed_powers() == changed
    # written again, it carries the whole table and means the same
    again = record.to_json(final)
    assert again["rules"]["powers"] == {r: list(t) for r, t in record.rules.powers}
    assert from_json(again).rules == record.rules
    assert main(["replay", "--quiet", str(RECORDS / name)]) == 0


def test_a_table_stored_before_tables_kept_the_whole_power_table_plays_again_whole(
        tmp_path: Path) -> None:
    """A stored table's settings with only the house-changed powers (as stored before)
    read as those changes on the preset; its rematch is stored with the whole table."""
    url = f"sqlite:///{tmp_path / 'pegs.db'}"
    engine = open_engine(url)
    migrate(engine)
    old = {k: v for k, v in Rules.preset("basic", players=2).settings().items()
           if k != "powers"} | {"powers": {"4": ["-4"]}}
    token = new_token()
    Store(engine).create(TableRow("oldtable", old, 7, True, "finished", 0, 0, [
        SeatRow(0, "Ann", "human", token_hash(token)), SeatRow(1, "Bot", "bot", bot="heuristic")]))
    with TestClient(create_app(url, bot_delay=0)) as http:
        table = http.get("/api/tables/oldtable").json()
        assert table["settings"]["powers"]["4"] == ["-4"]
        assert table["settings"]["powers"]["7"] == ["+7", "split7"]
        again = http.post("/api/tables/oldtable/rematch", headers=auth(token)).json()
        assert again["next"]
    [row] = Store(engine).load(code=again["next"])
    assert row.settings["powers"] == table["settings"]["powers"]
    assert list(row.settings["powers"]) == list(RANKS)
    engine.dispose()


def test_a_ladder_file_written_before_results_kept_the_whole_power_table_grows() -> None:
    """The project's ladder files were written before: a ladder of the same bots, deals
    and rules finds every game of one in it (it would be refused as another ladder)."""
    ladder = Ladder(Rules.preset("basic", players=4, teams=2),
                    ("ismcts:iterations=300", "heuristic"), 100, seed=1, max_actions=3000)
    lines = (LADDERS / "basic.jsonl").read_text().splitlines()
    assert "powers" not in json.loads(lines[0])["rules"]
    assert len(read_ladder(LADDERS / "basic.jsonl", ladder)) == len(lines) == 100
