"""An initiative encounter's revision: bumped by every change to its state

The tracker shows the state a change committed, not re-read (docs/decisions/hot-path.md); the
revision lets it refuse a view older than the one it already shows when changes race.

Revision ID: 0230_encounter_revision
Revises: 0220_encounter_language
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0230_encounter_revision"
down_revision: str | Sequence[str] | None = "0220_encounter_language"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # 0 for the encounters already stored: revisions only ever compare within one encounter.
    with op.batch_alter_table("initiative_encounters", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("revision", sa.Integer(), server_default=sa.text("0"), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("initiative_encounters", schema=None) as batch_op:
        batch_op.drop_column("revision")
