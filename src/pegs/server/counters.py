"""Per-address counts that every process of a service shares: rates (the ``limits``
library's moving windows) and open connections (entries each process renews, so a crashed
process's connections lapse by themselves).  They live in this process's memory, or in the
Redis (or Valkey) server that ``pegs serve --limits-url`` names."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import time
import uuid
from collections import Counter
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from limits import RateLimitItemPerMinute
from limits.aio.storage import MemoryStorage, RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from .breaker import CALL_SECONDS, FAILURES, Breaker, Skipped
from .doors import BUDGETS

if TYPE_CHECKING:
    from .limits import Limits


#: How long a process's open-connection entries last unless it renews them.
OPEN_LEASE_SECONDS = 30
#: Keys in the shared server start with this.
PREFIX = "pegs"

# Drops the lapsed entries, then adds one if fewer than the cap remain (the server's clock).
_ACQUIRE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1e6
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])) + 1)
return 1
"""
# Pushes back the lapse of this process's entries (KEYS: their keys, ARGV: lease, members).
_RENEW = """
local t = redis.call('TIME')
local lapse = tonumber(t[1]) + tonumber(t[2]) / 1e6 + tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', lapse, ARGV[i + 1])
  redis.call('EXPIRE', key, math.ceil(tonumber(ARGV[1])) + 1)
end
return #KEYS
"""


def redis_url(url: str) -> str:
    """``url`` if it names a Redis or Valkey server (redis://, rediss://, unix://), else
    ValueError."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError("--limits-url takes redis://HOST:PORT/DB (Redis or Valkey), "
                         "rediss:// or unix://PATH")
    return url


#: Seconds ``pegs serve`` waits at start for the limits server to answer.
REACH_SECONDS = 2.0


def unreachable(url: str, timeout: float = REACH_SECONDS) -> str | None:
    """Why the Redis or Valkey server at ``url`` does not answer a PING within
    ``timeout`` seconds, or None when it does."""
    from redis import Redis as Client

    try:
        client = Client.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        try:
            client.ping()
        finally:
            client.close()
    except (RedisError, OSError, ValueError) as e:
        return str(e) or type(e).__name__
    return None


def _client_options() -> dict[str, Any]:
    """A Redis client's options: short timeouts and no retries (a failed call is the
    breaker's to handle, see :mod:`.breaker`)."""
    return {"socket_timeout": CALL_SECONDS, "socket_connect_timeout": CALL_SECONDS,
            "retry": Retry(NoBackoff(), 0)}


def shown(url: str) -> str:
    """The limits server's address for the log (no password)."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return f"unix://{parts.path}"
    return f"{parts.scheme}://{parts.hostname}:{parts.port or 6379}"


def _limits_scheme(url: str) -> str:
    """The ``limits`` library's name of the Redis server at ``url``."""
    if url.startswith("unix://"):
        return "async+redis+unix://" + url.removeprefix("unix://")
    return "async+" + url


class Rate:
    """At most ``per_minute`` events per address in any minute; 0 lets everything through.
    When the shared server cannot be reached or does not answer at once the event is let
    through (see :mod:`.breaker`)."""

    def __init__(self, name: str, per_minute: int, limiter: MovingWindowRateLimiter,
                 breaker: Breaker) -> None:
        self.name = name
        self.per_minute = per_minute
        self._item = RateLimitItemPerMinute(max(per_minute, 1), namespace=PREFIX)
        self._limiter = limiter
        self._breaker = breaker

    async def hit(self, address: str) -> bool:
        """Count one event of ``address``; False (and not counted) when it is over."""
        if self.per_minute <= 0:
            return True
        try:
            return await self._breaker.call(self._limiter.hit, self._item, self.name, address)
        except Skipped:
            return True

    async def retry_after(self, address: str) -> int:
        """Whole seconds until ``address`` may have one more event."""
        try:
            stats = await self._breaker.call(self._limiter.get_window_stats, self._item,
                                             self.name, address)
        except Skipped:
            return 1
        return max(1, math.ceil(stats.reset_time - time.time()))


class Open:
    """Open connections per key (an address, a table's seat), each under a cap."""

    def __init__(self) -> None:
        self.held: Counter[str] = Counter()

    async def acquire(self, key: str, cap: int) -> str | None:
        """A ticket for one more connection under ``key``, or None when ``cap`` are open
        (a cap of 0: no cap)."""
        if cap and self.held[key] >= cap:
            return None
        self.held[key] += 1
        return key

    async def release(self, ticket: str) -> None:
        self.held[ticket] -= 1
        if self.held[ticket] <= 0:
            del self.held[ticket]

    async def start(self) -> None:
        """Begin renewing (nothing to renew in memory)."""

    async def close(self) -> None:
        """Stop renewing."""


class SharedOpen(Open):
    """:class:`Open` kept in Redis: a sorted set per key whose entries lapse
    ``OPEN_LEASE_SECONDS`` after their process last renewed them."""

    def __init__(self, url: str, lease: float = OPEN_LEASE_SECONDS,
                 breaker: Breaker | None = None) -> None:
        super().__init__()
        self.lease = lease
        self._breaker = breaker or Breaker(shown(url))
        self._redis: Redis = Redis.from_url(url, **_client_options())
        self._acquire = self._redis.register_script(_ACQUIRE)
        self._renew = self._redis.register_script(_RENEW)
        self._origin = uuid.uuid4().hex[:12]
        self._numbers = itertools.count()
        self._tickets: dict[str, str] = {}  # ticket -> its key
        self._local: set[str] = set()  # let through while the server was unreachable
        self._renewer: asyncio.Task[None] | None = None

    async def acquire(self, key: str, cap: int) -> str | None:
        ticket = f"{self._origin}:{next(self._numbers)}"
        if not cap:
            return ticket
        try:
            taken = await self._breaker.call(self._acquire, [f"{PREFIX}:open:{key}"],
                                             [cap, self.lease, ticket])
        except Skipped:
            self._local.add(ticket)
            return ticket
        if not taken:
            return None
        self._tickets[ticket] = key
        return ticket

    async def release(self, ticket: str) -> None:
        self._local.discard(ticket)
        key = self._tickets.pop(ticket, None)
        if key is not None:
            with contextlib.suppress(Skipped):  # it lapses anyway
                await self._breaker.call(self._redis.zrem, f"{PREFIX}:open:{key}", ticket)

    async def renew(self) -> None:
        """Push back the lapse of every entry this process holds."""
        held = list(self._tickets.items())
        for start in range(0, len(held), 500):
            chunk = held[start:start + 500]
            keys = [f"{PREFIX}:open:{key}" for _, key in chunk]
            await self._breaker.call(self._renew, keys, [self.lease] + [t for t, _ in chunk])

    async def _renewing(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            with contextlib.suppress(Skipped):  # (the breaker logs it) the next one renews
                await self.renew()

    async def start(self) -> None:
        self._renewer = asyncio.create_task(self._renewing())

    async def close(self) -> None:
        if self._renewer is not None:
            self._renewer.cancel()
        for ticket in list(self._tickets):
            await self.release(ticket)
        with contextlib.suppress(*FAILURES):
            await self._redis.aclose()


class Counters:
    """The per-address rates and open connections of one server process."""

    def __init__(self, limits: Limits) -> None:
        url = limits.limits_url
        storage = (RedisStorage(_limits_scheme(url), implementation="redispy",
                                wrap_exceptions=True, **_client_options())
                   if url else MemoryStorage())
        limiter = MovingWindowRateLimiter(storage)
        #: the calls to the shared server, bounded (one breaker: a server that does not
        #: answer one call is left alone by all of them)
        self.breaker = Breaker(shown(url)) if url else Breaker("memory", timeout=None)

        def rate(name: str, per_minute: int) -> Rate:
            return Rate(name, per_minute, limiter, self.breaker)

        #: each HTTP route's budget (see doors), and the WebSocket connects
        self.doors = {name: rate(name, getattr(limits, budget.field))
                      for name, budget in BUDGETS.items()}
        self.connects = rate("connects", limits.connects_per_minute)
        #: tables created (through a create, or a rematch that counts as one)
        self.creates = self.doors["creates"]
        #: chat of one address at one table, and of a whole table
        self.chat = rate("chat", limits.chat_per_minute)
        self.table_chat = rate("table chat", limits.table_chat_per_minute)
        #: open WebSocket connections per address, per seat, and spectators per table
        self.open: Open = SharedOpen(url, breaker=self.breaker) if url else Open()
