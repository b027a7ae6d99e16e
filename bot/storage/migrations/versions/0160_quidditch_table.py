"""quidditch: the roster message edited in place, and the states undo goes back to

Revision ID: 0160_quidditch_table
Revises: 0050_quidditch
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0160_quidditch_table"
down_revision: str | Sequence[str] | None = "0050_quidditch"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("quidditch_matches", schema=None) as batch_op:
        batch_op.add_column(sa.Column("roster_message_id", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("undo_states", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("quidditch_matches", schema=None) as batch_op:
        batch_op.drop_column("undo_states")
        batch_op.drop_column("roster_message_id")
