"""Waiting tables nobody starts are removed after ``Limits.waiting_seconds``, from memory
and from the database, so abandoned tables never fill the server."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from .store import StoreError

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("pegs.server")


def cutoff(hub: Hub) -> datetime:
    """Waiting tables created before this moment have expired."""
    return datetime.now(UTC) - timedelta(seconds=hub.limits.waiting_seconds)


async def expire_waiting(hub: Hub) -> None:
    """Drop the expired waiting tables: each one under its lock (a start under way wins),
    its connections closed; then delete them from the database."""
    before = cutoff(hub)
    stale = [room for room in hub.rooms.values() if room.status == "waiting"
             and room.created is not None and room.created < before]
    if not stale:
        return
    for room in stale:
        async with room.lock:
            if room.status != "waiting":
                continue
            room.status = "expired"
            if hub.rooms.get(room.code) is room:
                del hub.rooms[room.code]
            for c in room.conns:
                c.close()
    try:
        codes = await hub.run_db(hub.store.expire_waiting, before)
    except StoreError as e:
        log.warning("%s", e)  # the next round tries again
        return
    log.info("%d waiting tables expired", len(codes))
