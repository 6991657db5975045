"""Calls to the shared limits server (Redis or Valkey) that never stall a request: each
call is bounded by a short timeout; after a failure the server is left alone for a
cool-down (callers let their requests through uncounted), then one call tries it again.
Logged once when it stops answering and once when it answers again."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from limits.errors import StorageError
from redis.exceptions import RedisError

log = logging.getLogger("pegs.server")
T = TypeVar("T")

#: The longest one call to the limits server may take (connecting included).
CALL_SECONDS = 0.1
#: How long the limits server is left alone after a failed call.
COOL_DOWN_SECONDS = 5.0
#: What a call to the limits server raises when it cannot be reached or does not answer.
FAILURES = (StorageError, RedisError, OSError, TimeoutError)


class Skipped(Exception):
    """The limits server was not asked (it is cooling down) or did not answer in time:
    the caller goes on without it."""


class Breaker:
    """Guards the calls to one limits server (``timeout`` None: an in-memory store, called
    as it is)."""

    def __init__(self, where: str, timeout: float | None = CALL_SECONDS,
                 cool_down: float = COOL_DOWN_SECONDS) -> None:
        self.where = where
        self.timeout = timeout
        self.cool_down = cool_down
        #: while ``time.monotonic()`` is before this, calls are skipped
        self.resume_at = -math.inf
        #: the last call failed (the next one after the cool-down is a probe)
        self.failing = False

    async def call(self, fn: Callable[..., Awaitable[T]], *args: object) -> T:
        """``fn(*args)`` within the timeout, or :class:`Skipped`."""
        if self.timeout is None:
            return await fn(*args)
        now = time.monotonic()
        if now < self.resume_at:
            raise Skipped(f"the limits server is cooling down for {self.resume_at - now:.1f} s")
        if self.failing:  # this call probes; the others meanwhile keep going without it
            self.resume_at = now + self.cool_down
        try:
            result = await asyncio.wait_for(fn(*args), self.timeout)
        except FAILURES as e:
            self.resume_at = time.monotonic() + self.cool_down
            if not self.failing:
                self.failing = True
                log.warning("the limits server %s failed or did not answer within %g s (%s): "
                            "requests are let through without the per-address limits; "
                            "trying it again every %g s", self.where, self.timeout,
                            str(e) or type(e).__name__, self.cool_down)
            raise Skipped(str(e) or type(e).__name__) from e
        if self.failing:
            self.failing = False
            self.resume_at = -math.inf
            log.warning("the limits server %s answers again: the per-address limits are "
                        "counted again", self.where)
        return result
