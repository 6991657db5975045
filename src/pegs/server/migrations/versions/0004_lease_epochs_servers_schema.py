"""Fencing, balance and rolling upgrades: each table's lease epoch (a fencing token every
owner write checks), the live server processes (each claims its share of the tables), and
which releases this schema still serves (``compatible_from``: the oldest release head that
may run on it; an additive migration leaves it, a contracting one raises it).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pegs_tables") as batch:
        batch.add_column(sa.Column("epoch", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "pegs_servers",
        sa.Column("origin", sa.String(32), primary_key=True),
        sa.Column("seen_until", sa.DateTime(timezone=True), nullable=False),
    )
    schema = op.create_table("pegs_schema",
                             sa.Column("compatible_from", sa.String(32), nullable=False))
    op.bulk_insert(schema, [{"compatible_from": "0004"}])


def downgrade() -> None:
    op.drop_table("pegs_schema")
    op.drop_table("pegs_servers")
    with op.batch_alter_table("pegs_tables") as batch:
        batch.drop_column("epoch")
