"""Play again: once every player of a finished table agrees, a new table with the same seats
(names, bots and token hashes, so each player's token holds their seat there too) and a new
deal starts.  Bots always agree.  The old table's JSON shows ``rematch`` (the seats that
agreed) and ``next`` (the new table's code once it exists).

The agreements and ``next`` are kept in the database: they survive pages closed for a
while, and every process (on PostgreSQL) agrees on them; the agreement that completes them
creates the rematch in the same transaction, so racing clicks make one table."""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from fastapi import APIRouter

from .api import Credentials, HubDep, RateLimited, seat_by_token
from .expiry import live_cap_check
from .hub import Hub
from .limits import new_code
from .rooms import Room, TableError
from .store import TableRow

router = APIRouter(prefix="/api")


def _rematch_row(room: Room) -> TableRow:
    """The rematch of ``room`` as it would be stored: same seats and options, new code
    and seed, playing from the deal."""
    seats = [replace(s, standin=False, bot=s.bot if s.kind == "bot" else None,
                     strength=s.strength if s.kind == "bot" else None) for s in room.seats]
    return TableRow(new_code(), room.settings, secrets.randbits(62), room.hints, "playing",
                    0, room.host, seats, public=room.public, creator=room.creator,
                    turn_seconds=room.turn_seconds, away_seconds=room.away_seconds,
                    bot_delay=room.bot_delay, teaching=room.teaching, muted=sorted(room.muted),
                    house=room.house)


async def counted_as_created(hub: Hub, room: Room) -> None:
    """A rematch is a new table of the old one's creator: refused when that address has
    as many unfinished tables as it may have, else counted against its creation rate."""
    if room.creator is None:
        return
    await live_cap_check(hub, room.creator)
    if not await hub.counters.creates.hit(room.creator):
        wait = await hub.counters.creates.retry_after(room.creator)
        raise RateLimited(f"the table's creator has made {hub.counters.creates.per_minute} "
                          f"new tables this minute (play again counts as one): try again in "
                          f"{wait} s", wait)


@router.post("/tables/{code}/rematch",
             summary="Agree to play again; the rematch starts once every player agreed")
async def rematch(code: str, hub: HubDep, credentials: Credentials) -> dict[str, Any]:
    room = await hub.room(code)
    seat = seat_by_token(room, credentials)
    async with room.lock:
        if room.status != "finished":
            raise TableError(409, "not_finished", "a rematch follows a finished game")
        if room.next is None:
            humans = [s.seat for s in room.seats if s.kind == "human"]
            fresh = _rematch_row(room)
            if set(humans) <= room.rematch | {seat}:  # this agreement may start it
                hub.capacity_check()
                await counted_as_created(hub, room)
            agreed, nxt = await hub.run_db(hub.store.agree_rematch, code, seat, humans,
                                           fresh)
            if nxt == fresh.code:
                hub.adopt(fresh).begin()
            if (set(agreed), nxt) != (room.rematch, room.next):
                room.rematch, room.next = set(agreed), nxt
                room.changed()
    return room.table_json()
