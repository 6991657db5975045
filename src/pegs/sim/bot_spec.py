"""Bot specs, one syntax for the command line and the environments:
``NAME`` or ``NAME:OPTION=VALUE,OPTION=VALUE``.

``heuristic`` is the heuristic bot with its defaults; ``ismcts:iterations=400,exploration=0.7``
the ISMCTS bot searching 400 iterations a decision (reproducible) with exploration 0.7;
``heuristic:doubted=0.5`` a heuristic bot with one weight changed.  The options and their
defaults are listed by ``pegs bots`` (:mod:`pegs.bots.options`).  The older
``ismcts:SECONDS`` still means that many CPU seconds a decision (``ismcts:0.25`` is
``ismcts:seconds=0.25,clock=cpu``).  The spec text is the bot's name in ladders and
results.

In a list of specs (``--seats``, ``--bots``) commas separate the bots as well as the
options: an item with ``=`` and no ``:`` is another option of the bot before it, so
``ismcts:iterations=400,exploration=0.7,heuristic`` is two bots.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..bots import Bot, make_bot
from ..bots.base import BOTS
from ..bots.options import check_option


class BotSpecError(ValueError):
    """A bot spec that names no bot or has a bad option."""


@dataclass(frozen=True)
class BotSpec:
    """A bot kind with its options, named by its spec text."""

    text: str
    kind: str
    options: dict[str, Any] = field(default_factory=dict)

    def make(self, seed: int, **more: Any) -> Bot:
        """The bot seeded ``seed``; ``more`` options (``--bot-option``) yield to the spec's."""
        return make_bot(self.kind, seed, **{**more, **self.options})


def parse_bot_spec(text: str) -> BotSpec:
    """The spec of ``text`` (:class:`BotSpecError`, one line naming the bot and the option,
    for a bad one)."""
    text = text.strip()
    kind, colon, rest = text.partition(":")
    kind = kind.strip()
    if kind not in BOTS:
        raise BotSpecError(f"unknown bot {kind!r} in {text!r}; bots are: {', '.join(BOTS)}")
    if not colon:
        return BotSpec(kind, kind)
    rest = rest.strip()
    if rest and "=" not in rest:
        return _seconds_spec(text, kind, rest)
    options: dict[str, Any] = {}
    for item in rest.split(","):
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or not name or not value.strip():
            raise BotSpecError(f"{text!r}: write {kind}:OPTION=VALUE[,OPTION=VALUE...], e.g. "
                               "ismcts:iterations=400,exploration=0.7 (pegs bots lists the "
                               "options)")
        if name in options:
            raise BotSpecError(f"{text!r}: option {name} is given twice")
        try:
            options[name] = check_option(kind, name, value)
        except ValueError as e:
            raise BotSpecError(f"{text!r}: {e}") from None
    canonical = f"{kind}:" + ",".join(f"{n}={_shown(v)}" for n, v in options.items())
    return BotSpec(canonical, kind, options)


def _seconds_spec(text: str, kind: str, number: str) -> BotSpec:
    """``ismcts:0.25``: CPU seconds a decision (the older form)."""
    if kind != "ismcts":
        raise BotSpecError(f"{text!r}: only ismcts takes a bare number (CPU seconds a "
                           f"decision); write {kind}:OPTION=VALUE")
    try:
        seconds = float(number)
    except ValueError:
        raise BotSpecError(f"{text!r}: write {kind}:OPTION=VALUE[,OPTION=VALUE...], e.g. "
                           "ismcts:iterations=400,exploration=0.7, or ismcts:SECONDS (pegs "
                           "bots lists the options)") from None
    if not (math.isfinite(seconds) and seconds > 0):
        raise BotSpecError(f"{text!r}: ismcts option seconds must be a positive finite "
                           "number, e.g. ismcts:0.25 (or ismcts:iterations=400)")
    return BotSpec(f"{kind}:{number}", kind, {"seconds": seconds, "clock": "cpu"})


def _shown(value: Any) -> str:
    """An option value as it reads back the same: ``none``, ``400``, ``0.7``."""
    if value is None:
        return "none"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def split_specs(text: str) -> list[str]:
    """The specs of a comma-separated list (see the module notes), stripped."""
    specs: list[str] = []
    for item in text.split(","):
        item = item.strip()
        if specs and "=" in item and ":" not in item and ":" in specs[-1]:
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs


def time_bounded(spec: BotSpec) -> bool:
    """Does the bot's search stop by a clock (so its games depend on the machine)?"""
    return spec.options.get("seconds") is not None
