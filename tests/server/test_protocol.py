"""The wire encoding of legal actions: every step names the seat whose peg it moves."""

from __future__ import annotations

from helpers import position
from pegs.rules import Action, Rules
from pegs.server.protocol import action_json


def test_a_step_of_a_peg_an_earlier_hit_sent_to_its_door_names_that_pegs_seat() -> None:
    # North Carolina: seat 2 moves seat 3's peg back nine onto seat 0's peg at 0.16, which
    # goes to its door 3.18 (where nobody stood); the second part moves it into its home.
    nc = Rules.preset("north-carolina", players=4)
    st = position(nc, {0: ["0.16"], 1: ["0.5", "0.18"], 2: ["2.1"], 3: ["1.7"]}, ["10"],
                  to_move=2)
    action = Action.parse("10: 1.7<0.16x, 3.18>H1@0")
    assert action in st.legal_actions()
    steps = action_json(st, action)["steps"]
    assert [(s["seat"], s["from"], s["to"], s["hit"]) for s in steps] == [
        (3, "1.7", "0.16", True), (0, "3.18", "H1", False)]
