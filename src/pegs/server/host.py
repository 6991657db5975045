"""What the server's background loops (leases, listening, presence) need of the process
that holds the live tables: a protocol the hub fulfils, so they never import it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from .rooms import Room
from .store import Store

T = TypeVar("T")


class TableHost(Protocol):
    store: Store
    rooms: dict[str, Room]
    listening: asyncio.Event
    #: when the leases were last renewed (time.monotonic)
    renewed: float
    #: why this process may not write now (schema contracted, writes refused), or None
    refusal: str | None

    async def run_db(self, fn: Callable[..., T], *args: Any) -> T: ...

    async def room(self, code: str) -> Room: ...
