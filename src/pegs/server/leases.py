"""One owner per table (several processes on one PostgreSQL database): each process
renews the leases of its tables and takes the tables whose owner stopped renewing; only
the owner runs a table's bots, stand-ins and clocks."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from .store import LEASE_SECONDS, StoreError

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("pegs.server")

#: How often an owner renews its leases: a dead owner's tables are taken over at most
#: ``LEASE_SECONDS + RENEW_SECONDS`` after its last renewal.
RENEW_SECONDS = 3.0
assert RENEW_SECONDS * 3 <= LEASE_SECONDS  # two renewals may fail before a lease is lost


async def hold_leases(hub: Hub) -> None:
    """Forever, every few seconds: :func:`renew`."""
    while True:
        await asyncio.sleep(RENEW_SECONDS)
        try:
            await renew(hub)
        except StoreError:
            log.exception("cannot renew the table leases")


async def renew(hub: Hub) -> None:
    """Renew this process's leases and take the unfinished tables nobody holds (loading
    them); let go of the tables whose lease another process took."""
    try:
        held = set(await hub.run_db(hub.store.claim))
    except Exception as e:
        raise StoreError(f"cannot renew leases: {e}") from e
    for code in held:
        try:
            room = await hub.room(code)
        except Exception:
            log.exception("table %s cannot be replayed; it is left out", code)
            continue
        if not room.owned:
            room.take_over()
    for room in list(hub.rooms.values()):
        if room.owned and room.code not in held and room.status != "finished":
            room.let_go()
