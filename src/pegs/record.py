"""Game records: settings, seed and the actions in canonical notation (JSON).

A record is the whole game: replaying its actions on ``GameState.new(rules, seed)``
rebuilds every state.  Reading a record verifies every action against the engine and
reports the first bad one by number and reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .house import HouseName, house_name
from .jsonfile import JsonError, read_json
from .rules import Action, GameState, Rules
from .rules.errors import IllegalActionError, NotationError, RulesError
from .rules.view import HIDDEN

FORMAT = "pegs-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or does not replay, saying where and why."""


def clip(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters (with ``...``), so that a huge value in a file
    keeps an error message to one readable line."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


@dataclass
class Record:
    """A game as settings + seed + actions (plus optional seat names, and the name of the
    house rules it was played by: their powers and settings are in ``rules``)."""

    rules: Rules
    seed: int
    actions: list[Action] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    house: HouseName | None = None

    def to_json(self, final: GameState | None = None) -> dict[str, Any]:
        """The record as JSON data; ``final`` is the state after the actions when the
        caller already has it (otherwise the game is replayed to find the result)."""
        if final is None:
            final = self.replay()
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "rules": self.rules.settings(),
            "seed": self.seed,
            "actions": [str(a) for a in self.actions],
        }
        if self.names:
            out["names"] = list(self.names)
        if self.house is not None:
            out["house"] = self.house.mapping()
        result = final.outcome()
        if result is not None:
            out["result"] = {"team": result.team, "seats": list(result.seats)}
        return out

    def for_seat(self, seat: int) -> dict[str, Any]:
        """The record as ``seat`` may see it: other seats' face-down cards that nobody
        doubted show as ``?`` (Bluffing Joker).  Only the full record replays."""
        out = self.to_json()
        texts = out["actions"]
        state = GameState.new(self.rules, self.seed)
        opened: int | None = None
        declarer, revealed = -1, False
        for i, action in enumerate(self.actions):
            if action.declared and state.pending is None:
                opened, declarer, revealed = i, state.turn, False
            revealed = revealed or action.decision == "doubt"
            state = state.apply(action)
            if opened is not None and (state.pending is None or revealed):
                if not revealed and declarer != seat:
                    texts[opened] = str(self.actions[opened]._replace(card=HIDDEN))
                opened = None if state.pending is None else opened
        if opened is not None and not revealed and declarer != seat:
            texts[opened] = str(self.actions[opened]._replace(card=HIDDEN))
        out["seat"] = seat
        out.pop("seed")  # the seed would reveal every hand
        return out

    def save(self, path: str | Path) -> None:
        """Write the record to ``path`` (:class:`RecordError` if it cannot be written)."""
        write_record(path, self.to_json())

    def states(self) -> Iterator[tuple[GameState, Action | None]]:
        """Each state with the action played from it (None for the last state)."""
        state = GameState.new(self.rules, self.seed)
        for i, action in enumerate(self.actions, 1):
            yield state, action
            try:
                state = state.apply(action)
            except IllegalActionError as e:
                raise RecordError(f"action {i} ({action}) is not legal: {e}") from e
        yield state, None

    def replay(self) -> GameState:
        """The final state; :class:`RecordError` if an action is not legal."""
        *_, (state, _) = self.states()
        return state


def from_json(data: Any) -> Record:
    """A record from parsed JSON, with its actions checked against the engine."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"not a game record (expected \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise RecordError(f"record version {clip(repr(data.get('version')))} is not supported "
                          f"(this program reads version {VERSION})")
    try:
        rules = Rules.from_settings(data.get("rules"))  # type: ignore[arg-type]
    except (RulesError, TypeError) as e:
        raise RecordError(f"bad settings: {clip(str(e), 200)}") from e
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordError("the seed must be a whole number")
    texts = data.get("actions")
    if not isinstance(texts, list):
        raise RecordError("'actions' must be a list of moves in canonical notation")
    names = data.get("names", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RecordError("'names' must be a list of strings")
    try:
        house = None if data.get("house") is None else house_name(data["house"])
    except RulesError as e:
        raise RecordError(f"bad house rules' name: {clip(str(e), 200)}") from e
    actions: list[Action] = []
    state = GameState.new(rules, seed)
    for i, text in enumerate(texts, 1):
        try:
            action = Action.parse(text)
            state = state.apply(action)
        except (NotationError, IllegalActionError) as e:
            shown = clip(repr(text))
            reason = clip(str(e).replace(repr(text), shown), 200)
            raise RecordError(f"action {i} ({shown}): {reason}") from e
        actions.append(action)
    result = data.get("result")
    final = state.outcome()
    if result is not None:
        claimed = result.get("seats") if isinstance(result, dict) else None
        if final is None or claimed != list(final.seats):
            raise RecordError(
                f"the record claims winners {clip(repr(claimed))} but the replay gives "
                f"{list(final.seats) if final else 'no winner yet'}"
            )
    return Record(rules, seed, actions, names, house)


def length_words(actions: Sequence[Action]) -> str:
    """``812 turns``, or ``300 turns (340 actions with the doubt decisions)`` when seats
    decided on doubts (Bluffing Joker)."""
    turns = sum(not a.decision for a in actions)
    if turns == len(actions):
        return f"{turns} turns"
    return f"{turns} turns ({len(actions)} actions with the doubt decisions)"


def read_data(path: str | Path) -> Any:
    """The JSON data of a record file, not yet checked (:class:`RecordError` if unreadable)."""
    try:
        return read_json(path, "a JSON game record")
    except JsonError as e:
        raise RecordError(str(e)) from e


def load(path: str | Path) -> Record:
    """Read and verify a record file."""
    return from_json(read_data(path))


def check_writable(path: str | Path) -> None:
    """:class:`RecordError` unless a record can be written at ``path`` (its folder exists,
    it is not a folder itself); checked before a game, so that no game is played for
    nothing."""
    where = Path(path)
    if where.is_dir():
        raise RecordError(f"cannot save the record to {path}: it is a folder; name a file")
    if not where.resolve().parent.is_dir():
        raise RecordError(f"cannot save the record to {path}: the folder "
                          f"{where.parent} does not exist")


def write_record(path: str | Path, data: dict[str, Any]) -> None:
    """Write record data to ``path`` (:class:`RecordError` if it cannot be written)."""
    check_writable(path)
    try:
        Path(path).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError as e:
        raise RecordError(f"cannot save the record to {path}: {e.strerror or e}") from e
