"""The options each bot kind takes, with their types, defaults and allowed ranges.

Options are given in a bot spec (``ismcts:iterations=400,exploration=0.7``, see
:mod:`pegs.sim.bot_spec`) or with ``--bot-option KIND.NAME=VALUE``.  Compiled bots carry
no signature to inspect, so the options are listed here; a test checks the list against
the bots' constructors in the source.  Every value is checked here (type, finite, range),
so a bad one is refused with one line naming the bot and the option before any game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .heuristic import Weights

NONE_WORD = "none"


@dataclass(frozen=True)
class BotOption:
    """One option: its name, type, default, whether ``none`` may be given, its allowed
    words, its range (``low``/``high``; ``above``: ``low`` itself is excluded) and what it
    does."""

    name: str
    kind: type
    default: Any
    help: str = ""
    optional: bool = False
    words: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    above: bool = False

    def range_words(self) -> str:
        """``above 0``, ``0 to 1``, ``1 or more``; empty without a range."""
        if self.low is not None and self.high is not None:
            return f"{'above ' if self.above else ''}{self.low:g} to {self.high:g}"
        if self.low is not None:
            return f"above {self.low:g}" if self.above else f"{self.low:g} or more"
        return ""

    def describe(self) -> str:
        """``seconds (number or none)``, ``clock (wall or cpu)``."""
        if self.words:
            shown = " or ".join(self.words)
        else:
            shown = {int: "whole number", float: "number", str: "text"}[self.kind]
        return f"{self.name} ({shown}{' or none' if self.optional else ''})"

    def check(self, value: Any) -> Any:
        """``value`` (as typed, or already a number) if it fits, else ValueError."""
        if self.optional and (value is None or (isinstance(value, str)
                                                and value.strip().lower() == NONE_WORD)):
            return None
        value = _typed(self.kind, value)
        fits = {
            int: isinstance(value, int) and not isinstance(value, bool),
            float: isinstance(value, int | float) and not isinstance(value, bool),
            str: isinstance(value, str) and (not self.words or value in self.words),
        }[self.kind]
        if not fits:
            raise ValueError(f"{self.describe()} cannot be {value!r}")
        if self.kind in (int, float):
            if not math.isfinite(value):
                raise ValueError(f"{self.name} must be a finite number, not {value}")
            low_ok = self.low is None or (value > self.low if self.above else value >= self.low)
            if not low_ok or (self.high is not None and value > self.high):
                raise ValueError(f"{self.name} must be {self.range_words()}, not {value:g}")
        return value


def _typed(kind: type, value: Any) -> Any:
    """A value typed on a command line, read as ``kind`` where it can be."""
    if not isinstance(value, str) or kind is str:
        return value.strip() if isinstance(value, str) else value
    text = value.strip()
    for read in ((int, float) if kind is int else (float,)):
        try:
            number = read(text)
        except ValueError:
            continue
        return int(number) if kind is int and isinstance(number, float) \
            and number.is_integer() else number
    return text


_WEIGHT_HELP = "weight of the evaluation, in holes (see docs/BLUFFING_BOTS.md)"
_HEURISTIC_RANGES: dict[str, tuple[float | None, float | None, bool]] = {
    "doubted": (0.0, 1.0, False),
    "doubt_temper": (0.0, None, True),
}

OPTIONS: dict[str, tuple[BotOption, ...]] = {
    "random": (
        BotOption("doubt_rate", float, 0.1, "chance of doubting a Bluffing Joker declaration",
                  low=0.0, high=1.0),
    ),
    "heuristic": tuple(
        BotOption(name, float, getattr(Weights(), name), _WEIGHT_HELP,
                  low=_HEURISTIC_RANGES.get(name, (None, None, False))[0],
                  high=_HEURISTIC_RANGES.get(name, (None, None, False))[1],
                  above=_HEURISTIC_RANGES.get(name, (None, None, False))[2])
        for name in sorted(Weights.__dataclass_fields__)
    ),
    "ismcts": (
        BotOption("iterations", int, None, "iterations a decision (reproducible; default "
                  "500 when seconds is not given either)", optional=True, low=1),
        BotOption("seconds", float, None, "seconds of search a decision (by clock)",
                  optional=True, low=0.0, above=True),
        BotOption("rollout", str, "heuristic", "who plays the rollouts",
                  words=("heuristic", "random")),
        BotOption("exploration", float, 0.7, "UCB1 exploration constant", low=0.0),
        BotOption("rollout_depth", int, 3, "actions a rollout plays (none: to the end)",
                  optional=True, low=0),
        BotOption("widening", float, 2.0, "progressive widening factor (none: no limit)",
                  optional=True, low=0.0, above=True),
        BotOption("discount", float, 0.99, "weight of a result one action further away",
                  low=0.0, high=1.0, above=True),
        BotOption("doubt_rate", float, 0.1, "random rollouts' chance of doubting",
                  low=0.0, high=1.0),
        BotOption("sharpness", float, 8.0, "sharpness of the progress leaf score",
                  low=0.0, above=True),
        BotOption("leaf", str, "fitted", "how an unfinished position is scored",
                  words=("fitted", "heuristic", "progress")),
        BotOption("prior", float, 0.0, "visits the heuristic opinion of a root move is "
                  "worth", low=0.0),
        BotOption("keep", float, 0.5, "weight of the cards held in the heuristic leaf score",
                  low=0.0),
        BotOption("clock", str, "wall", "the clock of seconds", words=("wall", "cpu")),
        BotOption("guard", float, 2.0, "standard errors by which the search must beat the "
                  "heuristic move", low=0.0),
        BotOption("belief", str, "declarations", "how a face-down declared card is "
                  "dealt in the samples (Bluffing Joker)",
                  words=("declarations", "uniform")),
    ),
}


def listing(kind: str) -> str:
    """The options of bot ``kind``, for a message."""
    return ", ".join(option.describe() for option in OPTIONS[kind])


def check_option(kind: str, name: str, value: Any) -> Any:
    """The value of option ``name`` of bot ``kind`` (ValueError naming the bot and the
    option if there is no such option, or the value does not fit its type or range)."""
    found = {option.name: option for option in OPTIONS[kind]}
    if name not in found:
        raise ValueError(f"{kind} has no option {name!r}; its options: {listing(kind)}")
    try:
        return found[name].check(value)
    except ValueError as e:
        raise ValueError(f"{kind} option {e}; its options: {listing(kind)}") from None


def check_options(kind: str, options: dict[str, Any]) -> dict[str, Any]:
    """Every option of ``options`` checked (see :func:`check_option`)."""
    return {name: check_option(kind, name, value) for name, value in options.items()}


def manual() -> str:
    """Every bot's options with their types, defaults and ranges (``pegs bots``)."""
    lines: list[str] = []
    for kind, options in OPTIONS.items():
        lines.append(f"{kind}:")
        for o in options:
            default = NONE_WORD if o.default is None else f"{o.default:g}" if isinstance(
                o.default, float) else str(o.default)
            extra = f", {o.range_words()}" if o.range_words() else ""
            lines.append(f"  {o.describe():42} default {default}{extra}")
            if o.help and o.help != _WEIGHT_HELP:
                lines.append(f"      {o.help}")
        if kind == "heuristic":
            lines.append(f"  (each a {_WEIGHT_HELP})")
    return "\n".join(lines)
