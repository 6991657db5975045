"""Everything an environment hands a seat passes the re-deal test of the views
(tests/test_view_secrets.py): dealing again every card the seat may not know changes none
of it.

For the PettingZoo environment that is each agent's observation, action mask, reward,
ends, info, last action and rendering (and the spectator's rendering); for the one-seat
Gymnasium environment, what :meth:`SeatEnv.step` returns and what it renders.  A Bluffing
Joker declaration just played has its real card in the game's pending declaration: the
re-deal moves that card, so the environment's last action plays the re-dealt card too.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import tables
from pegs.adapters.decisions import chosen_again
from pegs.adapters.gym_seat import SeatEnv
from pegs.adapters.pettingzoo import PegsEnv, raw_env
from pegs.rules import Action, GameState
from test_view_secrets import redeal

TABLES = tables()


def last_played(e: PegsEnv) -> Action | None:
    last = e._last_played()
    return None if last is None else last[1]


def redealt(e: PegsEnv, seat: int, rng: random.Random) -> PegsEnv:
    """A clone of ``e`` whose game has every card hidden from ``seat`` dealt again."""
    twin = e.clone()
    twin.state = redeal(e.state, seat, rng)
    pending, last = e.state.pending, last_played(e)
    if last is not None and pending is not None and last == pending.action:
        assert e._last is not None and twin.state.pending is not None
        twin._last = (e._last[0], last._replace(card=twin.state.pending.action.card))
    d = e.decisions
    if d is not None:  # this turn's choices listed again, the tokens chosen only by the seat
        prefix = list(d.prefix) if d.mover == seat else []
        twin.decisions = chosen_again(e.codec, twin.state, prefix)
    return twin


def handed(e: PegsEnv, agent: str | None) -> tuple[Any, ...]:
    """What ``agent`` (None: a spectator) gets from the environment."""
    if agent is None:
        return (e.last_action_for(None), e.text(None))
    obs = e.observe(agent)
    return (obs["observation"].tobytes(), obs["action_mask"].tobytes(), e.rewards[agent],
            e._cumulative_rewards[agent], e.terminations[agent], e.truncations[agent],
            e.infos[agent], e.last_action_for(agent), e.text(agent))


def assert_env_keeps_secrets(e: PegsEnv, rng: random.Random) -> None:
    for seat, agent in [(-1, None), *enumerate(e.possible_agents)]:
        for _ in range(2):
            assert handed(redealt(e, seat, rng), agent) == handed(e, agent), (
                f"{agent or 'a spectator'} was shown something of the cards it may not see")


def is_hidden_bluff(state: GameState) -> bool:
    p = state.pending
    return p is not None and p.bluff and not p.revealed


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TABLES), st.integers(0, 2**31), st.integers(0, 300), st.integers(0, 99))
def test_pettingzoo_hands_no_agent_what_it_may_not_see(
        where: tuple[str, int], seed: int, steps: int, redeal_seed: int) -> None:
    preset, players = where
    e = raw_env(rules=preset, players=players, seed=seed % 1000, render_mode="ansi")
    e.reset()
    rng = random.Random(seed)
    for _ in range(steps):
        if e.decisions is None:
            break
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(rng.choice(np.flatnonzero(mask).tolist()))
    assert_env_keeps_secrets(e, random.Random(redeal_seed))


def test_pettingzoo_keeps_bluffs_hidden_right_after_they_are_played() -> None:
    """Every Bluffing Joker declaration of random agents, checked the moment it is played
    (its card is then the last action's and the pending declaration's)."""
    for players in (4, 6):
        e = raw_env(rules="bluffing-joker", players=players, seed=players, max_actions=3000)
        e.reset()
        rng = random.Random(players)
        bluffs = 0
        while bluffs < 40:
            if e.decisions is None:
                e.reset()
            mask = e.observe(e.agent_selection)["action_mask"]
            e.step(rng.choice(np.flatnonzero(mask).tolist()))
            pending = e.state.pending
            if is_hidden_bluff(e.state) and last_played(e) == pending.action:  # type: ignore[union-attr]
                bluffs += 1
                assert " as " in e.last_action and not e.last_action.startswith("?")
                assert_env_keeps_secrets(e, rng)


def seat_env_keeps_secrets(e: SeatEnv, rng: random.Random) -> None:
    twin = copy.copy(e)
    twin.aec = redealt(e.aec, e.seat, rng)
    got, shown = twin.handed(), e.handed()
    for x, y in zip(got[0].values(), shown[0].values(), strict=True):
        assert (x == y).all(), "the observation changed"
    assert got[1:] == shown[1:], "the reward, ends or info changed"
    assert twin.render() == e.render(), "the rendering changed"


def test_the_seat_env_hands_its_seat_nothing_it_may_not_see() -> None:
    """Heuristic bots bluff in Bluffing Joker: the learning seat, asked to doubt, is handed
    the declaration with its card hidden; every preset is checked at every step."""
    bluffs_asked = 0
    presets = sorted({p for p, n in TABLES if n == 4})
    for preset in presets:
        e = SeatEnv(rules=preset, others="heuristic", seed=3, render_mode="ansi", seat=1)
        obs, _ = e.reset()
        rng = random.Random(1)
        steps = 600 if preset == "bluffing-joker" else 60
        for _ in range(steps):
            seat_env_keeps_secrets(e, rng)
            pending = e.aec.state.pending
            if (is_hidden_bluff(e.aec.state) and pending is not None
                    and pending.declarer != e.seat and last_played(e.aec) == pending.action):
                bluffs_asked += 1  # the learning seat is asked about a bluff just played
                assert e.handed()[4]["last_action"].startswith("? as ")
            obs, _, terminated, truncated, _ = e.step(
                rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            if terminated or truncated:
                obs, _ = e.reset()
    assert bluffs_asked >= 10
