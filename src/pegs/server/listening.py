"""Hearing the other processes: PostgreSQL's LISTEN on the channel every write to a table
is announced on; each table this process has loaded then catches up from the database."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import psycopg

from .database import CONNECT_TIMEOUT_SECONDS
from .retry import Backoff
from .store import CHANNEL

if TYPE_CHECKING:
    from .host import TableHost

log = logging.getLogger("pegs.server")


async def listen(hub: TableHost) -> None:
    """Forever: take the announcements of other processes to the tables they name (after
    a lost connection every loaded table catches up, as announcements may have been
    missed); a lost connection is opened again after growing pauses."""
    conninfo = hub.store.conninfo()
    backoff = Backoff()
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(
                    conninfo, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SECONDS) as conn:
                await conn.execute(f"LISTEN {CHANNEL}")
                hub.listening.set()
                backoff.succeeded()
                for loaded in list(hub.rooms.values()):
                    loaded.poke()
                async for note in conn.notifies():
                    try:
                        hear(hub, note.payload)
                    except ValueError:
                        log.warning("an unreadable announcement: %r", note.payload[:100])
        except Exception:
            log.warning("listening for other servers failed; trying again", exc_info=True)
        hub.listening.clear()
        await backoff.wait()


def hear(hub: TableHost, payload: str) -> None:
    """One announcement: ``code:@seats:origin`` (the seats connected to that process), or
    of a write: ``code:version:origin`` (a move), ``code:~n:origin`` (entry ``n`` of the
    table's log) or ``code::origin`` (the clock)."""
    code, change, origin = payload.split(":")
    room = hub.rooms.get(code)
    if room is None or origin == hub.store.origin:
        return
    if change.startswith("@"):  # seats with connections to that process
        room.heard(origin, (int(seat) for seat in change[1:].split(",") if seat))
    else:
        room.poke()
