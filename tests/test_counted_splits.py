"""The counted splits (North Carolina tens, 7 and 9 splits) against a plain listing of
every split (``split_oracle``).

The engine lists the splits whose parts interact and counts the rest without building
them (``pegs.rules.counted``); these tests check that the listing is the same set of
actions, with the same spelling for each final board and the same boards, as listing every
split one by one, and that length, indexing and membership agree with it.
"""

from __future__ import annotations

import gc
import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import position, random_game
from oracle import turn_of
from oracle.legal import Actions, _Generator, generate
from pegs.rules import Action, GameState, Rules
from pegs.rules.actions import Step
from pegs.rules.board import START, Geometry
from pegs.rules.pairs import net_change, on_way
from pegs.rules.part import PLAIN_SLOTS, Part
from reference import Reference
from split_oracle import TenOracle, split_actions


def reachable(rules: Rules, seed: int, plies: int) -> GameState:
    """The state after ``plies`` random actions of a game dealt with ``seed``."""
    last = None
    for i, (state, _) in enumerate(random_game(rules, seed, seed)):
        last = state
        if i == plies:
            break
    assert last is not None
    return last


def perturbed(action: Action) -> list[Action]:
    """Near misses of a ten: the other order, a hit mark flipped, another card, a part one
    hole off."""
    a, b = action.steps
    out = [
        Action(action.card, (b, a)),
        Action(action.card, (a._replace(hit=not a.hit), b)),
        Action(action.card, (a, b._replace(hit=not b.hit))),
        Action("9" if action.card == "10" else "10", action.steps),
        Action(action.card, action.steps, discard=True),
    ]
    if "." in a.dst:
        side, hole = a.dst.split(".")
        out.append(Action(action.card, (Step(a.src, f"{side}.{int(hole) % 18 + 1}", a.op), b)))
    return out


def check_listing(state: GameState, sample: int = 60) -> None:
    """The listing is consistent: length, distinct items, membership of listed and
    perturbed actions, and results that ``apply`` agrees with."""
    legal = state.legal_actions()
    items = list(legal)
    assert len(items) == len(legal)
    listed = set(items)
    assert len(listed) == len(items), "an action is listed twice"
    rng = random.Random(len(items))
    picks = rng.sample(range(len(items)), min(sample, len(items)))
    for i in picks:
        action = legal[i]
        assert action == items[i] and action in legal
        assert legal[i - len(items)] == action
        after = state.apply(action)
        assert after.pegs == state.result_of(action)
        if action.steps and len(action.steps) == 2 and not action.discard:
            for near in perturbed(action):
                assert (near in legal) == (near in listed), str(near)


def check_tens(state: GameState) -> None:
    """The listed tens are exactly the oracle's, leading to the same boards."""
    legal = state.legal_actions()
    card = "10"
    engine = {a: state.result_of(a) for a in legal if a.card == card and not a.discard}
    want = TenOracle(state, card).tens()
    assert set(engine) == set(want), (
        f"engine only {sorted(map(str, set(engine) - set(want)))[:5]}, "
        f"oracle only {sorted(map(str, set(want) - set(engine)))[:5]}")
    for action, board in want.items():
        assert engine[action] == board, str(action)


def check_splits(state: GameState, card: str, total: int) -> None:
    """The listed 7 or 9 splits are exactly the oracle's (when no finishing split can
    arise: the mover has two pegs or more outside home, or team control)."""
    ring = state.geo.ring_size
    if state.rules.control != "team" and sum(1 for p in state.pegs[state.turn] if p < ring) < 2:
        return
    legal = state.legal_actions()
    engine = {a: state.result_of(a) for a in legal if a.card == card and len(a.steps) == 2}
    want = split_actions(state, card, total)
    assert set(engine) == set(want), (
        f"engine only {sorted(map(str, set(engine) - set(want)))[:5]}, "
        f"oracle only {sorted(map(str, set(want) - set(engine)))[:5]}")
    for action, board in want.items():
        assert engine[action] == board, str(action)


def every_nth(rules: Rules, seed: int, n: int, cap: int) -> Iterator[tuple[int, GameState]]:
    """Every ``n``-th state of a random game dealt with ``seed`` at which a seat plays a
    card, with its ply."""
    for ply, (state, _) in enumerate(random_game(rules, seed, seed, cap=cap)):
        if ply % n == 0 and not state.is_over() and state.pending is None:
            yield ply, state


def with_hand(state: GameState, hand: Sequence[str]) -> GameState:
    return GameState.from_position(state.rules, state.pegs, state.turn, hand,
                                   stuck_turns=state.stuck[state.turn])


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([4, 6, 8]), seed=st.integers(0, 10_000),
       plies=st.integers(30, 700))
def test_north_carolina_tens_match_the_plain_listing(players: int, seed: int,
                                                     plies: int) -> None:
    rules = Rules.preset("north-carolina", players=players)
    state = reachable(rules, seed, plies)
    if state.is_over() or state.pending:
        return
    state = with_hand(state, ("10", "7", "9"))
    check_tens(state)
    check_splits(state, "7", 7)
    check_splits(state, "9", 9)
    check_listing(state)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([4, 6, 8]), seed=st.integers(0, 10_000),
       plies=st.integers(30, 800))
def test_arizona_splits_match_the_plain_listing(players: int, seed: int, plies: int) -> None:
    rules = Rules.preset("arizona", players=players)
    state = reachable(rules, seed, plies)
    if state.is_over() or state.pending:
        return
    check_listing(state)
    state = with_hand(state, ("7", "9", "Joker"))
    check_splits(state, "7", 7)
    check_splits(state, "9", 9)
    check_listing(state)
    seat = state.turn
    want = Reference(rules).outcomes(state.pegs, seat, state.hands[seat], state.stuck[seat],
                                     state.turns_taken[seat] == 0)
    got = {(a.card, a.declared, a.discard, state.result_of(a)) for a in state.legal_actions()}
    assert got == want


NC4 = Rules.preset("north-carolina", players=4)
NC8 = Rules.preset("north-carolina", players=8)


def test_a_part_landing_on_the_other_peg_is_simulated_in_both_orders() -> None:
    # seat 0 (the mover) at 0.10, seat 1 (an opponent) at 0.13, seat 2 (partner) at 2.5
    state = position(NC4, {0: ["0.10"], 1: ["0.13"], 2: ["2.5"]}, ["10"])
    check_tens(state)
    legal = state.legal_actions()
    # 3 forward lands on the opponent (back to start), which then cannot move
    assert Action.parse("10: 0.10>0.13x, 2.5>2.12") in legal
    assert not any(a.steps[0] == Step("0.10", "0.13", ">", True)
                   and a.steps[1].src == "0.13" for a in legal)
    # the opponent moves 7 first, then the mover's peg 3 onto the emptied hole
    assert Action.parse("10: 0.13>1.2, 0.10>0.13") in legal
    # the opponent lands on the mover's peg, which goes to its door 3.18 and moves from there
    assert Action.parse("10: 0.13<0.10x, 3.18>0.7") in legal
    check_listing(state, sample=200)


def test_two_parts_landing_on_one_hole_hit_the_first_mover_there() -> None:
    # an opponent's peg (seat 1) and a partner's (seat 2) both reach 0.10; whichever moves
    # second hits the other: the opponent's goes to start, the partner's to its door 1.18
    state = position(NC4, {0: ["3.3"], 1: ["0.5"], 2: ["0.15"]}, ["10"])
    check_tens(state)
    legal = state.legal_actions()
    first_opponent = Action.parse("10: 0.5>0.10, 0.15<0.10x")
    first_partner = Action.parse("10: 0.15<0.10, 0.5>0.10x")
    assert first_opponent in legal and first_partner in legal
    geo = state.geo
    assert state.result_of(first_opponent)[1] == (START,) * len(state.pegs[1])
    assert state.result_of(first_partner)[2] == tuple(sorted(
        [geo.parse("1.18"), *[p for p in state.pegs[2] if p != geo.parse("0.15")]]))
    check_listing(state, sample=200)


def test_a_second_part_after_a_partner_sent_to_its_door() -> None:
    # 0.2 forward 3 lands on the partner's peg at 0.5, which goes to its door 1.18; then
    # the opponent's 1.11 forward 7 would land on it there, sending it to the door it
    # stands on (an illegal hit), and the other opponent's 0.9 back 7 lands on the hole
    # 0.2 left; in the other order 1.11 reaches the empty door first and is hit there
    state = position(NC4, {0: ["0.2"], 1: ["1.11"], 2: ["0.5"], 3: ["0.9"]}, ["10"])
    check_tens(state)
    legal = state.legal_actions()
    assert Action.parse("10: 0.2>0.5x, 1.11>1.18x") not in legal
    assert Action.parse("10: 1.11>1.18, 0.2>0.5x") in legal
    assert Action.parse("10: 0.2>0.5x, 0.9<0.2") in legal
    geo = state.geo
    after = state.result_of(Action.parse("10: 0.2>0.5x, 0.9<0.2"))
    door, hit = geo.parse("1.18"), geo.parse("0.5")
    assert after[2] == tuple(sorted(door if p == hit else p for p in state.pegs[2]))
    assert state.result_of(Action.parse("10: 1.11>1.18, 0.2>0.5x"))[1][0] == START
    check_listing(state, sample=200)


def test_chain_hits_at_occupied_doors_match_the_plain_listing() -> None:
    # partners' pegs (seats 0 and 2) hit by a ten go to their doors, where other pegs
    # stand and are hit in turn
    state = position(NC4, {0: ["3.18", "1.3", "2.2"], 1: ["1.18", "0.15"],
                           2: ["1.5", "1.17"], 3: ["2.18", "1.9"]}, ["10"])
    check_tens(state)
    check_listing(state, sample=200)


def test_tens_pass_and_hit_their_own_colour() -> None:
    # 0.1 to 0.9 forward 8 passes and lands on its own peg; 8 back lands on the one at 3.11:
    # both send the own peg to the door 3.18 and leave the same board
    state = position(NC4, {0: ["0.1", "0.9", "3.11"], 1: ["1.5", "2.9", "3.13"],
                           3: ["1.7", "1.9", "2.18"]}, ["10"])
    check_tens(state)
    legal = state.legal_actions()
    assert Action.parse("10: 0.1>0.9x, 1.5<1.3") in legal
    assert Action.parse("10: 0.1<3.11x, 1.5<1.3") not in legal  # the same board
    check_listing(state, sample=200)


def test_twins_of_two_colours_make_one_move_whatever_their_sizes() -> None:
    # the mover's 0.4 forward 1 onto its own 0.5, which goes to the door 3.18, leaves the
    # board of 0.4 back 4; the partner's 2.6 forward 9 onto its own 2.15 (sent to 1.18)
    # that of 2.6 back 6.  The two hitting parts make one split, the two plain ones
    # another: the same board, listed once (the hits, which the full enumeration finds
    # first)
    state = position(NC4, {0: ["0.4", "0.5"], 1: ["3.9"], 2: ["2.6", "2.15"]}, ["10"])
    check_tens(state)
    legal = state.legal_actions()
    hits = Action.parse("10: 0.4>0.5x, 2.6>2.15x")
    plain = Action.parse("10: 0.4<3.18, 2.6<1.18")
    assert hits in legal and plain not in legal
    assert state.result_of(hits) == state.apply(plain).pegs
    check_listing(state, sample=200)


def test_a_part_that_changes_nothing_is_one_move_with_every_partner() -> None:
    # seat 7 from its door 6.18 forward 1 onto its own peg, sent back to that door: the
    # board is unchanged, like seat 3's 2.18 back 1 onto its own 2.17
    state = position(NC8, {0: ["1.1", "4.4"], 1: ["0.16", "2.1"], 2: ["1.6", "6.14"],
                           3: ["2.17", "2.18"], 4: ["0.9", "4.10"], 5: ["0.17", "4.16"],
                           6: ["5.16", "6.5", "7.9"], 7: ["3.9", "6.18", "7.1"]},
                     ["10"], to_move=3)
    check_tens(state)
    check_listing(state, sample=200)


def test_a_simulated_ten_that_a_part_changing_nothing_repeats_is_listed_once() -> None:
    # seat 3 from its door 2.18 back 9, then seat 1 back 1 onto it: it goes back to 2.18.
    # The same board as seat 1 back 1 with seat 3's 2.18 forward 9 onto its own 3.9, which
    # goes to that door: a counted split whose peg's hole is taken again, not left empty
    state = position(NC4, {0: ["0.5"], 1: ["2.10"], 2: ["1.3"], 3: ["2.18", "3.9"]}, ["10"],
                     to_move=1)
    check_tens(state)
    legal = state.legal_actions()
    counted = Action.parse("10: 2.10<2.9, 2.18>3.9x")
    simulated = Action.parse("10: 2.18<2.9, 2.10<2.9x")
    assert counted in legal and simulated not in legal
    assert state.apply(simulated).pegs == state.apply(counted).pegs
    check_listing(state, sample=200)


def test_a_peg_landing_on_its_own_colour_repeats_a_hit_on_that_peg() -> None:
    # seat 2 is an opponent of the mover (seat 1), so its 2.5 forward 2 onto its own 2.7
    # sends that peg to start.  The board of that with seat 3's 1.13 forward 8 (a counted
    # ten) is the board of 2.5 back 2, then 1.13 onto it (a simulated ten): one move
    state = position(NC4, {0: ["1.15", "2.16", "H5"], 1: ["0.5", "1.10", "2.2", "3.10"],
                           2: ["2.5", "2.7", "3.18", "H5"], 3: ["1.13", "H5"]}, ["10"],
                     to_move=1)
    check_tens(state)
    legal = state.legal_actions()
    counted = Action.parse("10: 2.5>2.7x, 1.13>2.3")
    simulated = Action.parse("10: 2.5<2.3, 1.13>2.3x")
    assert (counted in legal) != (simulated in legal)
    assert state.apply(simulated).pegs == state.apply(counted).pegs
    check_listing(state, sample=200)


def test_eight_seats_with_many_pegs_out() -> None:
    rng = random.Random(8)
    ring = NC8.sides * NC8.holes_per_side
    holes = rng.sample(range(ring), 32)
    geo = GameState.new(NC8, 0).geo
    spec = {q: [geo.name(h) for h in holes[q * 4:q * 4 + 4]] for q in range(8)}
    spec[0] = [*spec[0][:3], "H5"]
    state = position(NC8, spec, ["10", "10"], to_move=2)
    assert len(state.legal_actions()) > 2000
    check_tens(state)
    check_listing(state, sample=150)


def test_a_ten_of_two_partners_into_and_inside_their_homes_is_counted() -> None:
    # seat 0's 3.11 goes 9 to its home hole H2 while seat 2's H2 moves 1 on in its own
    # home: home holes have the same numbers for every colour, but two colours never meet
    # there, so the split is counted, not simulated
    state = position(NC4, {0: ["3.11", "0.5"], 1: ["1.9"], 2: ["H2", "2.3"], 3: ["3.2"]},
                     ["10"])
    check_tens(state)
    legal = state.legal_actions()
    action = Action.parse("10: 3.11>H2, H2@2>H3@2")
    assert action in legal
    geo = state.geo
    after = state.result_of(action)
    assert after[0] == tuple(sorted([START, START, START, geo.parse("0.5"), geo.parse("H2")]))
    assert after[2] == tuple(sorted([START, START, START, geo.parse("2.3"), geo.parse("H3")]))
    check_listing(state, sample=200)


def test_team_pegs_of_two_colours_near_their_homes_split_as_the_plain_listing() -> None:
    # Arizona, 8 seats: seat 0 has pegs 4 and 2 holes before its door 7.18 and one in its
    # home; its partner seat 2 has one 3 holes before its door 1.18 and one in its home.
    # Two colours each have a home of their own, so their parts meet only on the ring;
    # the two pegs of seat 0 on its way home interact (one lands where the other was)
    az8 = Rules.preset("arizona", players=8)
    state = position(az8, {0: ["7.14", "7.16", "H2"], 1: ["3.3"], 2: ["1.15", "H1"],
                           4: ["4.9"]}, ["7", "9"])
    check_splits(state, "7", 7)
    check_splits(state, "9", 9)
    legal = state.legal_actions()
    assert Action.parse("7: 7.16>0.3, 7.14>7.16") in legal
    assert Action.parse("7: 7.14>7.16, 7.16>0.3") not in legal  # onto its own colour
    assert Action.parse("7: 7.16>H1, 7.14>7.18") in legal
    # seat 0 into its home, seat 2 inside its own
    after = state.result_of(Action.parse("7: 7.16>H1, H1@2>H5@2"))
    geo = state.geo
    assert after[0] == tuple(sorted([START, START, *(geo.parse(h) for h in ["7.14", "H1", "H2"])]))
    assert after[2] == tuple(sorted([START, START, START, geo.parse("1.15"), geo.parse("H5")]))
    check_listing(state, sample=200)


def test_the_other_order_of_a_counted_ten_is_accepted_as_an_alias() -> None:
    state = position(NC4, {0: ["0.3"], 1: ["2.3"]}, ["10"])
    legal = state.legal_actions()
    action = Action.parse("10: 0.3>0.7, 2.3>2.9")
    assert action in legal
    other = Action.parse("10: 2.3>2.9, 0.3>0.7")
    assert other not in legal
    assert state.canonical(other) == action
    assert state.apply(other) == state.apply(action)


def test_a_simulated_ten_is_found_from_its_spelling_alone() -> None:
    # the tens whose parts interact are kept as numbers and spelled when listed; an action
    # typed in (or sent by a client) must be found without listing anything first
    spec = {0: ["0.10", "3.5"], 1: ["0.13", "1.4"], 2: ["2.5", "0.15"], 3: ["0.18", "3.9"]}
    listed = set(position(NC4, spec, ["10"]).legal_actions())
    tens = [Action.parse(str(a)) for a in listed if a.card == "10"]
    assert len(tens) > 100
    for action in tens:
        fresh = position(NC4, spec, ["10"])
        assert fresh.apply(action).pegs == position(NC4, spec, ["10"]).result_of(action)
        other = Action(action.card, (action.steps[1], action.steps[0]))
        assert (other in position(NC4, spec, ["10"]).legal_actions()) == (other in listed)


def test_tens_do_not_rely_on_distinct_layout_keys() -> None:
    # simulated tens are told apart by their layout's key (a sum of fixed numbers per peg);
    # layouts sharing a key are compared in full, so with every key equal the listing of
    # tens is the same, boards included
    state = position(NC4, {0: ["0.1", "0.9", "3.11"], 1: ["1.5", "2.9", "3.13"],
                           3: ["1.7", "1.9", "2.18"]}, ["10"])
    want = {a: state.result_of(a) for a in state.legal_actions()}
    geo = state.geo
    keys = geo.keys
    geo.keys = tuple(tuple(0 for _ in row) for row in keys)
    try:
        again = with_hand(state, ["10"])
        got = {a: again.result_of(a) for a in again.legal_actions()}
    finally:
        geo.keys = keys
    assert got == want


@pytest.mark.parametrize("name", ["basic", "havasu", "kilpatrick", "pegoo", "social-security"])
@settings(max_examples=10, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([4, 6, 8]), seed=st.integers(0, 10_000),
       plies=st.integers(30, 800))
def test_splits_of_other_presets_match_the_plain_listing(name: str, players: int, seed: int,
                                                         plies: int) -> None:
    rules = Rules.preset(name, players=players)
    state = reachable(rules, seed, plies)
    if state.is_over() or state.pending:
        return
    state = with_hand(state, ("7", "9"))
    check_splits(state, "7", 7)
    if rules.power("9") != ("+9",):
        check_splits(state, "9", 9)
    check_listing(state)


@pytest.mark.parametrize("rules", [NC4, Rules.preset("arizona", players=4)])
def test_a_position_is_freed_without_the_cycle_collector(rules: Rules) -> None:
    # a position's parts, steps and actions are many; kept in a reference cycle they
    # would wait for the cyclic collector, which then spends a fifth of a turn on them
    state = position(rules, {0: ["0.3", "1.2"], 1: ["2.3", "0.9"], 2: ["1.7"], 3: ["3.5"]},
                     ["10", "7", "9"])
    gc.collect()
    gc.disable()
    try:
        legal = state.legal_actions()
        after = state.apply(legal[len(legal) // 2])
        assert len(legal) > 50 and after.legal_actions()
        del legal, after, state
        assert gc.collect() == 0
    finally:
        gc.enable()


@pytest.mark.parametrize(("name", "players", "seed"),
                         [("north-carolina", 4, 3), ("north-carolina", 8, 5), ("arizona", 6, 2)])
def test_a_card_s_moves_do_not_depend_on_the_cards_tried_before(name: str, players: int,
                                                                seed: int) -> None:
    # the generator tries the other cards' moves on a scratch board first; the ten's and
    # the nine's listing, and the spelling kept for each board, must come out the same
    compared = 0
    for n, state in every_nth(Rules.preset(name, players=players), seed, 4, 300):
        full = with_hand(state, ("A", "2", "7", "8", "9", "10", "Joker")).legal_actions()
        for card in ("9", "10"):
            alone = list(with_hand(state, (card,)).legal_actions())
            if any(a.discard for a in alone):
                continue
            assert [a for a in full if a.card == card] == alone, (n, card)
            compared += 1
    assert compared > 20


@pytest.mark.parametrize(("name", "players", "seed"),
                         [("north-carolina", 8, 11), ("arizona", 6, 4), ("kilpatrick", 4, 9)])
def test_plain_parts_kept_from_earlier_positions_change_no_listing(name: str, players: int,
                                                                   seed: int) -> None:
    # a table keeps the split parts that hit nobody for every later position
    # (Geometry.plain_parts): the listing made with those of the game so far must be the
    # one a fresh table makes, with the same boards
    rules = Rules.preset(name, players=players)
    compared = 0
    for n, dealt in every_nth(rules, seed, 5, 400):
        state = with_hand(dealt, ("7", "9", "10"))
        kept = list(state.legal_actions())
        fresh = generate(Geometry(rules), state.pegs, turn_of(state))
        assert list(Actions(fresh)) == kept, n
        for action in kept[:: max(1, len(kept) // 25)]:
            assert fresh.outcome(action) == state.result_of(action), (n, action)
        compared += 1
    assert compared > 20


def _fields(part: Part) -> tuple[object, ...]:
    return (part.seat, part.src, part.dst, part.forward, part.key, part.hit, part.changes,
            part.legal, part.doors, part.walk, part.home_lo, part.home_hi)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([4, 6, 8]), seed=st.integers(0, 10_000),
       plies=st.integers(30, 600))
def test_a_kept_plain_part_is_the_same_whichever_card_made_it(players: int, seed: int,
                                                              plies: int) -> None:
    # a ten and a 7 or 9 share the plain parts a table keeps: the part a ten keeps must be
    # the one a 7 or 9 would make, with its way
    rules = Rules.preset("north-carolina", players=players)
    state = reachable(rules, seed, plies)
    if state.is_over() or state.pending:
        return
    by_ten, by_split = Geometry(rules), Geometry(rules)
    tens = _Generator(by_ten, state.pegs, turn_of(state), False)
    splits = _Generator(by_split, state.pegs, turn_of(state), False)
    pegs = tens.ten_pegs()
    for q, p, ring_only in pegs:
        tens.ten_parts(q, p, ring_only, [])
        splits.forward_rows(q, p, 10, [])
        splits.backward_rows(q, p, 10, [])
    compared = 0
    for q, p, _ in pegs:
        made, at = by_ten.plain_parts(q, p)
        same, _ = by_split.plain_parts(q, p)
        for a, b in zip(made[at:at + PLAIN_SLOTS], same[at:at + PLAIN_SLOTS], strict=True):
            if a is not None and b is not None:
                assert _fields(a) == _fields(b), (q, p, a.dst)
                compared += 1
    assert compared or not pegs


@given(ring=st.integers(16, 160), data=st.data())
def test_a_way_holds_exactly_the_holes_walked(ring: int, data: st.DataObject) -> None:
    # a 7 or 9 part's way (ring holes each side of the peg, wrapping, then home holes) is
    # told by arithmetic; it must hold every hole walked over and no other position
    p = data.draw(st.integers(0, ring - 1))
    walk = data.draw(st.integers(-9, 9))
    lo = data.draw(st.integers(ring, ring + 5))
    hi = data.draw(st.integers(lo, ring + 5))
    step = 1 if walk > 0 else -1
    walked = {(p + step * m) % ring for m in range(1, abs(walk) + 1)} | set(range(lo, hi))
    for h in [START, *range(ring + 6)]:
        assert on_way(h, p, walk, lo, hi, ring) == (h in walked), h


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(-2, 8), st.integers(-2, 8)),
                max_size=6))
def test_a_net_change_cancels_a_hole_left_and_taken_again(
        changes: list[tuple[int, int, int]]) -> None:
    # twin parts are found by their net change: per seat, the holes left and the holes
    # taken as multisets, a hole both left and taken by one colour cancelled out
    want = []
    for seat in sorted({q for q, _, _ in changes}):
        left = Counter(a for q, a, _ in changes if q == seat)
        taken = Counter(b for q, _, b in changes if q == seat)
        gone, came = sorted((left - taken).elements()), sorted((taken - left).elements())
        if gone or came:
            want.append((seat, tuple(gone), tuple(came)))
    assert net_change(tuple(changes)) == tuple(want)
