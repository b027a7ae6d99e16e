"""RPS sustained actions, Drama penalty pools with their log, and price offers

Revision ID: 0030_rps_drama
Revises: 0002_characters
Create Date: 2026-11-21
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0030_rps_drama"
down_revision: str | Sequence[str] | None = "0002_characters"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _character_fk(table: str, ondelete: str) -> sa.ForeignKeyConstraint:
    """``character_id`` → ``characters.id``, named by the project's convention."""
    return sa.ForeignKeyConstraint(
        ["character_id"],
        ["characters.id"],
        name=op.f(f"fk_{table}_character_id_characters"),
        ondelete=ondelete,
    )


def upgrade() -> None:
    op.create_table(
        "penalty_pools",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=False),
        sa.Column("dice", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        _character_fk("penalty_pools", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_penalty_pools")),
        sa.UniqueConstraint(
            "channel_id", "character_id", name=op.f("uq_penalty_pools_channel_id_character_id")
        ),
    )
    with op.batch_alter_table("penalty_pools", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_penalty_pools_character_id"), ["character_id"], unique=False
        )

    op.create_table(
        "penalty_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("pool_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("before", sa.Integer(), nullable=False),
        sa.Column("after", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["pool_id"],
            ["penalty_pools.id"],
            name=op.f("fk_penalty_log_pool_id_penalty_pools"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_penalty_log")),
    )
    with op.batch_alter_table("penalty_log", schema=None) as batch_op:
        batch_op.create_index("ix_penalty_log_pool_id_id", ["pool_id", "id"], unique=False)

    op.create_table(
        "rps_sustained_tasks",
        sa.Column("channel_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("started_by", sa.BigInteger(), nullable=False),
        sa.Column("label", sa.String(length=100), nullable=True),
        sa.Column("goal", sa.Integer(), nullable=False),
        sa.Column("pool", sa.Integer(), nullable=False),
        sa.Column("no_loss", sa.Boolean(), nullable=False),
        sa.Column("checks", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=True),
        sa.Column("log", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("channel_id", name=op.f("pk_rps_sustained_tasks")),
    )

    op.create_table(
        "drama_price_offers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column("character_name", sa.String(length=64), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("paid_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _character_fk("drama_price_offers", "SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_drama_price_offers")),
    )
    with op.batch_alter_table("drama_price_offers", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_drama_price_offers_channel_id"), ["channel_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("drama_price_offers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_drama_price_offers_channel_id"))
    op.drop_table("drama_price_offers")
    op.drop_table("rps_sustained_tasks")
    with op.batch_alter_table("penalty_log", schema=None) as batch_op:
        batch_op.drop_index("ix_penalty_log_pool_id_id")
    op.drop_table("penalty_log")
    with op.batch_alter_table("penalty_pools", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_penalty_pools_character_id"))
    op.drop_table("penalty_pools")
