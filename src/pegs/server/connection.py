"""One client's WebSocket as a table sees it: its seat, its outbox and its message ids."""

from __future__ import annotations

import asyncio

from .limits import Limits, RateBucket

#: Message ids a connection remembers to refuse a message sent twice.
SEEN_KEPT = 1024


class Connection:
    """One client's WebSocket: its seat and address, an outbox drained by a sender task,
    the ids it used lately and its hints being searched."""

    def __init__(self, seat: int, limits: Limits, address: str = "") -> None:
        self.seat = seat
        self.address = address
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(limits.outbox_size)
        self.illegal = RateBucket(limits.illegal_per_second, limits.illegal_burst)
        self.chat = RateBucket(limits.chat_per_second, limits.chat_burst)
        self.seen: dict[object, None] = {}  # the latest SEEN_KEPT ids, oldest first
        self.tasks: set[asyncio.Task[None]] = set()
        self.closed = False

    def saw(self, msg_id: object) -> bool:
        """Whether ``msg_id`` was used lately; it is now (the oldest is forgotten)."""
        if msg_id in self.seen:
            return True
        self.seen[msg_id] = None
        if len(self.seen) > SEEN_KEPT:
            del self.seen[next(iter(self.seen))]
        return False

    def send(self, text: str) -> None:
        """Queue a message; a client too slow to keep up is cut off."""
        if self.closed:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)

    def finish(self, text: str) -> None:
        """Send a last message, then close."""
        if not self.closed:
            try:
                self.outbox.put_nowait(text)
                self.outbox.put_nowait(None)
                self.closed = True
            except asyncio.QueueFull:
                self.close()
