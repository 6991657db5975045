"""``GET /api/tables/{code}/chat``: a table's chat, the game record's sidecar (the record
itself never holds chat), a page at a time."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from .api import Credentials, HubDep, seat_by_token
from .talk import message, readable

router = APIRouter(prefix="/api")

#: Messages a page holds: by default, and at most.
PAGE, MOST_PAGE = 200, 500


@router.get("/tables/{code}/chat", summary="The table's chat (the record's sidecar), oldest "
            "first, a page at a time; with a seat's token at a teaching table also its team's "
            "channel")
async def chat_log(code: str, hub: HubDep, credentials: Credentials,
                   after: Annotated[int, Query(ge=0, le=2**62, description="the number of the "
                                               "last message already read")] = 0,
                   limit: Annotated[int, Query(ge=1, le=MOST_PAGE)] = PAGE) -> dict[str, Any]:
    room = await hub.room(code)
    seat = seat_by_token(room, credentials) if credentials is not None else -1
    rows = await hub.run_db(hub.store.chat_page, room.code,
                            readable(room.rules, room.teaching, seat), after, limit + 1)
    page = [message(r) for r in rows[:limit]]
    return {"code": room.code, "chat": page, "more": len(rows) > limit,
            "after": page[-1]["n"] if page else after}
