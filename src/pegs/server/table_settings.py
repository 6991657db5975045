"""The settings a client asks a new table for, checked before the rules engine sees them:
known names, the right type for each, short values and lists without repeats, so every
refusal is a plain message naming the setting (never Python's own exception text).
Card powers (``powers``: rank -> power tokens, a house rule) are checked by the engine's
own :func:`~pegs.rules.settings.check_powers`, whose message names the card and power."""

from __future__ import annotations

import logging
from typing import Any

from ..rules import PRESETS, RANKS, Rules, RulesError
from ..rules.settings import check_powers

log = logging.getLogger("pegs.server")

#: Settings a table may not change (the preset is named apart).
FIXED = frozenset({"name"})
#: Each setting's default (its type tells what a client must send); card powers apart.
DEFAULTS: dict[str, Any] = {k: v for k, v in Rules.preset("pegoo").settings().items()
                            if k not in FIXED}
POWERS = "powers"
#: The most powers one card may list (more is never useful: a card has one split).
MOST_POWERS = 12
#: Whole-number settings beyond this are refused before the engine quotes them back.
MOST_NUMBER = 1000
#: Choice settings are short words.
MOST_WORD = 40


class SettingsError(ValueError):
    """A setting the server refuses; the message names it."""


def _shown(name: str) -> str:
    return repr(name if len(name) <= MOST_WORD else name[:MOST_WORD] + "...")


def check(overrides: dict[str, Any]) -> dict[str, Any]:
    """The overrides as :meth:`Rules.preset` takes them, or :class:`SettingsError`."""
    out: dict[str, Any] = {}
    for name, value in overrides.items():
        if name in FIXED:
            raise SettingsError(f"{_shown(name)} is not a setting a table may change")
        if name == POWERS:
            out[name] = powers(value)
            continue
        if name not in DEFAULTS:
            raise SettingsError(f"unknown setting {_shown(name)}; settings are: "
                                + ", ".join(sorted(DEFAULTS)))
        out[name] = _value(name, value, DEFAULTS[name])
    return out


def powers(value: Any) -> dict[str, tuple[str, ...]]:
    """Changed card powers (rank -> tokens) checked as the engine checks them, or
    :class:`SettingsError` naming the card and the power."""
    if not isinstance(value, dict):
        raise SettingsError('powers must map card ranks to lists of powers, such as '
                            '{"4": ["-4"]}')
    out: dict[str, tuple[str, ...]] = {}
    for rank, tokens in value.items():
        if rank not in RANKS:
            raise SettingsError(f"card {_shown(rank)} is not a rank: ranks are "
                                + ", ".join(RANKS))
        if not isinstance(tokens, list) or not tokens:
            raise SettingsError(f'card {rank}: give its powers as a non-empty list, such as '
                                '["+4"] or ["+9", "split9"]')
        if len(tokens) > MOST_POWERS or any(
                not isinstance(t, str) or len(t) > MOST_WORD for t in tokens):
            raise SettingsError(f"card {rank}: at most {MOST_POWERS} powers, "
                                "each a short word such as +4 or split7")
        try:
            out[rank] = check_powers(rank, tokens)
        except RulesError as e:
            raise SettingsError(str(e)) from None
    return out


def _value(name: str, value: Any, default: Any) -> Any:
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise SettingsError(f"{name} must be true or false")
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingsError(f"{name} must be a whole number")
        if abs(value) > MOST_NUMBER:
            raise SettingsError(f"{name} is out of range: GET /api/presets lists the "
                                "allowed values")
    elif isinstance(default, str):
        if not isinstance(value, str) or len(value) > MOST_WORD:
            raise SettingsError(f"{name} must be one of the words GET /api/presets lists")
    elif isinstance(default, list):
        return _ranks(name, value)
    return value


def _ranks(name: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > len(RANKS):
        raise SettingsError(f"{name} must be a list of at most {len(RANKS)} card ranks")
    seen: set[str] = set()
    for rank in value:
        if not isinstance(rank, str) or rank not in RANKS:
            raise SettingsError(f'{name} must list card ranks as text, like "7"')
        if rank in seen:
            raise SettingsError(f"{name} lists {rank!r} twice")
        seen.add(rank)
    return tuple(value)


def rules(preset: str, overrides: dict[str, Any]) -> Rules:
    """The rules of a new table, or :class:`SettingsError` with a plain message."""
    if preset not in PRESETS:
        raise SettingsError(f"unknown preset {_shown(preset)}; choose one of: "
                            + ", ".join(PRESETS))
    checked = check(overrides)
    try:
        return Rules.preset(preset, **checked)
    except RulesError as e:
        raise SettingsError(str(e)) from None
    except (TypeError, ValueError) as e:  # the engine missed a case: say no more than that
        log.warning("settings refused by the engine: %s", type(e).__name__)
        raise SettingsError("these settings do not work together: GET /api/presets lists "
                            "the allowed values") from None
