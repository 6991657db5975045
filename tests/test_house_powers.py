"""House powers exactly as written (issue 48): an obligatory split leaves the card's other
powers out when a split can be made, a Joker keeps the other powers it is given, a joker
that comes out does so under every joker rule; and for random valid power sets on every
preset and table size the one listing is the general generator's (the oracle in
``tests/oracle``), other spellings included, and the cue card names every power."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import layout, table
from oracle import turn_of
from oracle.legal import generate
from pegs.cue import cue_card
from pegs.rules import PRESETS, RANKS, GameState, Rules, RulesError
from pegs.rules.settings import check_powers

TABLES = [(name, n) for name in PRESETS
          for n in (2, 4, 6, 10) if table(name, n) is not None]


def listed(rules: Rules, where: dict[int, list[str]], hand: list[str]) -> set[str]:
    state = GameState.from_position(rules, layout(rules, where), 0, hand)
    return {str(a) for a in state.legal_actions()}


def test_an_obligatory_split_leaves_the_cards_other_powers_out() -> None:
    rules = Rules.preset("basic", powers={"4": ["split7!", "out", "-4", "+4", "swap"]})
    where = {0: ["0.10", "0.14"], 1: ["1.9"]}
    got = listed(rules, where, ["4"])
    assert got and all("," in a for a in got)  # splits only: two steps each
    # with one peg on the ring no split can be made: every other power is offered
    alone = listed(rules, {0: ["0.10"], 1: ["1.9"]}, ["4"])
    assert {"4: S>0.5", "4: 0.10<0.6", "4: 0.10>0.14", "4: 0.10~1.9"} <= alone


def test_an_obligatory_split_on_a_joker_leaves_its_jump_out() -> None:
    rules = Rules.preset("basic", powers={"Joker": ["split9!", "joker"]})
    got = listed(rules, {0: ["0.10", "0.14"], 1: ["1.9"]}, ["Joker"])
    assert not any("x" in a for a in got)  # no joker hit
    assert sum("," in a for a in got) == 8


def test_a_joker_keeps_the_other_powers_it_is_given() -> None:
    rules = Rules.preset("basic", powers={"Joker": ["joker", "out"]})
    assert "J*: S>0.5" in listed(rules, {}, ["Joker"])
    assert "J*: S>0.5" not in listed(Rules.preset("basic"), {}, ["Joker"])
    comes_out = Rules.preset("pegoo", joker_comes_out=True)
    assert "J*: S>0.5" in listed(comes_out, {}, ["Joker"])  # the Pegoo joker too
    both = Rules.preset("havasu", powers={"Joker": ["joker", "out"]})
    state = GameState.from_position(both, layout(both, {}), 0, ["Joker"])
    assert [str(a) for a in state.legal_actions()].count("J*: S>0.5") == 1  # once


def test_the_cue_card_says_what_the_listing_does() -> None:
    card = cue_card(Rules.preset("basic", powers={"4": ["split7!", "out", "-4"]}))
    four = next(line for line in card.splitlines() if line.lstrip().startswith("4*"))
    assert "whenever a split is possible the card must split" in four
    assert "bring a peg out" in four and "back 4" in four
    joker = cue_card(Rules.preset("havasu", powers={"Joker": ["joker", "out"]}))
    line = next(line for line in joker.splitlines() if line.lstrip().startswith("Joker*"))
    assert line.count("bring a peg out") == 1
    ten = cue_card(Rules.preset("kilpatrick", powers={"10": ["split10"]}))
    assert "The parts of a 10 move the ten's own way" in ten
    assert "The parts of a 10" not in cue_card(Rules.preset("kilpatrick"))


_SINGLE = st.one_of(st.sampled_from(["out", "swap"]),
                    st.integers(1, 13).map(lambda n: f"+{n}"),
                    st.integers(1, 9).map(lambda n: f"-{n}"))
_SPLIT = st.sampled_from(["split7", "split9", "split7!", "split9!", "split10", "split10!"])


@st.composite
def house_powers(draw: st.DrawFn) -> dict[str, list[str]]:
    """Changed powers for one to three ranks, each valid as a house rule."""
    out: dict[str, list[str]] = {}
    for rank in draw(st.lists(st.sampled_from(RANKS), min_size=1, max_size=3, unique=True)):
        tokens = draw(st.lists(_SINGLE, min_size=0, max_size=3, unique=True))
        if draw(st.booleans()):
            tokens.append(draw(_SPLIT))
        if rank == "Joker" and draw(st.booleans()):
            tokens.append("joker")
        if not tokens:
            tokens = ["+1"]
        try:
            check_powers(rank, tuple(tokens))
        except RulesError:
            continue
        out[rank] = tokens
    return out


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TABLES), house_powers(), st.integers(0, 2**31), st.integers(0, 200))
def test_random_house_powers_list_as_the_general_generator_and_the_cue_card_names_them(
        table_: tuple[str, int], powers: dict[str, list[str]], seed: int,
        plies: int) -> None:
    base = table(*table_)
    assert base is not None
    try:
        rules = Rules.preset(base.name, players=base.players, teams=base.teams,
                             powers=powers)
    except RulesError:
        return
    rng = random.Random(seed)
    state = GameState.new(rules, seed)
    for _ in range(plies):
        if state.is_over():
            return
        codes = state.legal_codes()
        state = state.apply_code(codes[rng.randrange(len(codes))])
    if state.is_over() or state.pending is not None:
        return
    # the one listing is the general generator's, every turn (counting and Bluffing Joker
    # included), and takes every other spelling it takes to the same listed action
    listing = state.legal_actions()
    assert list(listing) == list(generate(state.geo, state.pegs, turn_of(state)).listing())
    aliases = generate(state.geo, state.pegs, turn_of(state), aliases=True).aliases
    for alias in sorted(aliases, key=str)[:: max(1, len(aliases) // 6)]:
        if alias not in listing:  # (a listed spelling is taken as it is)
            assert state.canonical(alias) == aliases[alias]
    card = cue_card(rules)
    for rank, tokens in powers.items():
        name = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}.get(rank, rank)
        line = next(row for row in card.splitlines() if row.lstrip().startswith(name + "*")
                    or row.lstrip().startswith(name + " "))
        for token in tokens:
            word = {"out": "out of START", "swap": "swap", "joker": ""}.get(token, "")
            if token[0] in "+-":
                word = f"{'forward' if token[0] == '+' else 'back'} {token[1:]}"
            elif token.startswith("split"):
                word = f"split {token[5:].rstrip('!')}"
            assert word in line, (token, line)


def test_powers_that_can_never_finish_are_refused_where_they_are_made() -> None:
    every = {rank: ["+5"] for rank in RANKS if rank != "Joker"}
    try:
        Rules.preset("basic", powers=every)
    except RulesError as e:
        assert "no card brings a peg out of START" in str(e)
    else:
        raise AssertionError("a game nobody can start was accepted")
    backward = {rank: ["-5", "out"] for rank in RANKS if rank != "Joker"}
    for preset in ("basic", "pegoo"):
        try:
            Rules.preset(preset, powers={**backward, "Joker": ["out"]})
        except RulesError as e:
            assert "no card moves a peg forward" in str(e)
        else:
            raise AssertionError("a game no peg can finish was accepted")
    # a stuck rule that brings pegs out, or a joker that does, lets the game go on
    assert Rules.preset("pegoo", powers=every).power("4") == ("+5",)
    assert Rules.preset("basic", joker_comes_out=True, powers=every).power("A") == ("+5",)


def test_a_power_written_two_ways_is_one_power() -> None:
    assert Rules.preset("basic", powers={"4": ["+04", "-004"]}).power("4") == ("+4", "-4")
    try:
        Rules.preset("basic", powers={"4": ["+4", "+04"]})
    except RulesError as e:
        assert "listed twice" in str(e)
    else:
        raise AssertionError("+4 and +04 were taken as two powers")
