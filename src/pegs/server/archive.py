"""Finished games: worked out once off the event loop, then kept.

A finished game never changes.  Its table is rebuilt (every action replayed) on a thread
of its own, one table at a time (the engine's state stays in this process; the thread
hands the interpreter back to the event loop every few milliseconds), and its documents
(the record, the summary, the replay) are made in the archive lane of worker processes
(:mod:`.records`, the work charged to the table's creator, see
:class:`.thinking.Thinkers`).  Both are kept in memory: the most recently asked tables up
to a number of actions, the documents up to a number of bytes.  Requests for one that is
being made wait for it: it is made once.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..rules import Rules
from . import records
from .rooms import Room
from .services import Services
from .thinking import HINT_NICENESS, Thinkers

log = logging.getLogger("pegs.server")

#: Actions of the finished tables kept in memory (nobody connected), together.
KEPT_ACTIONS = 200_000
#: Bytes of finished games' documents kept in memory, together.
KEPT_BYTES = 64 * 1024 * 1024


class Archive:
    """The finished tables and documents of one server, and its archive lane."""

    def __init__(self, services: Services, workers: int = 1) -> None:
        self.services = services
        self.lane = Thinkers(workers, HINT_NICENESS)
        self._rebuilder = ThreadPoolExecutor(1, thread_name_prefix="pegs-archive")
        self._rooms: OrderedDict[str, Room] = OrderedDict()
        self._actions = 0
        self._docs: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._bytes = 0
        self._making: dict[object, asyncio.Future[Any]] = {}

    # --- tables ---------------------------------------------------------------------------
    def keep(self, room: Room) -> None:
        """Keep a finished table nobody is connected to (the least recently asked go when
        there are too many)."""
        self._rooms[room.code] = room
        self._actions += room.version
        while self._actions > KEPT_ACTIONS and len(self._rooms) > 1:
            _, gone = self._rooms.popitem(last=False)
            self._actions -= gone.version

    def take(self, code: str) -> Room | None:
        """A kept finished table, handed back to the live ones (the caller's)."""
        room = self._rooms.pop(code, None)
        if room is not None:
            self._actions -= room.version
        return room

    async def load(self, code: str) -> Room | None:
        """The table as stored (a finished one replayed in the archive lane), or None."""
        room: Room | None = await self._once(("load", code), lambda: self._load(code))
        return room

    async def _load(self, code: str) -> Room | None:
        rows = await self.services.run_db(self.services.store.load, None, code)
        if not rows:
            return None
        row = rows[0]
        if row.status != "finished":
            return Room(self.services, row)
        built = await asyncio.get_running_loop().run_in_executor(
            self._rebuilder, records.rebuild, Rules.from_settings(row.settings), row.seed,
            row.actions)
        log.info("table %s: rebuilt on the archive's thread (%d actions)", code,
                 len(built.actions))
        return Room(self.services, row, built)

    # --- documents --------------------------------------------------------------------------
    async def record(self, room: Room) -> bytes:
        return await self.document(room, "record", records.record_text, room.game(),
                                   [s.name for s in room.seats])

    async def summary(self, room: Room) -> bytes:
        return await self.document(room, "summary", records.summary_text, room.game())

    async def replay(self, room: Room) -> bytes:
        return await self.document(room, "replay", records.replay_text, room.game(),
                                   room.shared_text())

    async def seat_record(self, room: Room, seat: int) -> bytes:
        """The record of a game in play as ``seat`` sees it, gzipped (made anew: the game
        goes on)."""
        text: bytes = await self._run(room.owner, room.code, records.encoded,
                                      records.seat_record_text, room.game(),
                                      [s.name for s in room.seats], seat)
        return text

    async def document(self, room: Room, kind: str, fn: Callable[..., str],
                       *args: Any) -> bytes:
        """A finished game's document (UTF-8 JSON, gzipped): kept, or made once by
        ``fn(*args)`` in the lane."""
        key = (room.code, kind)
        kept = self._docs.get(key)
        if kept is not None:
            self._docs.move_to_end(key)
            return kept
        text: bytes = await self._once(key, lambda: self._make(room, kind, fn, *args))
        if key not in self._docs and len(text) <= KEPT_BYTES:
            self._docs[key] = text
            self._bytes += len(text)
            while self._bytes > KEPT_BYTES:
                _, gone = self._docs.popitem(last=False)
                self._bytes -= len(gone)
        return text

    async def _make(self, room: Room, kind: str, fn: Callable[..., str], *args: Any,
                    ) -> bytes:
        text: bytes = await self._run(room.owner, room.code, records.encoded, fn, *args)
        log.info("table %s: made its %s in the archive lane (%d bytes gzipped)", room.code,
                 kind, len(text))
        return text

    async def _run(self, owner: str, table: str, fn: Callable[..., Any], *args: Any) -> Any:
        job = self.lane.submit(owner, table, fn, *args)
        return await job.future

    async def _once(self, key: object, make: Callable[[], Awaitable[Any]]) -> Any:
        """``make()``, once for all who ask for ``key`` while it is being made."""
        making = self._making.get(key)
        if making is None:
            making = self._making[key] = asyncio.ensure_future(make())
            making.add_done_callback(lambda _: self._making.pop(key, None))
        return await asyncio.shield(making)

    def close(self) -> None:
        self.lane.close()
        self._rebuilder.shutdown(wait=True, cancel_futures=True)
