"""Waiting before trying again after a database failure: doubling pauses up to a cap, back
to the shortest after a success."""

from __future__ import annotations

import asyncio


class Backoff:
    """Pauses of ``first``, 2 x ``first``, ... up to ``most`` seconds between failures."""

    def __init__(self, first: float = 0.25, most: float = 4.0) -> None:
        self.first = first
        self.most = most
        self.pause = first

    def succeeded(self) -> None:
        self.pause = self.first

    async def wait(self) -> None:
        """Wait the current pause, and double the next one (up to the cap)."""
        await asyncio.sleep(self.pause)
        self.pause = min(self.pause * 2, self.most)
