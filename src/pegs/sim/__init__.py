"""Simulations: many seeded bot-vs-bot games in worker processes, their statistics and plots.

:mod:`pegs.sim.run` plays the games and keeps the results file (in the worker processes of
:mod:`pegs.sim.workers` or as Ray tasks, :mod:`pegs.sim.ray_backend`), :mod:`pegs.sim.stats`
holds the statistics (pure functions) and :mod:`pegs.sim.plots` draws them (it imports
matplotlib, so it is not imported here).  :mod:`pegs.sim.ladder` rates bots by matches
between every pair (it imports OpenSkill, so it is not imported here either).
"""

from .run import (
    DEFAULT_MAX_ACTIONS,
    Config,
    GameError,
    Progress,
    RunResult,
    SimulationError,
    expand_seats,
    parse_bot_options,
    play_game,
    read_results,
    seats_for_game,
    simulate,
)
from .stats import Rate, Summary, format_summary, summarize, wilson_interval

__all__ = [
    "DEFAULT_MAX_ACTIONS",
    "Config",
    "GameError",
    "Progress",
    "Rate",
    "RunResult",
    "SimulationError",
    "Summary",
    "expand_seats",
    "format_summary",
    "parse_bot_options",
    "play_game",
    "read_results",
    "seats_for_game",
    "simulate",
    "summarize",
    "wilson_interval",
]
