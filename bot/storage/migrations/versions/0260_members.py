"""members: who the bot has seen in each guild and whether Discord makes them a GM there

The web companion (narrator web) has no gateway; it reads who plays where, and who is a
GM, from what the bot recorded when it last ran one of their commands.

Revision ID: 0260_members
Revises: 0250_task_participants
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0260_members"
down_revision: str | Sequence[str] | None = "0250_task_participants"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "members",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.Column("guild_name", sa.String(length=100), nullable=False),
        sa.Column("gm_role", sa.Boolean(), nullable=False),
        sa.Column("role_ids", sa.JSON(), nullable=False),
        sa.Column("channels", sa.JSON(), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id", name=op.f("pk_members")),
    )
    op.create_index("ix_members_user_id", "members", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_members_user_id", table_name="members")
    op.drop_table("members")
