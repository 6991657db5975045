"""Play again: once every player of a finished table agrees, a new table with the same seats
(names, bots and token hashes, so each player's token holds their seat there too) and a new
deal starts.  Bots always agree.  The host, or a player who agreed, may hand a seat that
has not agreed to a stand-in bot for the rematch (one gone to bed): it counts as agreed, and
at the rematch a stand-in bot plays it until its player comes and takes it back.  The old
table's JSON shows ``rematch`` (the seats that agreed), ``rematch_bots`` (those of them
handed to a bot) and ``next`` (the new table's code once it exists).

The agreements and ``next`` are kept in the database: they survive pages closed for a
while, and every process (on PostgreSQL) agrees on them; the agreement that completes them
creates the rematch in the same transaction, so racing clicks make one table."""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Any

from fastapi import APIRouter

from .api import Credentials, HubDep, RateLimited, seat_by_token, seat_check
from .expiry import live_cap_check
from .hub import Hub
from .limits import new_code
from .rooms import Room, TableError
from .store import TableRow

router = APIRouter(prefix="/api")


def _rematch_row(room: Room, handed: set[int]) -> TableRow:
    """The rematch of ``room`` as it would be stored: same seats and options, new code
    and seed, playing from the deal; the ``handed`` seats played by a stand-in bot."""
    seats = [replace(s, standin=False, bot=s.bot if s.kind == "bot" else None,
                     strength=s.strength if s.kind == "bot" else None)
             if s.seat not in handed or s.kind != "human"
             else replace(s, standin=True, bot="heuristic", strength=None) for s in room.seats]
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
    await live_cap_check(hub.services, room.creator)
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
    return await _agree(hub, room, seat, bot=False)


@router.post("/tables/{code}/rematch/seats/{seat}/bot",
             summary="Host or a player who agreed: a stand-in bot takes a seat that has not "
                     "agreed, for the rematch")
async def rematch_bot(code: str, seat: int, hub: HubDep,
                      credentials: Credentials) -> dict[str, Any]:
    room = await hub.room(code)
    me = seat_by_token(room, credentials)
    seat_check(room, seat)
    if me != room.host and me not in room.rematch:
        raise TableError(403, "not_host", "only the host or a player who agreed to play "
                                          "again may hand a seat to a bot")
    if room.seats[seat].kind != "human":
        raise TableError(409, "not_human", f"seat {seat} is a bot's: bots always agree")
    return await _agree(hub, room, seat, bot=True)


async def _agree(hub: Hub, room: Room, seat: int, *, bot: bool) -> dict[str, Any]:
    async with room.lock:
        if room.status != "finished":
            raise TableError(409, "not_finished", "a rematch follows a finished game")
        if room.next is None:
            humans = [s.seat for s in room.seats if s.kind == "human"]
            handed = room.rematch_bots | ({seat} if bot and seat not in room.rematch else set())
            fresh = _rematch_row(room, handed)
            if set(humans) <= room.rematch | {seat}:  # this agreement may start it
                hub.capacity_check()
                await counted_as_created(hub, room)
            _, nxt, entry = await hub.run_db(hub.store.agree_rematch, room.code, seat,
                                             humans, fresh, bot)
            if nxt == fresh.code:
                hub.adopt(fresh).begin()
            if entry is not None:
                await room.take(entry)
            else:  # nothing stored: the table as stored (agreed through another process)
                await room.catch_up()
    return room.table_json()
