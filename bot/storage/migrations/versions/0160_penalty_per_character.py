"""Penalty pools per character (RULES.md §5: a pool follows its character into every channel)

Before this revision a character had one pool per channel. Each character's pools merge
into its oldest one: the dice add up (capped at the engine's 999), every log entry of the
merged pools moves to it (nothing is lost), and the others are deleted. ``channel_id``
goes, and ``character_id`` becomes unique.

Revision ID: 0160_penalty_per_character
Revises: 0030_rps_drama
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0160_penalty_per_character"
down_revision: str | Sequence[str] | None = "0030_rps_drama"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MAX_POOL = 999  # engine.penalty.MAX_POOL, copied: migrations never import the bot

# The pool each character keeps: its oldest (lowest id).
_KEPT = "SELECT MIN(k.id) FROM penalty_pools k GROUP BY k.character_id"


def upgrade() -> None:
    op.execute(
        f"""
        UPDATE penalty_pools SET
            dice = CASE WHEN totals.dice > {MAX_POOL} THEN {MAX_POOL} ELSE totals.dice END,
            updated_at = totals.updated_at
        FROM (
            SELECT character_id, SUM(dice) AS dice, MAX(updated_at) AS updated_at
            FROM penalty_pools GROUP BY character_id HAVING COUNT(*) > 1
        ) AS totals
        WHERE penalty_pools.character_id = totals.character_id
          AND penalty_pools.id IN ({_KEPT})
        """
    )
    op.execute(
        f"""
        UPDATE penalty_log SET pool_id = (
            SELECT MIN(k.id) FROM penalty_pools k WHERE k.character_id = (
                SELECT p.character_id FROM penalty_pools p WHERE p.id = penalty_log.pool_id
            )
        )
        WHERE pool_id NOT IN ({_KEPT})
        """
    )
    op.execute(f"DELETE FROM penalty_pools WHERE id NOT IN ({_KEPT})")

    with op.batch_alter_table("penalty_pools", schema=None) as batch_op:
        batch_op.drop_constraint("uq_penalty_pools_channel_id_character_id", type_="unique")
        batch_op.drop_index("ix_penalty_pools_character_id")
        batch_op.drop_column("channel_id")
        batch_op.create_index("ix_penalty_pools_character_id", ["character_id"], unique=True)


def downgrade() -> None:
    # Every pool goes back to one channel: 0, as no channel is known (the dice are kept).
    with op.batch_alter_table("penalty_pools", schema=None) as batch_op:
        batch_op.drop_index("ix_penalty_pools_character_id")
        batch_op.add_column(
            sa.Column("channel_id", sa.BigInteger(), nullable=False, server_default="0")
        )
    with op.batch_alter_table("penalty_pools", schema=None) as batch_op:
        batch_op.alter_column("channel_id", server_default=None)
        batch_op.create_index("ix_penalty_pools_character_id", ["character_id"], unique=False)
        batch_op.create_unique_constraint(
            "uq_penalty_pools_channel_id_character_id", ["channel_id", "character_id"]
        )
