"""Pegoo-style announcements (RULES.md section 6 and the Pegoo seed's Etiquette)."""

from __future__ import annotations

import re

import pytest

from helpers import position, ten_through_a_door
from pegs.notation import announce, seat_name
from pegs.rules import Action, IllegalActionError, Rules

PEGOO = Rules.preset("pegoo")  # 4 seats in 2 teams: partners 0/2, opponents 1/3


def test_nine_split_etiquette_example() -> None:
    st = position(PEGOO, {0: ["H3", "0.5"]}, ["9"])
    text = announce(st, Action.parse("9: H3>H4, 0.5<3.17"))
    assert text == "Nine. 23 forward one to 24 and 5 back eight to 17."


def test_six_hitting_an_opponent_etiquette_example() -> None:
    st = position(PEGOO, {0: ["0.11"], 1: ["0.17"]}, ["6"])
    action = Action.parse("6: 0.11>0.17x")
    assert action in st.legal_actions()
    assert announce(st, action) == "Six. 11 to 17. 17 back to START."


def test_ten_around_a_corner_etiquette_example() -> None:
    st = position(PEGOO, {0: ["0.18"]}, ["10"])
    action = Action.parse("10: 0.18>1.8")
    assert action in st.legal_actions()
    assert announce(st, action) == "Ten. 18 to 8."


def test_partner_hit_goes_to_its_door() -> None:
    # seat 2 sits on side 2: its door is hole 20 of side 1
    st = position(PEGOO, {0: ["0.11"], 2: ["0.17"]}, ["6"])
    action = Action.parse("6: 0.11>0.17x")
    assert st.result_of(action)[2] == (-1, -1, -1, st.geo.parse("1.20"))
    assert announce(st, action) == "Six. 11 to 17. 17 to 20."


def test_discard_announcement() -> None:
    st = position(PEGOO, {}, ["5"])
    text = announce(st, Action.parse("5: discard"))
    assert text.startswith("Five. ")
    assert "discard" in text.lower()
    assert not re.search(r"\d", text)  # no hole moves


def test_coming_out_announcement() -> None:
    st = position(PEGOO, {}, ["A"])
    assert announce(st, Action.parse("A: S>0.5")) == "Ace. START to 5."
    st = position(PEGOO, {}, ["K"])
    assert announce(st, Action.parse("K: S>0.5")) == "King. START to 5."


def test_coming_out_onto_an_opponent() -> None:
    st = position(PEGOO, {1: ["0.5"]}, ["Q"])
    assert announce(st, Action.parse("Q: S>0.5x")) == "Queen. START to 5. 5 back to START."


def test_swap_announcement() -> None:
    st = position(PEGOO, {0: ["0.10"], 1: ["1.3"]}, ["2"])
    action = Action.parse("2: 0.10~1.3")
    assert action in st.legal_actions()
    text = announce(st, action)
    assert text.startswith("Two. ")
    assert "swap" in text.lower()
    assert re.search(r"\b10\b", text) and re.search(r"\b3\b", text)
    assert "START" not in text  # a swap hits nobody (I-11)


def test_pegoo_joker_to_the_door() -> None:
    st = position(PEGOO, {0: ["1.4"]}, ["Joker"])
    action = Action.parse("J*: S>3.20")
    assert action in st.legal_actions()
    assert announce(st, action) == "Joker. START to 20."
    assert announce(st, Action.parse("J*: 1.4>3.20")) == "Joker. 4 to 20."


def test_pegoo_joker_sends_an_opponent_home() -> None:
    st = position(PEGOO, {0: ["1.4"], 1: ["2.7"]}, ["Joker"])
    action = Action.parse("J*: 2.7>S@1")
    assert action in st.legal_actions()
    text = announce(st, action)
    assert text.startswith("Joker. ")
    assert "7" in text and "START" in text


def test_hit_from_anywhere_joker() -> None:
    rules = Rules.preset("basic")
    st = position(rules, {1: ["2.7"]}, ["Joker"])
    action = Action.parse("J*: S>2.7x")
    assert action in st.legal_actions()
    assert announce(st, action) == "Joker. START to 7. 7 back to START."


def test_seven_split_announcement_counts_each_part() -> None:
    st = position(PEGOO, {0: ["0.5", "0.12"]}, ["7"])
    text = announce(st, Action.parse("7: 0.5>0.8, 0.12>0.16"))
    assert text == "Seven. 5 forward three to 8 and 12 forward four to 16."


def test_home_entry_counts_through_the_door() -> None:
    st = position(PEGOO, {0: ["3.17"]}, ["4", "7"])
    assert announce(st, Action.parse("4: 3.17>H1")) == "Four. 17 to 21."


def test_announce_refuses_illegal_actions() -> None:
    st = position(PEGOO, {0: ["0.11"]}, ["6"])
    with pytest.raises(IllegalActionError):
        announce(st, Action.parse("6: 0.11>0.18"))


def test_seat_names_carry_colour_and_letter() -> None:
    names = [seat_name(s) for s in range(10)]
    assert len(set(names)) == 10
    for s, n in enumerate(names):
        assert n.startswith(f"Seat {s} (")
        assert re.fullmatch(r"Seat \d+ \(\w+, [A-Z]\)", n)
    letters = [n[-2] for n in names]
    assert len(set(letters)) == 10


def test_ten_whose_second_peg_was_sent_to_its_door_by_the_first() -> None:
    st, action = ten_through_a_door()
    assert action in st.legal_actions()
    assert announce(st, action) == "Ten. 7 back nine to 16 and 18 forward one to 19. 16 to 18."
