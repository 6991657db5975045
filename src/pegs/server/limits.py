"""Guards for clients: message size, message rate, per-address rates, secret codes and
tokens."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """Per-connection limits and the server's bounds (``pegs serve`` takes most of them as
    options, see ``pegs.cli``; :func:`pegs.server.serve.problem` checks them)."""

    max_message_bytes: int = 4096
    max_body_bytes: int = 65536
    messages_per_second: float = 20.0
    burst: int = 40
    hello_seconds: float = 5.0  # a WebSocket that says no hello by then is closed
    max_tables: int = 10000
    max_spectators: int = 50  # watching connections per table
    max_seat_connections: int = 4  # connections per seat (tabs, devices)
    outbox_size: int = 256
    creates_per_minute: int = 10  # new tables per client address (0: no limit)
    max_waiting_per_address: int = 5  # waiting tables one address created (0: no cap)
    waiting_seconds: float = 24 * 3600.0  # a table nobody starts is removed after this
    connects_per_minute: int = 120  # WebSocket connects per client address (0: no limit)
    min_timer_seconds: float = 10.0  # the shortest turn and away clocks a table may have
    max_connections: int = 200  # open connections of one client address (0: no cap)
    joins_per_minute: int = 20  # seats taken per client address (0: no limit)
    lobby_reads_per_minute: int = 60  # table lists and house rules per address (0: no limit)
    record_reads_per_minute: int = 120  # records, summaries, replays, logs, chat per address
    page_reads_per_minute: int = 1200  # the page's files, health, 404s per address
    fixed_reads_per_minute: int = 120  # presets and cue cards per address
    table_reads_per_minute: int = 300  # one table's JSON per address
    table_changes_per_minute: int = 60  # bots, start, leave, seats, play again per address
    house_saves_per_minute: int = 10  # house rules saved, changed or deleted per address
    max_live_per_address: int = 20  # unfinished tables one address created (0: no cap)
    abandoned_seconds: float = 24 * 3600.0  # a started table nobody visits is ended after
    limits_url: str | None = None  # the Redis/Valkey server the processes count in
    illegal_per_second: float = 2.0  # illegal acts a connection may send (then it is closed)
    illegal_burst: int = 6
    max_bot_seconds: float | None = None  # the longest a bot searches a move (None: no cap)
    min_bot_delay: float = 0.0  # the shortest pause before a bot's move, whatever the table
    chat_burst: int = 5  # chat messages a connection may send at once ...
    chat_per_second: float = 0.5  # ... and then this many a second (5 in 10 s)
    chat_per_minute: int = 30  # chat of one address at one table (all its connections)
    table_chat_per_minute: int = 120  # chat of one table, everyone together
    chat_kept: int = 500  # a table keeps its latest so many chat messages ...
    chat_days: float = 30.0  # ... of at most this age
    max_head_bytes: int = 16384  # an HTTP request's head (request line and headers)
    lease_seconds: float = 10.0  # (PostgreSQL) a table's owner renews its lease within this
    request_seconds: float = 30.0  # an HTTP request's head and body arrive within this
    forwarded_allow_ips: str = ""  # the proxies whose X-Forwarded-For names the client


class RateBucket:
    """A token bucket: ``burst`` messages at once, refilled at ``rate`` per second."""

    __slots__ = ("burst", "last", "level", "rate")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.level = float(burst)
        self.last = time.monotonic()

    def take(self) -> bool:
        """Spend one message; False when the client is over its rate."""
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.last) * self.rate)
        self.last = now
        if self.level < 1.0:
            return False
        self.level -= 1.0
        return True


def new_code() -> str:
    """An unguessable table code (12 URL-safe characters, 72 random bits)."""
    return secrets.token_urlsafe(9)


def new_token() -> str:
    """A seat token (43 URL-safe characters, 256 random bits)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256, so a stolen database holds no seat."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    if stored is None:
        hmac.compare_digest("x" * 64, token_hash(token))
        return False
    return hmac.compare_digest(stored, token_hash(token))
