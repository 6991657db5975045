"""The table log in the database: everything a table says that every process must hear the
same, but its moves (chat, suggestions, hints given, seats, the start, mutes, the rematch's
agreements), numbered in one sequence per table.

An entry is written in the transaction of the change it tells (``pegs_tables.log_seq`` is
raised first, so the row's lock puts a table's entries and moves in one order) and
announced on commit (``code:~seq:origin``); each process takes a table's entries in by
number after what it took last (:meth:`.rooms.Room.catch_up`), so an entry missed while
not listening is read then, and none is taken twice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, delete, insert, or_, select, update

from .schema import entries as log
from .schema import tables

CHAT, SUGGEST, HINT, SEAT, START, MUTED, REMATCH = (
    "chat", "suggest", "hint", "seat", "start", "muted", "rematch")
#: The entries a table keeps only so long (its chat's bounds); the others it keeps.
TALK = (CHAT, SUGGEST)


@dataclass(frozen=True)
class Entry:
    """One entry of a table's log."""

    seq: int
    #: the table's version when the entry was stored (after that move, before the next)
    version: int
    kind: str
    seat: int | None = None
    body: dict[str, Any] = field(default_factory=dict)
    channel: str | None = None
    at: datetime | None = None


def _entry(row: Any) -> Entry:
    at = row.at if row.at.tzinfo is not None else row.at.replace(tzinfo=UTC)
    return Entry(row.seq, row.version, row.kind, row.seat, json.loads(row.body), row.channel,
                 at)


def write(c: Connection, code: str, kind: str, seat: int | None = None,
          body: dict[str, Any] | None = None, channel: str | None = None) -> Entry:
    """Store the table's next entry in the transaction of ``c`` (raising its number takes
    the table's row lock first: of two writers, the second waits for the first's commit)."""
    seq, version = c.execute(update(tables).where(tables.c.code == code)
                             .values(log_seq=tables.c.log_seq + 1)
                             .returning(tables.c.log_seq, tables.c.version)).one()
    entry = Entry(seq, version, kind, seat, body or {}, channel, datetime.now(UTC))
    c.execute(insert(log).values(code=code, seq=seq, version=version, kind=kind, seat=seat,
                                 channel=channel, body=json.dumps(entry.body), at=entry.at))
    return entry


def hint_given(c: Connection, code: str, seat: int, version: int) -> Entry | None:
    """Store that ``seat`` was given this turn's hint at ``version``; None (the caller
    rolls back) if the table moved on or the seat had it already, through any process."""
    entry = write(c, code, HINT, seat)
    given = select(log.c.seq).where(log.c.code == code, log.c.kind == HINT,
                                    log.c.seat == seat, log.c.version == version,
                                    log.c.seq != entry.seq).exists()
    if entry.version != version or c.execute(select(given)).scalar():
        return None  # the caller rolls the transaction back
    return entry


def prune_talk(c: Connection, code: str, kept: int | None, days: float | None) -> None:
    """Keep the table's latest ``kept`` chat messages (and the suggestions since) of at most
    ``days`` days: the older ones go, in one statement."""
    gone = []
    if kept is not None:
        cut = (select(log.c.seq).where(log.c.code == code, log.c.kind == CHAT)
               .order_by(log.c.seq.desc()).limit(1).offset(kept).scalar_subquery())
        gone.append(log.c.seq <= cut)
    if days is not None:
        gone.append(log.c.at < datetime.now(UTC) - timedelta(days=days))
    if gone:
        c.execute(delete(log).where(log.c.code == code, log.c.kind.in_(TALK), or_(*gone)))


def after(c: Connection, code: str, seq: int) -> list[Entry]:
    """The table's entries numbered after ``seq``, in order."""
    return [_entry(r) for r in c.execute(select(log).where(log.c.code == code,
                                                           log.c.seq > seq)
                                         .order_by(log.c.seq))]


def chat_query(code: str, channels: list[str]) -> Any:
    return select(log).where(log.c.code == code, log.c.kind == CHAT,
                             log.c.channel.in_(channels))


def chat_log(c: Connection, code: str, channels: list[str], last: int | None = None,
             upto: int | None = None) -> list[Entry]:
    """The table's chat messages in these channels, oldest first (the ``last`` ones only,
    when given; none numbered after ``upto``, when given)."""
    query = chat_query(code, channels).order_by(log.c.seq.desc())
    if upto is not None:
        query = query.where(log.c.seq <= upto)
    if last is not None:
        query = query.limit(last)
    return [_entry(r) for r in c.execute(query)][::-1]


def chat_page(c: Connection, code: str, channels: list[str], since: int,
              most: int) -> list[Entry]:
    """At most ``most`` chat messages in these channels numbered after ``since``."""
    query = (chat_query(code, channels).where(log.c.seq > since).order_by(log.c.seq)
             .limit(most))
    return [_entry(r) for r in c.execute(query)]
