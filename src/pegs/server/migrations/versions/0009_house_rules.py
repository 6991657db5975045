"""House rules: the saved house rules (shared by a code, listed when their authors publish
them), and the house title and description a table shows.  A table only gains a nullable
column (an expansion: ``compatible_from`` stays), so processes of the release before keep
working on the upgraded schema.

Revision ID: 0009
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pegs_house",
        sa.Column("code", sa.String(32), primary_key=True),
        sa.Column("title", sa.String(80), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("published", sa.Boolean, nullable=False),
        sa.Column("creator", sa.String(64), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("pegs_house_published", "pegs_house", ["published", "created"])
    with op.batch_alter_table("pegs_tables") as batch:
        batch.add_column(sa.Column("house", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pegs_tables") as batch:
        batch.drop_column("house")
    op.drop_index("pegs_house_published", "pegs_house")
    op.drop_table("pegs_house")
