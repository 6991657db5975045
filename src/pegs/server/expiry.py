"""Every table ends: waiting tables nobody starts are removed after
``Limits.waiting_seconds``; started tables nobody visits are ended as abandoned after
``Limits.abandoned_seconds``; one address may have only so many unfinished tables."""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, func, select, update

from .rooms import Room, TableError
from .schema import actions, chat, entries, seats, tables
from .services import Services
from .store import Store
from .store_errors import StoreError
from .table_base import ABANDONED

log = logging.getLogger("pegs.server")


def cutoff(services: Services) -> datetime:
    """Waiting tables created before this moment have expired."""
    return datetime.now(UTC) - timedelta(seconds=services.limits.waiting_seconds)


def delete_waiting(store: Store, before: datetime) -> list[str]:
    """Delete the tables still waiting that were created before ``before`` (with their
    seats and log: a waiting table has no actions); their codes."""
    query = select(tables.c.code).where(tables.c.status == "waiting",
                                        tables.c.created < before)
    try:
        with store.engine.begin() as c:
            codes = list(c.scalars(query))
            for start in range(0, len(codes), 500):
                chunk = codes[start:start + 500]
                for rows in (entries, chat, seats, tables):
                    c.execute(delete(rows).where(rows.c.code.in_(chunk)))
    except Exception as e:
        raise StoreError(f"cannot remove expired tables: {e}") from e
    return codes


async def expire_waiting(hub: Services, rooms: dict[str, Room]) -> None:
    """Drop the expired waiting tables: each one under its lock (a start under way wins),
    its connections closed; then delete them from the database, and only then forget
    them (a request meanwhile finds them expired, not back from the database)."""
    before = cutoff(hub)
    stale = [room for room in rooms.values() if room.status == "expired" or (
        room.status == "waiting" and room.created is not None and room.created < before)]
    if not stale:
        return
    for room in stale:
        async with room.lock:
            if room.status != "waiting":  # started meanwhile, or expired in an earlier round
                continue
            room.status = "expired"
            for c in room.conns:
                c.close()
    try:
        codes = await hub.run_db(delete_waiting, hub.store, before)
    except StoreError as e:
        log.warning("%s", e)  # the next round tries again
        return
    for room in stale:
        if room.status == "expired" and rooms.get(room.code) is room:
            del rooms[room.code]
    log.info("%d waiting tables expired", len(codes))


def _last_activity(store: Store, codes: list[str]) -> dict[str, datetime]:
    """When each table's last action was stored (tables with none are left out)."""
    last: dict[str, datetime] = {}
    with store.engine.connect() as c:
        for start in range(0, len(codes), 500):
            for code, at in c.execute(select(actions.c.code, func.max(actions.c.at))
                                      .where(actions.c.code.in_(codes[start:start + 500]))
                                      .group_by(actions.c.code)):
                last[code] = at
    return {code: at if at.tzinfo else at.replace(tzinfo=UTC) for code, at in last.items()}


def _mark_abandoned(store: Store, code: str, version: int) -> bool:
    """Archive a started table as abandoned, if it is still at ``version`` (and, on
    PostgreSQL, still this process's)."""
    query = update(tables).where(tables.c.code == code, tables.c.status == "playing",
                                 tables.c.version == version)
    if store.shared:
        query = query.where(tables.c.owner == store.origin)
    with store.engine.begin() as c:
        if c.execute(query.values(status=ABANDONED)).rowcount != 1:
            return False
        store.announce(c, code, version)  # the others take the end in (Room.catch_up)
        return True


class Abandonment:
    """Started tables that nobody visits are ended: a table this process runs, with no
    connection to any process and no action for ``seconds``, is stored as ``abandoned``
    (kept, readable, never resumed) and dropped from memory.  After a restart a table's
    quiet time counts from its last stored action."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        #: per table: its version when last looked at, and since when it has been quiet
        self.quiet: dict[str, tuple[int, float]] = {}
        self._next = 0.0

    async def sweep(self, hub: Services, live: dict[str, Room]) -> None:
        """Now and then (a few times per ``seconds``, at most every 30 s): look at the
        started tables this process runs and end those quiet for long enough."""
        now = time.time()
        if now < self._next:
            return
        self._next = now + min(30.0, self.seconds / 4)
        rooms = [r for r in live.values() if r.status == "playing" and r.owned]
        new = [r.code for r in rooms if r.code not in self.quiet]
        try:
            last = await hub.run_db(_last_activity, hub.store, new) if new else {}
        except Exception as e:  # the next sweep tries again
            log.warning("cannot read when tables last moved: %s", e)
            return
        quiet: dict[str, tuple[int, float]] = {}
        ended = []
        for room in rooms:
            seen = self.quiet.get(room.code)
            if seen is None:
                moved = last.get(room.code, room.created)
                seen = (room.version, moved.timestamp() if moved else now)
            if seen[0] != room.version or room.conns or any(
                    room.present(s) for s in range(-1, len(room.seats))):  # -1: spectators
                seen = (room.version, now)
            quiet[room.code] = seen
            if now - seen[1] >= self.seconds:
                ended.append(room)
        self.quiet = quiet
        for room in ended:
            await self._end(hub, live, room)

    async def _end(self, hub: Services, live: dict[str, Room], room: Room) -> None:
        async with room.lock:
            if room.status != "playing" or room.conns:
                return
            try:
                done = await hub.run_db(_mark_abandoned, hub.store, room.code, room.version)
            except Exception as e:
                log.warning("cannot end table %s: %s", room.code, e)
                return
            if not done:
                return
            room.status = ABANDONED
            room.close()
            if live.get(room.code) is room:
                del live[room.code]
            self.quiet.pop(room.code, None)
        log.info("table %s ended: abandoned, nobody there for %g hours", room.code,
                 self.seconds / 3600)


def _count(store: Store, creator: str, statuses: tuple[str, ...]) -> int:
    with store.engine.connect() as c:
        return int(c.scalar(select(func.count()).select_from(tables).where(
            tables.c.creator == creator, tables.c.status.in_(statuses))) or 0)


async def created_by(hub: Services, address: str, statuses: tuple[str, ...]) -> int:
    """How many tables of these statuses ``address`` created (through any process)."""
    return await hub.run_db(_count, hub.store, address, statuses)


async def live_cap_check(hub: Services, address: str) -> None:
    """Refuse a new table to an address that created as many unfinished tables (waiting or
    in play) as it may have."""
    cap = hub.limits.max_live_per_address
    if cap and await created_by(hub, address, ("waiting", "playing")) >= cap:
        raise TableError(429, "too_many_tables",
                         f"your address has {cap} unfinished tables, the most it may have: "
                         "finish one first (a table nobody visits ends after "
                         f"{hub.limits.abandoned_seconds / 3600:g} hours)")
