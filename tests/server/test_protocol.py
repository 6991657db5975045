"""The wire encoding of legal actions: every step names the seat whose peg it moves."""

from __future__ import annotations

from helpers import ten_through_a_door
from pegs.server.protocol import action_json


def test_a_step_of_a_peg_an_earlier_hit_sent_to_its_door_names_that_pegs_seat() -> None:
    st, action = ten_through_a_door()
    assert action in st.legal_actions()
    steps = action_json(st, action)["steps"]
    assert [(s["seat"], s["from"], s["to"], s["hit"]) for s in steps] == [
        (3, "1.7", "0.16", True), (0, "3.18", "H1", False)]
