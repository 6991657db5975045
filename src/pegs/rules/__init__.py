"""The rules engine: pure, typed, no I/O.  Everything else in ``pegs`` is a client of it.

>>> from pegs.rules import GameState, Rules
>>> state = GameState.new(Rules.preset("pegoo"), seed=1)
>>> action = state.legal_actions()[0]
>>> state = state.apply(action)
"""

from .actions import Action, Step, parse_rank, rank_text
from .board import START, Geometry, geometry
from .errors import IllegalActionError, NotationError, RulesError
from .presets import PRESETS, Preset
from .settings import RANKS, Rules
from .state import GameState, Outcome
from .view import View, view

__all__ = [
    "PRESETS",
    "RANKS",
    "START",
    "Action",
    "GameState",
    "Geometry",
    "IllegalActionError",
    "NotationError",
    "Outcome",
    "Preset",
    "Rules",
    "RulesError",
    "Step",
    "View",
    "geometry",
    "parse_rank",
    "rank_text",
    "view",
]
