"""``GET /api/tables/{code}/chat``: a table's chat, the game record's sidecar (the record
itself never holds chat)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from .api import Credentials, HubDep, seat_by_token
from .chat import message, readable

router = APIRouter(prefix="/api")


@router.get("/tables/{code}/chat", summary="The table's chat (the record's sidecar); with a "
            "seat's token at a teaching table also its team's channel")
async def chat_log(code: str, hub: HubDep, credentials: Credentials) -> dict[str, Any]:
    room = await hub.room(code)
    seat = seat_by_token(room, credentials) if credentials is not None else -1
    rows = await hub.run_db(hub.store.chat_log, room.code, readable(room, seat))
    return {"code": room.code, "chat": [message(r) for r in rows]}
