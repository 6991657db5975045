"""Engine behaviour, one rule at a time, on constructed positions (RULES.md sections 1-5)."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import (
    PRESETS_UNDER_TEST,
    card_count,
    card_multiset,
    change,
    layout,
    moved_to,
    position,
    random_game,
)
from pegs.rules import (
    START,
    Action,
    GameState,
    IllegalActionError,
    Outcome,
    Rules,
    geometry,
)

PEGOO = Rules.preset("pegoo")
BASIC = Rules.preset("basic")
HAVASU = Rules.preset("havasu")


def _strs(state: GameState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def _discards(state: GameState) -> set[str]:
    return {a.card for a in state.legal_actions() if a.discard and not a.steps}


# --- illegal actions ---------------------------------------------------------------------


def _refused(state: GameState, text: str) -> str:
    before = state.key()
    legal_before = _strs(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(Action.parse(text))
    assert state.key() == before, "a refused action must leave the state untouched"
    assert _strs(state) == legal_before
    assert isinstance(info.value, ValueError)
    msg = str(info.value)
    assert msg
    return msg


def test_illegal_destination_is_refused_with_the_legal_moves() -> None:
    st = position(BASIC, {0: ["0.5"]}, ["6"])
    msg = _refused(st, "6: 0.5>0.12")
    assert "6: 0.5>0.11" in msg  # the legal move with that card is shown


def test_card_not_in_hand_is_refused_naming_the_hand() -> None:
    st = position(BASIC, {0: ["0.5"]}, ["5", "8"])
    msg = _refused(st, "6: 0.5>0.11")
    assert "6" in msg and "5" in msg and "8" in msg


def test_discard_is_refused_when_a_card_can_move() -> None:
    st = position(BASIC, {0: ["0.5"]}, ["5", "8"])
    msg = _refused(st, "5: discard")
    assert "must" in msg
    assert "5" in msg and "8" in msg
    assert not _discards(st)


def test_moves_of_pegs_not_on_the_board_are_refused() -> None:
    st = position(BASIC, {0: ["0.5"]}, ["5"])
    _refused(st, "5: 0.6>0.11")  # no peg there
    _refused(st, "5: 9.1>9.6")  # no such side
    _refused(st, "5: S>0.5")  # a 5 does not bring a peg out


def test_decision_without_a_pending_declaration_is_refused() -> None:
    st = position(BASIC, {0: ["0.5"]}, ["5"])
    _refused(st, "doubt")


def test_refused_action_leaves_a_fresh_game_untouched() -> None:
    st = GameState.new(PEGOO, 11)
    _refused(st, "Joker: 9.9>9.10")


# --- splits: either order is the same move (section 3, I-10) ---------------------------


def test_split_in_the_other_order_is_the_same_move() -> None:
    st = position(PEGOO, {0: ["H3", "0.5"]}, ["9"])
    a = st.apply(Action.parse("9: H3>H4, 0.5<3.17"))
    b = st.apply(Action.parse("9: 0.5<3.17, H3>H4"))
    assert a.key() == b.key()
    listed = [x for x in st.legal_actions() if x.steps and len(x.steps) == 2]
    assert len(listed) == len({st.result_of(x) for x in listed})  # one listing per result


def test_seven_split_alias() -> None:
    st = position(BASIC, {0: ["0.5", "1.3"]}, ["7"])
    a = st.apply(Action.parse("7: 0.5>0.7, 1.3>1.8"))
    b = st.apply(Action.parse("7: 1.3>1.8, 0.5>0.7"))
    assert a.key() == b.key()
    texts = _strs(st)
    assert texts.count("7: 0.5>0.7, 1.3>1.8") + texts.count("7: 1.3>1.8, 0.5>0.7") == 1


def test_split_order_matters_when_one_part_would_pass_the_other_peg() -> None:
    # 0.5 cannot pass 0.8 (basic: no passing own pegs); moving 0.8 first clears the way.
    st = position(BASIC, {0: ["0.5", "0.8"]}, ["7"])
    assert change(st, s0=["0.9", "0.11"]) in moved_to(st, "7")
    after = st.apply(Action.parse("7: 0.8>0.11, 0.5>0.9"))
    assert sorted(after.geo.name(p) for p in after.pegs[0] if p >= 0) == ["0.11", "0.9"]


def test_a_swap_that_repeats_a_forward_two_is_listed_once() -> None:
    # the forward 2 onto the partner sends it to its door, the hole the mover's peg left:
    # the board of swapping the two pegs, listed once (as the forward move, found first)
    st = position(Rules.preset("north-carolina"), {0: ["1.18"], 1: ["3.5"], 2: ["2.2"]}, ["2"])
    texts = _strs(st)
    assert "2: 1.18>2.2x" in texts
    assert "2: 1.18~2.2" not in texts
    assert "2: 1.18~3.5" in texts
    assert moved_to(st, "2") == {change(st, s0=["2.2"], s2=["1.18"]),
                                 change(st, s0=["3.5"], s1=["1.18"])}
    assert len([a for a in st.legal_actions() if a.card == "2"]) == 2


def test_a_swap_named_before_any_listing_is_found_and_refused_with_an_own_peg() -> None:
    # swaps are kept as numbers until listed: one named on a fresh state is found by its
    # text alone, and a "swap" with a peg of the mover's own colour is no legal move
    rules = Rules.preset("north-carolina")
    spec = {0: ["0.5", "0.9"], 1: ["1.7", "2.3"], 2: ["2.10"], 3: ["3.9"]}
    after = position(rules, spec, ["2"]).apply(Action.parse("2: 0.5~2.3"))
    expected = position(rules, {**spec, 0: ["2.3", "0.9"], 1: ["1.7", "0.5"]}, ["2"])
    assert after.pegs == expected.pegs
    with pytest.raises(IllegalActionError):
        position(rules, spec, ["2"]).apply(Action.parse("2: 0.5~0.9"))
    st = position(rules, spec, ["2"])
    swaps = [str(a) for a in st.legal_actions() if a.steps and a.steps[0].op == "~"]
    # each own ring peg with each of the four ring pegs of another colour, the partner's too
    assert len(swaps) == len(set(swaps)) == 8
    assert "2: 0.9~2.10" in swaps and "2: 0.5~3.9" in swaps


# --- hits (section 3) --------------------------------------------------------------------


def test_landing_on_an_opponent_sends_it_to_start() -> None:
    st = position(BASIC, {0: ["0.5"], 1: ["0.10"]}, ["5"])
    assert moved_to(st, "5") == {change(st, s0=["0.10"], s1=[])}


def test_landing_on_a_partner_sends_it_to_its_door() -> None:
    st = position(BASIC, {0: ["0.5"], 2: ["0.10"]}, ["5"])
    assert moved_to(st, "5") == {change(st, s0=["0.10"], s2=["1.18"])}


def test_partner_whose_door_holds_its_own_colour_cannot_be_landed_on() -> None:
    st = position(BASIC, {0: ["0.5"], 2: ["0.10", "1.18"]}, ["5", "8"])
    assert moved_to(st, "5") == set()
    assert {a.card for a in st.legal_actions()} == {"8"}


def test_chain_hit_at_the_partners_door() -> None:
    # I-06: the opponent on seat 2's door is hit in turn (back to start)
    st = position(BASIC, {0: ["0.5"], 2: ["0.10"], 1: ["1.18"]}, ["5"])
    assert moved_to(st, "5") == {change(st, s0=["0.10"], s2=["1.18"], s1=[])}


def test_chain_hit_sends_the_movers_own_peg_to_its_door() -> None:
    # the mover's own peg counts as the mover's team: it goes to its own door (3.18)
    st = position(BASIC, {0: ["0.5", "1.18"], 2: ["0.10"]}, ["5"])
    assert change(st, s0=["0.10", "3.18"], s2=["1.18"]) in moved_to(st, "5")


def test_passing_other_colours_has_no_effect() -> None:
    st = position(BASIC, {0: ["0.5"], 1: ["0.7"], 2: ["0.8"]}, ["5"])
    assert moved_to(st, "5") == {change(st, s0=["0.10"])}


def test_coming_out_hits_and_is_blocked_by_own_colour() -> None:
    st = position(BASIC, {1: ["0.5"]}, ["A"])
    assert change(st, s0=["0.5"], s1=[]) in moved_to(st, "A")
    st = position(BASIC, {0: ["0.5"]}, ["K"])
    assert moved_to(st, "K") == {change(st, s0=["0.15"])}  # no second peg out


# --- passing, home, full count (section 3) -----------------------------------------------


def test_pegoo_may_pass_its_own_pegs_other_presets_may_not() -> None:
    st = position(PEGOO, {0: ["0.5", "0.7"]}, ["4"])
    assert change(st, s0=["0.9", "0.7"]) in moved_to(st, "4")
    st = position(BASIC, {0: ["0.5", "0.7"]}, ["4"])
    assert change(st, s0=["0.9", "0.7"]) not in moved_to(st, "4")
    assert moved_to(st, "4") == {change(st, s0=["0.5", "0.11"])}
    # landing on one's own colour is never allowed, even in Pegoo
    st = position(PEGOO, {0: ["0.5", "0.9"]}, ["4"])
    assert change(st, s0=["0.9", "0.9"]) not in moved_to(st, "4")


def test_door_branch_gives_two_moves() -> None:
    st = position(BASIC, {0: ["3.16"]}, ["4"])
    assert moved_to(st, "4") == {change(st, s0=["H2"]), change(st, s0=["0.2"])}


def test_no_passing_inside_home_and_exact_count() -> None:
    st = position(BASIC, {0: ["3.16", "H3"]}, ["3", "4", "5", "6"])
    assert moved_to(st, "3") == {change(st, s0=["H1", "H3"]), change(st, s0=["0.1", "H3"])}
    assert moved_to(st, "4") == {change(st, s0=["H2", "H3"]), change(st, s0=["0.2", "H3"])}
    assert moved_to(st, "5") == {change(st, s0=["0.3", "H3"])}  # H3 is taken
    assert moved_to(st, "6") == {change(st, s0=["0.4", "H3"])}  # would pass H3


def test_home_pegs_move_forward_in_home_only_by_exact_count() -> None:
    st = position(BASIC, {0: ["H1"]}, ["2", "4", "5", "8"])
    assert moved_to(st, "2") == {change(st, s0=["H3"])}
    assert moved_to(st, "4") == {change(st, s0=["H5"])}
    assert moved_to(st, "5") == set()  # past H5
    assert moved_to(st, "8") == set()  # never backward in home


def test_backward_moves_stay_on_the_ring() -> None:
    st = position(BASIC, {0: ["0.3"]}, ["8"])
    # backing past the own door does not enter home
    assert moved_to(st, "8") == {change(st, s0=["3.13"])}
    st = position(BASIC, {0: ["0.5"]}, ["8"])
    assert moved_to(st, "8") == {change(st, s0=["3.15"])}


def test_backward_cannot_pass_own_peg_in_basic() -> None:
    st = position(BASIC, {0: ["0.10", "0.5"]}, ["8"])
    assert moved_to(st, "8") == {change(st, s0=["0.10", "3.15"])}


def test_start_pegs_never_move_except_coming_out() -> None:
    st = position(BASIC, {}, ["5", "8", "7", "9", "10", "2"])
    assert all(a.discard for a in st.legal_actions())


# --- card powers from the section 5 table, for every implemented preset -------------------

FORWARD_ONLY = {"3": 3, "4": 4, "5": 5, "6": 6}


def _expected_single_peg(rules: Rules, rank: str) -> set[frozenset[tuple[int, tuple[str, ...]]]]:
    """What one ring peg at 1.1 (others of the table in start) can do with ``rank``, read
    from the section 5 card table.  Returns the same shape as helpers.moved_to."""
    name, h, k = rules.name, rules.holes_per_side, rules.pegs
    starts = ("S",) * (k - 1)

    def me(pos: str) -> frozenset[tuple[int, tuple[str, ...]]]:
        return frozenset({(0, tuple(sorted((pos, *starts))))})

    def out_for(seat: int, ring: tuple[str, ...]) -> frozenset[tuple[int, tuple[str, ...]]]:
        side = seat * rules.sides // rules.players
        rest = ("S",) * (k - 1 - len(ring))
        return frozenset({(seat, tuple(sorted((f"{side}.5", *ring, *rest))))})

    team_control = name in ("arizona", "kilpatrick")
    movers = [0, 2] if team_control else [0]

    def come_out() -> set[frozenset[tuple[int, tuple[str, ...]]]]:
        return {out_for(s, ("1.1",) if s == 0 else ()) for s in movers}

    def fwd(n: int) -> frozenset[tuple[int, tuple[str, ...]]]:
        return me(f"1.{1 + n}")

    def back(n: int) -> frozenset[tuple[int, tuple[str, ...]]]:
        return me(f"0.{h + 1 - n}")

    high = name in ("havasu", "social-security")
    if rank in FORWARD_ONLY:
        return {fwd(FORWARD_ONLY[rank])}
    if rank == "A":
        got = come_out() | {fwd(1)}
        if name == "north-carolina":
            got |= {back(1), fwd(11)}
        return got
    if rank == "2":
        return {fwd(2)}  # a swap needs another colour on the ring
    if rank == "7":
        return {fwd(7)}  # no second peg to split with: the full move (I-08 where obligatory)
    if rank == "8":
        return {back(8)}
    if rank == "9":
        return {fwd(9)}
    if rank == "10":
        return set() if name == "north-carolina" else {fwd(10)}  # NC: two colours needed
    if rank in ("J", "Q", "K"):
        n = {"J": 11, "Q": 12, "K": 13}[rank] if high else 10
        return come_out() | {fwd(n)}
    assert rank == "Joker"
    if name == "pegoo":
        # to the owner's door: own ring peg, own start peg, partner's start peg (I-03)
        return {
            me(f"3.{h}"),
            frozenset({(0, tuple(sorted(("1.1", f"3.{h}", *starts[1:]))))}),
            frozenset({(2, tuple(sorted((f"1.{h}", *starts))))}),
        }
    if name == "havasu":
        return {out_for(0, ("1.1",))}  # no peg to hit; the Havasu joker may come out
    if team_control:
        # a partner's start peg may hit the seat's own peg (another colour), which is a
        # team peg and goes to its door
        return {frozenset({(2, tuple(sorted(("1.1", *starts)))), (0, (f"3.{h}", *starts))})}
    return set()  # a joker never moves to an empty hole


@pytest.mark.parametrize("name", PRESETS_UNDER_TEST)
@pytest.mark.parametrize(
    "rank", ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Joker"]
)
def test_card_powers_of_a_single_peg(name: str, rank: str) -> None:
    rules = Rules.preset(name)
    st = position(rules, {0: ["1.1"]}, [rank])
    geo = st.geo
    got = set()
    for a in st.legal_actions():
        if a.discard or a.card != rank or (a.declared and a.declared != rank):
            continue
        after = st.result_of(a)
        got.add(frozenset(
            (s, tuple(sorted(geo.name(p) for p in after[s])))
            for s in range(len(after)) if after[s] != st.pegs[s]
        ))
    assert got == _expected_single_peg(rules, rank)
    if not got and not rules.bluffing:
        assert [str(a) for a in st.legal_actions()] == [f"{Action(rank, (), True)}"]


# --- must play and jokers (section 4) ----------------------------------------------------


def test_joker_is_never_forced_when_only_jokers_move() -> None:
    st = position(BASIC, {1: ["2.7"]}, ["Joker", "5"])
    assert moved_to(st, "Joker") == {change(st, s0=["2.7"], s1=[])}
    assert _discards(st) == {"Joker", "5"}  # I-12: the joker itself may be discarded


def test_joker_may_be_played_when_other_cards_move_but_no_discard() -> None:
    st = position(BASIC, {1: ["2.7"]}, ["Joker", "A"])
    assert moved_to(st, "Joker") == {change(st, s0=["2.7"], s1=[])}
    assert moved_to(st, "A") == {change(st, s0=["0.5"])}
    assert not _discards(st)


def test_joker_never_moves_to_an_empty_hole_or_from_home() -> None:
    st = position(BASIC, {0: ["H5"]}, ["Joker", "5"])
    assert not moved_to(st, "Joker")
    assert _discards(st) == {"Joker", "5"}
    st = position(BASIC, {0: ["H5"], 3: ["1.1"]}, ["Joker"])
    moves = moved_to(st, "Joker")
    assert moves == {change(st, s0=["H5", "1.1"], s3=[])}  # from start, not from H5


def test_joker_hitting_a_partner_sends_it_to_its_door() -> None:
    st = position(BASIC, {0: ["0.3"], 2: ["3.3"]}, ["Joker"])
    assert moved_to(st, "Joker") == {
        change(st, s0=["3.3"], s2=["1.18"]),
        change(st, s0=["0.3", "3.3"], s2=["1.18"]),
    }


def test_havasu_joker_comes_out_like_an_ace() -> None:
    st = position(HAVASU, {}, ["Joker"])
    assert moved_to(st, "Joker") == {change(st, s0=["0.5"])}


def test_pegoo_joker_moves_team_pegs_to_their_doors_or_sends_opponents_home() -> None:
    st = position(PEGOO, {0: ["0.9"], 1: ["1.4"], 2: ["2.8"]}, ["Joker"])
    assert moved_to(st, "Joker") == {
        change(st, s0=["3.20"]),  # own ring peg to own door
        change(st, s0=["0.9", "3.20"]),  # own start peg to own door
        change(st, s2=["1.20"]),  # partner's ring peg to its door (I-03)
        change(st, s2=["2.8", "1.20"]),  # partner's start peg to its door
        change(st, s1=[]),  # opponent's ring peg back to start
    }


def test_legal_actions_have_no_duplicates_on_a_stuck_havasu_joker_turn() -> None:
    # Havasu: the joker may come out (joker_comes_out) and, on the fourth stuck turn, any
    # card may come out (I-17): one move, listed once.
    st = position(HAVASU, {}, ["Joker"], stuck_turns=3)
    texts = _strs(st)
    assert len(texts) == len(set(texts)), texts


@pytest.mark.parametrize("first_turn", [False, True])
def test_north_carolina_joker_is_obligatory_except_on_the_first_turn(first_turn: bool) -> None:
    rules = Rules.preset("north-carolina")
    st = position(rules, {1: ["2.7"]}, ["Joker", "5"], first_turn=first_turn)
    assert moved_to(st, "Joker") == {change(st, s0=["2.7"], s1=[])}
    assert bool(_discards(st)) is first_turn


# --- stuck rules (section 4) --------------------------------------------------------------


def test_pegoo_cant_play_pile() -> None:
    st = position(PEGOO, {}, ["5"])
    assert _strs(st) == ["5: discard"]
    after = st.apply(Action.parse("5: discard"))
    assert after.piles[0] == ("5",)
    assert "5" not in after.discards and after.discards == st.discards
    assert after.stuck[0] == 1
    assert card_count(after) == card_count(st)
    # one can't-play card on the pile: still only discards
    st = position(PEGOO, {}, ["5", "6"], stuck_turns=1)
    assert _discards(st) == {"5", "6"} and all(a.discard for a in st.legal_actions())
    # two: any card brings a start peg to the out-hole, and discarding is no longer legal
    st = position(PEGOO, {}, ["5", "6", "Joker"], stuck_turns=2)
    assert not _discards(st)
    assert moved_to(st, "5") == moved_to(st, "6") == {change(st, s0=["0.5"])}
    assert change(st, s0=["0.5"]) in moved_to(st, "Joker")  # I-17
    after = st.apply(Action.parse("5: S>0.5"))
    assert after.stuck[0] == 0


def test_pegoo_pile_goes_to_the_discards_when_a_move_is_made() -> None:
    # In real games: find a seat that discarded twice (pile of two), then moved.
    for seed in range(40):
        for state, action in random_game(PEGOO, seed, seed):
            if not isinstance(action, Action):
                break
            seat = state.turn
            if len(state.piles[seat]) == 2 and not action.discard:
                after = state.apply(action)
                assert after.piles[seat] == ()
                assert after.stuck[seat] == 0
                if len(after.discards) >= len(state.discards):  # no reshuffle in between
                    added = Counter(after.discards) - Counter(state.discards)
                    assert added == Counter([*state.piles[seat], action.card])
                    return
    pytest.fail("no seeded pegoo game flushed a can't-play pile of two cards")


def test_havasu_fourth_turn() -> None:
    hand = ["2", "3", "4", "5", "6"]
    st = position(HAVASU, {}, hand, stuck_turns=2)
    assert all(a.discard for a in st.legal_actions())
    st = position(HAVASU, {}, hand, stuck_turns=3)
    assert not _discards(st)
    for card in hand:
        assert moved_to(st, card) == {change(st, s0=["0.5"])}
    after = st.apply(Action.parse("3: S>0.5"))
    assert after.stuck[0] == 0


@pytest.mark.parametrize("name", ["basic", "traditional"])
def test_no_stuck_rule_means_discarding_is_all(name: str) -> None:
    st = position(Rules.preset(name), {}, ["2", "3", "4", "5", "6"], stuck_turns=5)
    assert all(a.discard for a in st.legal_actions())


def test_stuck_counter_counts_discards_and_resets_on_a_move() -> None:
    st = position(HAVASU, {}, ["5"])
    after = st.apply(Action.parse("5: discard"))
    assert after.stuck[0] == 1
    st = position(HAVASU, {0: ["0.5"]}, ["5"], stuck_turns=2)
    after = st.apply(Action.parse("5: 0.5>0.10"))
    assert after.stuck[0] == 0


# --- control and help order (section 3) --------------------------------------------------

HOME5 = ["H1", "H2", "H3", "H4", "H5"]


def test_all_home_seat_moves_its_partners_pegs() -> None:
    st = position(BASIC, {0: HOME5, 2: ["2.5"]}, ["5"])
    assert st.controlled_seats() == (2,)
    assert _strs(st) == ["5: 2.5>2.10"]
    st = position(BASIC, {0: HOME5}, ["A"])
    assert _strs(st) == ["A: S@2>2.5"]


def test_own_pegs_only_until_all_home() -> None:
    st = position(BASIC, {0: ["H1", "H2", "H3", "H4"], 2: ["2.5"]}, ["5"])
    assert st.controlled_seats() == (0,)
    assert moved_to(st, "5") == set()


def test_help_order_clockwise_and_any() -> None:
    six = {0: HOME5, 2: ["2.5"], 4: ["4.5"]}
    st = position(Rules.preset("basic", players=6), six, ["5"])
    assert st.controlled_seats() == (2,)
    st = position(Rules.preset("basic", players=6), {**six, 2: HOME5}, ["5"])
    assert st.controlled_seats() == (4,)
    pegoo6 = Rules.preset("pegoo", players=6)
    st = position(pegoo6, {0: ["H1", "H2", "H3", "H4"], 2: ["2.5"], 4: ["4.5"]}, ["5"])
    assert st.controlled_seats() == (2, 4)
    assert moved_to(st, "5") == {change(st, s2=["2.10"]), change(st, s4=["4.10"])}


def test_team_control_moves_any_team_peg() -> None:
    st = position(Rules.preset("arizona"), {0: ["0.7"], 2: ["2.7"]}, ["5"])
    assert moved_to(st, "5") == {change(st, s0=["0.12"]), change(st, s2=["2.12"])}


# --- finishing splits (section 3, split_finish_with_partner) -----------------------------


def test_pegoo_seven_finishes_on_a_partner_peg_forward() -> None:
    st = position(PEGOO, {0: ["H2", "H3", "H4", "3.19"], 2: ["2.10"]}, ["7"])
    assert change(st, s0=["H1", "H2", "H3", "H4"], s2=["2.15"]) in moved_to(st, "7")
    assert change(st, s0=["H2", "H3", "H4", "0.6"]) in moved_to(st, "7")


def test_pegoo_nine_finishes_on_a_partner_peg_backward() -> None:
    st = position(PEGOO, {0: ["H2", "H3", "H4", "3.19"], 2: ["2.10"]}, ["9"])
    assert change(st, s0=["H1", "H2", "H3", "H4"], s2=["2.3"]) in moved_to(st, "9")
    assert change(st, s0=["H1", "H2", "H3", "H4"], s2=["2.17"]) not in moved_to(st, "9")


def test_pegoo_seven_cannot_finish_when_the_partner_has_nothing_to_move() -> None:
    st = position(PEGOO, {0: ["H2", "H3", "H4", "3.19"]}, ["7"])
    assert moved_to(st, "7") == {change(st, s0=["H2", "H3", "H4", "0.6"])}


def test_basic_has_no_finishing_split() -> None:
    st = position(BASIC, {0: ["H2", "H3", "H4", "H5", "3.17"], 2: ["2.10"]}, ["7"])
    assert moved_to(st, "7") == {change(st, s0=["H2", "H3", "H4", "H5", "0.6"])}


def test_havasu_seven_must_split_including_a_finishing_split() -> None:
    st = position(HAVASU, {0: ["H2", "H3", "H4", "H5", "3.17"], 2: ["2.10"]}, ["7"])
    assert moved_to(st, "7") == {change(st, s0=HOME5, s2=["2.15"])}  # I-15


def test_havasu_seven_full_move_when_no_split_is_legal() -> None:
    st = position(HAVASU, {0: ["H2", "H3", "H4", "H5", "3.17"]}, ["7"])
    assert moved_to(st, "7") == {change(st, s0=["H2", "H3", "H4", "H5", "0.6"])}  # I-08


def test_havasu_seven_must_split_between_two_own_pegs() -> None:
    st = position(HAVASU, {0: ["0.5", "1.5"]}, ["7"])
    moves = moved_to(st, "7")
    assert change(st, s0=["0.12", "1.5"]) not in moves
    assert change(st, s0=["0.6", "1.11"]) in moves
    assert len(moves) == 6  # 1+6 .. 6+1


def test_social_security_nine_must_split_one_forward_one_back() -> None:
    st = position(Rules.preset("social-security"), {0: ["0.5", "1.5"]}, ["9"])
    moves = moved_to(st, "9")
    assert change(st, s0=["0.14", "1.5"]) not in moves
    assert change(st, s0=["0.6", "0.15"]) in moves  # 0.5 +1, 1.5 -8
    assert change(st, s0=["0.13", "1.4"]) in moves  # 0.5 +8, 1.5 -1


# --- Kilpatrick, Arizona and North Carolina specifics -----------------------------------


def test_kilpatrick_must_turn_in_at_the_door() -> None:
    st = position(Rules.preset("kilpatrick"), {0: ["3.16"]}, ["4", "9"])
    assert moved_to(st, "4") == {change(st, s0=["H2"])}
    assert moved_to(st, "9") == set()


def test_arizona_joker_takes_a_start_peg_first() -> None:
    st = position(Rules.preset("arizona"), {0: ["0.9"], 1: ["1.4"]}, ["Joker"])
    assert moved_to(st, "Joker") == {
        change(st, s0=["0.9", "1.4"], s1=[]),
        change(st, s2=["1.4"], s1=[]),
        # a partner's start peg may land on the seat's own peg, which goes to its door
        change(st, s2=["0.9"], s0=["3.18"]),
    }


def test_north_carolina_ten_hits_are_judged_from_the_mover() -> None:
    # seat 0 moves opponent seat 1's peg onto seat 3 (seat 1's partner, seat 0's opponent):
    # the hit peg goes back to start, not to its door.
    nc = Rules.preset("north-carolina")
    st = position(nc, {0: ["0.9"], 1: ["1.7"], 3: ["1.10"]}, ["10"])
    assert change(st, s0=["0.16"], s1=["1.10"], s3=[]) in moved_to(st, "10")
    assert change(st, s0=["0.10"], s1=["1.16"]) in moved_to(st, "10")
    assert change(st, s0=["0.19"]) not in moved_to(st, "10")  # never one peg 10


# --- turn order and drawing (section 2) ---------------------------------------------------


@pytest.mark.parametrize("name", PRESETS_UNDER_TEST)
def test_hand_sizes_follow_the_turn_order(name: str) -> None:
    rules = Rules.preset(name)
    st = GameState.new(rules, 5)
    extra = 1 if rules.turn_order == "draw_then_play" else 0
    assert len(st.hands[0]) == rules.hand_size + extra
    assert all(len(h) == rules.hand_size for h in st.hands[1:])
    for _ in range(12):
        if st.pending is not None or st.is_over():
            break
        seat = st.turn
        st = st.apply(st.legal_actions()[0])
        if st.pending is not None:
            break
        assert len(st.hands[seat]) == rules.hand_size + (extra if st.turn == seat else 0)
        assert len(st.hands[st.turn]) == rules.hand_size + extra


def test_play_then_draw_draws_after_playing() -> None:
    st = GameState.new(HAVASU, 3)
    seat = st.turn
    action = st.legal_actions()[0]
    after = st.apply(action)
    drawn = Counter(st.draw_pile) - Counter(after.draw_pile)
    assert sum(drawn.values()) == 1
    assert len(after.draw_pile) == len(st.draw_pile) - 1
    assert Counter(after.hands[seat]) == Counter(st.hands[seat]) - Counter([action.card]) + drawn
    assert after.turn == 1 and after.hands[1] == st.hands[1]


def test_draw_then_play_draws_for_the_next_seat() -> None:
    st = GameState.new(BASIC, 3)
    action = st.legal_actions()[0]
    after = st.apply(action)
    assert after.turn == 1
    drawn = Counter(st.draw_pile) - Counter(after.draw_pile)
    assert sum(drawn.values()) == 1
    assert Counter(after.hands[1]) == Counter(st.hands[1]) + drawn
    assert Counter(after.hands[0]) == Counter(st.hands[0]) - Counter([action.card])


# --- the shoe: seeds, conservation, reshuffles (section 2) --------------------------------


def _shoe(rules: Rules) -> Counter[str]:
    c: Counter[str] = Counter()
    for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"):
        c[rank] = 4 * rules.decks
    jokers = rules.decks * rules.jokers_per_deck + rules.extra_jokers
    if jokers:
        c["Joker"] = jokers
    return c


@pytest.mark.parametrize("name", PRESETS_UNDER_TEST)
def test_same_seed_same_deal_different_seeds_differ(name: str) -> None:
    rules = Rules.preset(name)
    a, b = GameState.new(rules, 42), GameState.new(rules, 42)
    assert a.key() == b.key()
    assert a.hands == b.hands and a.draw_pile == b.draw_pile
    deals = {GameState.new(rules, s).hands for s in range(8)}
    assert len(deals) == 8
    assert card_multiset(a) == _shoe(rules)


def test_traditional_two_players_has_no_jokers() -> None:
    st = GameState.new(Rules.preset("traditional", players=2), 1)
    assert "Joker" not in card_multiset(st)
    assert card_count(st) == 156


@pytest.mark.parametrize("name", ["havasu", "pegoo"])
def test_reshuffle_when_the_draw_pile_runs_out(name: str) -> None:
    rules = Rules.preset(name, players=2)
    shoe = _shoe(rules)
    reshuffles = 0
    previous = None
    for state, _action in random_game(rules, 7, 7):
        assert card_multiset(state) == shoe
        if previous is not None and len(state.draw_pile) > len(previous.draw_pile):
            reshuffles += 1
            # every discard, the card just played included (I-20), went into the new pile
            assert state.discards == ()
        previous = state
    assert previous is not None and previous.is_over()
    assert reshuffles >= 1


def test_seed_must_be_an_integer() -> None:
    with pytest.raises(ValueError):
        GameState.new(BASIC, "7")  # type: ignore[arg-type]


# --- winning (section 4.6) ---------------------------------------------------------------


def test_individual_win_without_teams() -> None:
    rules = Rules.preset("basic", teams=0)
    st = position(rules, {0: ["3.16", "H2", "H3", "H4", "H5"]}, ["3"])
    assert st.outcome() is None and not st.is_over()
    after = st.apply(Action.parse("3: 3.16>H1"))
    assert after.is_over()
    assert after.outcome() == Outcome(0, (0,))
    assert after.current_player == -1
    assert list(after.legal_actions()) == []
    assert card_count(after) == card_count(st)
    with pytest.raises(IllegalActionError, match="over"):
        after.apply(Action.parse("3: discard"))


def test_team_needs_every_partner_home() -> None:
    st = position(BASIC, {0: ["3.16", "H2", "H3", "H4", "H5"], 2: ["2.5"]}, ["3"])
    after = st.apply(Action.parse("3: 3.16>H1"))
    assert not after.is_over() and after.outcome() is None
    assert after.current_player == 1
    assert after.legal_actions()


def test_team_win_by_a_partner_move() -> None:
    st = position(BASIC, {0: HOME5, 2: ["1.16", "H2", "H3", "H4", "H5"]}, ["3"])
    after = st.apply(Action.parse("3: 1.16>H1@2"))
    assert after.outcome() == Outcome(0, (0, 2))
    assert list(after.legal_actions()) == []


def test_all_home_means_the_far_end_of_a_longer_home() -> None:
    rules = Rules.preset("basic", teams=0, home_holes=7)
    st = position(rules, {0: ["H1", "H2", "H3", "H4", "H5"]}, ["2"])
    assert not st.is_over()
    assert st.legal_actions()
    st = position(rules, {0: ["H3", "H4", "H5", "H6", "H7"]}, ["2"])
    assert st.is_over()
    assert st.outcome() == Outcome(0, (0,))


def test_outcome_is_none_until_the_end_of_a_real_game() -> None:
    for state, action in random_game(Rules.preset("pegoo", players=2), 3, 3):
        if action is None:
            assert state.is_over() and state.outcome() is not None
            assert list(state.legal_actions()) == []
        else:
            assert state.outcome() is None


# --- position construction ----------------------------------------------------------------


def test_from_position_checks_the_peg_count() -> None:
    with pytest.raises(ValueError):
        GameState.from_position(BASIC, ((START,) * 4,) * 4, 0, ["5"])


def test_from_position_sets_the_hand_and_counters() -> None:
    pegs = layout(BASIC, {0: ["0.5"]})
    st = GameState.from_position(BASIC, pegs, 2, ["A", "5"], stuck_turns=2, first_turn=True)
    assert st.turn == 2 and st.current_player == 2
    assert st.hands[2] == ("A", "5")
    assert st.stuck[2] == 2 and st.turns_taken[2] == 0
    assert card_multiset(st) == _shoe(BASIC)
    assert geometry(BASIC).name(st.pegs[0][-1]) == "0.5"


# --- North Carolina counting (section 4, I-27, I-28) -------------------------------------

NC = Rules.preset("north-carolina")


def test_north_carolina_counting_third_turn_comes_out_free() -> None:
    st = position(NC, {}, ["5", "6"], stuck_turns=1)
    assert all(a.discard and not a.steps for a in st.legal_actions())
    after = st.apply(Action.parse("5: discard"))
    assert after.stuck[0] == 2
    st = position(NC, {}, ["5", "6"], stuck_turns=2)
    assert {str(a) for a in st.legal_actions()} == {"5: discard, S>0.5", "6: discard, S>0.5"}
    after = st.apply(Action.parse("6: discard, S>0.5"))
    assert after.pegs[0] == layout(NC, {0: ["0.5"]})[0]
    assert after.stuck[0] == 0
    assert "6" in after.discards


def test_north_carolina_joker_ring_move_stops_the_count() -> None:
    # I-27: a seat counts only when it has no legal move other than coming out.  Moving
    # the ring peg 0.1 onto 0.2 with the joker is such a move, and I-28 makes the joker
    # obligatory when it is the only play: no discard (with or without a free come-out).
    st = position(NC, {0: ["0.1"], 3: ["0.2"]}, ["Joker"], stuck_turns=2)
    assert moved_to(st, "Joker") >= {change(st, s0=["0.2"], s3=[])}
    assert not any(a.discard for a in st.legal_actions()), _strs(st)
