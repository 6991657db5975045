"""Play again: once every player of a finished table agrees, a new table with the same seats
(names, bots and token hashes, so each player's token holds their seat there too) and a new
deal starts.  Bots always agree.  The old table's JSON shows ``rematch`` (the seats that
agreed) and ``next`` (the new table's code once it exists)."""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from fastapi import APIRouter

from .api import Credentials, HubDep, seat_by_token
from .hub import Hub
from .limits import new_code
from .rooms import Room, TableError

router = APIRouter(prefix="/api")

def everyone_agreed(room: Room) -> bool:
    """Whether every human seat has agreed (bot seats always do)."""
    return all(s.seat in room.rematch for s in room.seats if s.kind == "human")


async def _start_rematch(hub: Hub, room: Room) -> str:
    """Create and start the new table; its code."""
    rows = await hub.run_db(hub.store.load, None, room.code)
    if not rows:
        raise TableError(404, "no_table", f"there is no table {room.code!r}")
    seats = [replace(s, standin=False, bot=s.bot if s.kind == "bot" else None,
                     strength=s.strength if s.kind == "bot" else None) for s in room.seats]
    changes: dict[str, Any] = {"code": new_code(), "seed": secrets.randbits(62),
                               "status": "waiting", "version": 0, "seats": seats,
                               "actions": [], "created": None}  # created now
    fresh = await hub.add(replace(rows[0], **changes))
    async with fresh.lock:
        await fresh.start()
    return fresh.code


@router.post("/tables/{code}/rematch",
             summary="Agree to play again; the rematch starts once every player agreed")
async def rematch(code: str, hub: HubDep, credentials: Credentials) -> dict[str, Any]:
    room = await hub.room(code)
    seat = seat_by_token(room, credentials)
    async with room.lock:
        if room.status != "finished":
            raise TableError(409, "not_finished", "a rematch follows a finished game")
        if room.next is None:
            room.rematch.add(seat)
            if everyone_agreed(room):
                room.next = await _start_rematch(hub, room)
            room.changed()
    return room.table_json()
