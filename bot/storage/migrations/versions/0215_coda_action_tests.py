"""CODA: the attribute test an action beyond the allowance asks for (Roll the test button)

Revision ID: 0215_coda_action_tests
Revises: 0155_attacks, 0040_initiative
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0215_coda_action_tests"
# Joins the attacks and the initiative branches: its rows point at both (a character, an
# encounter), and one head for both keeps the schema check exact.
down_revision: str | Sequence[str] | None = ("0155_attacks", "0040_initiative")
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "coda_action_tests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("encounter_id", sa.Integer(), nullable=False),
        sa.Column("character_id", sa.Integer(), nullable=True),
        sa.Column("owner_id", sa.BigInteger(), nullable=False),
        sa.Column("combatant", sa.String(length=64), nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("attribute", sa.String(length=64), nullable=False),
        sa.Column("tn", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("spent", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("rolled_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["character_id"],
            ["characters.id"],
            name=op.f("fk_coda_action_tests_character_id_characters"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["encounter_id"],
            ["initiative_encounters.id"],
            name=op.f("fk_coda_action_tests_encounter_id_initiative_encounters"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_coda_action_tests")),
    )
    with op.batch_alter_table("coda_action_tests", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_coda_action_tests_channel_id"), ["channel_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("coda_action_tests", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_coda_action_tests_channel_id"))
    op.drop_table("coda_action_tests")
