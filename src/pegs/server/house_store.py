"""Saved house rules in the database: stored under a code with their author's owner token
(hashed), read by it, changed or deleted by their author, and a page of the published
ones, newest first (SQLAlchemy Core, synchronous: run off the event loop)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Engine,
    String,
    Table,
    Text,
    delete,
    func,
    insert,
    select,
    update,
)

from .schema import metadata
from .store_errors import StoreError

houses = Table(
    "pegs_house", metadata,
    Column("code", String(32), primary_key=True),
    Column("title", String(80), nullable=False),
    #: the house rules as JSON: title, description, base, settings, cards
    Column("body", Text, nullable=False),
    Column("published", Boolean, nullable=False),
    #: the author's client address
    Column("creator", String(64), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
    #: the SHA-256 of the author's owner token (None: saved before authors could edit)
    Column("owner_hash", String(64), nullable=True),
)


@dataclass(frozen=True)
class SavedHouse:
    """One saved house rules: its code, its rules as JSON data, and whether it is listed."""

    code: str
    body: dict[str, Any]
    published: bool
    created: datetime
    owner_hash: str | None = None


def _saved(row: Any) -> SavedHouse:
    created = row.created if row.created.tzinfo else row.created.replace(tzinfo=UTC)
    return SavedHouse(row.code, json.loads(row.body), row.published, created, row.owner_hash)


def save(engine: Engine, code: str, body: dict[str, Any], published: bool,
         creator: str, owner_hash: str) -> SavedHouse:
    """Store house rules under ``code``, changeable with the token of ``owner_hash``."""
    created = datetime.now(UTC)
    try:
        with engine.begin() as c:
            c.execute(insert(houses).values(code=code, title=body["title"],
                                            body=json.dumps(body), published=published,
                                            creator=creator, created=created,
                                            owner_hash=owner_hash))
    except Exception as e:
        raise StoreError(f"cannot save the house rules: {e}") from e
    return SavedHouse(code, body, published, created, owner_hash)


def change(engine: Engine, code: str, body: dict[str, Any], published: bool) -> bool:
    """Replace the rules saved under ``code`` (their code and time stay); False if gone."""
    try:
        with engine.begin() as c:
            done = c.execute(update(houses).where(houses.c.code == code).values(
                title=body["title"], body=json.dumps(body), published=published))
    except Exception as e:
        raise StoreError(f"cannot save the house rules: {e}") from e
    return done.rowcount == 1


def remove(engine: Engine, code: str) -> bool:
    """Delete the rules saved under ``code``; False if there were none."""
    try:
        with engine.begin() as c:
            done = c.execute(delete(houses).where(houses.c.code == code))
    except Exception as e:
        raise StoreError(f"cannot delete the house rules: {e}") from e
    return done.rowcount == 1


def get(engine: Engine, code: str) -> SavedHouse | None:
    """The house rules saved under ``code``, or None."""
    try:
        with engine.connect() as c:
            row = c.execute(select(houses).where(houses.c.code == code)).one_or_none()
    except Exception as e:
        raise StoreError(f"cannot read house rules: {e}") from e
    return None if row is None else _saved(row)


def published(engine: Engine, limit: int, offset: int) -> tuple[list[SavedHouse], int]:
    """A page of the published house rules, newest first, and how many there are."""
    listed = houses.c.published.is_(True)
    try:
        with engine.connect() as c:
            total = c.execute(select(func.count()).select_from(houses).where(listed)).scalar_one()
            rows = c.execute(select(houses).where(listed)
                             .order_by(houses.c.created.desc(), houses.c.code.desc())
                             .limit(limit).offset(offset)).all()
    except Exception as e:
        raise StoreError(f"cannot read house rules: {e}") from e
    return [_saved(row) for row in rows], int(total)
