"""Bot specs of the command line and the environments: ``NAME`` or ``NAME:SECONDS``.

``heuristic`` is the heuristic bot; ``ismcts:0.25`` the ISMCTS bot searching 0.25 seconds
of CPU time a move.  The spec text is also the bot's name in ladders and results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..bots import Bot, make_bot
from ..bots.base import BOTS


class BotSpecError(ValueError):
    """A bot spec that names no bot or has a bad number."""


@dataclass(frozen=True)
class BotSpec:
    """A bot kind with its options, named by its spec text."""

    text: str
    kind: str
    options: dict[str, Any] = field(default_factory=dict)

    def make(self, seed: int) -> Bot:
        return make_bot(self.kind, seed, **self.options)


def parse_bot_spec(text: str) -> BotSpec:
    """``random``, ``heuristic``, ``ismcts`` or ``ismcts:SECONDS`` (CPU seconds a move)."""
    kind, colon, number = text.strip().partition(":")
    if kind not in BOTS:
        raise BotSpecError(f"unknown bot {kind!r} in {text!r}; bots are: {', '.join(BOTS)}")
    if not colon:
        return BotSpec(text.strip(), kind)
    if kind != "ismcts":
        raise BotSpecError(f"{text!r}: only ismcts takes a number (seconds a move)")
    try:
        seconds = float(number)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise BotSpecError(f"{text!r}: write ismcts:SECONDS with a positive number, e.g. "
                           "ismcts:0.25")
    return BotSpec(text.strip(), kind, {"seconds": seconds, "clock": "cpu"})
