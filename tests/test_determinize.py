"""A determinization's generator (``determinize.Deferred``) is seeded only when first used,
and then behaves exactly as ``random.Random`` with the same seed."""

from __future__ import annotations

import copy
import pickle
import random

from hypothesis import given, settings, strategies

from pegs.rules import GameState, Rules, determinize, view


@settings(max_examples=50, deadline=None)
@given(seed=strategies.floats(0.0, 1.0, exclude_max=True),
       calls=strategies.lists(strategies.sampled_from(
           ["random", "getrandbits", "shuffle", "randrange", "getstate"]), max_size=6))
def test_deferred_is_the_seeded_generator(seed: float, calls: list[str]) -> None:
    lazy, eager = determinize.Deferred(seed), random.Random(seed)
    for call in calls:
        if call == "shuffle":
            a, b = list(range(30)), list(range(30))
            lazy.shuffle(a)
            eager.shuffle(b)
            assert a == b
        elif call == "getrandbits":
            assert lazy.getrandbits(70) == eager.getrandbits(70)
        elif call == "randrange":
            assert lazy.randrange(1000) == eager.randrange(1000)
        else:
            assert getattr(lazy, call)() == getattr(eager, call)()
    assert lazy.getstate() == eager.getstate()
    for copied in (copy.deepcopy(lazy), pickle.loads(pickle.dumps(lazy))):
        assert copied.getstate() == eager.getstate()


@settings(max_examples=10, deadline=None)
@given(seed=strategies.integers(0, 10**6))
def test_a_sample_plays_on_as_with_a_seeded_generator(seed: int) -> None:
    """Played on far enough to shuffle the discards, a sample follows its generator's
    seed: the same as a copy of it whose generator was seeded at once."""
    rules = Rules.preset("basic")
    state = GameState.new(rules, seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(200)):
        codes = state.legal_codes()
        state = state.apply_code(codes[rng.randrange(len(codes))])
    seen = view(state, state.current_player)
    sample = determinize.sample_state(seen, random.Random(seed))
    again = determinize.sample_state(seen, random.Random(seed))
    eager = again._replace(rng=random.Random())
    eager.rng.setstate(again.rng.getstate())
    play = random.Random(seed)
    for _ in range(300):  # a basic game draws its shoe's 108 cards within 300 actions
        if sample.is_over():
            break
        codes = sample.legal_codes()
        code = codes[play.randrange(len(codes))]
        sample, eager = sample.apply_code(code), eager.apply_code(code)
    assert sample == eager
