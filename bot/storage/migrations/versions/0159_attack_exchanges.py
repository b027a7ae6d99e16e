"""Attack exchanges of any system (Hogwarts 1990 first) waiting for the defender's answer

Revision ID: 0159_attack_exchanges
Revises: 0155_attacks
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0159_attack_exchanges"
down_revision: str | Sequence[str] | None = "0155_attacks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "attack_exchanges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("system", sa.String(length=16), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("attacker_id", sa.BigInteger(), nullable=False),
        sa.Column("defender_id", sa.BigInteger(), nullable=True),
        sa.Column("target_character_id", sa.Integer(), nullable=True),
        sa.Column("secret", sa.Boolean(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["target_character_id"],
            ["characters.id"],
            name=op.f("fk_attack_exchanges_target_character_id_characters"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_attack_exchanges")),
    )
    with op.batch_alter_table("attack_exchanges", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_attack_exchanges_channel_id"), ["channel_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("attack_exchanges", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_attack_exchanges_channel_id"))
    op.drop_table("attack_exchanges")
