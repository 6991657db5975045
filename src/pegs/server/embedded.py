"""SQLite is the embedded, one-process database: a lock file beside it keeps a second
``pegs serve`` off the same file (an OS lock, so a killed process leaves none behind)."""

from __future__ import annotations

from filelock import FileLock, Timeout
from sqlalchemy.engine import make_url

from .store_errors import StoreError


def claim_sqlite(url: str) -> FileLock | None:
    """Hold the lock of the SQLite file at ``url`` for this process (None for another kind
    of database); :class:`StoreError` naming PostgreSQL if another process holds it."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    lock = FileLock(f"{parsed.database}.lock", timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise StoreError(
            f"another pegs serve is using {parsed.database}: SQLite serves one process; "
            "to run several, give them all one PostgreSQL database (--database-url "
            "postgresql+psycopg://...)") from None
    return lock
