"""A state (and a seat's view of it) pickles and deep-copies with the same future (issue 40).

A search clones a game to try moves, and a pool of workers receives states: the copy
must equal the original and, played on with the same actions, stay equal to it, through
reshuffles of the discards and Bluffing Joker declarations alike.
"""

from __future__ import annotations

import copy
import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import table
from pegs.rules import PRESETS, GameState, view
from pegs.rules.listing import MoveMemo

TABLES = [(name, n) for name in PRESETS for n in (2, 4, 6, 8) if table(name, n) is not None]


def advance(state: GameState, rng: random.Random, plies: int) -> GameState:
    for _ in range(plies):
        if state.is_over():
            break
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    return state


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TABLES), st.integers(0, 2**31), st.integers(0, 400),
       st.sampled_from(["pickle", "deepcopy", "copy"]))
def test_a_copy_has_the_same_future(table_: tuple[str, int], seed: int, plies: int,
                                    how: str) -> None:
    rules = table(*table_)
    assert rules is not None
    state = advance(GameState.new(rules, seed), random.Random(seed), plies)
    state.legal_actions()  # a listing cached in the state is not copied, nor needed
    clone = {"pickle": lambda s: pickle.loads(pickle.dumps(s)),
             "deepcopy": copy.deepcopy, "copy": copy.copy}[how](state)
    assert clone == state and clone.key() == state.key()
    assert [str(a) for a in clone.legal_actions()] == [str(a) for a in state.legal_actions()]
    for seat in range(-1, rules.players):
        seen = view(state, seat)
        assert view(clone, seat) == seen
        assert pickle.loads(pickle.dumps(seen)) == seen == copy.deepcopy(seen)
    a, b = random.Random(seed + 1), random.Random(seed + 1)
    for _ in range(60):
        state, clone = advance(state, a, 1), advance(clone, b, 1)
        assert clone.key() == state.key()


def test_a_copy_leaves_the_search_memo_behind() -> None:
    rules = table("basic", 4)
    assert rules is not None
    state = GameState.new(rules, 3)
    bare = pickle.dumps(state)
    state.memo = MoveMemo()
    state.legal_actions()
    assert pickle.dumps(state) == bare  # the fields of the game, no cache
    clone = pickle.loads(bare)
    assert clone.memo is None and clone == state
