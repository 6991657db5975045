"""The cards whose codes are listed on integers besides the one-peg powers (issue 40): the
2's swaps (``SWAP`` codes, the counted ones numbered), the 7 and 9 splits counted without
the general generator's turn, and the ten.  For one card in hand at random positions of
every table, the coded listing is the general generator's, each code leads to the layout
its action does, and codes of no listed action are refused."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import coded_position, table
from oracle import turn_of
from oracle.legal import Turn, generate
from pegs.rules import PRESETS, GameState, IllegalActionError
from pegs.rules.coded import Coded
from pegs.rules.powers import DEFERRED, SWAP
from pegs.rules.split_codes import SPLIT

TABLES = [(name, n) for name in PRESETS if name != "bluffing-joker"
          for n in (2, 4, 6, 8, 10) if table(name, n) is not None]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(TABLES), st.integers(0, 2**31), st.integers(20, 300),
       st.lists(st.sampled_from(["2", "7", "9", "10", "5"]), min_size=1, max_size=3))
def test_a_coded_card_lists_and_plays_as_the_generator(table_: tuple[str, int], seed: int,
                                                       plies: int, hand: list[str]) -> None:
    state = coded_position(table_, seed, plies)
    if state.is_over() or state.pending is not None:
        return
    cards = tuple(sorted(set(hand), key=["2", "5", "7", "9", "10"].index))
    seat, stuck = state.turn, min(state.stuck[state.turn], 1)
    coded = Coded(state.geo, state.pegs, seat, cards, stuck, False)
    general = generate(state.geo, state.pegs, Turn(seat, cards, stuck, False))
    listing = general.listing()
    assert len(coded) == len(listing)
    rng = random.Random(seed)
    picked = range(len(coded)) if len(coded) <= 80 else rng.sample(range(len(coded)), 80)
    for i in picked:
        code = coded.code(i)
        assert coded.has(code)
        assert coded.action(code) == listing[i]
        assert coded.card(code) == listing[i].card
        assert coded.result(code) == general.outcome(listing[i])
    # a swap or a counted code that names no listed action is refused
    for bad in (len(coded) * 8 + DEFERRED, 1 << 40 | SWAP, (1 << 20) * 300 + SWAP):
        assert not coded.has(bad)


def test_a_swap_onto_a_door_is_listed_once() -> None:
    """A 2 whose own peg stands on another colour's door swaps with that colour's peg as
    a listed ``SWAP`` code, unless a forward 2 onto a partner's peg leads to the same board
    (the partner's peg sent to its door); other swaps are counted.  Codes play as their
    actions."""
    rules = table("north-carolina", 4)
    assert rules is not None
    geo = GameState.new(rules, 1).geo
    rest = (-1,) * (rules.pegs - 1)
    opponent = GameState.from_position(
        rules, ((geo.door[1], *rest), (geo.door[1] + 2, *rest), (50, *rest), (-1, *rest)),
        0, ["2"])
    partner = GameState.from_position(
        rules, ((geo.door[2], *rest), (10, *rest), (geo.door[2] + 2, *rest), (-1, *rest)),
        0, ["2"])
    kinds = []
    for state in (opponent, partner):
        codes, legal = state.legal_codes(), state.legal_actions()
        assert list(legal) == list(generate(state.geo, state.pegs, turn_of(state)).listing())
        kinds.append(sorted(c & 7 for c in codes))
        for code, action in zip(codes, legal, strict=True):
            assert state.apply_code(code).key() == state.apply(action).key()
    assert kinds == [[0, DEFERRED, SWAP], [0, DEFERRED]]


def test_codes_of_other_positions_are_refused_for_swaps() -> None:
    for seed in range(1, 40):
        state = coded_position(("north-carolina", 4), seed, 60)
        later = coded_position(("north-carolina", 4), seed, 61)
        codes = set(state.legal_codes())
        foreign = [c for c in later.legal_codes() if c & 7 == SWAP and c not in codes]
        for bad in foreign:
            try:
                state.apply_code(bad)
            except IllegalActionError:
                continue
            raise AssertionError(f"{bad} was played")


def test_splits_listed_one_by_one_are_the_generators() -> None:
    """A 7 or 9 that may finish with a partner's peg while the seat has one peg on the
    ring is split one split at a time (``SPLIT`` codes): at such positions of random Pegoo
    and North Carolina games the listing, the actions and the layouts are the generator's."""
    checked = 0
    for seed in range(1, 40):
        rules = table("pegoo" if seed % 2 else "north-carolina", 4)
        assert rules is not None
        rng = random.Random(seed)
        state = GameState.new(rules, seed)
        while not state.is_over():
            seat = state.turn
            for card in ("7", "9"):
                coded = Coded(state.geo, state.pegs, seat, (card,), 0, False)
                codes = [coded.code(i) for i in range(len(coded))]
                if not any(c & 7 == SPLIT for c in codes):
                    continue
                general = generate(state.geo, state.pegs, Turn(seat, (card,), 0, False))
                listing = general.listing()
                assert [coded.action(c) for c in codes] == list(listing)
                assert [coded.result(c) for c in codes] == [general.outcome(a) for a in listing]
                for c in codes:  # the same steps with another card: no legal split
                    assert coded.has(c) and not coded.has(c ^ 8)
                checked += 1
            if checked >= 30:
                return
            codes = state.legal_codes()
            state = state.apply_code(codes[rng.randrange(len(codes))])
    raise AssertionError(f"only {checked} positions with splits listed one by one")
