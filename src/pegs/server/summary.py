"""After the game: a short summary per team (each seat its own team without teams): turns
played, hits given and taken (pegs sent back to START by another team) and Jokers played."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ..rules import Action, GameState, Rules
from ..rules.board import START, geometry
from .api import HubDep
from .rooms import TableError

router = APIRouter(prefix="/api")


def game_summary(rules: Rules, seed: int, actions: list[Action]) -> list[dict[str, Any]]:
    """One entry per team, in team order: its seats, turns, hits given and taken, Jokers."""
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


@router.get("/tables/{code}/summary", summary="A finished game: turns, hits and Jokers per team")
async def summary(code: str, hub: HubDep) -> dict[str, Any]:
    room = await hub.room(code)
    if room.status != "finished":
        raise TableError(409, "not_finished", "the summary is there once the game is over")
    return {"teams": game_summary(room.rules, room.seed, room.actions)}
