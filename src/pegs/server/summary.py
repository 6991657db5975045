"""After the game: a short summary per team (each seat its own team without teams): turns
played, hits given and taken (pegs sent back to START by another team) and Jokers played.
Worked out once in a worker process (:func:`.records.game_summary`) and kept."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from .api import JSON_ANSWER, HubDep, gzipped
from .rooms import TableError

router = APIRouter(prefix="/api")


@router.get("/tables/{code}/summary", response_class=Response, responses=JSON_ANSWER,
            summary="A finished game: turns, hits and Jokers per team")
async def summary(code: str, hub: HubDep, request: Request) -> Response:
    room = await hub.room(code)
    if room.status != "finished":
        raise TableError(409, "not_finished", "the summary is there once the game is over")
    return await gzipped(await hub.archive.summary(room), request)
