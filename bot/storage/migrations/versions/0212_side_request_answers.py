"""side_requests.answers: the parts of a multi-party roll answered so far

A resisted action, a combined test or a test worked together may wait for several players;
each player's part is stored here (keyed by their user id) when they press.

Revision ID: 0212_side_request_answers
Revises: 0125_side_requests
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0212_side_request_answers"
down_revision: str | Sequence[str] | None = "0125_side_requests"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("side_requests", schema=None) as batch_op:
        batch_op.add_column(sa.Column("answers", sa.JSON(), nullable=True))
        batch_op.create_index(
            batch_op.f("ix_side_requests_expires_at"), ["expires_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("side_requests", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_side_requests_expires_at"))
        batch_op.drop_column("answers")
