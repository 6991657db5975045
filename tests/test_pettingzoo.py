"""The PettingZoo and Gymnasium environments: PettingZoo's own API and seed tests for every
preset and table size, the token mapping, the masked turn decomposition and the rewards."""

from __future__ import annotations

import copy
import random
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from pegs.adapters.codec import ActionCodec
from pegs.adapters.decisions import TurnDecisions
from pegs.adapters.gym_seat import SeatEnv
from pegs.adapters.pettingzoo import PegsEnv, env, raw_env
from pegs.rules import PRESETS, Action, GameState, Rules, RulesError, view
from pegs.rules.powers import DEFERRED

TABLES = []
for _preset in PRESETS:
    for _players in (2, 4, 6, 8):
        try:
            Rules.preset(_preset, players=_players)
        except RulesError:  # Arizona and Kilpatrick play in teams only
            continue
        TABLES.append((_preset, _players))


@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_pettingzoo_api_and_seed_tests_pass(preset: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice to use flat Box observations
        api_test(env(rules=preset, players=players, seed=3), num_cycles=40)
        seed_test(lambda: env(rules=preset, players=players), num_cycles=40)


def test_every_preset_at_two_to_eight_seats_is_covered() -> None:
    assert {(p, n) for p, n in TABLES if n >= 4} == {(p, n) for p in PRESETS for n in (4, 6, 8)}


def _play_masked(e: PegsEnv, rng: random.Random) -> int:
    steps = 0
    for _agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    return steps


def test_a_whole_game_ends_with_plus_one_for_the_winning_team_and_minus_one_for_the_rest() -> None:
    e = raw_env(rules="basic", players=4, seed=5)
    e.reset()
    rewards = {a: 0.0 for a in e.possible_agents}
    rng = random.Random(0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        rewards[agent] += reward
        e.step(None if terminated or truncated else
               rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    outcome = e.state.outcome()
    assert outcome is not None and e.agents == []
    assert rewards == {f"seat_{s}": 1.0 if s in outcome.seats else -1.0 for s in range(4)}
    assert sorted(outcome.seats) in ([0, 2], [1, 3])


def test_a_game_over_the_action_cap_is_truncated_without_reward() -> None:
    e = raw_env(rules="north-carolina", players=4, seed=2, max_actions=30)
    e.reset()
    assert _play_masked(e, random.Random(1)) >= 30
    assert e.state.ply == 30 and not e.state.is_over()


def test_masked_choices_replay_the_engine_game_of_the_same_actions() -> None:
    """Choosing each engine action's tokens in turn plays exactly that action."""
    rules = Rules.preset("north-carolina", players=4)
    e = raw_env(rules=rules, seed=9)
    e.reset()
    state, rng = GameState.new(rules, 9), random.Random(4)
    for _ in range(150):
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        tokens = e.codec.encode(action, state.current_player)
        while True:
            d = e.decisions
            assert d is not None and e.agent_selection == f"seat_{state.current_player}"
            mask = e.observe(e.agent_selection)["action_mask"]
            assert set(np.flatnonzero(mask)) == set(d.options)
            e.step(tokens[len(d.prefix)])
            if e.decisions is not d:
                break
        state = state.apply(action)
        assert e.last_action == str(action) and e.state == state


def _random_position(preset: str, seed: int, plies: int) -> GameState:
    state, rng = GameState.new(Rules.preset(preset, players=4), seed), random.Random(seed)
    for _ in range(plies):
        if state.is_over():
            break
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    return state


def _following(sequences: list[tuple[int, ...]], prefix: list[int], end: int
               ) -> list[tuple[int, ...]]:
    """The token sequences that agree with ``prefix`` (``end`` matches where one ends)."""
    depth = len(prefix)
    return [s for s in sequences
            if all((s[i] if i < len(s) else end) == t for i, t in enumerate(prefix))
            and len(s) >= depth - (prefix[-1:] == [end])]


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(list(PRESETS)), seed=st.integers(0, 10**6), plies=st.integers(0, 300))
def test_tokens_map_every_legal_action_both_ways_and_masks_reach_each_once(
        preset: str, seed: int, plies: int) -> None:
    """Every path of masked choices, walked from the codes, offers the tokens that the
    encoded legal actions offer after the same prefix and ends at the action it spells."""
    state = _random_position(preset, seed, plies)
    if state.is_over():
        return
    codec = ActionCodec(state.rules)
    legal, mover = list(state.legal_actions()), state.current_player
    for action in legal:
        assert codec.decode(codec.encode(action, mover), mover) == action
        assert Action.parse(str(codec.decode(codec.encode(action, mover), mover))) == action
    sequences = [codec.encode(a, mover) for a in legal]
    reached: list[Action] = []
    nodes = [TurnDecisions(codec, state)]
    assert [nodes[0].tokens(i) for i in range(len(legal))] == sequences
    while nodes:  # every path of masked choices, depth first
        d = nodes.pop()
        left = _following(sequences, d.prefix, codec.end)
        depth = len(d.prefix)
        assert d.options == list(dict.fromkeys(s[depth] if len(s) > depth else codec.end
                                               for s in left))
        assert len(d.options) > 1 or len(legal) == 1
        for token in d.options:
            twin = copy.copy(d)
            twin.prefix = list(d.prefix)
            chosen = twin.choose(token)
            if chosen is None:
                nodes.append(twin)
                continue
            action = state.action_of(chosen)
            assert _following(sequences, [*d.prefix, token], codec.end) == [
                codec.encode(action, mover)]
            reached.append(action)
    assert sorted(map(str, reached)) == sorted(map(str, legal))


def test_counted_actions_of_several_cards_offer_each_card_once() -> None:
    """Where the counted actions (after the listed ones, found by bisection) hold several
    cards (a ten and a 9, a 2's swaps and a 7 ...), the first choice and the choice after
    each card are those of the encoded legal actions."""
    rules = Rules.preset("north-carolina", players=4)
    codec, checked = ActionCodec(rules), 0
    state, rng = GameState.new(rules, 1), random.Random(1)
    while checked < 6 and not state.is_over():
        codes = state.legal_codes()
        counted = codes[-1] >> 3 if codes[-1] & 7 == DEFERRED else -1
        cards = {state.action_of(codes[-1 - i]).card for i in range(counted + 1)}
        if len(cards) > 1:
            checked += 1
            mover = state.current_player
            sequences = [codec.encode(a, mover) for a in state.legal_actions()]
            d = TurnDecisions(codec, state)
            assert d.options == list(dict.fromkeys(s[0] for s in sequences))
            for card in d.options:
                twin = copy.copy(d)
                if twin.choose(card) is None:
                    left = _following(sequences, twin.prefix, codec.end)
                    depth = len(twin.prefix)
                    assert twin.options == list(dict.fromkeys(
                        s[depth] if len(s) > depth else codec.end for s in left))
        state = state.apply_code(codes[rng.randrange(len(codes))])
    assert checked == 6


def test_observations_show_only_the_seats_own_view() -> None:
    e = raw_env(rules="bluffing-joker", players=4, seed=4)
    e.reset()
    fields = e.encoder.fields
    for seat in range(4):
        obs = e.observe(f"seat_{seat}")["observation"]
        f = fields(obs)
        hand = view(e.state, seat).hand
        assert f["hand"].sum() == len(hand) and f["seat"][seat] == 1
        assert f["to_act"][e.state.current_player] == 1
    acting = e.agent_selection
    others = [a for a in e.possible_agents if a != acting]
    assert all(e.observe(a)["action_mask"].sum() == 0 for a in others)
    assert e.observe(acting)["action_mask"].sum() > 0


def test_a_masked_out_action_is_refused_with_a_message() -> None:
    e = raw_env(rules="basic", players=2, seed=1)
    e.reset()
    bad = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="masked out"):
        e.step(bad)


def test_gymnasium_seat_env_passes_the_checker_and_plays_to_the_end() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(SeatEnv(rules="basic", seat=1, others="random", illegal="lose"),
                  skip_render_check=True)
    e = SeatEnv(rules="basic", players=4, seat=1, others="heuristic", seed=2)
    obs, _ = e.reset(seed=7)
    rng = random.Random(0)
    total, done = 0.0, False
    while not done:
        assert obs["action_mask"].any()
        obs, reward, terminated, truncated, _ = e.step(
            rng.choice(np.flatnonzero(e.action_masks()).tolist()))
        total += reward
        done = terminated or truncated
    outcome = e.aec.state.outcome()
    assert outcome is not None and total == (1.0 if 1 in outcome.seats else -1.0)


def test_gymnasium_seat_env_refuses_a_bad_bot_list() -> None:
    with pytest.raises(ValueError, match="others lists 3 bots for 4 seats"):
        SeatEnv(rules="basic", others=["random", "random", "random"])
    with pytest.raises(ValueError, match="unknown bot 'clever'"):
        SeatEnv(rules="basic", others="clever")


def test_api_test_passes_through_the_end_of_a_truncated_game() -> None:
    """150 actions take fewer than the 600 steps of the test: every agent must leave."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(rules="basic", players=2, seed=1, max_actions=150), num_cycles=300)
