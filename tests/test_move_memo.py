"""The move memo of a search (``pegs.rules.legal.MoveMemo``): each card's moves looked up
instead of found again give exactly the legal actions found without it."""

from __future__ import annotations

import random

import pytest

from helpers import PRESETS_UNDER_TEST, random_game, table
from pegs.rules import GameState, Rules, determinize, view
from pegs.rules.legal import Legal, MoveMemo, Turn, generate
from pegs.rules.settings import RANKS


def _same(plain: Legal, memoed: Legal) -> None:
    listing = list(plain.listing())
    assert list(memoed.listing()) == listing
    assert memoed.moving_ranks == plain.moving_ranks
    for action in listing[::5]:
        assert memoed.outcome(action) == plain.outcome(action)


@pytest.mark.parametrize(("name", "players"), [(p, 4) for p in PRESETS_UNDER_TEST]
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
        turn = state._turn()
        other = Turn(turn.seat, tuple(rng.choice(RANKS) for _ in turn.hand),
                     rng.choice((0, 2)), turn.first_turn)
        counting = Turn(turn.seat, turn.hand, 2, turn.first_turn)  # North Carolina counts
        for t in (turn, other, counting):  # new cards fill the memo, known ones come from it
            _same(generate(state.geo, state.pegs, t), generate(state.geo, state.pegs, t,
                                                               memo=memo))
        checked += 1
    assert checked > 20
    assert memo.entries


def test_a_full_memo_stops_growing_and_still_answers() -> None:
    rules = Rules.preset("north-carolina")
    memo = MoveMemo(limit=3)
    for state, _ in random_game(rules, 5, 5, cap=60):
        if state.is_over() or state.pending is not None:
            continue
        turn = state._turn()
        _same(generate(state.geo, state.pegs, turn),
              generate(state.geo, state.pegs, turn, memo=memo))
    assert len(memo.entries) == 3


def test_sampled_states_and_their_successors_share_the_memo() -> None:
    # a hand with a card the general generator lists (the one-peg powers and the swaps are
    # listed on integers without the memo): a North Carolina ten
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
