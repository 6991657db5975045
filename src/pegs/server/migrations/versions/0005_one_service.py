"""One service over several processes: the rematch agreements and the rematch's code, the
end of the running turn clock (kept with the table, so every process shows the same), and
which actions were a timed-out turn's stand-in move.  Columns are only added (nullable),
so processes of the release before keep working on the upgraded schema.

Revision ID: 0005
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pegs_tables") as batch:
        batch.add_column(sa.Column("rematch_seats", sa.String(32), nullable=True))
        batch.add_column(sa.Column("next_code", sa.String(32), nullable=True))
        batch.add_column(sa.Column("turn_ends", sa.Float, nullable=True))
    with op.batch_alter_table("pegs_actions") as batch:
        batch.add_column(sa.Column("timed_out", sa.Boolean, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pegs_actions") as batch:
        batch.drop_column("timed_out")
    with op.batch_alter_table("pegs_tables") as batch:
        for name in ("turn_ends", "next_code", "rematch_seats"):
            batch.drop_column(name)
