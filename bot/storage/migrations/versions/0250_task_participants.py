"""who may roll a channel's shared task: the participants named when it started

A CODA extended test and an RPS sustained action could be rolled by anyone in the channel, so
a passer-by could sink them. Each now stores the players its starter named (besides the
starter and the channel's GM, who may always roll). An RPS action already in progress keeps
everyone who has rolled it (its log names them); an extended test's log names nobody, so its
starter and the GM go on alone (the starter may start it again with participants).

Revision ID: 0250_task_participants
Revises: 0010_coda, 0030_rps_drama
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0250_task_participants"
down_revision: str | Sequence[str] | None = ("0010_coda", "0030_rps_drama")
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_SUSTAINED = sa.table(
    "rps_sustained_tasks",
    sa.column("channel_id", sa.BigInteger()),
    sa.column("started_by", sa.BigInteger()),
    sa.column("log", sa.JSON()),
    sa.column("participants", sa.JSON()),
)


def upgrade() -> None:
    for table in ("coda_extended_tasks", "rps_sustained_tasks"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(
                sa.Column("participants", sa.JSON(), server_default=sa.text("'[]'"), nullable=False)
            )
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(_SUSTAINED.c.channel_id, _SUSTAINED.c.started_by, _SUSTAINED.c.log)
    ).all()
    for channel_id, started_by, log in rows:
        rolled = []
        for entry in log or []:
            user_id = entry.get("user_id") if isinstance(entry, dict) else None
            if isinstance(user_id, int) and user_id != started_by and user_id not in rolled:
                rolled.append(user_id)
        if rolled:
            connection.execute(
                sa.update(_SUSTAINED)
                .where(_SUSTAINED.c.channel_id == channel_id)
                .values(participants=rolled)
            )


def downgrade() -> None:
    for table in ("rps_sustained_tasks", "coda_extended_tasks"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("participants")
