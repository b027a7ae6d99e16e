"""secret rolls carry a commitment: the record hashed, its salt and the SHA-256

Revision ID: 0190_roll_commitments
Revises: 0002_characters
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0190_roll_commitments"
down_revision: str | Sequence[str] | None = "0002_characters"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Nullable: public rolls and the rolls logged before this revision have no commitment.
    with op.batch_alter_table("roll_log", schema=None) as batch_op:
        batch_op.add_column(sa.Column("record", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("salt", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("commitment", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("roll_log", schema=None) as batch_op:
        batch_op.drop_column("commitment")
        batch_op.drop_column("salt")
        batch_op.drop_column("record")
