"""``pegs serve``: check the database, then run the app under uvicorn."""

from __future__ import annotations

import contextlib
import gc
import logging
import math
import resource
import sys
from dataclasses import dataclass

import uvicorn

from .app import create_app, default_database_url
from .counters import redis_url
from .embedded import claim_sqlite
from .limits import Limits
from .store import StoreError, migrate, open_engine
from .transport import guarded_http, networks

GC_THRESHOLDS = (20000, 50, 100)
FULL_GC_SECONDS = 300.0

#: TCP connections one address may hold to a process beyond its WebSocket cap (for its
#: HTTP requests meanwhile).
HTTP_SLACK = 16
#: Frames larger than this are refused by the WebSocket layer itself.
WS_MAX_FRAME = 64 * 1024


def upgrade_database(database_url: str | None) -> int:
    """``pegs db upgrade``: run the migrations alone; 2 with a message if that fails."""
    url = database_url or "the data folder"
    try:
        url = database_url or default_database_url()
        engine = open_engine(url)
        migrate(engine)
        engine.dispose()
    except StoreError as e:  # (the driver's details after the first line are left out)
        print(f"pegs: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    except OSError as e:  # the data folder is not writable
        print(f"pegs: cannot use the database at {e.filename or url}: {e.strerror or e}",
              file=sys.stderr)
        return 2
    print("pegs: the database schema is current", file=sys.stderr)
    return 0


@dataclass(frozen=True)
class Bounds:
    """The per-address limits and bounds ``pegs serve`` takes as options (0: no limit)."""

    creates_per_minute: int = 10
    max_waiting: int = 5
    waiting_hours: float = 24.0
    connects_per_minute: int = 120
    shortest_clock: float = 10.0
    hello_seconds: float = 5.0
    request_seconds: float = 30.0
    max_connections: int = 200
    joins_per_minute: int = 20
    lobby_reads_per_minute: int = 60
    max_tables: int = 20
    abandoned_hours: float = 24.0
    forwarded_allow_ips: str = ""
    limits_url: str | None = None
    max_bot_seconds: float | None = None
    min_bot_delay: float = 0.0
    lease_seconds: float = 10.0

    def check(self) -> str | None:
        """What is wrong with these settings, or None."""
        counts = (self.creates_per_minute, self.max_waiting, self.connects_per_minute,
                  self.max_connections, self.joins_per_minute, self.lobby_reads_per_minute,
                  self.max_tables)
        if min(counts) < 0:
            return ("--creates-per-minute, --max-waiting, --connects-per-minute, "
                    "--max-connections, --joins-per-minute, --lobby-reads-per-minute and "
                    "--max-tables-per-address must be 0 (no limit) or more")
        if not (0 < self.waiting_hours < math.inf and 0 < self.abandoned_hours < math.inf):
            return "--waiting-hours and --abandoned-hours must be more than 0 (and finite)"
        if not (0 < self.hello_seconds <= 600 and 0 < self.request_seconds <= 3600):
            return ("--hello-seconds must be more than 0 and at most 600, --request-seconds "
                    "more than 0 and at most 3600")
        if not 1 <= self.shortest_clock <= 3600:
            return "--shortest-clock must be 1 to 3600 seconds"
        if not (self.max_bot_seconds is None or 0 < self.max_bot_seconds <= 60) or not (
                0 <= self.min_bot_delay <= 5):
            return "--max-bot-seconds must be more than 0 and at most 60, --min-bot-delay 0 to 5"
        if not 1 <= self.lease_seconds <= 600:
            return "--lease-seconds must be 1 to 600"
        try:
            networks(self.forwarded_allow_ips)
            if self.limits_url:
                redis_url(self.limits_url)
        except ValueError as e:
            return str(e)
        return None

    def limits(self) -> Limits:
        return Limits(creates_per_minute=self.creates_per_minute,
                      max_waiting_per_address=self.max_waiting,
                      waiting_seconds=self.waiting_hours * 3600,
                      connects_per_minute=self.connects_per_minute,
                      min_timer_seconds=self.shortest_clock, hello_seconds=self.hello_seconds,
                      max_connections=self.max_connections,
                      joins_per_minute=self.joins_per_minute,
                      lobby_reads_per_minute=self.lobby_reads_per_minute,
                      max_live_per_address=self.max_tables,
                      abandoned_seconds=self.abandoned_hours * 3600,
                      limits_url=self.limits_url, max_bot_seconds=self.max_bot_seconds,
                      min_bot_delay=self.min_bot_delay, lease_seconds=self.lease_seconds)


def raise_file_limit() -> None:
    """Let this process open as many files (connections) as the system allows it: the soft
    limit up to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):  # else the soft limit stays
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def serve(host: str, port: int, database_url: str | None, bot_delay: float,
          hint_seconds: float, bounds: Bounds | None = None) -> int:
    """Run the server until interrupted; 2 with a message if a setting or the database is
    unusable."""
    bounds = bounds or Bounds()
    if bot_delay < 0 or hint_seconds <= 0:
        print("pegs: --bot-delay must be 0 or more and --hint-seconds more than 0",
              file=sys.stderr)
        return 2
    problem = bounds.check()
    if problem:
        print(f"pegs: {problem}", file=sys.stderr)
        return 2
    limits = bounds.limits()
    url = database_url or "the data folder"
    try:
        url = database_url or default_database_url()
        engine = open_engine(url)
        held = claim_sqlite(url)  # a second process on this SQLite file is refused
        migrate(engine)
        engine.dispose()
        app = create_app(url, bot_delay=bot_delay, hint_seconds=hint_seconds, limits=limits,
                         full_gc_seconds=FULL_GC_SECONDS)
    except StoreError as e:  # (the driver's details after the first line are left out)
        print(f"pegs: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    except OSError as e:  # the data folder or the SQLite file's folder is not writable
        print(f"pegs: cannot use the database at {e.filename or url}: {e.strerror or e}",
              file=sys.stderr)
        return 2
    if not url.startswith("sqlite") and not bounds.limits_url:
        print("pegs: the per-address limits are counted by this process alone; to count "
              "them across the processes, name a Redis or Valkey server with --limits-url",
              file=sys.stderr)
    raise_file_limit()
    print(f"pegs: serving on http://{host}:{port}/ (API docs at /docs)", file=sys.stderr,
          flush=True)
    # Every action makes thousands of short-lived objects: with the default thresholds the
    # collector ran hundreds of times a minute and its full passes paused all tables for
    # 100-200 ms (the load benchmark's p99).  Collect the young generations rarely, leave
    # what is loaded now out of collections, and do a full collection every few minutes.
    gc.set_threshold(*GC_THRESHOLDS)
    gc.freeze()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    proxies = networks(bounds.forwarded_allow_ips)
    tcp_cap = bounds.max_connections + HTTP_SLACK if bounds.max_connections else 0
    http = guarded_http(bounds.request_seconds, tcp_cap, proxies)
    uvicorn.run(app, host=host, port=port, http=http, ws_max_size=WS_MAX_FRAME,
                log_level="warning", ws_ping_interval=20, ws_ping_timeout=20,
                ws_per_message_deflate=False,  # compressing costs more CPU than it saves
                proxy_headers=bool(proxies),
                forwarded_allow_ips=[str(n) for n in proxies] or None)
    if held is not None:
        held.release()
    return 0
