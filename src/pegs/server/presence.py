"""Presence across processes (several on one PostgreSQL database): each process says on
the tables' channel which seats of a table have connections to it, at once when that
changes and every few seconds anyway; the others keep what each process last said
(``Room.heard``) and forget a process that went quiet (one that died), so every process
shows the same seats connected and sends its clients the same ``presence`` messages."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .host import TableHost

log = logging.getLogger("pegs.server")

#: How often a process repeats which seats are connected to it, and how long the others
#: keep what it said, as shares of a table lease's time (10 s: every 2 s, kept 5 s; a lost
#: repeat forgets nobody; a dead process's seats are gone after at most the sum).
REPEAT_SHARE = 0.2
PRESENCE_SHARE = 0.5


class Presence:
    """This process's word on its connections, sent by one task (so the latest is said
    last), each table's as it is when it is sent."""

    def __init__(self, hub: TableHost) -> None:
        self.hub = hub
        self._changed: set[str] = set()
        self._sender: asyncio.Task[None] | None = None
        self._repeater: asyncio.Task[None] | None = None
        #: only on PostgreSQL, and not once the server stops
        self._on = hub.store.shared

    def start(self) -> None:
        if self._on:
            self._repeater = asyncio.create_task(self._repeat())

    def close(self) -> None:
        self._on = False
        for task in (self._sender, self._repeater):
            if task is not None:
                task.cancel()

    def changed(self, code: str) -> None:
        """A seat of table ``code`` got its first connection here, or lost its last: tell
        the other processes soon (changes meanwhile go out together)."""
        if self._on:
            self._changed.add(code)
            self._send()

    def _send(self) -> None:
        if self._changed and (self._sender is None or self._sender.done()):
            self._sender = asyncio.create_task(self._send_changes())

    async def _send_changes(self) -> None:
        while self._changed:
            codes, self._changed = self._changed, set()
            present = [(code, room.here()) for code in codes
                       if (room := self.hub.rooms.get(code)) is not None]
            try:
                await self.hub.run_db(self.hub.store.announce_presence, present)
            except Exception:
                log.warning("cannot tell the other servers who is connected here",
                            exc_info=True)

    async def _repeat(self) -> None:
        """Forever: say again which seats are connected here; forget quiet processes."""
        lease = self.hub.store.lease_seconds
        while True:
            await asyncio.sleep(lease * REPEAT_SHARE)
            for room in list(self.hub.rooms.values()):
                if room.here():
                    self._changed.add(room.code)
                try:
                    room.expire_presence(lease * PRESENCE_SHARE)
                except Exception:
                    log.exception("table %s: cannot update its presence", room.code)
            self._send()
