"""initiative encounters, one active per channel

Revision ID: 0040_initiative
Revises: 0002_characters
Create Date: 2026-11-21
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0040_initiative"
down_revision: str | Sequence[str] | None = "0002_characters"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "initiative_encounters",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("active_channel_id", sa.BigInteger(), nullable=True),
        sa.Column("started_by", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attribute", sa.String(length=64), nullable=True),
        sa.Column("dice", sa.String(length=100), nullable=True),
        sa.Column("tracker_message_id", sa.BigInteger(), nullable=True),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_initiative_encounters")),
        sa.UniqueConstraint(
            "active_channel_id", name=op.f("uq_initiative_encounters_active_channel_id")
        ),
    )
    with op.batch_alter_table("initiative_encounters", schema=None) as batch_op:
        batch_op.create_index(
            "ix_initiative_encounters_channel_id_id", ["channel_id", "id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("initiative_encounters", schema=None) as batch_op:
        batch_op.drop_index("ix_initiative_encounters_channel_id_id")
    op.drop_table("initiative_encounters")
