"""quidditch matches per channel and house points per guild

Revision ID: 0050_quidditch
Revises: 0002_characters
Create Date: 2026-11-21
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0050_quidditch"
down_revision: str | Sequence[str] | None = "0002_characters"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "quidditch_matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("active_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("started_by", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_quidditch_matches")),
        sa.UniqueConstraint(
            "active_channel_id", name=op.f("uq_quidditch_matches_active_channel_id")
        ),
    )
    with op.batch_alter_table("quidditch_matches", schema=None) as batch_op:
        batch_op.create_index(
            "ix_quidditch_matches_channel_id_id", ["channel_id", "id"], unique=False
        )

    op.create_table(
        "house_points",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("house_key", sa.String(length=64), nullable=False),
        sa.Column("house", sa.String(length=64), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "house_key", name=op.f("pk_house_points")),
    )


def downgrade() -> None:
    op.drop_table("house_points")
    with op.batch_alter_table("quidditch_matches", schema=None) as batch_op:
        batch_op.drop_index("ix_quidditch_matches_channel_id_id")
    op.drop_table("quidditch_matches")
