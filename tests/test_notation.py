"""Canonical move notation (RULES.md section 6): parsing, printing, round trips, errors."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import PRESETS_UNDER_TEST, position
from pegs.notation import option_words
from pegs.rules import Action, GameState, NotationError, Rules, Step, parse_rank, rank_text

# --- the examples of RULES.md section 6 ------------------------------------------------


def test_nine_split_example_parses() -> None:
    a = Action.parse("9: H3>H4, 0.5<3.17")
    assert a.card == "9"
    assert a.steps == (Step("H3", "H4", ">"), Step("0.5", "3.17", "<"))
    assert not a.discard
    assert str(a) == "9: H3>H4, 0.5<3.17"


@pytest.mark.parametrize(
    ("text", "step"),
    [
        ("S>0.5", Step("S", "0.5", ">")),
        ("0.11~2.4", Step("0.11", "2.4", "~")),
        ("0.11>0.17x", Step("0.11", "0.17", ">", True)),
        ("0.5<3.17", Step("0.5", "3.17", "<")),
        ("H1>H3", Step("H1", "H3", ">")),
        ("S@2>1.20", Step("S@2", "1.20", ">")),
        ("2.3>S@1", Step("2.3", "S@1", ">")),
        ("H3@2>H4@2", Step("H3@2", "H4@2", ">")),
    ],
)
def test_steps_parse(text: str, step: Step) -> None:
    assert Step.parse(text) == step
    assert str(step) == text


def test_joker_action_uses_j_star() -> None:
    a = Action.parse("J*: S>2.7x")
    assert a.card == "Joker"
    assert a.steps == (Step("S", "2.7", ">", True),)
    assert str(a) == "J*: S>2.7x"
    # a jack is not a joker
    assert Action.parse("J: S>0.5").card == "J"


def test_discard_notation() -> None:
    a = Action.parse("5: discard")
    assert a == Action("5", (), True)
    assert str(a) == "5: discard"


def test_whitespace_is_tolerated() -> None:
    assert Action.parse("  7 :  0.5>0.9 ,0.12>0.15 ") == Action.parse("7: 0.5>0.9, 0.12>0.15")


@pytest.mark.parametrize(
    ("text", "rank"),
    [("A", "A"), ("a", "A"), ("10", "10"), ("j", "J"), ("Q", "Q"), ("k", "K"),
     ("Joker", "Joker"), ("JOKER", "Joker"), ("J*", "Joker")],
)
def test_ranks(text: str, rank: str) -> None:
    assert parse_rank(text) == rank


def test_rank_text() -> None:
    assert rank_text("Joker") == "J*"
    assert rank_text("10") == "10"


# --- malformed notation ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("", "':'"),
        ("9", "':'"),
        ("9 H3>H4", "':'"),
        ("5:", "no steps"),
        ("5:   ", "no steps"),
        ("X: S>0.5", "not a card"),
        ("11: S>0.5", "not a card"),
        ("9: H3>>H4", "not a step"),
        ("9: H3>H4,", "not a step"),
        ("9: H3>H4,, 0.5<3.17", "not a step"),
        ("5: 0.5-0.10", "not a step"),
        ("5: 0.5>", "not a step"),
        ("5: a.b>0.6", "not a step"),
        ("5: discard, discard", "not a step"),
        ("6: 0.11>0.17xx", "not a step"),
    ],
)
def test_malformed_actions_raise_notation_error(text: str, hint: str) -> None:
    with pytest.raises(NotationError) as info:
        Action.parse(text)
    msg = str(info.value)
    assert hint in msg
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("bad", [None, 5, ["5: discard"], b"5: discard"])
def test_non_text_raises_notation_error(bad: object) -> None:
    with pytest.raises(NotationError, match="text"):
        Action.parse(bad)  # type: ignore[arg-type]


def test_bad_step_message_shows_the_forms() -> None:
    with pytest.raises(NotationError) as info:
        Step.parse("0.5=0.6")
    msg = str(info.value)
    assert "'0.5=0.6'" in msg and ">" in msg and "<" in msg


# --- every legal action round-trips --------------------------------------------------------


def _check_round_trip(state: GameState) -> None:
    for a in state.legal_actions():
        text = str(a)
        again = Action.parse(text)
        assert again == a, text
        assert str(again) == text


@pytest.mark.parametrize("name", PRESETS_UNDER_TEST)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_generated_action_round_trips(name: str, seed: int) -> None:
    rng = random.Random(seed)
    players = rng.choice([4, 6])
    rules = Rules.preset(name, players=players)
    state = GameState.new(rules, seed)
    for _ in range(250):
        if state.is_over():
            break
        _check_round_trip(state)
        legal = state.legal_actions()
        state = state.apply(rng.choice(legal))


@pytest.mark.parametrize("name", PRESETS_UNDER_TEST)
def test_round_trip_on_crowded_positions(name: str) -> None:
    # splits, hits, swaps and jokers all appear when many pegs are on the ring
    rules = Rules.preset(name)
    spec = {
        0: ["0.5", "0.9", "1.3", "H2"],
        1: ["1.5", "0.12"],
        2: ["2.5", "0.7", "3.10"],
        3: ["3.5", "1.8"],
    }
    hand = ["A", "2", "7", "9", "10", "Joker"] if rules.jokers_per_deck else ["A", "2", "7", "9"]
    for h in (hand, ["8", "J", "K", "Q", "5"]):
        state = position(rules, spec, h)
        assert state.legal_actions()
        _check_round_trip(state)
        said = [option_words(state, a) for a in state.legal_actions()]
        assert len(set(said)) == len(said)  # and every move reads differently
