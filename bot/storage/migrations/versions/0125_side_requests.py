"""side_requests: a player's side of an opposed roll waiting for the other player's button

Revision ID: 0125_side_requests
Revises: 0002_characters
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0125_side_requests"
down_revision: str | Sequence[str] | None = "0002_characters"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "side_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("challenger_id", sa.BigInteger(), nullable=False),
        sa.Column("addressed_id", sa.BigInteger(), nullable=False),
        sa.Column("challenger_side", sa.JSON(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_side_requests")),
    )
    with op.batch_alter_table("side_requests", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_side_requests_channel_id"), ["channel_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("side_requests", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_side_requests_channel_id"))
    op.drop_table("side_requests")
