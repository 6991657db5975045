"""Table leases: the process that runs a table's bots, stand-ins and clocks, and until when
its lease holds unless renewed (several processes on one PostgreSQL database).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pegs_tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(32), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pegs_tables") as batch:
        for name in ("lease_until", "owner"):
            batch.drop_column(name)
