"""``pegs serve``: check the database, then run the app under uvicorn."""

from __future__ import annotations

import contextlib
import gc
import logging
import math
import resource
import sys

import uvicorn

from .app import create_app, default_database_url
from .counters import redis_url, unreachable
from .database import migrate, open_engine
from .embedded import claim_sqlite
from .limits import Limits
from .reach import announcement, listen_problem
from .store_errors import StoreError
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


def problem(limits: Limits) -> str | None:
    """What is wrong with these settings, named by ``pegs serve``'s options, or None."""
    counts = (limits.creates_per_minute, limits.max_waiting_per_address,
              limits.connects_per_minute, limits.max_connections, limits.joins_per_minute,
              limits.lobby_reads_per_minute, limits.max_live_per_address)
    if min(counts) < 0:
        return ("--creates-per-minute, --max-waiting, --connects-per-minute, "
                "--max-connections, --joins-per-minute, --lobby-reads-per-minute and "
                "--max-tables-per-address must be 0 (no limit) or more")
    if not (0 < limits.waiting_seconds < math.inf and 0 < limits.abandoned_seconds < math.inf):
        return "--waiting-hours and --abandoned-hours must be more than 0 (and finite)"
    if not (0 < limits.hello_seconds <= 600 and 0 < limits.request_seconds <= 3600):
        return ("--hello-seconds must be more than 0 and at most 600, --request-seconds "
                "more than 0 and at most 3600")
    if not 1 <= limits.min_timer_seconds <= 3600:
        return "--shortest-clock must be 1 to 3600 seconds"
    if not (limits.max_bot_seconds is None or 0 < limits.max_bot_seconds <= 60) or not (
            0 <= limits.min_bot_delay <= 5):
        return "--max-bot-seconds must be more than 0 and at most 60, --min-bot-delay 0 to 5"
    if not 1 <= limits.lease_seconds <= 600:
        return "--lease-seconds must be 1 to 600"
    try:
        networks(limits.forwarded_allow_ips)
        if limits.limits_url:
            redis_url(limits.limits_url)
    except ValueError as e:
        return str(e)
    return None


def raise_file_limit() -> None:
    """Let this process open as many files (connections) as the system allows it: the soft
    limit up to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):  # else the soft limit stays
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def serve(host: str, port: int, database_url: str | None, bot_delay: float,
          hint_seconds: float, limits: Limits | None = None) -> int:
    """Run the server until interrupted; 2 with a message if a setting or the database is
    unusable."""
    limits = limits or Limits()
    if bot_delay < 0 or hint_seconds <= 0:
        print("pegs: --bot-delay must be 0 or more and --hint-seconds more than 0",
              file=sys.stderr)
        return 2
    wrong = problem(limits)
    if wrong:
        print(f"pegs: {wrong}", file=sys.stderr)
        return 2
    wrong = listen_problem(host, port)  # before anything starts (uvicorn's error is long)
    if wrong:
        print(f"pegs: {wrong}", file=sys.stderr)
        return 2
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
    down = unreachable(limits.limits_url) if limits.limits_url else None
    if down:  # the limits fail open (docs/DEPLOY.md): a warning, not a refusal
        print(f"pegs: warning: the limits server {limits.limits_url} does not answer "
              f"({down}); until it does, requests are let through without the per-address "
              "limits", file=sys.stderr)
    if not url.startswith("sqlite") and not limits.limits_url:
        print("pegs: the per-address limits are counted by this process alone; to count "
              "them across the processes, name a Redis or Valkey server with --limits-url",
              file=sys.stderr)
    raise_file_limit()
    print(announcement(host, port), file=sys.stderr, flush=True)
    # Every action makes thousands of short-lived objects: with the default thresholds the
    # collector ran hundreds of times a minute and its full passes paused all tables for
    # 100-200 ms (the load benchmark's p99).  Collect the young generations rarely, leave
    # what is loaded now out of collections, and do a full collection every few minutes.
    gc.set_threshold(*GC_THRESHOLDS)
    gc.freeze()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    proxies = networks(limits.forwarded_allow_ips)
    tcp_cap = limits.max_connections + HTTP_SLACK if limits.max_connections else 0
    http = guarded_http(limits.request_seconds, tcp_cap, proxies, limits.max_head_bytes)
    uvicorn.run(app, host=host, port=port, http=http, ws_max_size=WS_MAX_FRAME,
                log_level="warning", ws_ping_interval=20, ws_ping_timeout=20,
                ws_per_message_deflate=False,  # compressing costs more CPU than it saves
                proxy_headers=bool(proxies),
                forwarded_allow_ips=[str(n) for n in proxies] or None)
    if held is not None:
        held.release()
    return 0
