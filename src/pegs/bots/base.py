"""The bot interface: ``choose(view, legal_actions) -> action``, seeded, view only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..rules import Action, View


class Bot(Protocol):
    """Anything that picks one of the legal actions from what its seat can see."""

    name: str

    def choose(self, view: View, legal: Sequence[Action]) -> Action: ...


def make_bot(kind: str, seed: int) -> Bot:
    """A bot by name (``random``)."""
    from .random_bot import RandomBot

    kinds = {"random": RandomBot}
    if kind not in kinds:
        raise ValueError(f"unknown bot {kind!r}; choose one of: {', '.join(kinds)}")
    return kinds[kind](seed)
