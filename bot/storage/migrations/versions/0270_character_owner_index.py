"""An index on characters' owner: the tracker's Health column finds its players' characters

Every initiative change refreshes the tracker, whose Health column reads every character of the
encounter's players, in any server (``repositories.characters.of_owners``: ``owner_id IN``). The
only index with ``owner_id`` led with ``guild_id``, so that read walked the whole table (or the
whole index) on SQLite and PostgreSQL alike: its cost grew with every character of every
server (issue 31, tests/bot/storage/test_query_plans.py).

Revision ID: 0270_character_owner_index
Revises: 0260_members
Create Date: 2026-11-27
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0270_character_owner_index"
down_revision: str | Sequence[str] | None = "0260_members"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("characters", schema=None) as batch_op:
        batch_op.create_index("ix_characters_owner_id", ["owner_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("characters", schema=None) as batch_op:
        batch_op.drop_index("ix_characters_owner_id")
