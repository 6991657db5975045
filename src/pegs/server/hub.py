"""Every live table, the database, its threads and the worker processes of a running
server."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import math
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from .archive import Archive
from .counters import Counters
from .database import compatible
from .expiry import Abandonment, expire_waiting
from .leases import hold_leases, renew
from .limits import Limits
from .listening import listen
from .presence import Presence
from .retry import Backoff
from .rooms import Room, TableError
from .services import Services
from .store import Store, TableRow
from .store_errors import StoreError
from .table_base import ABANDONED
from .thinking import BOT_NICENESS, HINT_NICENESS, Thinkers

log = logging.getLogger("pegs.server")
T = TypeVar("T")

#: Database threads for a database server (each table's writes stay in order: its lock).
DB_THREADS = 8
#: How often SQLite's write-ahead log is copied back into the database file.
CHECKPOINT_SECONDS = 1.0
#: (PostgreSQL) How long a starting process waits to hear the others before taking tables.
LISTEN_WAIT_SECONDS = 5.0


def default_workers() -> tuple[int, int]:
    """Worker processes for bots and for hints: each has its own, so hints never take the
    bots' turn (half the cores for bots, a quarter for hints, at least one each)."""
    cores = os.cpu_count() or 2
    return max(1, cores // 2), max(1, cores // 4)


class Hub:
    """Every live room, the database and its threads, and the bots' worker processes."""

    def __init__(self, store: Store, limits: Limits, bot_delay: float,
                 hint_seconds: float, full_gc_seconds: float | None = None,
                 workers: tuple[int, int] | None = None) -> None:
        self.store = store
        self.limits = limits
        self.bot_delay = bot_delay
        self.hint_seconds = hint_seconds
        self.full_gc_seconds = full_gc_seconds
        self.rooms: dict[str, Room] = {}
        #: this process's word to the others on which seats are connected here
        self.presence = Presence(self)
        # SQLite takes one writer at a time; a database server commits tables in parallel
        self._db = ThreadPoolExecutor(1 if store.local else DB_THREADS,
                                      thread_name_prefix="pegs-db")
        self._checkpoint = ThreadPoolExecutor(1, thread_name_prefix="pegs-checkpoint")
        self._housekeeper: asyncio.Task[None] | None = None
        self._listener: asyncio.Task[None] | None = None
        self._leases: asyncio.Task[None] | None = None
        #: (PostgreSQL) when the leases were last renewed (time.monotonic), and whether
        #: the listener hears the other processes
        self.renewed = -math.inf
        self.listening = asyncio.Event()
        #: (PostgreSQL) why this process may not write, when it may not (see leases)
        self.refusal: str | None = None
        bot_workers, hint_workers = workers or default_workers()
        self.bot_lane = Thinkers(bot_workers, BOT_NICENESS, spare=1)
        self.hint_lane = Thinkers(hint_workers, HINT_NICENESS)
        #: per-address rates and open connections (shared by the processes, see counters)
        self.counters = Counters(limits)
        #: what each table is handed to do its work
        self.services = Services(store, self.run_db, limits, self.counters, self.bot_lane,
                                 self.hint_lane, self.presence.changed, bot_delay,
                                 hint_seconds)
        self.abandonment = Abandonment(limits.abandoned_seconds)
        self.archive = Archive(self.services)

    async def run_db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    async def ready(self) -> bool:
        """Whether this process can do its work: its background loops run, the database
        answers with a schema this release can run on, and (PostgreSQL) it hears the other
        processes, may write and renewed its leases within a lease's time."""
        loops = [self._housekeeper, *((self._listener, self._leases) if self.store.shared
                                      else ())]
        if any(task is None or task.done() for task in loops):
            return False
        if self.store.shared and (not self.listening.is_set() or self.refusal is not None
                                  or time.monotonic() - self.renewed > self.store.lease_seconds):
            return False
        return await self.run_db(compatible, self.store.engine)

    async def _housekeeping(self) -> None:
        """Now and then: copy SQLite's write-ahead log into the database on a thread of its
        own (so appends never wait for the disk's sync), forget finished tables, and
        collect cyclic garbage when the server has put off full collections (``pegs serve``
        does, see serve.py)."""
        loop = asyncio.get_running_loop()
        collected = loop.time()
        backoff = Backoff(CHECKPOINT_SECONDS, 8 * CHECKPOINT_SECONDS)
        while True:
            await backoff.wait()
            try:
                if self.store.local:
                    await loop.run_in_executor(self._checkpoint, self.store.checkpoint)
                self.forget_finished()
                await expire_waiting(self.services, self.rooms)
                await self.abandonment.sweep(self.services, self.rooms)
            except Exception:
                log.warning("housekeeping failed; trying again", exc_info=True)
                continue
            backoff.succeeded()
            if self.full_gc_seconds and loop.time() - collected >= self.full_gc_seconds:
                gc.collect()
                collected = loop.time()

    def forget_finished(self) -> None:
        """Hand finished tables nobody is watching to the archive (which keeps the recent
        ones; the database keeps them all, and :meth:`room` reads one back when asked)."""
        for code, room in list(self.rooms.items()):
            if (room.status in ("finished", ABANDONED) and not room.conns
                    and not room.lock.locked()):
                del self.rooms[code]
                self.archive.keep(room)

    async def resume(self) -> None:
        """Load and replay the unfinished tables this process runs (on SQLite all of them,
        on PostgreSQL those whose lease it holds or can take); bots pick up their turns."""
        self._housekeeper = asyncio.create_task(self._housekeeping())
        await self.counters.open.start()
        if self.store.shared:
            self._listener = asyncio.create_task(listen(self))
            self.presence.start()
            with contextlib.suppress(TimeoutError):  # else it keeps trying meanwhile
                await asyncio.wait_for(self.listening.wait(), LISTEN_WAIT_SECONDS)
            try:
                await renew(self)
            except StoreError:
                log.warning("cannot take tables yet; trying again", exc_info=True)
            self._leases = asyncio.create_task(hold_leases(self))
            log.info("took %d tables", len(self.rooms))
            return
        for row in await self.run_db(self.store.load, ("waiting", "playing")):
            try:
                room = Room(self.services, row)
            except Exception:
                log.exception("table %s cannot be replayed; it is left out", row.code)
                continue
            self.rooms[row.code] = room
            room.kick_bots()
            room.start_clocks()
        log.info("resumed %d tables", len(self.rooms))

    async def room(self, code: str) -> Room:
        """The table with this code (a finished one is read from the database)."""
        room = self.rooms.get(code)
        if room is None and (room := self.archive.take(code)) is not None:
            self.rooms[code] = room
            if self.store.shared:  # kept, it heard nothing: what was stored since
                async with room.lock:
                    await room.catch_up()
        elif room is None and 0 < len(code) <= 32:
            loaded = await self.archive.load(code)  # a finished game replayed by a worker
            room = self.rooms.get(code)  # loaded meanwhile for another request
            if room is None and loaded is not None:
                room = self.rooms[code] = loaded
                if self.store.shared:  # what other processes stored since the reading
                    room.poke()
        if room is None:
            raise TableError(404, "no_table", f"there is no table {code!r}")
        return room

    def capacity_check(self) -> None:
        """Refuse a new table when this process runs as many as it may."""
        live = sum(1 for r in self.rooms.values() if r.status in ("waiting", "playing"))
        if live >= self.limits.max_tables:
            raise TableError(503, "busy", "the server has too many tables; try again later")

    async def add(self, row: TableRow) -> Room:
        self.capacity_check()
        await self.run_db(self.store.create, row)
        return self.adopt(row)

    def adopt(self, row: TableRow) -> Room:
        """Take a table this process has just stored into memory (its lease is this
        process's)."""
        room = self.rooms[row.code] = Room(self.services, row)
        room.epoch = 0  # the new table's lease is this process's, at the first epoch
        return room

    async def close(self) -> None:
        for task in (self._housekeeper, self._listener, self._leases):
            if task is not None:
                task.cancel()
        self.presence.close()
        for room in self.rooms.values():
            room.close()
            for c in room.conns:
                c.close()
        self.bot_lane.close()
        self.hint_lane.close()
        await self.counters.open.close()
        self.archive.close()
        if self.store.shared:  # the other processes take this one's tables at once
            try:
                await self.run_db(self.store.release)
            except Exception:
                log.exception("cannot end the table leases")
        await self.run_db(self.store.close)
        self._db.shutdown(wait=True)
        self._checkpoint.shutdown(wait=True)
