"""The terminal's move picker: card, then peg, then the move, only ever from the legal list."""

from __future__ import annotations

import random

import pytest

from helpers import position, ten_through_a_door
from pegs.notation import CARD_WORDS, announce
from pegs.rules import Action, GameState, Rules
from pegs.tui.choose import DISCARD, Picker


def picker_for(state: GameState) -> Picker:
    return Picker.build(state.legal_actions(), state.geo, state.pegs, state.turn,
                        lambda a: str(a) if a.decision else announce(state, a))


def walk(picker: Picker) -> set[str]:
    """Every action reachable by choosing options, failing on a dead end."""
    reached: set[str] = set()
    options = picker.options()
    assert options, f"no options at level {picker.level} after {picker.chosen}"
    for choice in options:
        nxt = picker.pick(choice.key)
        found = nxt.result()
        reached |= {str(found)} if found is not None else walk(nxt)
    return reached


def positions(preset: str, players: int, seed: int, count: int) -> list[GameState]:
    """Positions from a random game (every few plies), kept small enough to walk."""
    rules = Rules.preset(preset, players=players)
    state, rng, out = GameState.new(rules, seed), random.Random(seed), []
    while not state.is_over() and len(out) < count:
        legal = state.legal_actions()
        if state.ply % 7 == 0 and len(legal) <= 400:
            out.append(state)
        state = state.apply(rng.choice(legal))
    return out


@pytest.mark.parametrize(("preset", "players"), [
    ("pegoo", 4), ("basic", 2), ("havasu", 6), ("north-carolina", 4), ("bluffing-joker", 4),
    ("arizona", 4),
])
def test_the_options_reach_exactly_the_legal_actions(preset: str, players: int) -> None:
    for state in positions(preset, players, seed=3, count=12):
        picker = picker_for(state)
        assert walk(picker) == {str(a) for a in state.legal_actions()}, str(state)


def test_cards_are_the_distinct_cards_that_have_a_legal_action() -> None:
    rules = Rules.preset("pegoo")
    state = position(rules, {0: ["0.5", "0.12"]}, ["7", "7", "3", "K", "8", "2"])
    picker = picker_for(state)
    keys = [c.key for c in picker.options()]
    assert sorted(keys) == sorted({a.card for a in state.legal_actions()})
    assert len(keys) == len(set(keys))
    assert picker.level == "card"
    seven = picker.pick("7")
    assert seven.level == "peg"
    assert {c.spot for c in seven.options()} == {(0, 4), (0, 11)}


def test_a_split_starts_from_either_peg_and_ends_with_the_split() -> None:
    rules = Rules.preset("pegoo")
    state = position(rules, {0: ["0.5", "0.14"]}, ["7", "4", "4", "4", "4", "4"])
    picker = picker_for(state).pick("7")
    seconds_from = {}
    for peg in picker.options():
        after = picker.pick(peg.key)
        assert after.level == "second"
        seconds_from[peg.key] = {c.key for c in after.options()}
    assert seconds_from == {"0.5": {"whole", "0.14"}, "0.14": {"whole", "0.5"}}
    both = picker.pick("0.14").pick("0.5")
    assert both.level == "move"
    assert both.trail() == ["Seven: 8 moves", "R peg at 14 (0.14)", "and the R peg at 5 (0.5)"]
    splits = {c.key for c in both.options()}
    legal_splits = {str(a) for a in state.legal_actions() if len(a.steps) == 2}
    assert splits == legal_splits and len(splits) == 6
    assert {frozenset(c.targets) for c in both.options()} == {
        frozenset({(0, 4 + k), (0, 13 + 7 - k)}) for k in range(1, 7)}  # 0.5 and 0.14 after
    labels = [c.label for c in both.options()]
    assert all(label.startswith("Seven. ") and " and " in label for label in labels)
    assert picker.pick("0.5").pick("whole").result() == Action.parse("7: 0.5>0.12")


def test_a_card_with_one_move_ends_at_once_and_shows_the_move() -> None:
    rules = Rules.preset("pegoo")
    state = position(rules, {}, ["K", "4", "4", "4", "4", "4"])
    picker = picker_for(state)
    (king,) = [c for c in picker.options() if c.key == "K"]
    assert king.label == "King: START to 5."
    assert king.targets == ((0, 4),)
    assert picker.pick("K").result() == Action.parse("K: S>0.5")


def test_a_hand_that_cannot_move_discards() -> None:
    rules = Rules.preset("basic", players=4)
    state = position(rules, {}, ["4", "5", "6", "8", "9", "10"])
    picker = picker_for(state)
    options = picker.options()
    assert {c.key for c in options} == {"4", "5", "6", "8", "9", "10"}
    assert all("discard" in c.label for c in options)
    action = picker.pick("8").result()
    assert action is not None and action.discard and action.card == "8"


def test_back_returns_to_the_card_and_bad_keys_are_refused() -> None:
    rules = Rules.preset("pegoo")
    state = position(rules, {0: ["0.5", "0.12"]}, ["7", "4", "4", "4", "4", "4"])
    picker = picker_for(state)
    deeper = picker.pick("7").pick("0.5")
    assert deeper.back().level == "peg"
    assert deeper.back().back().level == "card"
    assert picker.back() == picker
    with pytest.raises(ValueError, match="not one of the options"):
        picker.pick("Q")
    with pytest.raises(ValueError):
        picker.pick(DISCARD)


def test_bluffing_asks_for_the_declared_rank_and_decisions_stand_alone() -> None:
    state = GameState.new(Rules.preset("bluffing-joker"), 1)
    picker = picker_for(state)
    first = picker.options()[0]
    card = first.key
    assert first.label.startswith(f"{CARD_WORDS[card]}: ") and "face down as" in first.label
    declare = picker.pick(card)
    assert declare.level == "declare"
    assert {c.key for c in declare.options()} == {
        a.declared for a in state.legal_actions() if a.card == card}
    action = declare.pick(declare.options()[0].key).result()
    assert action is not None and action.declared
    pending = state.apply(action)
    decisions = picker_for(pending)
    assert decisions.prompt() == "Decide"
    assert [c.key for c in decisions.options()] == ["doubt", "pass"]
    assert decisions.pick("pass").result() == Action.parse("pass")


def test_a_split_whose_second_peg_arrives_by_the_first_step_starts_with_the_first() -> None:
    state, action = ten_through_a_door()
    assert action in state.legal_actions()
    picker = picker_for(state).pick("10")
    firsts = {c.key: c for c in picker.options()}
    assert "1.7" in firsts and "3.18" not in firsts  # 3.18 is empty before the move
    second = picker.pick("1.7")
    label = {c.key: c.label for c in second.options()}["3.18"]
    assert label == "and the peg at 18 (3.18)"
    both = second.pick("3.18")
    assert both.level == "move"
    assert both.pick(str(action)).result() == action
