"""macros (saved command lines) and the roll log's macro name

Revision ID: 0180_macros
Revises: 0002_characters
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0180_macros"
down_revision: str | Sequence[str] | None = "0002_characters"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "macros",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("scope", sa.String(length=16), nullable=False),
        sa.Column("owner_id", sa.BigInteger(), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("name_key", sa.String(length=32), nullable=False),
        sa.Column("command", sa.Text(), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("uses", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("slot >= 0 AND slot < 100", name=op.f("ck_macros_slot_range")),
        sa.ForeignKeyConstraint(
            ["character_id"],
            ["characters.id"],
            name=op.f("fk_macros_character_id_characters"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_macros")),
        sa.UniqueConstraint(
            "guild_id",
            "scope",
            "owner_id",
            "name_key",
            name=op.f("uq_macros_guild_id_scope_owner_id_name_key"),
        ),
        sa.UniqueConstraint(
            "guild_id",
            "scope",
            "owner_id",
            "slot",
            name=op.f("uq_macros_guild_id_scope_owner_id_slot"),
        ),
    )
    with op.batch_alter_table("macros", schema=None) as batch_op:
        batch_op.create_index("ix_macros_character_id", ["character_id"], unique=False)
    with op.batch_alter_table("roll_log", schema=None) as batch_op:
        batch_op.add_column(sa.Column("macro", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("roll_log", schema=None) as batch_op:
        batch_op.drop_column("macro")
    with op.batch_alter_table("macros", schema=None) as batch_op:
        batch_op.drop_index("ix_macros_character_id")
    op.drop_table("macros")
