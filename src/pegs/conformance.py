"""Runs rules-conformance scenarios (the neutral JSON format of the shared FORMAT.md).

A scenario is a position, a seat and its hand; its expectations compare *outcomes*
(the card that leaves the hand and the layout afterwards), never move strings.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .jsonfile import JsonError, read_json
from .record import FORMAT as RECORD_FORMAT
from .record import clip
from .rules import PRESETS, START, GameState, Rules, geometry, parse_rank
from .rules.errors import NotationError, RulesError

OutcomeKey = tuple[str, bool, frozenset[tuple[int, tuple[str, ...]]]]


class ScenarioError(ValueError):
    """A scenario that cannot be read or set up."""


@dataclass(frozen=True)
class Result:
    name: str
    passed: bool
    message: str = ""
    outcomes: tuple[dict[str, Any], ...] = ()

    def line(self) -> str:
        return f"PASS {self.name}" if self.passed else f"FAIL {self.name}: {self.message}"


def scenario_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """The ``*.json`` files named or found (recursively, sorted) under ``paths``."""
    for p in map(Path, paths):
        if p.is_dir():
            yield from sorted(p.rglob("*.json"))
        else:
            yield p


def load(path: Path) -> list[Any]:
    try:
        data = read_json(path, "a JSON scenario file")
    except JsonError as e:
        raise ScenarioError(str(e)) from e
    if isinstance(data, dict) and data.get("format") == RECORD_FORMAT:
        raise ScenarioError(f"{path} is a game record, not a conformance scenario file "
                            "(check a record with: pegs replay FILE)")
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise ScenarioError(f"{path}: a scenario file holds a JSON array of scenarios")
    if not data:
        raise ScenarioError(f"{path}: no scenarios found (the list is empty)")
    return data


def _key(card: str, discard: bool, layout: Mapping[int, tuple[str, ...]]) -> OutcomeKey:
    """An outcome: the card and the changed seats' layouts (a discard moves nothing; a
    card that also brought a peg out is identified by its layout alone)."""
    return (card, discard and not layout,
            frozenset((s, tuple(sorted(ps))) for s, ps in layout.items()))


def _as_json(key: OutcomeKey) -> dict[str, Any]:
    card, discard, layout = key
    if discard and not layout:
        return {"card": card, "discard": True}
    out: dict[str, Any] = {"card": card, "pegs": {str(s): list(ps) for s, ps in sorted(layout)}}
    if discard:
        out["discard"] = True
    return out


def setup_state(sc: Mapping[str, Any]) -> GameState:
    """The position a scenario describes; :class:`ScenarioError` if it is malformed."""
    preset = sc.get("rules")
    if not isinstance(preset, str) or preset not in PRESETS:
        shown = repr(preset) if len(repr(preset)) <= 40 else repr(preset)[:37] + "..."
        raise ScenarioError(f"'rules' must name a preset ({', '.join(PRESETS)}), not {shown}")
    setup = sc.get("setup", {})
    if not isinstance(setup, dict):
        raise ScenarioError("'setup' must be an object of settings")
    try:
        rules = Rules.preset(preset, **setup)
    except (RulesError, TypeError) as e:
        raise ScenarioError(f"bad setup: {e}") from e
    geo = geometry(rules)
    pegs = [[START] * rules.pegs for _ in range(rules.players)]
    raw = sc.get("pegs", {})
    if not isinstance(raw, dict):
        raise ScenarioError("'pegs' must map seats to lists of positions")
    for seat_text, positions in raw.items():
        if not str(seat_text).isdigit() or int(seat_text) >= rules.players:
            raise ScenarioError(f"seat {seat_text!r} is not a seat of {rules.players} players")
        if not isinstance(positions, list) or len(positions) != rules.pegs:
            raise ScenarioError(f"seat {seat_text} needs a list of {rules.pegs} positions")
        try:
            pegs[int(seat_text)] = [geo.parse(str(p)) for p in positions]
        except ValueError as e:
            raise ScenarioError(f"seat {seat_text}: {e}") from e
    seen: set[int] = set()
    for seat, ps in enumerate(pegs):
        for p in ps:
            if p != START and p < geo.ring_size and p in seen:
                raise ScenarioError(f"two pegs share ring hole {geo.name(p)}")
            seen.add(p) if p < geo.ring_size else None
        homes = [p for p in ps if p >= geo.ring_size]
        if len(homes) != len(set(homes)):
            raise ScenarioError(f"seat {seat} has two pegs in one home hole")
    to_move = sc.get("to_move")
    if not isinstance(to_move, int) or not 0 <= to_move < rules.players:
        raise ScenarioError("'to_move' must be a seat number")
    hand = sc.get("hand")
    if not isinstance(hand, list) or not hand:
        raise ScenarioError("'hand' must be a non-empty list of ranks")
    try:
        cards = [parse_rank(str(c)) for c in hand]
    except NotationError as e:
        raise ScenarioError(str(e)) from e
    st = sc.get("state", {})
    if not isinstance(st, dict):
        raise ScenarioError("'state' must be an object")
    stuck = st.get("stuck_turns", 0)
    if not isinstance(stuck, int) or stuck < 0:
        raise ScenarioError("'stuck_turns' must be a whole number >= 0")
    try:
        return GameState.from_position(
            rules,
            tuple(tuple(p) for p in pegs),
            to_move,
            cards,
            stuck_turns=stuck,
            first_turn=bool(st.get("first_turn", False)),
        )
    except RulesError as e:
        raise ScenarioError(str(e)) from e


def outcomes(state: GameState) -> set[OutcomeKey]:
    """The outcome of every legal action in ``state``."""
    geo = state.geo
    result: set[OutcomeKey] = set()
    for action in state.legal_actions():
        after = state.result_of(action)
        changed = {
            s: tuple(geo.name(p) for p in after[s])
            for s in range(len(after))
            if after[s] != state.pegs[s]
        }
        result.add(_key(action.card, action.discard, changed))
    return result


def _expected(state: GameState, items: Any, label: str) -> set[OutcomeKey]:
    if not isinstance(items, list):
        raise ScenarioError(f"expect.{label} must be a list of outcomes")
    geo = state.geo
    keys: set[OutcomeKey] = set()
    for item in items:
        if not isinstance(item, dict) or "card" not in item:
            raise ScenarioError(f"expect.{label}: every outcome needs a 'card'")
        try:
            card = parse_rank(str(item["card"]))
        except NotationError as e:
            raise ScenarioError(f"expect.{label}: {e}") from e
        layout: dict[int, tuple[str, ...]] = {}
        raw = item.get("pegs", {})
        if not isinstance(raw, dict):
            raise ScenarioError(f"expect.{label}: an outcome's 'pegs' must map seats to lists")
        for seat_text, ps in raw.items():
            if not str(seat_text).isdigit() or int(seat_text) >= len(state.pegs):
                raise ScenarioError(f"expect.{label}: {seat_text!r} is not a seat of this table")
            if not isinstance(ps, list):
                raise ScenarioError(f"expect.{label}: seat {seat_text} needs a list of positions")
            seat = int(seat_text)
            try:
                parsed = tuple(sorted(geo.parse(str(p)) for p in ps))
            except ValueError as e:
                raise ScenarioError(f"expect.{label}: {e}") from e
            if parsed != state.pegs[seat]:
                layout[seat] = tuple(geo.name(p) for p in parsed)
        keys.add(_key(card, bool(item.get("discard", False)), layout))
    return keys


def run_scenario(sc: Any) -> Result:
    name = sc.get("name", "<unnamed>") if isinstance(sc, dict) else "<not an object>"
    name = clip(str(name), 100)
    try:
        if not isinstance(sc, dict):
            raise ScenarioError("a scenario must be a JSON object")
        state = setup_state(sc)
        got = outcomes(state)
        expect = sc.get("expect")
        if not isinstance(expect, dict) or not expect.keys() & {"exactly", "includes", "excludes"}:
            raise ScenarioError("'expect' needs exactly, includes or excludes")
        missing: set[OutcomeKey] = set()
        unexpected: set[OutcomeKey] = set()
        if "exactly" in expect:
            want = _expected(state, expect["exactly"], "exactly")
            missing |= want - got
            unexpected |= got - want
        if "includes" in expect:
            missing |= _expected(state, expect["includes"], "includes") - got
        if "excludes" in expect:
            unexpected |= _expected(state, expect["excludes"], "excludes") & got
    except (ScenarioError, ValueError, TypeError, KeyError) as e:
        return Result(name, False, clip(str(e), 300))
    shown = tuple(_as_json(k) for k in sorted(got, key=str))
    if missing or unexpected:
        lost = json.dumps([_as_json(k) for k in sorted(missing, key=str)])
        extra = json.dumps([_as_json(k) for k in sorted(unexpected, key=str)])
        msg = f"missing {lost} unexpected {extra}"
        return Result(name, False, msg, shown)
    return Result(name, True, "", shown)


def run_paths(paths: Iterable[str | Path]) -> list[Result]:
    """Every scenario under ``paths``; an unreadable file is one failed result."""
    results: list[Result] = []
    for path in scenario_files(paths):
        try:
            scenarios = load(path)
        except ScenarioError as e:
            results.append(Result(str(path), False, str(e)))
            continue
        results.extend(run_scenario(sc) for sc in scenarios)
    return results
