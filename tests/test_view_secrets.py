"""A view is proven, not assumed: what a seat sees must not change when everything it may
not know is dealt again in any way consistent with what it saw.

The hidden parts are the other seats' hands, the draw pile's order (and the generator that
will shuffle the next one), the face-down discards that another seat played, and a
declared card not yet turned over.  The test pools those cards, shuffles them back into
the same places and compares the views: any field that moved (a value, an order, a count,
a position) would tell the seat something about cards it never saw.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import table, tables
from pegs.rules import GameState, view
from pegs.rules.state import Pending, _sorted_hand
from test_properties import choose

TABLES = tables()
BLUFFING = [t for t in TABLES if t[0] == "bluffing-joker"]


def redeal(state: GameState, seat: int, rng: random.Random) -> GameState:
    """``state`` with every card hidden from ``seat`` shuffled among the hidden places."""
    hidden_hands = [q for q in range(state.rules.players) if q != seat]
    secret = [i for owner, i in state.face_down if owner != seat]
    pending = state.pending
    hidden_pending = pending is not None and pending.declarer != seat and not pending.revealed
    pool = [c for q in hidden_hands for c in state.hands[q]]
    pool += list(state.draw_pile) + [state.discards[i] for i in secret]
    if hidden_pending:
        assert pending is not None
        pool.append(pending.action.card)
    rng.shuffle(pool)
    hands = list(state.hands)
    for q in hidden_hands:
        hands[q] = _sorted_hand(tuple(pool[: len(hands[q])]))
        del pool[: len(hands[q])]
    discards = list(state.discards)
    for i in secret:
        discards[i] = pool.pop()
    if hidden_pending:
        assert pending is not None
        pending = Pending(pending.declarer, pending.action._replace(card=pool.pop()),
                          pending.result, pending.asked, pending.chooser, pending.victim)
    assert len(pool) == len(state.draw_pile)
    return state._replace(hands=tuple(hands), draw_pile=tuple(pool), discards=tuple(discards),
                          pending=pending, rng=random.Random(rng.random()))


def position(preset: str, players: int, seed: int, plies: int) -> GameState:
    """A random position ``plies`` actions into a seeded random game (or its end)."""
    rules = table(preset, players)
    assert rules is not None
    state = GameState.new(rules, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over():
            break
        state = state.apply(choose(state, state.legal_actions(), rng))
    return state


def assert_views_keep_secrets(state: GameState, redeal_seed: int) -> None:
    rng = random.Random(redeal_seed)
    for seat in (-1, *range(state.rules.players)):
        for _ in range(3):
            assert view(redeal(state, seat, rng), seat) == view(state, seat), (
                f"seat {seat}'s view changed when its hidden cards were dealt again")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(TABLES), st.integers(0, 2**31), st.integers(0, 400), st.integers(0, 99))
def test_every_view_is_unchanged_by_redealing_what_it_hides(
        where: tuple[str, int], seed: int, plies: int, redeal_seed: int) -> None:
    assert_views_keep_secrets(position(*where, seed, plies), redeal_seed)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(BLUFFING), st.integers(0, 2**31), st.integers(60, 600),
       st.integers(0, 99))
def test_bluffing_views_hide_face_down_discards_and_their_places(
        where: tuple[str, int], seed: int, plies: int, redeal_seed: int) -> None:
    state = position(*where, seed, plies)
    assert_views_keep_secrets(state, redeal_seed)


def test_a_face_down_card_leaves_no_gap_that_names_it() -> None:
    """The audit's case: with a face-down 10 among face-up cards of other ranks, another
    seat's discards are the face-up cards in their order, whatever the 10's place."""
    for seed in range(200):
        state = position("bluffing-joker", 4, seed, 300)
        owner_of = dict((i, owner) for owner, i in state.face_down)
        if not owner_of or len(state.discards) < 4:
            continue
        i, owner = next(iter(owner_of.items()))
        other = (owner + 1) % state.rules.players
        shown = view(state, other).discards
        public = tuple(c for j, c in enumerate(state.discards)
                       if j not in owner_of or owner_of[j] == other)
        assert shown == public
        assert view(state, owner).discards[i] == state.discards[i]  # its owner still sees it
        return
    raise AssertionError("no face-down discard in 200 games")
