"""Opening the database and bringing its schema to this release (the Alembic scripts in
``migrations/``), and whether this release can run on a database's schema."""

from __future__ import annotations

import functools
import logging
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import ConnectionPoolEntry

from .schema import schema
from .store_errors import StoreError

log = logging.getLogger("pegs.server")

#: SQLite: how long a statement waits for a lock.
BUSY_TIMEOUT_MS = 5000
#: SQLite's write-ahead log is emptied once it is over this size.
WAL_BYTES = 4 * 1024 * 1024
#: PostgreSQL: how long opening a connection may take before it counts as failed.
CONNECT_TIMEOUT_SECONDS = 5

MIGRATIONS = Path(__file__).with_name("migrations")
#: The PostgreSQL advisory lock held while migrating (several processes may start at once).
MIGRATION_LOCK = 0x7065677301


def _sqlite_pragmas(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # commits survive a killed process
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA wal_autocheckpoint=0")  # the server checkpoints on another thread
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute(f"PRAGMA journal_size_limit={WAL_BYTES}")  # a log reset also shrinks it
    cursor.close()


def open_engine(url: str) -> Engine:
    """An engine for ``url`` (SQLite files get WAL journaling); :class:`StoreError` if bad."""
    try:
        parsed = make_url(url)
    except ArgumentError as e:
        raise StoreError(f"{url!r} is not a database URL: {e}") from e
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            folder = Path(parsed.database).parent
            if not folder.is_dir():
                raise StoreError(f"no such folder for the database: {folder}")
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    try:  # a database that stops answering fails a connect in seconds, not never
        return create_engine(url, pool_pre_ping=True,
                             connect_args={"connect_timeout": CONNECT_TIMEOUT_SECONDS})
    except Exception as e:  # a missing driver or a bad option
        raise StoreError(f"cannot use database {parsed.render_as_string()}: {e}") from e


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@functools.cache
def _revisions() -> tuple[str, frozenset[str]]:
    """This release's newest migration and every migration it knows."""
    script = ScriptDirectory.from_config(_alembic_config())
    head = script.get_current_head()
    assert head is not None
    return head, frozenset(r.revision for r in script.walk_revisions())


def incompatibility(c: Connection) -> str | None:
    """Why this release cannot run on the database's schema, or None if it can: the schema
    is at this release's newest migration, or at a newer one (of a later release) whose
    ``compatible_from`` names a migration this release has (the later migrations only
    added)."""
    head, known = _revisions()
    current = MigrationContext.configure(c).get_current_revision()
    if current == head:
        return None
    if current is None or current in known:
        return f"the schema is at {current or 'nothing'}, older than this release's {head}"
    oldest = c.execute(select(schema.c.compatible_from)).scalar()
    if oldest in known:
        return None
    return (f"the schema is at {current}, newer than this release's {head}, and needs a "
            f"release from migration {oldest} on")


def compatible(engine: Engine) -> bool:
    """Whether the database answers and this release can run on its schema."""
    try:
        with engine.connect() as c:
            return incompatibility(c) is None
    except Exception:
        return False


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (Alembic, configured here, no ini file).
    On PostgreSQL the upgrade holds an advisory lock to its commit, so of several processes
    starting together one migrates and the others then find the schema current. A schema
    a later release already expanded is left as it is when this release can run on it (a
    rollback), and refused when it cannot."""
    config = _alembic_config()
    _head, known = _revisions()
    try:
        with engine.begin() as connection:
            if engine.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                   {"key": MIGRATION_LOCK})
            current = MigrationContext.configure(connection).get_current_revision()
            if current is not None and current not in known:
                problem = incompatibility(connection)
                if problem is not None:
                    raise StoreError(problem)
                log.info("the schema is at %s, from a later release that only added to it",
                         current)
                return
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    except StoreError as e:
        raise StoreError(f"cannot use the database: {e}") from e
    except Exception as e:
        raise StoreError(f"cannot open the database: {e}") from e
