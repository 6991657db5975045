"""Table talk: the chat messages of each table, whether it is a teaching table, and the
seats its host muted.  Additive (the new columns have defaults), so processes of the
release before keep working on the upgraded schema.

Revision ID: 0008
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pegs_tables") as batch:
        batch.add_column(sa.Column("teaching", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("muted", sa.Text, nullable=False, server_default="[-1]"))
    op.create_table(
        "pegs_chat",
        sa.Column("code", sa.String(32), sa.ForeignKey("pegs_tables.code"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("channel", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("phrase", sa.String(16), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pegs_chat")
    with op.batch_alter_table("pegs_tables") as batch:
        for name in ("muted", "teaching"):
            batch.drop_column(name)
