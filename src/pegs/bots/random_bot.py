"""A bot that plays a uniformly random legal action (seeded)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules import Action, View


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[self.rng.randrange(len(legal))]
