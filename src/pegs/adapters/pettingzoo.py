"""A PettingZoo AEC environment of any preset and table.

>>> from pegs.adapters.pettingzoo import env
>>> e = env(rules="north-carolina", players=4, teams=2, seed=1)
>>> e.reset()
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     done = terminated or truncated
...     e.step(None if done else e.action_space(agent).sample(obs["action_mask"]))

Agents are the seats ``seat_0`` .. ``seat_{P-1}``.  Each observes a dict: ``observation``,
the vector of :mod:`pegs.adapters.observation` (its seat's view only), and
``action_mask`` (``int8``, 1 for the tokens it may choose now; all 0 when it is not its
turn).  The action space is ``Discrete(codec.size)`` over the tokens of
:mod:`pegs.adapters.codec`; a turn takes one or more consecutive steps of the same agent
(:mod:`pegs.adapters.decisions`).  ``env.unwrapped.last_action`` is the last action played,
in canonical notation.  At the end every seat of the winning team gets +1 and every other
seat -1; a game still running after ``max_actions`` actions is truncated with no reward.

``reset(seed=s)`` deals game seed ``s`` (the deal of ``pegs demo --seed s``); later resets
without a seed deal ``s + 1``, ``s + 2``, ...; the first seed is ``seed`` of the constructor.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..rules import Action, GameState, Rules, view
from ..sim.run import DEFAULT_MAX_ACTIONS
from .codec import ActionCodec
from .decisions import TurnDecisions
from .observation import ObservationEncoder

Observation = dict[str, np.ndarray[Any, Any]]


def table_rules(rules: str | Rules, players: int, teams: int | None,
                settings: dict[str, Any]) -> Rules:
    """A preset with its table size and settings (an already built :class:`Rules` as is)."""
    if isinstance(rules, Rules):
        return rules
    if teams is not None:
        settings = {**settings, "teams": teams}
    return Rules.preset(rules, players=players, **settings)


class PegsEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]
    """The raw AEC environment (see the module docstring); :func:`env` wraps it."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "pegs_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, rules: str | Rules = "basic", players: int = 4, teams: int | None = None,
                 seed: int = 1, max_actions: int = DEFAULT_MAX_ACTIONS,
                 render_mode: str | None = None, **settings: Any) -> None:
        super().__init__()
        self.rules = table_rules(rules, players, teams, settings)
        self.codec = ActionCodec(self.rules)
        self.encoder = ObservationEncoder(self.rules, self.codec)
        self.max_actions = max_actions
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{s}" for s in range(self.rules.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        low = np.zeros(self.encoder.size, dtype=np.int16)
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low, self.encoder.high, dtype=np.int16),
            "action_mask": spaces.Box(0, 1, (self.codec.size,), dtype=np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._next_seed = seed
        self.game_seed = seed
        self.state = GameState.new(self.rules, seed)
        self.decisions: TurnDecisions | None = None
        self.last_action = ""

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._next_seed = seed
        self.game_seed = self._next_seed
        self._next_seed += 1
        self.state = GameState.new(self.rules, self.game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.last_action = ""
        self._next_turn()

    def _next_turn(self) -> None:
        seat = self.state.current_player
        self.decisions = TurnDecisions(self.codec, self.state.legal_actions(), seat)
        self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> Observation:
        seat = self._seat[agent]
        mask = np.zeros(self.codec.size, dtype=np.int8)
        prefix: list[int] = []
        d = self.decisions
        if d is not None and d.mover == seat and not self.state.is_over():
            mask[d.options] = 1
            prefix = d.prefix
        return {"observation": self.encoder.encode(view(self.state, seat), prefix),
                "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        d = self.decisions
        assert d is not None and action is not None
        token = int(action)
        if not d.allowed(token):
            name = self.codec.names[token] if 0 <= token < self.codec.size else "no token"
            raise ValueError(f"action {token} ({name}) is masked out for {agent}; choose one of "
                             f"{', '.join(self.codec.names[t] for t in d.options)}")
        self._cumulative_rewards[agent] = 0.0
        chosen = d.choose(token)
        if chosen is not None:
            self.play(chosen)
        self._accumulate_rewards()

    def play(self, action: Action) -> None:
        """Play a whole legal action for the agent to act (bots of the Gymnasium wrapper)."""
        self.state = self.state.apply(action)
        self.last_action = str(action)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        outcome = self.state.outcome()
        if outcome is not None:
            for agent in self.agents:
                self.rewards[agent] = 1.0 if self._seat[agent] in outcome.seats else -1.0
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.state.ply >= self.max_actions:
            self.truncations = dict.fromkeys(self.agents, True)
        if outcome is not None or self.state.ply >= self.max_actions:
            self.decisions = None
            return
        self._next_turn()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        geo = self.state.geo
        lines = [f"{self.rules.name}, seed {self.game_seed}, action {self.state.ply}"
                 + (f", last: {self.last_action}" if self.last_action else "")]
        for seat, pegs in enumerate(self.state.pegs):
            where = " ".join("S" if p < 0 else geo.name(p) for p in pegs)
            mark = ">" if seat == self.state.current_player else " "
            lines.append(f"{mark} seat {seat}: {where}  ({len(self.state.hands[seat])} cards)")
        return "\n".join(lines)

    def close(self) -> None:
        self.decisions = None


def raw_env(**kwargs: Any) -> PegsEnv:
    """The environment without PettingZoo's checking wrappers."""
    return PegsEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """The environment with PettingZoo's out-of-bounds and call-order checks."""
    e: AECEnv[str, Observation, int] = wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs))
    return wrappers.OrderEnforcingWrapper(e)
