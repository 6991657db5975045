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
(:mod:`pegs.adapters.decisions`).  ``env.unwrapped.last_action_for(agent)`` is the last
action played as ``agent`` may read it, in canonical notation (another seat's face-down
Bluffing Joker card as ``?``, by :func:`pegs.rules.view.seen_action`); like
``env.unwrapped.state``, ``env.unwrapped.last_action`` is the whole truth, for a judge and
not for a seat.  ``render()`` shows what a spectator sees, ``env.unwrapped.text(agent)``
what ``agent`` sees.  At the end every seat of the winning team gets +1 and every other
seat -1.  A game still running after ``max_actions`` actions is truncated: every agent's
``truncated`` is true, no reward is given and its info says so
(``info["truncated"]``, e.g. ``"stopped after 30000 actions with no winner"``; Bluffing
Joker games of random bots that doubt often can run that long).

``relative=True`` gives seat-relative observations, action masks and actions (the acting
seat first, its side of the ring as side 0; see :mod:`pegs.adapters.observation`): a token
an agent chooses is read in its own frame.

No ``ParallelEnv``: a ParallelEnv has every live agent act at every step, while here
exactly one seat acts at a time and what it may do depends on the actions before it
(including the other seats' doubts).  A parallel wrapper would have to give the waiting
seats a dummy action every step and mask it out, which adds nothing but steps; PettingZoo's
own ``aec_to_parallel`` refuses an environment that is not ``is_parallelizable`` for this
reason.  Use the AEC API, or :class:`pegs.adapters.gym_seat.SeatEnv` for one learning seat.

Cloning: :meth:`PegsEnv.clone` returns an independent copy of the environment in its
current position (game states are immutable, so the copy shares them and nothing else),
for search or for branching a rollout; stepping either leaves the other as it was.

``reset(seed=s)`` deals game seed ``s`` (the deal of ``pegs demo --seed s``); later resets
without a seed deal ``s + 1``, ``s + 2``, ...; the first seed is ``seed`` of the constructor.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..rules import Action, GameState, Rules, View, view
from ..rules.view import seen_action
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
                 render_mode: str | None = None, relative: bool = False,
                 **settings: Any) -> None:
        super().__init__()
        self.rules = table_rules(rules, players, teams, settings)
        self.codec = ActionCodec(self.rules)
        self.encoder = ObservationEncoder(self.rules, self.codec, relative)
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
        self._last: tuple[GameState, int | Action] | None = None  # (state before, action)
        self._seen: View | None = None
        self._seen_state: GameState | None = None
        self._rewarded = False  # whether the last action played gave rewards

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
        self._last = None
        self._rewarded = False
        self.decisions = TurnDecisions(self.codec, self.state)
        self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> Observation:
        seat = self._seat[agent]
        state = self.state
        seen = self._seen  # the last view again for the steps of one turn
        if seen is None or seen.seat != seat or self._seen_state is not state:
            seen = self._seen = view(state, seat)
            self._seen_state = state
        mask = np.zeros(self.codec.size, dtype=np.int8)
        d = self.decisions
        if d is None or d.mover != seat or state.is_over():
            return {"observation": self.encoder.encode(seen), "action_mask": mask}
        if self.encoder.relative:
            mask[self.encoder.turn(seat)[d.options]] = 1
        else:
            for token in d.options:
                mask[token] = 1
        return {"observation": self.encoder.encode(seen, d.prefix), "action_mask": mask}

    def absolute(self, agent: str, token: int) -> int:
        """The token ``agent`` chose, in absolute terms (``token`` as is unless
        ``relative``)."""
        if not self.encoder.relative:
            return token
        turned = self.encoder.turn(self._seat[agent])
        if not 0 <= token < len(turned):
            return token
        return int(np.flatnonzero(turned == token)[0])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        d = self.decisions
        assert d is not None and action is not None
        token = int(action)
        if self.encoder.relative:
            token = self.absolute(agent, token)
        if token not in d.options:
            name = self.codec.names[token] if 0 <= token < self.codec.size else "no token"
            raise ValueError(f"action {token} ({name}) is masked out for {agent}; choose one of "
                             f"{', '.join(self.codec.names[t] for t in d.options)}")
        self._cumulative_rewards[agent] = 0.0
        code = d.choose(token)
        if code is not None:
            before = self.state
            self._last = (before, code)
            self._played(before.apply_code(code))
        if self._rewarded:  # (adding the rewards of a move that ended nothing adds zeros)
            self._accumulate_rewards()

    def _last_played(self) -> tuple[int, Action] | None:
        """The seat that played the last action, and the action (None before the first)."""
        if self._last is None:
            return None
        state, played = self._last
        if isinstance(played, int):
            played = state.action_of(played)
            self._last = (state, played)
        return state.current_player, played

    @property
    def last_action(self) -> str:
        """The last action played, in canonical notation ("" before the first), hidden
        cards included: what a seat may read is :meth:`last_action_for`."""
        last = self._last_played()
        return "" if last is None else str(last[1])

    def last_action_for(self, agent: str | None) -> str:
        """The last action played as ``agent`` (None: a spectator) may read it."""
        last = self._last_played()
        if last is None:
            return ""
        actor, action = last
        return str(seen_action(action, actor, -1 if agent is None else self._seat[agent]))

    def play(self, action: Action) -> None:
        """Play a whole legal action for the agent to act (bots of the Gymnasium wrapper)."""
        before = self.state
        self._played(before.apply(action))
        self._last = (before, action)

    def _played(self, state: GameState) -> None:
        """Move on to ``state``: the next turn's choices, or the end of the game."""
        self.state = state
        self.rewards = dict.fromkeys(self.agents, 0.0)
        outcome = state.outcome()
        if outcome is None and state.ply < self.max_actions:
            self.decisions = TurnDecisions(self.codec, state)
            self.agent_selection = self.possible_agents[state.current_player]
            return
        self.decisions = None
        self._rewarded = outcome is not None
        if outcome is not None:
            for agent in self.agents:
                self.rewards[agent] = 1.0 if self._seat[agent] in outcome.seats else -1.0
            self.terminations = dict.fromkeys(self.agents, True)
        elif state.ply >= self.max_actions:
            self.truncations = dict.fromkeys(self.agents, True)
            for agent in self.agents:
                self.infos[agent]["truncated"] = (f"stopped after {self.max_actions} actions "
                                                  "with no winner")

    def clone(self) -> PegsEnv:
        """An independent copy in the current position (see the module notes)."""
        twin = copy.copy(self)
        for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
            if hasattr(self, name):
                setattr(twin, name, dict(getattr(self, name)))
        if hasattr(self, "infos"):
            twin.infos = {a: dict(i) for a, i in self.infos.items()}
        if hasattr(self, "agents"):
            twin.agents = list(self.agents)
        if self.decisions is not None:
            twin.decisions = copy.copy(self.decisions)
        return twin

    def render(self) -> str | None:
        """The ``ansi`` text of what a spectator sees (None in other render modes)."""
        return self.text(None) if self.render_mode == "ansi" else None

    def text(self, agent: str | None) -> str:
        """The board as ``agent`` (None: a spectator) sees it, its own hand included."""
        seat = -1 if agent is None else self._seat[agent]
        seen = view(self.state, seat)
        geo = self.state.geo
        last = self.last_action_for(agent)
        lines = [f"{self.rules.name}, seed {self.game_seed}, action {seen.ply}"
                 + (f", last: {last}" if last else "")]
        for q, pegs in enumerate(seen.pegs):
            where = " ".join("S" if p < 0 else geo.name(p) for p in pegs)
            mark = ">" if q == seen.current_player else " "
            lines.append(f"{mark} seat {q}: {where}  ({seen.hand_sizes[q]} cards)")
        if seat >= 0:
            lines.append(f"{agent}'s hand: {' '.join(seen.hand)}")
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
