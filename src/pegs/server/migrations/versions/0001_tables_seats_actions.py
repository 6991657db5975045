"""Tables, seats and the append-only action log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pegs_tables",
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("hints", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("host", sa.Integer, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_pegs_tables_status", "pegs_tables", ["status"])
    op.create_table(
        "pegs_seats",
        sa.Column("code", sa.String(32), sa.ForeignKey("pegs_tables.code"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("strength", sa.String(8), nullable=True),
        sa.Column("standin", sa.Boolean, nullable=False),
    )
    op.create_table(
        "pegs_actions",
        sa.Column("code", sa.String(32), sa.ForeignKey("pegs_tables.code"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pegs_actions")
    op.drop_table("pegs_seats")
    op.drop_index("ix_pegs_tables_status", "pegs_tables")
    op.drop_table("pegs_tables")
