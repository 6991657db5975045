"""Legal actions as integer codes (issue 40): ``legal_codes`` lists the same actions as
``legal_actions`` in the same order, a code and its action name each other, and playing
a code is playing its action; codes of no legal action are refused."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import coded_position, table
from oracle import turn_of
from oracle.legal import generate
from pegs.rules import PRESETS, IllegalActionError

TABLES = [(name, n) for name in PRESETS for n in (2, 4, 6, 8, 10) if table(name, n) is not None]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TABLES), st.integers(0, 2**31), st.integers(0, 300))
def test_codes_and_actions_name_each_other(table_: tuple[str, int], seed: int,
                                           plies: int) -> None:
    state = coded_position(table_, seed, plies)
    codes, legal = state.legal_codes(), state.legal_actions()
    assert len(codes) == len(legal)
    assert len(set(codes)) == len(codes)
    rng = random.Random(seed)
    picked = range(len(codes)) if len(codes) <= 60 else rng.sample(range(len(codes)), 60)
    for i in picked:
        assert state.action_of(codes[i]) == legal[i]
        assert state.code_of(legal[i]) == codes[i]
    i = rng.randrange(len(codes)) if codes else -1
    if i >= 0:
        assert state.apply_code(codes[i]).key() == state.apply(legal[i]).key()


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TABLES), st.integers(0, 2**31), st.integers(0, 300))
def test_the_coded_listing_is_the_generators(table_: tuple[str, int], seed: int,
                                             plies: int) -> None:
    """The one-peg powers listed on integers give the general generator's listing."""
    state = coded_position(table_, seed, plies)
    if state.is_over() or state.pending is not None:
        return
    general = generate(state.geo, state.pegs, turn_of(state)).listing()
    assert list(state.legal_actions()) == list(general)


def test_another_spelling_gives_the_listed_code() -> None:
    rules = table("basic", 4)
    assert rules is not None
    for seed in range(1, 40):
        state = coded_position(("basic", 4), seed, 120)
        for a in state.legal_actions():
            if len(a.steps) == 2:
                other = a._replace(steps=a.steps[::-1])
                try:
                    listed = state.canonical(other)
                except IllegalActionError:
                    continue
                assert state.code_of(other) == state.code_of(listed)
                return
    pytest.fail("no split found to respell")


def test_codes_of_no_legal_action_are_refused() -> None:
    state = coded_position(("north-carolina", 4), 5, 40)
    codes = set(state.legal_codes())
    later = coded_position(("north-carolina", 4), 5, 41)
    foreign = [c for c in later.legal_codes() if c not in codes]
    for bad in [-1, -8, 2**40, 10**30, *foreign[:5]]:
        with pytest.raises(IllegalActionError, match="not the code of a legal action"):
            state.apply_code(bad)
        with pytest.raises(IllegalActionError):
            state.action_of(bad)
    for wrong in [True, "3", 2.0, None]:
        with pytest.raises(IllegalActionError, match="whole number"):
            state.apply_code(wrong)  # type: ignore[arg-type]
