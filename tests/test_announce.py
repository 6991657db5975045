"""Announcements (RULES.md section 6, the Pegoo seed's Etiquette, docs/RULES.md
"Announcements"): card first, then holes, every hole and peg a person can find."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from helpers import PRESETS_UNDER_TEST, pegs, position, table, ten_through_a_door
from pegs.hint import announce_any
from pegs.notation import (
    acting_seat,
    announce,
    announce_line,
    announce_outcome,
    colour,
    option_words,
    seat_name,
)
from pegs.record import Record
from pegs.rules import Action, GameState, IllegalActionError, Rules, geometry
from pegs.rules.state import build_shoe

PEGOO = Rules.preset("pegoo")  # 4 seats in 2 teams: partners 0/2, opponents 1/3
BLUFF = Rules.preset("bluffing-joker")  # opponents of Red (0) are Blue (1) and Green (3)


def _legal(state: GameState, text: str) -> Action:
    action = Action.parse(text)
    assert action in state.legal_actions(), text
    return action


# --- the Etiquette's examples, with other sides named ------------------------------------


def test_nine_split_etiquette_example() -> None:
    st = position(PEGOO, {0: ["H3", "0.5"]}, ["9"])
    text = announce(st, _legal(st, "9: H3>H4, 0.5<3.17"))
    assert text == "Nine. Home 3 forward one to home 4 and 5 back eight to Green's 17."


def test_six_hitting_an_opponent_says_whose_peg_goes_back() -> None:
    st = position(PEGOO, {0: ["0.11"], 1: ["0.17"]}, ["6"])
    assert announce(st, _legal(st, "6: 0.11>0.17x")) == (
        "Six. 11 to 17. Blue's peg goes back to START.")


def test_ten_around_a_corner_names_the_next_side() -> None:
    st = position(PEGOO, {0: ["0.18"]}, ["10"])
    assert announce(st, _legal(st, "10: 0.18>1.8")) == "Ten. 18 to Blue's 8."


def test_holes_are_plain_only_on_the_movers_own_side() -> None:
    st = position(PEGOO, {1: ["0.18"]}, ["10"], to_move=1)
    assert announce(st, _legal(st, "10: 0.18>1.8")) == "Ten. Red's 18 to 8."


def test_partner_hit_goes_to_its_door() -> None:
    # seat 2 sits on side 2: its door is hole 20 of side 1
    st = position(PEGOO, {0: ["0.11"], 2: ["0.17"]}, ["6"])
    action = _legal(st, "6: 0.11>0.17x")
    assert st.result_of(action)[2] == (-1, -1, -1, st.geo.parse("1.20"))
    assert announce(st, action) == "Six. 11 to 17. Yellow's peg goes to its door."


def test_a_chain_of_hits_is_told_in_order_with_the_second_pegs_hole() -> None:
    # Yellow's peg goes to its door (Blue's 20), where Blue's peg stood
    st = position(PEGOO, {0: ["0.11"], 1: ["1.20"], 2: ["0.17"]}, ["6"])
    assert announce(st, _legal(st, "6: 0.11>0.17x")) == (
        "Six. 11 to 17. Yellow's peg goes to its door. "
        "Blue's peg on Blue's 20 goes back to START.")


def test_discard_announcement() -> None:
    st = position(PEGOO, {}, ["5"])
    assert announce(st, Action.parse("5: discard")) == "Five. Can't play; discards."


def test_discarding_a_joker_that_could_move_says_its_move_is_kept_unused() -> None:
    """Only the Joker moves, so every card may be discarded, the Joker too."""
    st = position(PEGOO, {}, ["Joker", "5"])
    assert "J*: discard" in {str(a) for a in st.legal_actions()}
    assert announce(st, Action.parse("J*: discard")) == (
        "Joker. Discards it, keeping its move unused.")
    assert announce(st, Action.parse("5: discard")) == "Five. Can't play; discards."


def test_coming_out_announcement() -> None:
    st = position(PEGOO, {}, ["A"])
    assert announce(st, _legal(st, "A: S>0.5")) == "Ace. START to 5."
    st = position(PEGOO, {}, ["K"])
    assert announce(st, _legal(st, "K: S>0.5")) == "King. START to 5."


def test_coming_out_onto_an_opponent() -> None:
    st = position(PEGOO, {1: ["0.5"]}, ["Q"])
    assert announce(st, _legal(st, "Q: S>0.5x")) == (
        "Queen. START to 5. Blue's peg goes back to START.")


def test_swap_names_the_other_peg_and_its_side() -> None:
    st = position(PEGOO, {0: ["0.10"], 1: ["1.3"]}, ["2"])
    text = announce(st, _legal(st, "2: 0.10~1.3"))
    assert text == "Two. 10 swaps with Blue's peg on Blue's 3."  # no hit (I-11)


def test_swaps_with_different_pegs_at_equal_holes_read_differently() -> None:
    nc = Rules.preset("north-carolina")
    st = position(nc, {0: ["0.17"], 1: ["1.10"], 3: ["2.10"]}, ["2"])
    one, other = _legal(st, "2: 0.17~1.10"), _legal(st, "2: 0.17~2.10")
    assert announce(st, one) == "Two. 17 swaps with Blue's peg on Blue's 10."
    assert announce(st, other) == "Two. 17 swaps with Green's peg on Yellow's 10."


def test_pegoo_joker_to_the_door() -> None:
    st = position(PEGOO, {0: ["1.4"]}, ["Joker"])
    assert announce(st, _legal(st, "J*: S>3.20")) == "Joker. START to Green's 20."
    assert announce(st, _legal(st, "J*: 1.4>3.20")) == "Joker. Blue's 4 to Green's 20."


def test_pegoo_joker_sends_an_opponent_home_naming_the_peg() -> None:
    st = position(PEGOO, {0: ["1.4"], 1: ["2.7"]}, ["Joker"])
    assert announce(st, _legal(st, "J*: 2.7>S@1")) == (
        "Joker. Blue's peg from Yellow's 7 back to START.")


def test_partner_pegs_are_named_with_their_colour() -> None:
    kil = Rules.preset("kilpatrick")  # team control: Red moves Yellow's pegs too
    st = position(kil, {0: ["0.3"]}, ["K"])
    own, partner = _legal(st, "K: S>0.5"), _legal(st, "K: S@2>2.5")
    assert announce(st, own) == "King. START to 5."
    assert announce(st, partner) == "King. Yellow's peg from START to Yellow's 5."


def test_hit_from_anywhere_joker() -> None:
    st = position(Rules.preset("basic"), {1: ["2.7"]}, ["Joker"])
    assert announce(st, _legal(st, "J*: S>2.7x")) == (
        "Joker. START to Yellow's 7. Blue's peg goes back to START.")


def test_seven_split_announcement_counts_each_part() -> None:
    st = position(PEGOO, {0: ["0.5", "0.12"]}, ["7"])
    text = announce(st, _legal(st, "7: 0.5>0.8, 0.12>0.16"))
    assert text == "Seven. 5 forward three to 8 and 12 forward four to 16."


def test_home_entry_counts_through_the_door() -> None:
    st = position(PEGOO, {0: ["3.17"]}, ["4", "7"])
    assert announce(st, _legal(st, "4: 3.17>H1")) == "Four. Green's 17 to home 1."


def test_a_side_without_a_seat_is_named_after_the_seat_before_it() -> None:
    two = Rules.preset("basic", players=2)  # 4 sides: Red on side 0, Blue on side 2
    st = position(two, {0: ["0.15"]}, ["6"])
    assert announce(st, _legal(st, "6: 0.15>1.3")) == (
        "Six. 15 to 3 on the side after Red's.")
    st = position(two, {1: ["3.15"]}, ["6"], to_move=1)
    assert announce(st, _legal(st, "6: 3.15>0.3")) == "Six. 15 on the side after Blue's to Red's 3."


def test_north_carolina_counting_discards_read_as_a_free_come_out() -> None:
    nc = Rules.preset("north-carolina")
    st = position(nc, {0: ["H1", "H2", "H3"]}, ["3", "4"], stuck_turns=2)
    texts = {str(a): announce(st, a) for a in st.legal_actions()}
    assert texts["3: discard, S>0.5"] == "Three. Discards and comes out free: START to 5."
    assert len(set(texts.values())) == len(texts)


def test_split_orders_with_different_results_read_differently() -> None:
    nc = Rules.preset("north-carolina")
    st = position(nc, {0: ["1.6", "3.15", "3.18", "H4", "H5"], 1: ["0.17", "0.5", "H2"],
                       2: ["1.10", "2.15", "2.17", "2.9"], 3: ["0.12", "2.7", "H5"]},
                  ["3", "6", "7", "8", "10"], to_move=1)
    first = _legal(st, "10: 2.17<2.15x, 2.7>2.15x")
    second = _legal(st, "10: 2.7>2.15x, 2.17<2.15x")
    assert announce(st, first) == (
        "Ten. Yellow's peg from Yellow's 17 back two to Yellow's 15 and Green's peg from "
        "Yellow's 7 forward eight to Yellow's 15. Two of Yellow's pegs go back to START.")
    assert announce(st, second) == (
        "Ten. Green's peg from Yellow's 7 forward eight to Yellow's 15 and Yellow's peg from "
        "Yellow's 17 back two to Yellow's 15. Yellow's peg goes back to START. "
        "Green's peg goes to its door.")


def test_ten_whose_second_peg_was_sent_to_its_door_by_the_first() -> None:
    st, action = ten_through_a_door()
    assert action in st.legal_actions()
    assert announce(st, action) == (
        "Ten. Green's peg from Blue's 7 back nine to Red's 16 and Red's peg from "
        "Green's 18 forward one to home 1. Red's peg goes to its door.")


def test_announce_refuses_illegal_actions() -> None:
    st = position(PEGOO, {0: ["0.11"]}, ["6"])
    with pytest.raises(IllegalActionError):
        announce(st, Action.parse("6: 0.11>0.18"))
    with pytest.raises(IllegalActionError):
        announce(st, Action("", decision="doubt"))


def test_seat_names_carry_colour_and_letter() -> None:
    names = [seat_name(s) for s in range(10)]
    assert len(set(names)) == 10
    for s, n in enumerate(names):
        assert n.startswith(f"Seat {s} (")
        assert re.fullmatch(r"Seat \d+ \(\w+, [A-Z]\)", n)
    letters = [n[-2] for n in names]
    assert len(set(letters)) == 10


# --- Bluffing Joker: declarations, decisions and what they reveal ---------------------------


def _declared(spec: dict[int, list[str]], hand: list[str], text: str) -> GameState:
    st = position(BLUFF, spec, hand)
    return st.apply(_legal(st, text))


def _decide(state: GameState, decision: str) -> Action:
    return next(a for a in state.legal_actions() if a.decision == decision)


def test_a_declaration_shows_the_real_card_only_to_its_player() -> None:
    st = position(BLUFF, {0: ["0.10"]}, ["9", "5"])
    bluff, truth = _legal(st, "9 as 5: 0.10>0.15"), _legal(st, "5 as 5: 0.10>0.15")
    assert announce(st, bluff) == announce(st, truth) == "Five, face down. 10 to 15."
    assert option_words(st, bluff) == "Nine, face down as a Five. 10 to 15."
    assert option_words(st, truth) == "Five, face down as a Five. 10 to 15."
    assert announce_any(st, bluff) == announce(st, bluff)  # the table's words


def test_a_doubted_bluff_reveals_the_card_and_who_chooses() -> None:
    st = _declared({0: ["0.10"], 1: ["1.3"]}, ["9", "2"], "9 as 5: 0.10>0.15")
    doubt = _decide(st, "doubt")
    assert option_words(st, doubt) == "Doubt Red's face-down Five."  # reveals nothing
    assert announce_any(st, doubt) == "Blue doubts Red's face-down Five."  # nor this
    assert announce_line(st, doubt) == (
        "Seat 1 (Blue, B) doubts Red's face-down Five. The card is a Nine: a bluff by "
        "Red. Blue chooses one of Red's pegs to send back to START.")
    st = st.apply(doubt)
    send = _decide(st, "send 0.10")
    assert option_words(st, send) == "Send Red's peg on Red's 10 back to START."
    assert announce_line(st, send) == (
        "Seat 1 (Blue, B) sends Red's peg on Red's 10 back to START. "
        "Red's move is not made.")


def test_a_doubted_truth_costs_the_doubter_a_peg_then_the_move_is_told() -> None:
    st = _declared({0: ["0.10"], 1: ["1.3"]}, ["5", "2"], "5 as 5: 0.10>0.15")
    doubt = _decide(st, "doubt")
    after = st.apply(doubt)
    assert announce_outcome(st, doubt, after) == (
        "The card is a Five: no bluff. Red chooses one of Blue's pegs to send back to START.")
    send = _decide(after, "send 1.3")
    assert acting_seat(after) == 0
    assert announce(after, send) == (
        "Red sends Blue's peg on Blue's 3 back to START. Then Red's Five is played: 10 to 15.")


def test_a_declared_move_no_longer_possible_is_said_not_made() -> None:
    st = _declared({0: ["0.10"], 1: ["1.3"]}, ["Joker", "2"], "J* as J*: S>1.3x")
    st = st.apply(_decide(st, "doubt"))
    assert announce(st, _decide(st, "send 1.3")) == (
        "Red sends Blue's peg on Blue's 3 back to START. Red's Joker was no bluff, but with "
        "that peg gone it can no longer be played there: Red's pegs stay where they are.")


@pytest.mark.parametrize(("spec", "hand", "text", "said"), [
    ({1: ["1.3"]}, ["9", "2"], "9 as K: S>0.5",
     "The card is a Nine: a bluff by Red. Red's move is not made. Red has no peg on the ring "
     "to send back, so Blue earns an extra turn."),
    ({0: ["0.10"]}, ["5", "2"], "5 as 5: 0.10>0.15",
     "The card is a Five: no bluff. Red's move is made. Blue has no peg on the ring to send "
     "back, so Red earns an extra turn."),
])
def test_an_extra_turn_is_announced(spec: dict[int, list[str]], hand: list[str], text: str,
                                    said: str) -> None:
    st = _declared(spec, hand, text)
    doubt = _decide(st, "doubt")
    after = st.apply(doubt)
    assert sum(after.extra) == 1
    assert announce_outcome(st, doubt, after) == said
    declared = "King" if "as K" in text else "Five"
    assert announce(st, doubt) == f"Blue doubts Red's face-down {declared}. {said}"


def test_passes_name_the_seat_and_the_last_one_lets_the_card_stand_unseen() -> None:
    st = _declared({0: ["0.10"]}, ["9", "2"], "9 as 5: 0.10>0.15")
    first = _decide(st, "pass")
    assert option_words(st, first) == "Do not doubt Red's face-down Five."
    assert announce_line(st, first) == "Seat 1 (Blue, B) does not doubt Red's face-down Five."
    st = st.apply(first)
    assert announce_line(st, _decide(st, "pass")) == (
        "Seat 3 (Green, G) does not doubt Red's face-down Five. "
        "No one doubts: Red's Five stands.")


def test_outcome_is_empty_for_card_plays() -> None:
    st = position(PEGOO, {0: ["0.11"]}, ["6"])
    action = _legal(st, "6: 0.11>0.17")
    assert announce_outcome(st, action, st.apply(action)) == ""


def test_every_logged_decision_names_the_seat_that_made_it() -> None:
    """Issue 32: the replay named the seat whose turn it was, not the seat deciding."""
    rules = Rules.preset("bluffing-joker")
    record = Record(rules, 3)
    state, rng = GameState.new(rules, 3), random.Random(3)
    while len(record.actions) < 60 and not state.is_over():
        action = rng.choice(state.legal_actions())
        record.actions.append(action)
        state = state.apply(action)
    decisions = 0
    for before, action in record.states():
        if action is None or not action.decision:
            continue
        decisions += 1
        seat = acting_seat(before)
        assert seat != before.turn
        line = announce_line(before, action)
        said = announce(before, action)
        assert said.startswith(f"{colour(seat)} ")
        # the seat is named once: its name, then the sentence without its colour
        assert line == f"{seat_name(seat)} {said.removeprefix(colour(seat) + ' ')}"
    assert decisions > 5


def test_demo_and_replay_tell_the_same_game(tmp_path: Path) -> None:
    """Issue 32: ``pegs replay`` named the seat whose turn it was for every doubt and pass."""
    path = tmp_path / "bj.json"
    demo = pegs("demo", "--rules", "bluffing-joker", "--seed", "3", "--max-turns", "40",
                "--save", str(path))
    replay = pegs("replay", str(path))
    assert demo.returncode == replay.returncode == 0, demo.stderr + replay.stderr

    def numbered(out: str) -> list[str]:
        return [line for line in out.splitlines() if re.match(r"\s*\d+\. Seat", line)]

    told = numbered(demo.stdout)
    assert "2. Seat 1 (Blue, B) does not doubt Red's face-down Ace." in told[1]
    assert len(told) >= 40 and numbered(replay.stdout) == told


# --- two different legal moves never read the same ---------------------------------------------


def random_position(rules: Rules, rng: random.Random) -> GameState:
    """Pegs anywhere (start, ring, home; sometimes crowded), a random hand, any stuck count."""
    geo = geometry(rules)
    free = rng.sample(range(geo.ring_size), geo.ring_size)
    at_home = rng.random() * 0.4
    pegs = []
    for _ in range(rules.players):
        homes = rng.sample(range(geo.ring_size, geo.ring_size + geo.home_holes), geo.home_holes)
        mine = []
        for _ in range(rules.pegs):
            r = rng.random()
            mine.append(-1 if r < 0.25 else homes.pop() if r < 0.25 + at_home else free.pop())
        pegs.append(tuple(sorted(mine)))
    shoe = build_shoe(rules)
    return GameState.from_position(
        rules, tuple(pegs), rng.randrange(rules.players), rng.sample(shoe, rules.hand_size),
        stuck_turns=rng.choice((0, 0, 1, 2, 3)), first_turn=rng.random() < 0.1,
        seed=rng.randrange(1000))


def _public(action: Action) -> tuple[object, ...]:
    """What the table sees of an action (a face-down card only as declared)."""
    return (action.declared or action.card, action.steps, action.discard, action.decision)


def _assert_distinct(state: GameState) -> int:
    legal = list(state.legal_actions())
    said = [option_words(state, a) for a in legal]
    assert len(set(said)) == len(said), [
        (str(a), t) for a, t in zip(legal, said, strict=True) if said.count(t) > 1]
    public: dict[str, tuple[object, ...]] = {}
    for a, own in zip(legal, said, strict=True):
        text = announce(state, a) if a.declared or a.decision else own
        assert public.setdefault(text, _public(a)) == _public(a), (str(a), text)
    return len(legal)


#: Every preset at every table size from 2 to 10 seats it can be played at.
TABLES = [(name, n) for name in PRESETS_UNDER_TEST for n in range(2, 11) if table(name, n)]


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_distinct_legal_actions_read_differently(name: str, players: int) -> None:
    """A seeded sweep: random positions, then a few random actions from each (through
    Bluffing Joker declarations, doubts and sends); listings over 1500 actions are
    skipped to bound the time."""
    rules = table(name, players)
    assert rules is not None
    rng = random.Random(f"{name}/{players}")
    checked = 0
    for _ in range(5):
        state = random_position(rules, rng)
        for _ in range(4):
            if state.is_over() or len(state.legal_actions()) > 1500:
                break
            checked += _assert_distinct(state)
            state = state.apply(rng.choice(state.legal_actions()))
    assert checked > 0
