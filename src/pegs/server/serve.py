"""``pegs serve``: check the database, then run the app under uvicorn."""

from __future__ import annotations

import gc
import logging
import sys

import uvicorn

from .app import create_app, default_database_url
from .embedded import claim_sqlite
from .limits import Limits
from .store import StoreError, migrate, open_engine

GC_THRESHOLDS = (20000, 50, 100)
FULL_GC_SECONDS = 300.0

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


def serve(host: str, port: int, database_url: str | None, bot_delay: float,
          hint_seconds: float, *, creates_per_minute: int = 10, max_waiting: int = 5,
          waiting_hours: float = 24.0, connects_per_minute: int = 120,
          shortest_clock: float = 10.0) -> int:
    """Run the server until interrupted; 2 with a message if a setting or the database is
    unusable."""
    if bot_delay < 0 or hint_seconds <= 0:
        print("pegs: --bot-delay must be 0 or more and --hint-seconds more than 0",
              file=sys.stderr)
        return 2
    if (creates_per_minute < 0 or max_waiting < 0 or connects_per_minute < 0
            or not waiting_hours > 0):
        print("pegs: --creates-per-minute, --max-waiting and --connects-per-minute must be 0 "
              "(no limit) or more, --waiting-hours more than 0", file=sys.stderr)
        return 2
    if not 1 <= shortest_clock <= 3600:
        print("pegs: --shortest-clock must be 1 to 3600 seconds", file=sys.stderr)
        return 2
    limits = Limits(creates_per_minute=creates_per_minute, max_waiting_per_address=max_waiting,
                    waiting_seconds=waiting_hours * 3600,
                    connects_per_minute=connects_per_minute, min_timer_seconds=shortest_clock)
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
    uvicorn.run(app, host=host, port=port, ws_max_size=WS_MAX_FRAME, log_level="warning",
                ws_ping_interval=20, ws_ping_timeout=20,
                ws_per_message_deflate=False)  # compressing costs more CPU than it saves
    if held is not None:
        held.release()
    return 0
