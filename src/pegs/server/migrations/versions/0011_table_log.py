"""One log per table: chat, suggestions, hints given, seats, the start, mutes and the
rematch's agreements, numbered in one sequence per table.  The chat so far is copied into
it; ``pegs_chat`` stays for the release before (an expansion: ``compatible_from`` stays).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pegs_tables") as batch:
        batch.add_column(sa.Column("log_seq", sa.Integer, nullable=False,
                                   server_default="0"))
    log = op.create_table(
        "pegs_log",
        sa.Column("code", sa.String(32), sa.ForeignKey("pegs_tables.code"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("channel", sa.String(8), nullable=True),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    assert log is not None
    bind = op.get_bind()
    rows = bind.execute(sa.text(
        "SELECT c.code, c.number, t.version, c.seat, c.channel, c.name, c.text, c.phrase, "
        "c.at FROM pegs_chat c JOIN pegs_tables t ON t.code = c.code")).all()
    if rows:
        op.bulk_insert(log, [
            {"code": r.code, "seq": r.number, "version": r.version, "kind": "chat",
             "seat": r.seat, "channel": r.channel, "at": r.at,
             "body": json.dumps({"name": r.name, "text": r.text, "phrase": r.phrase})}
            for r in rows])
    bind.execute(sa.text(
        "UPDATE pegs_tables SET log_seq = COALESCE((SELECT max(seq) FROM pegs_log "
        "WHERE pegs_log.code = pegs_tables.code), 0)"))


def downgrade() -> None:
    op.drop_table("pegs_log")
    with op.batch_alter_table("pegs_tables") as batch:
        batch.drop_column("log_seq")
