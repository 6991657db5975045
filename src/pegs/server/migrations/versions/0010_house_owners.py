"""Saved house rules keep their author's owner token (its SHA-256), so the author may
change or delete them (an expand migration: older releases ignore the column).

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pegs_house") as batch:
        batch.add_column(sa.Column("owner_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pegs_house") as batch:
        batch.drop_column("owner_hash")
