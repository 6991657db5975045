"""What the server works out from a game's actions by replaying it: the table's state and
public move log, the game record, the summary and the replay.  A long game takes a
replay of thousands of actions, so the server has these made in a worker process (see
:mod:`.archive`); they are plain functions of the game.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from typing import Any, NamedTuple

from ..notation import announce
from ..record import Record
from ..rules import Action, GameState, Rules, view
from ..rules.board import START, geometry
from . import protocol
from .thinking import Game


class Rebuilt(NamedTuple):
    """A game replayed: its actions, state, last action (seat, action, announcement) and
    public move log (one event per action as spectators saw it, JSON texts)."""

    actions: list[Action]
    state: GameState
    last: tuple[int, Action, str] | None
    log: list[str]


def _dumps(data: object) -> str:
    return json.dumps(data, separators=(",", ":"))


def encoded(fn: Callable[..., str], *args: Any) -> bytes:
    """``fn(*args)`` in UTF-8, gzipped (compressed in the worker, once: a replay of a long
    game is megabytes of JSON that compress about fifty times)."""
    return gzip.compress(fn(*args).encode(), 6, mtime=0)


def log_entry(version: int, seat: int, action: Action, said: str, *, standin: bool = False,
              timed_out: bool = False) -> str:
    """The public move log's entry of an action (as a spectator's event shows it), marked
    ``standin`` when the seat's stand-in bot made it and ``timed_out`` when the seat's time
    for the turn ran out."""
    marks = {**({"standin": True} if standin or timed_out else {}),
             **({"timed_out": True} if timed_out else {})}
    return _dumps({"version": version, "seat": seat,
                   "action": protocol.hidden_text(action, seat, -1), "announcement": said,
                   **marks})


def rebuild(rules: Rules, seed: int, texts: tuple[str, ...] | list[str]) -> Rebuilt:
    """Replay the game of these rules and seed through the stored action texts."""
    state = GameState.new(rules, seed)
    actions: list[Action] = []
    log: list[str] = []
    last = None
    for text in texts:
        action = Action.parse(text)
        seat = state.current_player
        last = (seat, action, announce(state, action))
        state = state.apply(action)
        actions.append(action)
        log.append(log_entry(len(log) + 1, seat, action, last[2]))
    return Rebuilt(actions, state, last, log)


def _record(game: Game, names: list[str]) -> Record:
    return Record(Rules.from_settings(game.settings), game.seed,
                  [Action.parse(t) for t in game.actions], names)


def record_text(game: Game, names: list[str]) -> str:
    """The full game record as JSON text."""
    return _dumps(_record(game, names).to_json())


def seat_record_text(game: Game, names: list[str], seat: int) -> str:
    """The record as ``seat`` may see it during play, as JSON text."""
    return _dumps(_record(game, names).for_seat(seat))


def game_summary(rules: Rules, seed: int, actions: list[Action]) -> list[dict[str, Any]]:
    """One entry per team, in team order: its seats, turns, hits given and taken (pegs sent
    back to START by another team) and Jokers played (each seat its own team without
    teams)."""
    team_of = geometry(rules).team_of
    teams = sorted(set(team_of))
    counts = {t: {"turns": 0, "hits_given": 0, "hits_taken": 0, "jokers": 0} for t in teams}
    state = GameState.new(rules, seed)
    for action in actions:
        actor = state.current_player
        before = [seat.count(START) for seat in state.pegs]
        state = state.apply(action)
        mine = counts[team_of[actor]]
        if not action.decision:
            mine["turns"] += 1
            mine["jokers"] += action.card == "Joker"
        for seat, pegs in enumerate(state.pegs):
            sent = pegs.count(START) - before[seat]
            if sent > 0 and team_of[seat] != team_of[actor]:
                counts[team_of[seat]]["hits_taken"] += sent
                mine["hits_given"] += sent
    return [{"team": t, "seats": [q for q in range(rules.players) if team_of[q] == t],
             **counts[t]} for t in teams]


def summary_text(game: Game) -> str:
    """``{"teams": [...]}`` of :func:`game_summary`, as JSON text."""
    return _dumps({"teams": game_summary(Rules.from_settings(game.settings), game.seed,
                                         [Action.parse(t) for t in game.actions])})


def replay_text(game: Game, shared: str) -> str:
    """``{"states": [...]}``: the spectator's ``state`` after 0, 1, ..., N actions;
    ``shared`` is the members every state has (the table, rules and board)."""
    state = GameState.new(Rules.from_settings(game.settings), game.seed)
    out = []
    last = None
    for version in range(len(game.actions) + 1):
        if version:
            action = Action.parse(game.actions[version - 1])
            seat = state.current_player
            said = announce(state, action)
            state = state.apply(action)
            last = {"seat": seat, "action": protocol.hidden_text(action, seat, -1),
                    "announcement": said}
        own = _dumps({"view": protocol.view_json(view(state, -1)), "legal": None,
                      "last": last})
        out.append(f'{{"type":"state","version":{version},"seat":-1,"turn_ends":null,'
                   f"{shared},{own[1:]}")
    return '{"states":[' + ",".join(out) + "]}"
