"""A pinned copy of the rules engine as of commit f76b5cc (before the rules-core redesign).

The differential test (``tests/test_engine_differential.py``) plays it against
``pegs.rules`` on random positions: the same legal actions, states, views and outcomes.
It runs interpreted (never compiled) and is never changed, except to follow a deliberate
change of the rules or of the view.
"""

from .actions import Action, Step, parse_rank, rank_text
from .board import START, Geometry, geometry
from .errors import IllegalActionError, NotationError, RulesError
from .settings import IMPLEMENTED, PRESET_TITLES, PRESETS, RANKS, Rules
from .state import GameState, Outcome
from .view import View, view

__all__ = [
    "IMPLEMENTED",
    "PRESETS",
    "PRESET_TITLES",
    "RANKS",
    "START",
    "Action",
    "GameState",
    "Geometry",
    "IllegalActionError",
    "NotationError",
    "Outcome",
    "Rules",
    "RulesError",
    "Step",
    "View",
    "geometry",
    "parse_rank",
    "rank_text",
    "view",
]
