"""What a table is handed to do its work (instead of reaching into the server's hub): the
store and the database's threads, the limits and shared counters, the worker lanes, and
the publisher of this process's presence."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from .counters import Counters
from .limits import Limits
from .store import Store
from .thinking import Thinkers

T = TypeVar("T")


class RunDb(Protocol):
    """Runs a store call on the database's threads, off the event loop."""

    def __call__(self, fn: Callable[..., T], *args: Any) -> Awaitable[T]: ...


@dataclass(frozen=True)
class Services:
    store: Store
    run_db: RunDb
    limits: Limits
    counters: Counters
    #: the bots' and the hints' worker processes
    bot_lane: Thinkers
    hint_lane: Thinkers
    #: tells the other processes that a table's seats connected here changed (its code)
    presence_changed: Callable[[str], None]
    #: the server's pause before a bot's move, and a hint's search time
    bot_delay: float
    hint_seconds: float
