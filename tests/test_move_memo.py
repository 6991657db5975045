"""The move memo of a search (``pegs.rules.listing.MoveMemo``): each card's codes looked up
instead of found again give exactly the listing found without it."""

from __future__ import annotations

import random

import pytest

from helpers import PRESETS_UNDER_TEST, random_game, table
from pegs.rules import GameState, Rules, determinize, view
from pegs.rules.coded import Coded
from pegs.rules.listing import MoveMemo
from pegs.rules.settings import RANKS


def _same(plain: Coded, memoed: Coded) -> None:
    listing = list(plain.actions())
    assert list(memoed.actions()) == listing
    assert memoed.legal_codes() == plain.legal_codes() or list(memoed.legal_codes()) == list(
        plain.legal_codes())
    assert memoed.moving == plain.moving
    for i in range(0, len(plain), 5):
        assert memoed.result(memoed.code(i)) == plain.result(plain.code(i))


def _coded(state: GameState, hand: tuple[str, ...], stuck: int,
           memo: MoveMemo | None = None) -> Coded:
    seat = state.turn
    return Coded(state.geo, state.pegs, seat, hand, stuck, state.turns_taken[seat] == 0, memo)


@pytest.mark.parametrize(("name", "players"), [(p, 4) for p in PRESETS_UNDER_TEST
                                               if p != "bluffing-joker"]
                         + [("north-carolina", 8), ("arizona", 6)])
def test_memo_gives_the_same_legal_actions(name: str, players: int) -> None:
    rules = table(name, players)
    assert rules is not None
    memo = MoveMemo()
    rng = random.Random(7)
    checked = 0
    for n, (state, _) in enumerate(random_game(rules, 3, 3, cap=240)):
        if n % 3 or state.is_over() or state.pending is not None:
            continue
        hand = state.hands[state.turn]
        other = tuple(sorted((rng.choice(RANKS) for _ in hand), key=RANKS.index))
        # new cards fill the memo, known ones come from it (stuck 2: North Carolina counts)
        for cards, stuck in ((hand, state.stuck[state.turn]), (other, rng.choice((0, 2))),
                             (hand, 2)):
            _same(_coded(state, cards, stuck), _coded(state, cards, stuck, memo))
        checked += 1
    assert checked > 20
    assert memo.entries


def test_a_full_memo_stops_growing_and_still_answers() -> None:
    rules = Rules.preset("north-carolina")
    memo = MoveMemo(limit=3)
    for state, _ in random_game(rules, 5, 5, cap=60):
        if state.is_over() or state.pending is not None:
            continue
        hand, stuck = state.hands[state.turn], state.stuck[state.turn]
        _same(_coded(state, hand, stuck), _coded(state, hand, stuck, memo))
    assert len(memo.entries) == 3


def test_sampled_states_and_their_successors_share_the_memo() -> None:
    # a hand with a North Carolina ten, whose counted splits the memo keeps
    rules = Rules.preset("north-carolina")
    state = next(s for s in (GameState.new(rules, seed) for seed in range(1, 100))
                 if "10" in s.hands[0])
    memo = MoveMemo()
    sample = determinize.sample_state(view(state, 0), random.Random(1), memo=memo)
    assert sample.memo is memo and state.memo is None
    after = sample.apply(sample.legal_actions()[0])
    assert after.memo is memo
    assert memo.entries  # the sample's ten was looked up and kept
    # the memo is no part of the state: the same sample without it is the same state
    bare = determinize.sample_state(view(state, 0), random.Random(1))
    assert bare == sample and bare.apply(bare.legal_actions()[0]) == after
