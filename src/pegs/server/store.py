"""The database: tables, seats and the append-only action log (SQLAlchemy Core).

The schema is created and upgraded by the Alembic scripts in ``migrations/``; the
:class:`Store` methods are synchronous and are run off the event loop by the rooms.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import math
import threading
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    OperationalError,
    SQLAlchemyError,
)
from sqlalchemy.pool import ConnectionPoolEntry

log = logging.getLogger("pegs.server")

MIGRATIONS = Path(__file__).with_name("migrations")
#: SQLite: how long a statement waits for a lock, and how long the checkpoint that empties
#: the write-ahead log waits for readers (writers wait behind it meanwhile).
BUSY_TIMEOUT_MS = 5000
TRUNCATE_WAIT_MS = 100
#: SQLite's write-ahead log is emptied once it is over this size.
WAL_BYTES = 4 * 1024 * 1024
#: PostgreSQL: how long opening a connection may take before it counts as failed.
CONNECT_TIMEOUT_SECONDS = 5
#: The PostgreSQL advisory lock held while migrating (several processes may start at once).
MIGRATION_LOCK = 0x7065677301

metadata = MetaData()

tables = Table(
    "pegs_tables", metadata,
    Column("code", String(32), primary_key=True),
    Column("settings", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("hints", Boolean, nullable=False),
    Column("status", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    Column("host", Integer, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("public", Boolean, nullable=False),
    Column("creator", String(64), nullable=True),
    Column("turn_seconds", Float, nullable=True),
    Column("away_seconds", Float, nullable=True),
    Column("bot_delay", Float, nullable=True),
    #: the process that runs the table's bots and clocks, and until when (PostgreSQL)
    Column("owner", String(32), nullable=True),
    Column("lease_until", DateTime(timezone=True), nullable=True),
    #: after the end: the seats that agreed to play again ("0,2") and the rematch's code
    Column("rematch_seats", String(32), nullable=True),
    Column("next_code", String(32), nullable=True),
    #: when the clock of the human seat to act at ``version`` ends (Unix time; null: none)
    Column("turn_ends", Float, nullable=True),
    #: the lease's fencing token: raised whenever a process takes the table, checked by
    #: every write its owner makes on the table's behalf
    Column("epoch", Integer, nullable=False, server_default="0"),
    #: table talk: a teaching table (team channel, suggestions), and the seats the host
    #: muted as JSON (-1: spectators, who may not write unless the host lets them)
    Column("teaching", Boolean, nullable=False),
    Column("muted", Text, nullable=False),
    #: a table of house rules: their title, description and saved code (JSON; null: none)
    Column("house", Text, nullable=True),
)

#: the live server processes (PostgreSQL): each renews its row with its leases
servers = Table(
    "pegs_servers", metadata,
    Column("origin", String(32), primary_key=True),
    Column("seen_until", DateTime(timezone=True), nullable=False),
)

#: one row: the oldest release (its newest migration) that may run on this schema
schema = Table(
    "pegs_schema", metadata,
    Column("compatible_from", String(32), nullable=False),
)

seats = Table(
    "pegs_seats", metadata,
    Column("code", String(32), ForeignKey("pegs_tables.code"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("bot", String(16), nullable=True),
    Column("strength", String(8), nullable=True),
    Column("standin", Boolean, nullable=False),
)

actions = Table(
    "pegs_actions", metadata,
    Column("code", String(32), ForeignKey("pegs_tables.code"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    #: the stand-in's move for a human whose turn clock ran out
    Column("timed_out", Boolean, nullable=True),
)

chat = Table(
    "pegs_chat", metadata,
    Column("code", String(32), ForeignKey("pegs_tables.code"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    #: "table", or "team" plus the team's number ("team0")
    Column("channel", String(8), nullable=False),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("phrase", String(16), nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
)


_BUMP = (update(tables)
         .where(tables.c.code == bindparam("c"), tables.c.version == bindparam("old"))
         .values(version=bindparam("new"), status=bindparam("status"),
                 turn_ends=bindparam("ends")))
#: The owner's append: only while it holds the table's lease at this epoch.
_FENCED_BUMP = _BUMP.where(tables.c.owner == bindparam("me"),
                           tables.c.epoch == bindparam("lease"),
                           tables.c.lease_until > func.now())
_APPEND = insert(actions)
#: The PostgreSQL channel on which every write to a table is announced ("code:version:origin")
CHANNEL = "pegs_tables"
_NOTIFY = text(f"SELECT pg_notify('{CHANNEL}', :payload)")
_NOTIFY_ALL = text(f"SELECT pg_notify('{CHANNEL}', p) FROM unnest(CAST(:payloads AS text[])) p")
#: How long a table's lease holds unless its owner renews it (``pegs serve
#: --lease-seconds``).
LEASE_SECONDS = 10.0
_LIVE = "status IN ('waiting', 'playing')"
_HEARTBEAT = text(
    "INSERT INTO pegs_servers (origin, seen_until) "
    "VALUES (:me, now() + make_interval(secs => :s)) "
    "ON CONFLICT (origin) DO UPDATE SET seen_until = excluded.seen_until")
_COUNTS = text(
    "SELECT (SELECT count(*) FROM pegs_servers WHERE seen_until >= now()), "
    f"(SELECT count(*) FROM pegs_tables WHERE {_LIVE})")
_FORGET_SERVERS = text("DELETE FROM pegs_servers WHERE seen_until < now() - interval '1 hour'")
_RENEW = text(
    "UPDATE pegs_tables SET lease_until = now() + make_interval(secs => :s) "
    f"WHERE owner = :me AND lease_until >= now() AND {_LIVE} RETURNING code, epoch")
_TAKE = text(
    "UPDATE pegs_tables SET owner = :me, lease_until = now() + make_interval(secs => :s), "
    "epoch = epoch + 1 WHERE code IN (SELECT code FROM pegs_tables "
    f"WHERE {_LIVE} AND (owner IS NULL OR lease_until < now()) "
    "ORDER BY (owner = :me) DESC NULLS LAST, code LIMIT :n FOR UPDATE SKIP LOCKED) "
    "RETURNING code, epoch")
_GIVE_UP = text("UPDATE pegs_tables SET lease_until = now() "
                "WHERE owner = :me AND code = ANY(:codes)")
#: Conditional writes of one rematch agreement before it gives up (others keep winning).
AGREEMENT_TRIES = 20
_RELEASE = text("UPDATE pegs_tables SET lease_until = now() WHERE owner = :me")
_LEAVE = text("DELETE FROM pegs_servers WHERE origin = :me")
_LEASE_OF = text("SELECT owner = :me AND epoch = :epoch AND lease_until > now() "
                 "FROM pegs_tables WHERE code = :c")
#: A process holds up to this many tables over its share before it hands some over.
SLACK = 1


class StoreError(RuntimeError):
    """The database cannot be opened or refused a write."""


class VersionConflict(StoreError):
    """An append found the table at another version (another process stored first)."""


class LeaseLost(StoreError):
    """An owner's write found that this process no longer holds the table's lease at its
    epoch (another process took it, or it ran out): nothing was written."""


class Unavailable(StoreError):
    """The database did not answer or failed (a lost connection, a restart): try again."""


class Refused(StoreError):
    """This process may not write: the schema is not one this release can run on (a later
    release contracted it), or the database refuses its writes (read-only, privileges)."""


def refusal(e: SQLAlchemyError) -> bool:
    """Whether the database answered ``e`` as a refusal (not a lost connection)."""
    return (isinstance(e, DBAPIError) and not isinstance(e, OperationalError)
            and not e.connection_invalidated)


@dataclass
class SeatRow:
    """One seat as stored."""

    seat: int
    name: str = ""
    kind: str = "empty"
    token_hash: str | None = None
    bot: str | None = None
    strength: str | None = None
    standin: bool = False

    def values(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "token_hash": self.token_hash,
                "bot": self.bot, "strength": self.strength, "standin": self.standin}


@dataclass
class TableRow:
    """One table as stored, with its seats and its actions in order."""

    code: str
    settings: dict[str, Any]
    seed: int
    hints: bool
    status: str
    version: int
    host: int
    seats: list[SeatRow]
    actions: list[str] = field(default_factory=list)
    #: listed by ``GET /api/tables`` (only while waiting with a free seat)
    public: bool = False
    #: the creator's client address (for the per-address cap on waiting tables)
    creator: str | None = None
    created: datetime | None = None
    #: seconds a human has for a turn before the stand-in bot plays it (None: no timer)
    turn_seconds: float | None = 120.0
    #: seconds a seat may have no connection before a stand-in bot covers it (None: never)
    away_seconds: float | None = 120.0
    #: the bots' pause before a move at this table (None: the server's ``--bot-delay``)
    bot_delay: float | None = None
    #: after the end: the seats that agreed to play again, and the rematch's code
    rematch: list[int] = field(default_factory=list)
    next: str | None = None
    #: when the clock of the seat to act at ``version`` ends (Unix time), or None
    turn_ends: float | None = None
    #: the versions (of ``actions``) that were a timed-out turn's stand-in move
    timed_out: set[int] = field(default_factory=set)
    #: a teaching table: a team channel, suggested moves, hints for every seat
    teaching: bool = False
    #: the seats whose chat the host muted (-1: spectators)
    muted: list[int] = field(default_factory=lambda: [-1])
    #: house rules: {"title", "description", "code"} shown with the table (None: none)
    house: dict[str, Any] | None = None
    #: of ``rematch``: the seats another player handed to a stand-in bot for the rematch
    rematch_bots: list[int] = field(default_factory=list)


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


def _seat_list(text: str | None) -> list[int]:
    """Seats stored as "0,2" (a rematch's agreements also as "b1": seat 1 handed to a bot)."""
    return [int(seat.removeprefix("b")) for seat in text.split(",")] if text else []


def _bot_list(text: str | None) -> list[int]:
    """The seats of a rematch's agreements stored as "b1": handed to a stand-in bot."""
    return [int(seat[1:]) for seat in text.split(",") if seat.startswith("b")] if text else []


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive times (stored as UTC)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class Store:
    """The repository: every write is one transaction."""

    def __init__(self, engine: Engine, wal_bytes: int = WAL_BYTES,
                 lease_seconds: float = LEASE_SECONDS) -> None:
        self.engine = engine
        #: (PostgreSQL) how long a table's lease holds unless this process renews it
        self.lease_seconds = lease_seconds
        self._local = threading.local()
        self._writers: list[Connection] = []
        self._writers_lock = threading.Lock()
        #: a SQLite file: one writer at a time, and the server runs its checkpoints
        self.local = engine.dialect.name == "sqlite"
        #: the write-ahead log is emptied when it grows over this
        self.wal_bytes = wal_bytes
        #: PostgreSQL: other processes serve the same tables; each write is announced on
        #: :data:`CHANNEL`, signed with this process's id
        self.shared = engine.dialect.name == "postgresql"
        self.origin = uuid.uuid4().hex[:16]
        self._frames = 0
        self._page: int | None = None

    def conninfo(self) -> str:
        """The database's address for a plain psycopg connection (to listen)."""
        url = self.engine.url.set(drivername="postgresql")
        return url.render_as_string(hide_password=False)

    def _announce(self, c: Connection, code: str, version: int | str = "") -> None:
        """Tell the other processes (on commit) that table ``code`` changed."""
        if self.shared:
            c.execute(_NOTIFY, {"payload": f"{code}:{version}:{self.origin}"})

    def _lease(self) -> dict[str, Any]:
        """A new table's lease: this process's (PostgreSQL)."""
        if not self.shared:
            return {}
        return {"owner": self.origin,
                "lease_until": func.now() + timedelta(seconds=self.lease_seconds)}

    def claim(self) -> dict[str, int]:
        """(PostgreSQL) Say this process is alive, renew its leases and balance: take
        unfinished tables whose lease ran out (or that never had one) up to its share of
        the tables (all of them over the live processes, rounded up), or hand over the
        tables it holds beyond its share (their leases end now, another process takes
        them). The tables it holds then, with their lease epochs.  When it may not write,
        its leases end now (if the database lets it) and :class:`Refused`."""
        me = {"me": self.origin, "s": self.lease_seconds}
        try:
            with self.engine.begin() as c:
                problem = incompatibility(c)
                if problem is None:
                    return self._renew(c, me)
                c.execute(_RELEASE, me)
                c.execute(_LEAVE, me)
        except SQLAlchemyError as e:
            if refusal(e):
                with contextlib.suppress(SQLAlchemyError):
                    self.release()
                raise Refused(f"the database refuses this process's writes: {e}") from e
            raise Unavailable(f"cannot renew leases: {e}") from e
        raise Refused(f"this release cannot run on the database: {problem}")

    def _renew(self, c: Connection, me: dict[str, Any]) -> dict[str, int]:
        c.execute(_HEARTBEAT, me)
        c.execute(_FORGET_SERVERS)
        live, total = c.execute(_COUNTS).one()
        held: dict[str, int] = {code: epoch for code, epoch in c.execute(_RENEW, me)}
        share = math.ceil(total / max(live, 1))
        if len(held) > share + SLACK:
            extra = sorted(held)[share:]
            c.execute(_GIVE_UP, {"me": self.origin, "codes": extra})
            for code in extra:
                del held[code]
        elif len(held) < share:
            for code, epoch in c.execute(_TAKE, {**me, "n": share - len(held)}):
                held[code] = epoch
        return held

    def announce_presence(self, present: list[tuple[str, list[int]]]) -> None:
        """(PostgreSQL) Tell the other processes which seats of which tables have
        connections to this one ("code:@seat,seat:origin")."""
        payloads = [f"{code}:@{','.join(map(str, seated))}:{self.origin}"
                    for code, seated in present]
        if payloads:
            with self.engine.begin() as c:  # one statement, however many tables
                c.execute(_NOTIFY_ALL, {"payloads": payloads})

    def release(self) -> None:
        """(PostgreSQL) End this process's leases now (it is stopping)."""
        with self.engine.begin() as c:
            c.execute(_RELEASE, {"me": self.origin})
            c.execute(_LEAVE, {"me": self.origin})

    def create(self, row: TableRow) -> None:
        """Store a new table (``row.created`` is set to now if it has no time yet)."""
        with self.engine.begin() as c:
            self._insert(c, row)

    def _insert(self, c: Connection, row: TableRow) -> None:
        row.created = row.created or _now()
        c.execute(insert(tables).values(
            code=row.code, settings=json.dumps(row.settings), seed=row.seed,
            hints=row.hints, status=row.status, version=row.version, host=row.host,
            created=row.created, public=row.public, creator=row.creator,
            turn_seconds=row.turn_seconds, away_seconds=row.away_seconds,
            bot_delay=row.bot_delay, teaching=row.teaching, muted=json.dumps(row.muted),
            house=json.dumps(row.house) if row.house else None,
            **self._lease(),
        ))
        if row.seats:
            c.execute(insert(seats), [{"code": row.code, "seat": s.seat, **s.values()}
                                      for s in row.seats])

    def agree_rematch(self, code: str, seat: int, humans: list[int],
                      fresh: TableRow, bot: bool = False) -> tuple[list[int], str | None]:
        """Store ``seat``'s agreement to play table ``code`` again (with ``bot``: another
        player handed the seat to a stand-in bot for the rematch); the agreement that
        completes ``humans`` also stores ``fresh`` (the rematch, this process's lease) and
        its code as the old table's ``next_code``, in the same transaction.  A conditional
        write (on the agreements read and no ``next_code`` yet) makes racing agreements
        through any processes make one rematch.  Answers the agreements and ``next``."""
        for _ in range(AGREEMENT_TRIES):
            with self.engine.begin() as c:
                found = c.execute(select(tables.c.rematch_seats, tables.c.next_code)
                                  .where(tables.c.code == code)).one_or_none()
                if found is None:
                    raise StoreError(f"there is no table {code}")
                before = _seat_list(found.rematch_seats)
                agreed = sorted({*before, seat})
                if found.next_code is not None or agreed == before:
                    return before, found.next_code
                nxt = fresh.code if set(humans) <= set(agreed) else None
                bots = {*_bot_list(found.rematch_seats), *([seat] if bot else [])}
                stored = ",".join(f"b{q}" if q in bots else str(q) for q in agreed)
                done = c.execute(update(tables).where(
                    tables.c.code == code, tables.c.next_code.is_(None),
                    tables.c.rematch_seats.is_not_distinct_from(found.rematch_seats))
                    .values(rematch_seats=stored, next_code=nxt))
                if done.rowcount != 1:
                    continue  # another agreement was stored meanwhile: read again
                if nxt is not None:
                    self._insert(c, fresh)
                self._announce(c, code)
                return agreed, nxt
        raise StoreError(f"table {code}: the agreement kept meeting others; try again")

    def set_turn_ends(self, code: str, version: int, ends: float | None,
                      epoch: int | None = None) -> None:
        """Store when the turn clock at ``version`` ends (nothing if the table moved on, or,
        with ``epoch``, if this process no longer holds the table's lease at that epoch)."""
        query = update(tables).where(tables.c.code == code, tables.c.version == version)
        if epoch is not None:
            query = query.where(tables.c.owner == self.origin, tables.c.epoch == epoch,
                                tables.c.lease_until > func.now())
        try:
            with self.engine.begin() as c:
                if c.execute(query.values(turn_ends=ends)).rowcount == 1:
                    self._announce(c, code)
        except SQLAlchemyError as e:
            raise Unavailable(f"cannot store the turn clock of table {code}: {e}") from e

    def open_tables(self, limit: int, offset: int) -> tuple[list[TableRow], int]:
        """A page of the public tables waiting with a free seat, newest first, and how
        many there are."""
        empty = select(seats.c.seat).where(seats.c.code == tables.c.code,
                                           seats.c.kind == "empty").exists()
        listed = (tables.c.public.is_(True), tables.c.status == "waiting", empty)
        try:
            with self.engine.connect() as c:
                total = c.execute(select(func.count()).select_from(tables)
                                  .where(*listed)).scalar_one()
                codes = list(c.scalars(select(tables.c.code).where(*listed)
                                       .order_by(tables.c.created.desc(), tables.c.code.desc())
                                       .limit(limit).offset(offset)))
            found = {row.code: row for row in self._load(None, codes, 0)} if codes else {}
        except Exception as e:
            raise StoreError(f"cannot read tables: {e}") from e
        return [found[code] for code in codes if code in found], int(total)

    def save_seat(self, code: str, seat: SeatRow, epoch: int | None = None) -> None:
        """Store a seat; with ``epoch`` (an owner's write, e.g. a stand-in) only while this
        process holds the table's lease at that epoch, else :class:`LeaseLost`."""
        query = update(seats).where(seats.c.code == code, seats.c.seat == seat.seat)
        if epoch is not None:
            query = query.where(select(tables.c.code).where(
                tables.c.code == code, tables.c.owner == self.origin,
                tables.c.epoch == epoch, tables.c.lease_until > func.now()).exists())
        try:
            with self.engine.begin() as c:
                done = c.execute(query.values(**seat.values()))
                if epoch is not None and done.rowcount != 1:
                    raise LeaseLost(f"table {code}: the lease at epoch {epoch} is lost")
                self._announce(c, code)
        except SQLAlchemyError as e:
            raise Unavailable(f"cannot store seat {seat.seat} of table {code}: {e}") from e

    def set_muted(self, code: str, muted: list[int]) -> None:
        """Store the seats whose chat the host muted."""
        with self.engine.begin() as c:
            c.execute(update(tables).where(tables.c.code == code)
                      .values(muted=json.dumps(muted)))
            self._announce(c, code)

    def add_chat(self, code: str, entry: dict[str, Any], kept: int | None = None,
                 days: float | None = None) -> dict[str, Any]:
        """Store a chat message (``seat``, ``channel``, ``name``, ``text``, ``phrase``) as
        the table's next one; the row as stored (with its ``number`` and time ``at``).  Of
        two processes numbering one at once, the loser numbers it again.  The table keeps
        its latest ``kept`` messages of at most ``days`` days: older ones go meanwhile."""
        latest = select(func.coalesce(func.max(chat.c.number), 0)).where(chat.c.code == code)
        for _ in range(20):
            try:
                with self.engine.begin() as c:
                    row = {**entry, "code": code, "number": int(c.execute(latest).scalar_one()) + 1,
                           "at": _now()}
                    c.execute(insert(chat).values(**row))
                    gone = []
                    if kept is not None and row["number"] > kept:
                        gone.append(chat.c.number <= row["number"] - kept)
                    if days is not None:
                        gone.append(chat.c.at < row["at"] - timedelta(days=days))
                    if gone:  # one statement for both bounds
                        c.execute(delete(chat).where(chat.c.code == code, or_(*gone)))
                    self._announce(c, code, f"#{row['number']}")
                    return row
            except IntegrityError:
                continue
        raise StoreError(f"table {code}: could not number a chat message")

    def chat_message(self, code: str, number: int) -> dict[str, Any] | None:
        """One chat message of the table (None: no such message)."""
        with self.engine.connect() as c:
            found = c.execute(select(chat).where(chat.c.code == code,
                                                 chat.c.number == number)).first()
        return None if found is None else dict(found._mapping)

    def chat_log(self, code: str, channels: list[str], last: int | None = None,
                 ) -> list[dict[str, Any]]:
        """The table's chat messages in these channels, oldest first (the ``last`` ones
        only, when given)."""
        query = (select(chat).where(chat.c.code == code, chat.c.channel.in_(channels))
                 .order_by(chat.c.number.desc()))
        if last is not None:
            query = query.limit(last)
        with self.engine.connect() as c:
            rows = [dict(r._mapping) for r in c.execute(query)]
        return rows[::-1]

    def chat_page(self, code: str, channels: list[str], after: int, most: int,
                  ) -> list[dict[str, Any]]:
        """At most ``most`` of the table's chat messages in these channels numbered after
        ``after``, oldest first."""
        query = (select(chat).where(chat.c.code == code, chat.c.channel.in_(channels),
                                    chat.c.number > after)
                 .order_by(chat.c.number).limit(most))
        with self.engine.connect() as c:
            return [dict(r._mapping) for r in c.execute(query)]

    def take_seat(self, code: str, seat: SeatRow, kinds: tuple[str, ...]) -> bool:
        """Store a seat only if it is still of one of ``kinds`` and the table still waits
        (a conditional write: of two processes taking one seat, one wins); whether it was."""
        waiting = select(tables.c.code).where(tables.c.code == code,
                                              tables.c.status == "waiting")
        with self.engine.begin() as c:
            done = c.execute(update(seats).where(
                seats.c.code == code, seats.c.seat == seat.seat, seats.c.kind.in_(kinds),
                seats.c.code.in_(waiting)).values(**seat.values()))
            if done.rowcount != 1:
                return False
            self._announce(c, code)
            return True

    def start(self, code: str) -> bool:
        """Mark a waiting table with no empty seat as playing; whether this call did (a
        start is accepted once, whichever process is asked)."""
        empty = select(seats.c.seat).where(seats.c.code == code, seats.c.kind == "empty")
        with self.engine.begin() as c:
            done = c.execute(update(tables).where(
                tables.c.code == code, tables.c.status == "waiting", ~empty.exists())
                .values(status="playing"))
            if done.rowcount != 1:
                return False
            self._announce(c, code)
            return True

    def expire_waiting(self, before: datetime) -> list[str]:
        """Delete the tables still waiting that were created before ``before`` (with their
        seats: a waiting table has no actions); their codes."""
        query = select(tables.c.code).where(tables.c.status == "waiting",
                                            tables.c.created < before)
        try:
            with self.engine.begin() as c:
                codes = list(c.scalars(query))
                for start in range(0, len(codes), 500):
                    chunk = codes[start:start + 500]
                    c.execute(delete(chat).where(chat.c.code.in_(chunk)))
                    c.execute(delete(seats).where(seats.c.code.in_(chunk)))
                    c.execute(delete(tables).where(tables.c.code.in_(chunk)))
        except Exception as e:
            raise StoreError(f"cannot remove expired tables: {e}") from e
        return codes

    def append(self, code: str, number: int, seat: int, action: str, status: str,
               ends: float | None = None, timed_out: bool = False,
               epoch: int | None = None) -> None:
        """Action ``number`` (the table's new version) and the version, in one transaction;
        :class:`VersionConflict` if the table is not at version ``number - 1``; with
        ``epoch`` (an owner's write: a bot's move, a timed-out turn) :class:`LeaseLost` if
        this process no longer holds the table's lease at that epoch; :class:`Unavailable`
        if the database failed.  ``ends``: when the next turn's clock ends; ``timed_out``:
        the stand-in's move for a late human.

        Appends are the hot path: prepared statements on a connection kept open by each
        database thread, reopened after any failure.
        """
        c = getattr(self._local, "writer", None)
        if c is None:
            try:
                c = self._local.writer = self.engine.connect()
            except SQLAlchemyError as e:
                raise Unavailable(f"cannot store action {number} of table {code}: {e}") from e
            with self._writers_lock:
                self._writers.append(c)
        bump: dict[str, Any] = {"c": code, "old": number - 1, "new": number, "status": status,
                                "ends": ends}
        if epoch is not None:
            bump.update(me=self.origin, lease=epoch)
        try:
            if c.execute(_BUMP if epoch is None else _FENCED_BUMP, bump).rowcount != 1:
                if epoch is not None and not c.execute(
                        _LEASE_OF, {"me": self.origin, "epoch": epoch, "c": code}).scalar():
                    raise LeaseLost(f"table {code}: the lease at epoch {epoch} is lost")
                raise VersionConflict(f"table {code} is not at version {number - 1}")
            c.execute(_APPEND, {"code": code, "number": number, "seat": seat,
                                "action": action, "at": _now(), "timed_out": timed_out or None})
            self._announce(c, code, number)
            c.commit()
        except BaseException as e:
            self._local.writer = None
            with contextlib.suppress(Exception):
                c.rollback()
                c.close()
            if isinstance(e, SQLAlchemyError):
                raise Unavailable(f"cannot store action {number} of table {code}: {e}") from e
            raise

    def checkpoint(self) -> None:
        """Copy SQLite's write-ahead log into the database file without blocking writers;
        empty the log file too (a brief pause for writers) when it has grown over
        ``wal_bytes`` or when nothing was written since the last checkpoint."""
        try:
            with self.engine.connect() as c:
                _busy, frames, _copied = c.exec_driver_sql(
                    "PRAGMA wal_checkpoint(PASSIVE)").one()
                idle, self._frames = frames == self._frames, frames
                if frames > 0 and (idle or frames * self._page_bytes(c) > self.wal_bytes):
                    # wait for readers briefly only: writers wait while this one does
                    c.exec_driver_sql(f"PRAGMA busy_timeout={TRUNCATE_WAIT_MS}")
                    try:
                        c.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").one()
                    finally:
                        c.exec_driver_sql(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
                    self._frames = 0
        except Exception as e:
            raise StoreError(f"checkpoint failed: {e}") from e

    def _page_bytes(self, c: Connection) -> int:
        if self._page is None:
            self._page = int(c.exec_driver_sql("PRAGMA page_size").scalar_one())
        return self._page

    def close(self) -> None:
        """Close the appending connections (when no append is running)."""
        with self._writers_lock:
            for c in self._writers:
                with contextlib.suppress(Exception):
                    c.close()
            self._writers.clear()

    def load(self, statuses: tuple[str, ...] | None = None, code: str | None = None,
             after: int = 0) -> list[TableRow]:
        """Tables (with seats and the actions after version ``after``) by status or code."""
        try:
            return self._load(statuses, None if code is None else [code], after)
        except Exception as e:
            raise Unavailable(f"cannot read tables: {e}") from e

    def _load(self, statuses: tuple[str, ...] | None, wanted: list[str] | None,
              after: int) -> list[TableRow]:
        query = select(tables)
        if statuses is not None:
            query = query.where(tables.c.status.in_(statuses))
        if wanted is not None:
            query = query.where(tables.c.code.in_(wanted))
        with self.engine.connect() as c:
            rows = {
                r.code: TableRow(r.code, json.loads(r.settings), r.seed, r.hints, r.status,
                                 r.version, r.host, [], [], r.public, r.creator,
                                 _aware(r.created), r.turn_seconds, r.away_seconds,
                                 r.bot_delay, _seat_list(r.rematch_seats), r.next_code,
                                 r.turn_ends, rematch_bots=_bot_list(r.rematch_seats),
                                 teaching=r.teaching, muted=json.loads(r.muted),
                                 house=json.loads(r.house) if r.house else None)
                for r in c.execute(query)
            }
            if not rows:
                return []
            codes = list(rows)
            for s in c.execute(select(seats).where(seats.c.code.in_(codes))
                               .order_by(seats.c.code, seats.c.seat)):
                rows[s.code].seats.append(SeatRow(s.seat, s.name, s.kind, s.token_hash, s.bot,
                                                  s.strength, s.standin))
            for a in c.execute(select(actions.c.code, actions.c.number, actions.c.action,
                                      actions.c.timed_out)
                               .where(actions.c.code.in_(codes), actions.c.number > after)
                               .order_by(actions.c.code, actions.c.number)):
                row = rows[a.code]
                row.actions.append(a.action)
                if a.timed_out:
                    row.timed_out.add(a.number)
        return list(rows.values())
