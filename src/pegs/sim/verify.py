"""``pegs ladder --verify``: play recorded games again with their bots, move by move.

A record of ``--records`` (:mod:`pegs.sim.records`) names the bot of every seat (its
spec text) and the options they were given; the game is dealt again from its seed, each
bot built with its seat's seed, and at every recorded action the seat's bot chooses
again.  A game whose bots choose otherwise than the record (a changed bot, a bot bounded
by time on a busy machine) is reported with the first action that differs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..record import RecordError, from_json
from ..rules import GameState, view
from .bot_spec import BotSpecError, parse_bot_spec
from .records import read_records
from .run import SimulationError, bot_seed, games_stream


def verify_game(line: dict[str, Any]) -> dict[str, Any]:
    """One recorded game played again: ``{"game", "seed", "bots", "actions"}`` and
    ``"differs"`` (the first difference, in words) when a bot chose otherwise."""
    out: dict[str, Any] = {"game": line.get("game"), "seed": line.get("seed"),
                           "bots": line.get("names", [])}
    try:
        record = from_json(line)
        specs = [parse_bot_spec(text) for text in record.names]
        if len(specs) != record.rules.players:
            raise RecordError("the record does not name the bot of every seat (names)")
        options = line.get("bot_options") or {}
        bots = [spec.make(bot_seed(record.seed, s), **options.get(spec.kind, {}))
                for s, spec in enumerate(specs)]
    except (RecordError, BotSpecError, ValueError, TypeError) as e:
        out["differs"] = f"cannot be played again: {e}"
        return out
    state = GameState.new(record.rules, record.seed)
    for i, recorded in enumerate(record.actions, 1):
        seat = state.current_player
        chosen = bots[seat].choose(view(state, seat), state.legal_actions())
        if str(chosen) != str(recorded):
            out["differs"] = (f"action {i}: seat {seat} ({record.names[seat]}) chooses "
                              f"{chosen} where the record has {recorded}")
            break
        state = state.apply(recorded)
    out["actions"] = len(record.actions)
    return out


def verify(path: Path, games: int | None = None, jobs: int | None = None,
           seen: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Play the first ``games`` records of ``path`` again (all without ``games``) in
    ``jobs`` worker processes; each result (see :func:`verify_game`) in record order, and
    to ``seen`` as it finishes."""
    try:
        lines = read_records(path)
    except OSError as e:
        raise SimulationError(f"cannot read the records {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise SimulationError(str(e)) from None
    if lines and not any(line.get("names") for line in lines):
        raise SimulationError(f"{path} holds no bots to play again (names): only the "
                              "records of pegs simulate --records or pegs ladder --records "
                              "can be verified")
    if games is not None:
        if games < 1:
            raise SimulationError(f"--games must be 1 or more, not {games}")
        lines = lines[:games]
    if not lines:
        raise SimulationError(f"{path} holds no game records")
    tasks = [{**line, "_order": i} for i, line in enumerate(lines)]
    done: dict[int, dict[str, Any]] = {}
    for result in games_stream(tasks, jobs, play=_verify_task):
        order = result.pop("_order")
        done[order] = {**result, "record": order + 1}
        if seen is not None:
            seen(done[order])
    return [done[i] for i in sorted(done)]


def _verify_task(task: dict[str, Any]) -> dict[str, Any]:
    order = task.pop("_order")
    return {**verify_game(task), "_order": order}


def describe(result: dict[str, Any]) -> str:
    """One line about a game played again."""
    game = result.get("game")
    name = f"record {result.get('record')}" if game is None else f"game {game}"
    bots = ", " + ",".join(map(str, result["bots"])) if result.get("bots") else ""
    name += f" (seed {result['seed']}{bots})"
    if "differs" in result:
        return f"{name} differs: {result['differs']}"
    return f"{name}: all {result['actions']} actions the same"
