"""Table options: listed publicly or not, the creator's address (per-address caps), the
human turn timer, the away delay before a stand-in bot, and the bots' pace.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pegs_tables") as batch:
        batch.add_column(sa.Column("public", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.add_column(sa.Column("turn_seconds", sa.Float, nullable=True,
                                   server_default="120"))
        batch.add_column(sa.Column("away_seconds", sa.Float, nullable=True,
                                   server_default="120"))
        batch.add_column(sa.Column("bot_delay", sa.Float, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pegs_tables") as batch:
        for name in ("bot_delay", "away_seconds", "turn_seconds", "creator", "public"):
            batch.drop_column(name)
