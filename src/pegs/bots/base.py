"""The bot interface: ``choose(view, legal_actions) -> action``, seeded, view only.

Every bot is built as ``Cls(seed, **options)`` and is given nothing but the seat's
:class:`~pegs.rules.View` and the legal actions; hidden cards never reach it.  Bots are
found by name in :data:`BOTS` (imported only when asked for).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any, Protocol

from ..rules import Action, View


class Bot(Protocol):
    """Anything that picks one of the legal actions from what its seat can see."""

    name: str

    def choose(self, view: View, legal: Sequence[Action]) -> Action: ...


#: Bot name -> "module:Class", strongest last.
BOTS: dict[str, str] = {
    "random": "pegs.bots.random_bot:RandomBot",
    "heuristic": "pegs.bots.heuristic:HeuristicBot",
    "ismcts": "pegs.bots.ismcts:IsmctsBot",
}


def make_bot(kind: str, seed: int, **options: Any) -> Bot:
    """A bot by name (``random``, ``heuristic``, ``ismcts``) with its options (ValueError
    naming the bot and the option for a bad one, see :mod:`pegs.bots.options`)."""
    if kind not in BOTS:
        raise ValueError(f"unknown bot {kind!r}; choose one of: {', '.join(BOTS)}")
    from .options import check_options  # the option table imports the heuristic bot

    options = check_options(kind, options)
    module, _, cls = BOTS[kind].partition(":")
    bot: Bot = getattr(importlib.import_module(module), cls)(seed, **options)
    return bot
