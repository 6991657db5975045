"""House rules files: a family's own game in a few lines of TOML.

A house-rules file names a base preset, a title, an optional description, the settings it
changes and the cards whose powers it changes::

    title = "Grandma's rules"
    description = "Fours go back, twenty holes a side."
    base = "basic"

    [settings]
    holes_per_side = 20

    [cards]
    "4" = ["-4"]
    "9" = ["+9", "split9"]

Settings are those of ``pegs rules`` (``--set`` names); card powers are the tokens of
:mod:`pegs.rules.settings`.  The file becomes ordinary :class:`~pegs.rules.Rules`, so a
record of a house game carries its full rules and replays anywhere.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomli_w

from .rules import PRESETS, RANKS, Rules, RulesError
from .text import TextError, clean_text

#: The keys a house-rules file may have at its top level.
KEYS = ("title", "description", "base", "settings", "cards")
LONGEST_TITLE = 80
LONGEST_DESCRIPTION = 1000
_RANK_NAMES = {rank.upper(): rank for rank in RANKS}


class HouseRulesError(RulesError):
    """A house-rules file that cannot be read, in one line naming the file and the key."""


@dataclass(frozen=True)
class HouseRules:
    """A named variant: a preset with some settings and card powers changed."""

    title: str
    description: str
    base: str
    settings: Mapping[str, Any]
    cards: Mapping[str, tuple[str, ...]]

    @property
    def name(self) -> HouseName:
        """The title and description, as a game record keeps them."""
        return HouseName(self.title, self.description)

    def rules(self, **overrides: Any) -> Rules:
        """The rules of this house, with table settings (players, teams, ...) on top."""
        values = {**self.settings, **overrides}
        if self.cards:
            values["powers"] = dict(self.cards)
        return Rules.preset(self.base, **values)

    def mapping(self) -> dict[str, Any]:
        """The house rules as the file has them (plain data: JSON or TOML)."""
        out: dict[str, Any] = {"title": self.title}
        if self.description:
            out["description"] = self.description
        out["base"] = self.base
        out["settings"] = {k: list(v) if isinstance(v, tuple) else v
                           for k, v in self.settings.items()}
        out["cards"] = {rank: list(tokens) for rank, tokens in self.cards.items()}
        return out

    def toml(self) -> str:
        """The house-rules file's text (``load`` reads it back as these rules)."""
        return tomli_w.dumps(self.mapping())


@dataclass(frozen=True)
class HouseName:
    """What a record of a house game keeps besides its rules: the house rules' title (and
    description), so that the game is called by its name wherever it is shown."""

    title: str
    description: str = ""

    def mapping(self) -> dict[str, str]:
        """As a record's ``house`` value."""
        return {"title": self.title, **({"description": self.description}
                                        if self.description else {})}


def house_name(data: Any) -> HouseName:
    """A record's ``house`` value read back; :class:`RulesError` says what is wrong."""
    if not isinstance(data, Mapping):
        raise RulesError("house: give it as {\"title\": ..., \"description\": ...}")
    unknown = [k for k in data if k not in ("title", "description")]
    if unknown:
        raise RulesError(f"house: unknown key {str(unknown[0])[:40]!r}")
    return HouseName(_text(data, "title", LONGEST_TITLE, required=True),
                     _text(data, "description", LONGEST_DESCRIPTION, required=False,
                           multiline=True))


def game_name(rules: Rules, house: HouseName | None = None) -> str:
    """How a game is called in a header: the preset's name (``basic``), or the house rules'
    title and the preset they change (``Grandma's rules (house rules on basic)``)."""
    return f"{house.title} (house rules on {rules.name})" if house else rules.name


def _text(data: Mapping[str, Any], key: str, longest: int, required: bool,
          multiline: bool = False) -> str:
    """The title or description cleaned as everything a person types
    (:func:`pegs.text.clean_text`)."""
    value = data.get(key, None)
    if value is None and not required:
        return ""
    if value is None:
        raise RulesError(f'{key} is required: give it as text in quotes, such as {key} = "..."')
    if not isinstance(value, str) or not value.strip():
        raise RulesError(f"{key}: give it as text in quotes, such as {key} = \"...\"")
    try:
        return clean_text(value, longest=longest, what="the text", multiline=multiline)
    except TextError as e:
        raise RulesError(f"{key}: {e}") from None


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise RulesError(f"{key}: write it as a [{key}] section of NAME = VALUE lines")
    return value


def from_mapping(data: Mapping[str, Any]) -> HouseRules:
    """House rules from parsed TOML (or JSON) data; :class:`RulesError` names the key."""
    unknown = [k for k in data if k not in KEYS]
    if unknown:
        raise RulesError(f"unknown key {unknown[0]!r}: a house-rules file has "
                         + ", ".join(KEYS))
    title = _text(data, "title", LONGEST_TITLE, required=True)
    description = _text(data, "description", LONGEST_DESCRIPTION, required=False,
                        multiline=True)
    base = data.get("base")
    if base is None:
        raise RulesError("base is required: name the preset the house changes, such as "
                         f"base = \"pegoo\"; presets: {', '.join(PRESETS)}")
    if base not in PRESETS:
        raise RulesError(f"base: {base!r} is not a preset; choose one of {', '.join(PRESETS)}")
    # TOML and JSON give lists; the rules keep tuples (split_finish_with_partner)
    settings = {k: tuple(v) if isinstance(v, list) else v
                for k, v in _table(data, "settings").items()}
    for name in ("name", "powers"):
        if name in settings:
            raise RulesError(f"settings.{name}: set it with "
                             + ("base" if name == "name" else "the [cards] section"))
    cards: dict[str, tuple[str, ...]] = {}
    for key, tokens in _table(data, "cards").items():
        rank = _RANK_NAMES.get(str(key).upper())
        if rank is None:
            raise RulesError(f"cards.{key}: not a card rank; ranks are {', '.join(RANKS)}")
        if rank in cards:
            raise RulesError(f"cards.{key}: the card {rank} is given twice")
        cards[rank] = tokens
    house = HouseRules(title, description, base, settings, cards)
    house.rules()  # every setting and power is checked now (the errors name them)
    return house


def load(path: str | Path) -> HouseRules:
    """Read a house-rules file; :class:`HouseRulesError` says in one line what is wrong."""
    if not str(path).strip():
        raise HouseRulesError("--house needs a file name, not an empty one")
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")  # (a byte-order mark as Notepad saves)
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else "not a text file"
        raise HouseRulesError(f"{path}: cannot read the house rules: {reason}") from e
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise HouseRulesError(f"{path}: not a valid TOML file: {e}") from e
    except RecursionError:
        raise HouseRulesError(f"{path}: not a house-rules file: it nests lists or tables "
                              "too deeply to be read") from None
    try:
        return from_mapping(data)
    except RulesError as e:
        raise HouseRulesError(f"{path}: {e}") from e
