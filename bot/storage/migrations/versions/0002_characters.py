"""characters and active character per channel

Revision ID: 0002_characters
Revises: 0001
Create Date: 2026-11-21
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_characters"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "characters",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("owner_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("name_key", sa.String(length=64), nullable=False),
        sa.Column("system", sa.String(length=16), nullable=False),
        sa.Column("attributes", sa.JSON(), nullable=False),
        sa.Column("skills", sa.JSON(), nullable=False),
        sa.Column("resources", sa.JSON(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_characters")),
        sa.UniqueConstraint(
            "guild_id",
            "owner_id",
            "name_key",
            name=op.f("uq_characters_guild_id_owner_id_name_key"),
        ),
    )
    op.create_table(
        "active_characters",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("channel_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["character_id"],
            ["characters.id"],
            name=op.f("fk_active_characters_character_id_characters"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("user_id", "channel_id", name=op.f("pk_active_characters")),
    )
    with op.batch_alter_table("active_characters", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_active_characters_character_id"), ["character_id"], unique=False
        )
        batch_op.create_index("ix_active_characters_channel_id", ["channel_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("active_characters", schema=None) as batch_op:
        batch_op.drop_index("ix_active_characters_channel_id")
        batch_op.drop_index(batch_op.f("ix_active_characters_character_id"))

    op.drop_table("active_characters")
    op.drop_table("characters")
