"""CODA extended tests in progress

Revision ID: 0010_coda
Revises: 0002_characters
Create Date: 2026-11-21
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010_coda"
down_revision: str | Sequence[str] | None = "0002_characters"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "coda_extended_tasks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("started_by", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("name_key", sa.String(length=100), nullable=False),
        sa.Column("stages", sa.JSON(), nullable=False),
        sa.Column("interval", sa.Integer(), nullable=False),
        sa.Column("unit", sa.String(length=20), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("stage", sa.Integer(), nullable=False),
        sa.Column("tests", sa.Integer(), nullable=False),
        sa.Column("log", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_coda_extended_tasks")),
        sa.UniqueConstraint(
            "channel_id", "name_key", name=op.f("uq_coda_extended_tasks_channel_id_name_key")
        ),
    )
    with op.batch_alter_table("coda_extended_tasks", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_coda_extended_tasks_channel_id"), ["channel_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("coda_extended_tasks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_coda_extended_tasks_channel_id"))
    op.drop_table("coda_extended_tasks")
