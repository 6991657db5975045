"""Hearing the other processes: PostgreSQL's LISTEN on the channel every write to a table
is announced on; each table this process has loaded then catches up from the database."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import psycopg

from .store import CHANNEL

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("pegs.server")

#: Seconds before a lost listening connection is opened again.
RETRY_SECONDS = 1.0


async def listen(hub: Hub) -> None:
    """Forever: take the announcements of other processes to the tables they name (after
    a lost connection every loaded table catches up, as announcements may have been
    missed)."""
    conninfo = hub.store.conninfo()
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(conninfo,
                                                             autocommit=True) as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                for loaded in list(hub.rooms.values()):
                    loaded.poke()
                async for note in conn.notifies():
                    code, change, origin = note.payload.split(":")
                    room = hub.rooms.get(code)
                    if room is None or origin == hub.store.origin:
                        continue
                    if change.startswith("@"):  # seats with connections to that process
                        room.heard(origin,
                                   (int(seat) for seat in change[1:].split(",") if seat))
                    else:
                        room.poke()
        except (psycopg.Error, OSError):
            log.warning("listening for other servers failed; trying again", exc_info=True)
            await asyncio.sleep(RETRY_SECONDS)
