"""The settings a client asks a new table for, checked before the rules engine sees them:
known names, the right type for each, short values and lists without repeats, so every
refusal is a plain message naming the setting (never Python's own exception text)."""

from __future__ import annotations

import logging
from typing import Any

from ..rules import PRESETS, RANKS, Rules, RulesError

log = logging.getLogger("pegs.server")

#: Settings a table may not change.
FIXED = frozenset({"name", "powers"})
#: Each setting's default (its type tells what a client must send).
DEFAULTS: dict[str, Any] = {k: v for k, v in Rules.preset("pegoo").settings().items()
                            if k not in FIXED}
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
        if name not in DEFAULTS:
            raise SettingsError(f"unknown setting {_shown(name)}; settings are: "
                                + ", ".join(sorted(DEFAULTS)))
        out[name] = _value(name, value, DEFAULTS[name])
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
