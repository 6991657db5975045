"""A bot that plays a uniformly random legal action (seeded).

Facing a Bluffing Joker declaration it doubts only now and then (``doubt_rate``): a seat
that doubts half of all declarations sends so many pegs back that random games hardly
ever end.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules import Action, View
from ..rules.bluff import DOUBT, PASS

DEFAULT_DOUBT_RATE = 0.1


def random_action(rng: random.Random, legal: Sequence[Action],
                  doubt_rate: float = DEFAULT_DOUBT_RATE) -> Action:
    """A uniformly random legal action, except doubt-or-pass, which doubts at ``doubt_rate``."""
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 2 and legal[0] == DOUBT and legal[1] == PASS:
        return DOUBT if rng.random() < doubt_rate else PASS
    return legal[rng.randrange(len(legal))]


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0, doubt_rate: float = DEFAULT_DOUBT_RATE) -> None:
        self.rng = random.Random(seed)
        self.doubt_rate = doubt_rate

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return random_action(self.rng, legal, self.doubt_rate)
