"""Language choices per channel (/settings language) and per user (/settings my-language)

Revision ID: 0200_language_choices
Revises: 0002_characters
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0200_language_choices"
down_revision: str | Sequence[str] | None = "0002_characters"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "language_choices",
        sa.Column("scope", sa.String(length=8), nullable=False),
        sa.Column("target_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("set_by", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("scope IN ('user', 'channel')", name=op.f("ck_language_choices_scope")),
        sa.PrimaryKeyConstraint("scope", "target_id", name=op.f("pk_language_choices")),
    )


def downgrade() -> None:
    op.drop_table("language_choices")
