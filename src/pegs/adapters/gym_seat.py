"""A Gymnasium environment in which one seat learns and our bots play every other seat.

>>> from pegs.adapters.gym_seat import SeatEnv
>>> e = SeatEnv(rules="basic", players=4, seat=0, others="heuristic")
>>> obs, info = e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.step(int(obs["action_mask"].argmax()))

Observations, actions and the reward (+1 when the learning seat's team wins, -1 when it
loses, at the end) are those of :mod:`pegs.adapters.pettingzoo`.  ``others`` is one bot
spec for every other seat or one per seat (the learning seat's entry is ignored), in the
syntax of ``pegs simulate --seats`` (:mod:`pegs.sim.bot_spec`), e.g.
``ismcts:iterations=200`` (``pegs bots`` lists the options).  ``relative=True`` gives
seat-relative observations and actions (:mod:`pegs.adapters.pettingzoo`).  A game
truncated at ``max_actions`` returns ``truncated`` true with ``info["truncated"]`` saying
so.  :meth:`SeatEnv.clone` copies the environment in its position, bots included.  The bot in
seat ``s`` of the game dealt with seed ``g`` is seeded ``g * 1000 + s``, as in
``pegs simulate``.  ``info["last_action"]`` is the last action played (often another
seat's) as the learning seat may read it: another seat's face-down Bluffing Joker card shows
as ``?``.  :meth:`SeatEnv.action_masks` gives the mask as booleans (for maskable
policy libraries).  A masked-out action raises :class:`ValueError`, or with
``illegal="lose"`` ends the episode with reward -1 (for learners without masks).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from ..bots import Bot
from ..rules import Rules, view
from ..sim.bot_spec import BotSpec, parse_bot_spec
from ..sim.run import DEFAULT_MAX_ACTIONS, bot_seed
from .pettingzoo import Observation, PegsEnv


class SeatEnv(gymnasium.Env[Observation, int]):
    """One seat of a :class:`~pegs.adapters.pettingzoo.PegsEnv` against bots."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(self, rules: str | Rules = "basic", players: int = 4, teams: int | None = None,
                 seat: int = 0, others: str | Sequence[str] = "heuristic", seed: int = 1,
                 max_actions: int = DEFAULT_MAX_ACTIONS, render_mode: str | None = None,
                 illegal: str = "raise", relative: bool = False, **settings: Any) -> None:
        if illegal not in ("raise", "lose"):
            raise ValueError(f"illegal must be 'raise' or 'lose', not {illegal!r}")
        self.illegal = illegal
        self.aec = PegsEnv(rules=rules, players=players, teams=teams, seed=seed,
                           max_actions=max_actions, render_mode=render_mode,
                           relative=relative, **settings)
        n = self.aec.rules.players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0 to {n - 1}, not {seat}")
        names = [others] * n if isinstance(others, str) else list(others)
        if len(names) != n:
            raise ValueError(f"others lists {len(names)} bots for {n} seats: give one or {n}")
        self.specs: list[BotSpec] = [parse_bot_spec(name) for name in names]
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.bots: list[Bot | None] = []

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        g = self.aec.game_seed
        self.bots = [None if s == self.seat else spec.make(bot_seed(g, s))
                     for s, spec in enumerate(self.specs)]
        self._others_play()
        return self.aec.observe(self.agent), {}

    def _others_play(self) -> None:
        aec = self.aec
        while aec.decisions is not None and aec.agent_selection != self.agent:
            s = aec.state.current_player
            bot = self.bots[s]
            assert bot is not None
            aec.play(bot.choose(view(aec.state, s), aec.state.legal_actions()))

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        d = aec.decisions
        if self.illegal == "lose" and d is not None and not d.allowed(
                aec.absolute(self.agent, int(action))):
            return aec.observe(self.agent), -1.0, True, False, {"illegal": int(action)}
        aec.step(int(action))
        self._others_play()
        return self.handed()

    def handed(self) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """What :meth:`step` hands the learning seat in the current position: its
        observation, reward, ends and info (``last_action`` as it may read it)."""
        aec, agent = self.aec, self.agent
        return (aec.observe(agent), aec.rewards[agent], aec.terminations[agent],
                aec.truncations[agent], {"last_action": aec.last_action_for(agent),
                                         **aec.infos[agent]})

    def clone(self) -> SeatEnv:
        """An independent copy in the current position, the bots (and their random
        states) copied too."""
        twin = copy.copy(self)
        twin.aec = self.aec.clone()
        twin.bots = copy.deepcopy(self.bots)
        return twin

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        return self.aec.observe(self.agent)["action_mask"].astype(bool)

    def render(self) -> str | None:
        """The ``ansi`` text of what the learning seat sees (its hand included)."""
        return self.aec.text(self.agent) if self.render_mode == "ansi" else None
