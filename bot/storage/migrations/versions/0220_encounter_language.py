"""The language an initiative encounter's tracker is drawn in when the channel has none

Revision ID: 0220_encounter_language
Revises: 0215_coda_action_tests
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0220_encounter_language"
down_revision: str | Sequence[str] | None = "0215_coda_action_tests"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Null: an encounter started before languages were (its tracker is drawn in English).
    op.add_column("initiative_encounters", sa.Column("language", sa.String(length=16)))


def downgrade() -> None:
    op.drop_column("initiative_encounters", "language")
