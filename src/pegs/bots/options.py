"""The options each bot kind takes (``--bot-option KIND.NAME=VALUE``), with their types.

Compiled bots carry no signature to inspect, so the options are listed here; a test checks
the list against the bots' constructors in the source.  A value is checked against its
type here; its range is checked by the bot itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .heuristic import WEIGHT_NAMES

NONE_WORD = "none"


@dataclass(frozen=True)
class BotOption:
    """One option: its name, its type, whether ``none`` may be given, its allowed words."""

    name: str
    kind: type
    optional: bool = False
    words: tuple[str, ...] = ()

    def describe(self) -> str:
        """``seconds (number or none)``, ``clock (wall or cpu)``."""
        if self.words:
            shown = " or ".join(self.words)
        else:
            shown = {int: "whole number", float: "number", str: "text"}[self.kind]
        return f"{self.name} ({shown}{' or none' if self.optional else ''})"

    def check(self, value: Any) -> Any:
        """``value`` (as read from the command line) if it fits, else ValueError."""
        if self.optional and isinstance(value, str) and value.lower() == NONE_WORD:
            return None
        fits = {
            int: isinstance(value, int) and not isinstance(value, bool),
            float: isinstance(value, int | float) and not isinstance(value, bool),
            str: isinstance(value, str) and (not self.words or value in self.words),
        }[self.kind]
        if not fits:
            raise ValueError(f"{self.describe()} cannot be {value!r}")
        return value


def _number(name: str, optional: bool = False) -> BotOption:
    return BotOption(name, float, optional)


OPTIONS: dict[str, tuple[BotOption, ...]] = {
    "random": (_number("doubt_rate"),),
    "heuristic": tuple(_number(name) for name in sorted(WEIGHT_NAMES)),
    "ismcts": (
        BotOption("iterations", int, optional=True),
        _number("seconds", optional=True),
        BotOption("rollout", str, words=("heuristic", "random")),
        _number("exploration"),
        BotOption("rollout_depth", int, optional=True),
        _number("widening", optional=True),
        _number("discount"),
        _number("doubt_rate"),
        _number("sharpness"),
        BotOption("leaf", str, words=("fitted", "heuristic", "progress")),
        _number("prior"),
        _number("keep"),
        BotOption("clock", str, words=("wall", "cpu")),
        _number("guard"),
    ),
}


def listing(kind: str) -> str:
    """The options of bot ``kind``, for a message."""
    return ", ".join(option.describe() for option in OPTIONS[kind])


def check_option(kind: str, name: str, value: Any) -> Any:
    """The value of option ``name`` of bot ``kind`` (ValueError naming the bot's options
    if there is no such option or the value does not fit its type)."""
    found = {option.name: option for option in OPTIONS[kind]}
    if name not in found:
        raise ValueError(f"{kind} has no option {name!r}; its options: {listing(kind)}")
    try:
        return found[name].check(value)
    except ValueError as e:
        raise ValueError(f"{kind} option {e}; its options: {listing(kind)}") from None
