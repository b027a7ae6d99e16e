"""CODA attack exchanges waiting for the defender's Dodge / Parry / Take it

Revision ID: 0155_attacks
Revises: 0002_characters
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0155_attacks"
down_revision: str | Sequence[str] | None = "0002_characters"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "coda_attacks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("attacker_id", sa.BigInteger(), nullable=False),
        sa.Column("defender_id", sa.BigInteger(), nullable=True),
        sa.Column("target_character_id", sa.Integer(), nullable=True),
        sa.Column("ranged", sa.Boolean(), nullable=False),
        sa.Column("secret", sa.Boolean(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["target_character_id"],
            ["characters.id"],
            name=op.f("fk_coda_attacks_target_character_id_characters"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_coda_attacks")),
    )
    with op.batch_alter_table("coda_attacks", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_coda_attacks_channel_id"), ["channel_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("coda_attacks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_coda_attacks_channel_id"))
    op.drop_table("coda_attacks")
