"""The environments for learning: seat-relative observations and actions, truncation
reported, cloning."""

from __future__ import annotations

import copy
import pickle
import random

import numpy as np
import pytest

from pegs.adapters.gym_seat import SeatEnv
from pegs.adapters.pettingzoo import Observation, raw_env
from pegs.rules import geometry


def _advance(e: object, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        agent = e.agent_selection  # type: ignore[attr-defined]
        mask = e.observe(agent)["action_mask"]  # type: ignore[attr-defined]
        e.step(rng.choice(np.flatnonzero(mask).tolist()))  # type: ignore[attr-defined]


def test_relative_observations_put_the_seat_first_and_its_side_at_zero() -> None:
    absolute = raw_env(rules="basic", players=4, seed=3)
    relative = raw_env(rules="basic", players=4, seed=3, relative=True)
    absolute.reset()
    relative.reset()
    rng = random.Random(2)
    geo = geometry(absolute.rules)
    for _ in range(60):  # the same game in both: tokens turned back to the absolute frame
        agent = relative.agent_selection
        seat = relative.possible_agents.index(agent)
        abs_mask = absolute.observe(agent)["action_mask"]
        rel_mask = relative.observe(agent)["action_mask"]
        turned = relative.encoder.turn(seat)
        assert set(np.flatnonzero(rel_mask)) == set(turned[np.flatnonzero(abs_mask)])
        token = rng.choice(np.flatnonzero(rel_mask).tolist())
        relative.step(token)
        absolute.step(relative.absolute(agent, token))
        assert relative.state == absolute.state
    for seat in range(4):
        f = relative.encoder.fields(relative.observe(f"seat_{seat}")["observation"])
        g = absolute.encoder.fields(absolute.observe(f"seat_{seat}")["observation"])
        assert f["seat"][seat] == 1  # the one absolute field
        assert (f["hand_sizes"] == np.roll(g["hand_sizes"], -seat)).all()
        assert f["to_act"][(relative.state.current_player - seat) % 4] == 1
        shift = geo.side_of[seat] * geo.holes_per_side
        for q in range(4):
            for rel, pos in zip(f["pegs"][(q - seat) % 4], g["pegs"][q], strict=True):
                on_ring = 1 <= pos <= geo.ring_size
                assert rel == ((pos - 1 - shift) % geo.ring_size + 1 if on_ring else pos)
    assert (relative.observe("seat_0")["observation"]
            == absolute.observe("seat_0")["observation"]).all()  # seat 0 is already first


def test_a_truncated_game_says_so_in_its_info() -> None:
    e = raw_env(rules="bluffing-joker", players=4, seed=1, max_actions=40)
    e.reset()
    rng = random.Random(0)
    while not any(e.truncations.values()):
        _advance(e, rng, 1)
    _, reward, terminated, truncated, info = e.last()
    assert truncated and not terminated and reward == 0
    assert info["truncated"] == "stopped after 40 actions with no winner"
    assert all(e.infos[a]["truncated"] == info["truncated"] for a in e.agents)
    seat_env = SeatEnv(rules="bluffing-joker", others="random", max_actions=40, seed=1)
    obs, _ = seat_env.reset()
    truncated, info = False, {}
    while not truncated:
        obs, reward, terminated, truncated, info = seat_env.step(
            rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        assert not terminated
    assert reward == 0.0 and info["truncated"].startswith("stopped after 40 actions")


def test_a_clone_goes_its_own_way() -> None:
    e = raw_env(rules="pegoo", players=4, seed=8)
    e.reset()
    rng = random.Random(5)
    _advance(e, rng, 25)
    twin = e.clone()
    before = e.observe(e.agent_selection)["observation"].copy()
    _advance(twin, random.Random(1), 30)
    assert (e.observe(e.agent_selection)["observation"] == before).all()
    third = e.clone()
    _advance(e, random.Random(9), 30)
    _advance(third, random.Random(9), 30)
    assert e.state == third.state


def _seat_game(e: SeatEnv, obs: Observation, steps: int) -> list[tuple[bytes, float, str]]:
    """What ``e`` shows over ``steps`` steps of a seeded random learning seat."""
    rng = random.Random(3)
    shown = []
    for _ in range(steps):
        token = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        obs, reward, terminated, truncated, info = e.step(token)
        shown.append((obs["observation"].tobytes(), reward, info["last_action"]))
        if terminated or truncated:
            obs, _ = e.reset()
    return shown


@pytest.mark.parametrize("others", ["random", "heuristic", "ismcts:iterations=6"])
def test_a_seat_env_clone_copy_or_pickle_plays_alone_with_copied_bots(others: str) -> None:
    """Each copy plays the game on as the environment does, with bots (and generators) of its
    own: playing a copy first leaves the environment's own later moves as they were."""
    e = SeatEnv(rules="bluffing-joker", others=others, seed=4, max_actions=400)
    obs, _ = e.reset()
    _seat_game(e, obs, 6)
    obs = e.handed()[0]
    copies = [e.clone(), copy.deepcopy(e), pickle.loads(pickle.dumps(e))]
    games = [_seat_game(c, obs, 25) for c in copies]
    assert games[1] == games[0] and games[2] == games[0]
    assert _seat_game(e, obs, 25) == games[0]
    assert all(c.aec.state == e.aec.state for c in copies)


def test_a_pickled_or_deep_copied_environment_plays_on_the_same() -> None:
    e = raw_env(rules="north-carolina", players=4, seed=3)
    e.reset()
    _advance(e, random.Random(2), 40)
    copies = [copy.deepcopy(e), pickle.loads(pickle.dumps(e))]
    for copied in copies:
        _advance(copied, random.Random(7), 30)
    _advance(e, random.Random(7), 30)
    for copied in copies:
        assert e.state == copied.state
        assert (e.observe(e.agent_selection)["observation"]
                == copied.observe(copied.agent_selection)["observation"]).all()


def test_a_turn_half_decided_is_copied_and_pickled_with_its_choices() -> None:
    """Mid-turn (some tokens chosen) a copy takes the choices along, and a pickle chooses
    them again when loaded: the same mask, prefix and game afterwards."""
    for preset in ("basic", "north-carolina"):
        e = raw_env(rules=preset, players=4, seed=6)
        e.reset()
        rng = random.Random(4)
        found = 0
        while found < 4:
            _advance(e, rng, 1)
            d = e.decisions
            assert d is not None
            if not d.prefix:
                continue
            found += 1
            copies = [copy.deepcopy(e), pickle.loads(pickle.dumps(e)), e.clone()]
            for copied in copies:
                c = copied.decisions
                assert c is not None and c is not d
                assert (c.prefix, c.options) == (d.prefix, d.options)
                _advance(copied, random.Random(found), 12)
            _advance(e, random.Random(found), 12)
            for copied in copies:
                assert copied.state == e.state
                assert (copied.observe(copied.agent_selection)["observation"]
                        == e.observe(e.agent_selection)["observation"]).all()
