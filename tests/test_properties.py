"""Property tests: whole random games for every implemented preset and table size.

After every action: each seat has its pegs, the cards are all accounted for, no two pegs
share a ring hole or a seat's home hole, the chosen action applies, and no seat's view
shows another seat's hand or the order of the draw pile.  Every game ends, and its record
replays to the identical final state.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import table, tables
from pegs.notation import announce
from pegs.record import Record, from_json
from pegs.rules import Action, GameState, Rules, View, view

CAP = 30000

#: The only View fields that say anything about cards a seat may not see.
VIEW_FIELDS = {
    "rules", "seat", "pegs", "hand", "hand_sizes", "draw_pile_size", "discards",
    "hidden_discards", "piles", "turn", "current_player", "stuck", "turns_taken", "ply",
    "outcome", "pending", "extra",
}


def test_view_has_no_field_for_hidden_cards() -> None:
    names = {f.name for f in dataclasses.fields(View)}
    assert "hands" not in names and "draw_pile" not in names and "rng" not in names
    assert "seed" not in names
    assert names <= VIEW_FIELDS, names - VIEW_FIELDS


def pending_cards(state: GameState) -> int:
    """A face-down card declared but not yet resolved (Bluffing Joker) is on the table."""
    return 0 if state.pending is None else 1


def check_invariants(state: GameState) -> None:
    rules, geo = state.rules, state.geo
    ring = geo.ring_size
    # pegs: count, ring holes shared by nobody, home holes shared within no seat
    assert len(state.pegs) == rules.players
    taken: set[int] = set()
    for seat, ps in enumerate(state.pegs):
        assert len(ps) == rules.pegs
        for p in ps:
            assert -1 <= p < ring + rules.home_holes
            if 0 <= p < ring:
                assert p not in taken, f"two pegs on {geo.name(p)}"
                taken.add(p)
        homes = [p for p in ps if p >= ring]
        assert len(homes) == len(set(homes)), f"seat {seat} doubles a home hole"
    # cards: every card of the shoe is somewhere
    held = sum(len(h) for h in state.hands)
    total = held + len(state.draw_pile) + len(state.discards) + sum(len(p) for p in state.piles)
    assert total + pending_cards(state) == rules.total_cards
    assert all(len(h) <= rules.hand_size + 1 for h in state.hands)


def check_views(state: GameState) -> None:
    for seat in (-1, *range(state.rules.players)):
        v = view(state, seat)
        assert v.hand == (state.hands[seat] if seat >= 0 else ())
        assert v.hand_sizes == tuple(len(h) for h in state.hands)
        assert v.draw_pile_size == len(state.draw_pile)
        assert v.pegs == state.pegs
        for f in dataclasses.fields(v):
            value = getattr(v, f.name)
            if f.name != "hand" and isinstance(value, tuple) and len(state.draw_pile) > 3:
                assert value != state.draw_pile, f"{f.name} shows the draw pile"
        p = state.pending
        if p is not None and seat != p.declarer and v.pending is not None and not p.revealed:
            assert v.pending.action.card != p.action.card or p.action.card == "?"
        # the seat's view of the discards never shows another seat's face-down card
        assert len(v.discards) + v.hidden_discards == len(state.discards)
        hidden = {i for owner, i in state.face_down if owner != seat}
        assert v.discards == tuple(c for i, c in enumerate(state.discards) if i not in hidden)


def choose(state: GameState, legal: Sequence[Action], rng: random.Random) -> Action:
    """A random legal action.  Bluffing Joker opponents doubt only now and then: with
    doubts as likely as passes, random seats send each other's pegs back for ever."""
    decisions = {a.decision: a for a in legal if a.decision}
    if "doubt" in decisions and "pass" in decisions:
        return decisions["doubt"] if rng.random() < 0.03 else decisions["pass"]
    return legal[rng.randrange(len(legal))]


def play(rules: Rules, seed: int, choice_seed: int, views_every: int = 1,
         all_actions_every: int = 50) -> tuple[GameState, list[Action]]:
    """A random game, checked after every action.  ``CAP`` bounds the turns (plays and
    discards); Bluffing Joker's doubt/pass decisions come on top of them."""
    rng = random.Random(choice_seed)
    state = GameState.new(rules, seed)
    actions: list[Action] = []
    turns = 0
    ply = 0
    while turns < CAP:
        check_invariants(state)
        if state.is_over():
            break
        if ply % views_every == 0:
            check_views(state)
        legal = state.legal_actions()
        assert len(legal) > 0, "a running game always has a legal action"
        if ply % all_actions_every == 0:
            for a in legal:
                check_invariants(state.apply(a))
                assert announce(state, a).endswith((".", "!"))  # every move can be said aloud
        action = choose(state, legal, rng)
        assert announce(state, action).endswith((".", "!"))
        actions.append(action)
        turns += not action.decision
        ply += 1
        before, state = state, state.apply(action)
        if len(state.draw_pile) > len(before.draw_pile):  # a reshuffle: all discards went in
            assert state.discards == () and state.face_down == ()
    assert state.is_over(), f"no winner within {CAP} turns"
    assert state.outcome() is not None
    assert len(state.legal_actions()) == 0
    return state, actions


def check_replay(rules: Rules, seed: int, actions: list[Action], final: GameState,
                 through_json: bool = True) -> None:
    record = Record(rules, seed, actions)
    if not through_json:
        assert record.replay().key() == final.key()
        return
    data = json.loads(json.dumps(record.to_json()))
    assert data["result"]["seats"] == list(final.outcome().seats)  # type: ignore[union-attr]
    again = from_json(data)  # parses and applies every action
    assert again.actions == actions
    assert again.replay().key() == final.key()


@pytest.mark.parametrize(("name", "players"), tables())
@settings(max_examples=1, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31 - 1), choice=st.integers(0, 2**31 - 1))
def test_random_games_keep_the_invariants(
    name: str, players: int, seed: int, choice: int
) -> None:
    rules = table(name, players)
    assert rules is not None
    # big tables are slow to play: look at the views and try every action less often, and
    # replay the record up to four seats only (a replay costs as much as the game, and the
    # record code does not depend on the table size)
    small = players <= 4
    final, actions = play(rules, seed, choice, views_every=1 if small else 10,
                          all_actions_every=100 if small else 400)
    if small:
        check_replay(rules, seed, actions, final)


@pytest.mark.parametrize(
    "overrides",
    [
        {"home_holes": 7},
        {"pegs": 3, "holes_per_side": 25},
        {"players": 5, "teams": 0, "sides": 7},
        {"extra_jokers": 4, "hand_size": 3},
        {"turn_order": "play_then_draw"},
    ],
    ids=str,
)
@pytest.mark.parametrize("name", ["pegoo", "havasu"])
def test_random_games_with_house_settings(name: str, overrides: dict[str, object]) -> None:
    rules = Rules.preset(name, **overrides)
    final, actions = play(rules, 99, 7, views_every=10, all_actions_every=200)
    check_replay(rules, 99, actions, final)


def test_pegoo_pile_and_stuck_counter_transitions() -> None:
    """Pegoo (section 4, I-07, I-19): a discard goes to the seat's can't-play pile and
    counts; a move sends the pile to the discards and resets the count."""
    rules = Rules.preset("pegoo", players=6)
    rng = random.Random(5)
    state = GameState.new(rules, 5)
    flushed = 0
    while not state.is_over():
        seat = state.turn
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        after = state.apply(action)
        if action.discard and not action.steps:
            assert after.piles[seat] == (*state.piles[seat], action.card)
            assert after.stuck[seat] == state.stuck[seat] + 1
        else:
            assert after.piles[seat] == ()
            assert after.stuck[seat] == 0
            if state.piles[seat]:
                flushed += 1
        for q in range(rules.players):
            if q != seat:
                assert after.piles[q] == state.piles[q]
                assert after.stuck[q] == state.stuck[q]
        state = after
    assert flushed > 0
