"""One owner per table (several processes on one PostgreSQL database): each process
renews the leases of its tables and takes its share of the tables whose owner stopped
renewing; only the owner runs a table's bots, stand-ins and clocks, and each of its writes
for the table checks the lease's epoch in the database (a fencing token), so a process
that lost a lease (paused, cut off) never writes for that table again.  A process that may
not write (its schema was contracted by a later release, the database refuses its
writes) ends its leases at once, so the others take its tables, and takes its share again
when it may."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from .retry import Backoff
from .store_errors import Refused, StoreError

if TYPE_CHECKING:
    from .host import TableHost as Hub

log = logging.getLogger("pegs.server")

#: How often an owner renews its leases, as a share of the lease's time (10 s: every 3 s),
#: so two renewals may fail before a lease is lost: a dead owner's tables are taken over
#: at most a lease and a renewal's time after its last renewal.
RENEW_SHARE = 0.3


def renew_seconds(hub: Hub) -> float:
    return hub.store.lease_seconds * RENEW_SHARE


async def hold_leases(hub: Hub) -> None:
    """Forever, every few seconds: :func:`renew`; after a failure (the database is away)
    sooner, with growing pauses."""
    every = renew_seconds(hub)
    backoff = Backoff(min(0.5, every), every)
    while True:
        try:
            await renew(hub)
        except Refused:  # (logged once) it asks again at the renewals' pace
            await asyncio.sleep(every)
            continue
        except Exception:
            log.warning("cannot renew the table leases; trying again", exc_info=True)
            await backoff.wait()
            continue
        backoff.succeeded()
        await asyncio.sleep(every)


def give_up(hub: Hub, why: str) -> None:
    """This process may not write: it stops running its tables (their leases ended, or
    end by themselves if the database refuses even that)."""
    if hub.refusal is None:
        log.warning("%s: this process gives its tables up to the others", why)
    hub.refusal = why
    for room in hub.rooms.values():
        if room.owned:
            room.let_go()


def lapse(hub: Hub) -> None:
    """The leases were not renewed for a lease's time: they are another process's to take,
    so this one stops running the tables (it takes them again, afresh, on its next
    successful renewal if nobody else did)."""
    if time.monotonic() - hub.renewed > hub.store.lease_seconds:
        for room in hub.rooms.values():
            if room.owned:
                room.let_go()


async def renew(hub: Hub) -> None:
    """Renew this process's leases and take its share of the unfinished tables nobody
    holds (loading them); let go of the tables it no longer holds (another process took
    them, or it handed them over for balance); take afresh a table whose lease it holds at
    a new epoch."""
    asked = time.monotonic()
    try:
        held = await hub.run_db(hub.store.claim)
    except Refused as e:
        give_up(hub, str(e).splitlines()[0])
        raise
    except StoreError:
        lapse(hub)
        raise
    if hub.refusal is not None:
        hub.refusal = None
        log.warning("this process may write again: it takes its share of the tables")
    hub.renewed = asked
    for room in list(hub.rooms.values()):
        if room.owned and held.get(room.code) != room.epoch and room.status != "finished":
            room.let_go()
    for code, epoch in held.items():
        try:
            room = await hub.room(code)
        except StoreError as e:  # the next renewal loads it
            log.warning("table %s cannot be loaded now: %s", code, e)
            continue
        except Exception:
            log.exception("table %s cannot be replayed; it is left out", code)
            continue
        if room.epoch != epoch:
            room.take_over(epoch)
