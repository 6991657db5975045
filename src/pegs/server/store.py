"""The database: tables, seats and the append-only action log (SQLAlchemy Core).

The schema is created and upgraded by the Alembic scripts in ``migrations/``; the
:class:`Store` methods are synchronous and are run off the event loop by the rooms.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import threading
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import SQLAlchemyError

from . import table_log
from .database import BUSY_TIMEOUT_MS, WAL_BYTES, incompatibility
from .schema import actions, seats, tables
from .store_errors import (
    LeaseLost,
    Refused,
    StoreError,
    Unavailable,
    VersionConflict,
    refusal,
)
from .table_log import Entry

log = logging.getLogger("pegs.server")

TRUNCATE_WAIT_MS = 100  # how long the checkpoint that empties the log waits for readers


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
    #: the number of the table's latest log entry, and (when asked for) the entries after
    #: a number (:mod:`.table_log`)
    log_seq: int = 0
    entries: list[Entry] = field(default_factory=list)


def _seat_list(text: str | None) -> list[int]:
    """Seats stored as "0,2" (a rematch's agreements also as "b1": seat 1 handed to a bot)."""
    return [int(seat.removeprefix("b")) for seat in text.split(",")] if text else []


def _bot_list(text: str | None) -> list[int]:
    """The seats of a rematch's agreements stored as "b1": handed to a stand-in bot."""
    return [int(seat[1:]) for seat in text.split(",") if seat.startswith("b")] if text else []


def seat_body(seat: SeatRow) -> dict[str, Any]:
    """A seat as its log entry tells it."""
    return {"seat": seat.seat, **seat.values()}


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

    def announce(self, c: Connection, code: str, version: int | str = "") -> None:
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
                      fresh: TableRow, bot: bool = False,
                      ) -> tuple[list[int], str | None, Entry | None]:
        """Store ``seat``'s agreement to play table ``code`` again (with ``bot``: another
        player handed the seat to a stand-in bot for the rematch); the agreement that
        completes ``humans`` also stores ``fresh`` (the rematch, this process's lease) and
        its code as the old table's ``next_code``, in the same transaction.  A conditional
        write (on the agreements read and no ``next_code`` yet) makes racing agreements
        through any processes make one rematch.  Answers the agreements, ``next`` and the log
        entry (None when nothing was stored: already agreed, or the rematch exists)."""
        for _ in range(AGREEMENT_TRIES):
            with self.engine.begin() as c:
                found = c.execute(select(tables.c.rematch_seats, tables.c.next_code)
                                  .where(tables.c.code == code)).one_or_none()
                if found is None:
                    raise StoreError(f"there is no table {code}")
                before = _seat_list(found.rematch_seats)
                agreed = sorted({*before, seat})
                if found.next_code is not None or agreed == before:
                    return before, found.next_code, None
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
                entry = self._logged(c, code, table_log.REMATCH, seat,
                                     {"agreed": agreed, "bots": sorted(bots), "next": nxt})
                return agreed, nxt, entry
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
                    self.announce(c, code)
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

    def save_seat(self, code: str, seat: SeatRow, epoch: int | None = None) -> Entry:
        """Store a seat (and its log entry); with ``epoch`` (an owner's write, e.g. a
        stand-in) only while this process holds the table's lease at that epoch, else
        :class:`LeaseLost`."""
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
                return self._logged(c, code, table_log.SEAT, seat.seat, seat_body(seat))
        except SQLAlchemyError as e:
            raise Unavailable(f"cannot store seat {seat.seat} of table {code}: {e}") from e

    def set_muted(self, code: str, muted: list[int]) -> Entry:
        """Store the seats whose chat the host muted."""
        with self.engine.begin() as c:
            c.execute(update(tables).where(tables.c.code == code)
                      .values(muted=json.dumps(muted)))
            return self._logged(c, code, table_log.MUTED, body={"muted": muted})

    def _logged(self, c: Connection, code: str, kind: str, seat: int | None = None,
                body: dict[str, Any] | None = None, channel: str | None = None) -> Entry:
        """Store the table's next log entry in this transaction, announced on commit."""
        entry = table_log.write(c, code, kind, seat, body, channel)
        self.announce(c, code, f"~{entry.seq}")
        return entry

    def add_entry(self, code: str, kind: str, seat: int | None = None,
                  body: dict[str, Any] | None = None, days: float | None = None) -> Entry:
        """Store an entry of the table's log (a suggestion: talk older than ``days`` days
        goes meanwhile)."""
        with self.engine.begin() as c:
            entry = self._logged(c, code, kind, seat, body)
            table_log.prune_talk(c, code, None, days)
            return entry

    def add_chat(self, code: str, said: dict[str, Any], kept: int | None = None,
                 days: float | None = None) -> Entry:
        """Store a chat message (``seat``, ``channel``, ``name``, ``text``, ``phrase``) as
        the table's next log entry.  The table keeps its latest ``kept`` messages of at most
        ``days`` days: older ones go meanwhile."""
        body = {"name": said["name"], "text": said["text"], "phrase": said.get("phrase")}
        with self.engine.begin() as c:
            entry = self._logged(c, code, table_log.CHAT, said["seat"], body, said["channel"])
            table_log.prune_talk(c, code, kept, days)
            return entry

    def give_hint(self, code: str, seat: int, version: int) -> Entry | None:
        """Store that ``seat`` has this turn's hint at ``version`` (one a seat and turn,
        through any process); None if it had it already or the table moved on."""
        with self.engine.connect() as c:
            entry = table_log.hint_given(c, code, seat, version)
            if entry is None:
                c.rollback()
                return None
            self.announce(c, code, f"~{entry.seq}")
            c.commit()
            return entry

    def chat_log(self, code: str, channels: list[str], last: int | None = None,
                 upto: int | None = None) -> list[Entry]:
        """The table's chat messages in these channels, oldest first (see
        :func:`.table_log.chat_log`)."""
        with self.engine.connect() as c:
            return table_log.chat_log(c, code, channels, last, upto)

    def chat_page(self, code: str, channels: list[str], after: int, most: int,
                  ) -> list[Entry]:
        """At most ``most`` of the table's chat messages in these channels numbered after
        ``after``, oldest first."""
        with self.engine.connect() as c:
            return table_log.chat_page(c, code, channels, after, most)

    def take_seat(self, code: str, seat: SeatRow, kinds: tuple[str, ...]) -> Entry | None:
        """Store a seat only if it is still of one of ``kinds`` and the table still waits
        (a conditional write: of two processes taking one seat, one wins); its log entry,
        or None if it was not."""
        waiting = select(tables.c.code).where(tables.c.code == code,
                                              tables.c.status == "waiting")
        with self.engine.begin() as c:
            done = c.execute(update(seats).where(
                seats.c.code == code, seats.c.seat == seat.seat, seats.c.kind.in_(kinds),
                seats.c.code.in_(waiting)).values(**seat.values()))
            if done.rowcount != 1:
                return None
            return self._logged(c, code, table_log.SEAT, seat.seat, seat_body(seat))

    def start(self, code: str) -> Entry | None:
        """Mark a waiting table with no empty seat as playing; its log entry if this call
        did (a start is accepted once, whichever process is asked), else None."""
        empty = select(seats.c.seat).where(seats.c.code == code, seats.c.kind == "empty")
        with self.engine.begin() as c:
            done = c.execute(update(tables).where(
                tables.c.code == code, tables.c.status == "waiting", ~empty.exists())
                .values(status="playing"))
            if done.rowcount != 1:
                return None
            return self._logged(c, code, table_log.START)

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
            self.announce(c, code, number)
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
             after: int = 0, log_after: int | None = None) -> list[TableRow]:
        """Tables (with seats, the actions after version ``after`` and, with
        ``log_after``, the log entries numbered after it) by status or code, as one
        snapshot."""
        try:
            return self._load(statuses, None if code is None else [code], after, log_after)
        except Exception as e:
            raise Unavailable(f"cannot read tables: {e}") from e

    def _load(self, statuses: tuple[str, ...] | None, wanted: list[str] | None,
              after: int, log_after: int | None = None) -> list[TableRow]:
        query = select(tables)
        if statuses is not None:
            query = query.where(tables.c.status.in_(statuses))
        if wanted is not None:
            query = query.where(tables.c.code.in_(wanted))
        with self.engine.connect() as c:
            if self.shared:  # every statement reads the same snapshot
                c = c.execution_options(isolation_level="REPEATABLE READ")
            rows = {
                r.code: TableRow(r.code, json.loads(r.settings), r.seed, r.hints, r.status,
                                 r.version, r.host, [], [], r.public, r.creator,
                                 _aware(r.created), r.turn_seconds, r.away_seconds,
                                 r.bot_delay, _seat_list(r.rematch_seats), r.next_code,
                                 r.turn_ends, rematch_bots=_bot_list(r.rematch_seats),
                                 teaching=r.teaching, muted=json.loads(r.muted),
                                 house=json.loads(r.house) if r.house else None,
                                 log_seq=r.log_seq)
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
            if log_after is not None:
                for code in codes:
                    rows[code].entries = table_log.after(c, code, log_after)
        return list(rows.values())
