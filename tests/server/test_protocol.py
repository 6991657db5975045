"""The wire encoding of legal actions: every step names the seat whose peg it moves; the
grouped listing holds every legal action exactly once and stays small at crowded tables."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import position, ten_through_a_door
from pegs.rules import GameState, Rules
from pegs.server.protocol import action_json, legal_compact, legal_texts


def test_a_step_of_a_peg_an_earlier_hit_sent_to_its_door_names_that_pegs_seat() -> None:
    st, action = ten_through_a_door()
    assert action in st.legal_actions()
    steps = action_json(st, action)["steps"]
    assert [(s["seat"], s["from"], s["to"], s["hit"]) for s in steps] == [
        (3, "1.7", "0.16", True), (0, "3.18", "H1", False)]


def nc10_crowded(hand: list[str]) -> GameState:
    """Ten seats of North Carolina (two teams of five), every peg out on the ring: a ten
    may split between any two pegs of the team, tens of thousands of actions."""
    nc = Rules.preset("north-carolina", players=10)
    return position(nc, {s: [f"{s}.{h}" for h in range(1, 18, 4)] for s in range(10)}, hand)


def test_the_grouped_listing_of_a_crowded_ten_seat_table_stays_small() -> None:
    state = nc10_crowded(["10", "7", "9", "J", "Joker"])
    legal = state.legal_actions()
    text = json.dumps(legal_compact(state, legal), separators=(",", ":"))
    assert len(legal) > 30_000 and len(text) < 200 * 1024
    assert Counter(legal_texts(json.loads(text))) == Counter(map(str, legal))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([("pegoo", 4), ("basic", 3), ("north-carolina", 8),
                        ("bluffing-joker", 4), ("havasu", 6), ("arizona", 10)]),
       st.integers(0, 10_000), st.integers(0, 150))
def test_the_grouped_listing_holds_every_legal_action_once(
        table: tuple[str, int], seed: int, plies: int) -> None:
    preset, players = table
    rng = random.Random(seed)
    state = GameState.new(Rules.preset(preset, players=players), seed)
    for _ in range(plies):
        if state.is_over():
            return
        state = state.apply(rng.choice(state.legal_actions()))
    if state.is_over():
        return
    legal = state.legal_actions()
    compact = json.loads(json.dumps(legal_compact(state, legal)))
    assert Counter(legal_texts(compact)) == Counter(map(str, legal))
    assert compact["mover"] == state.turn
    assert [d["text"] for d in compact["decisions"]] == [str(a) for a in legal if a.decision]
