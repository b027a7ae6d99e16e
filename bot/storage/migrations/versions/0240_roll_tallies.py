"""a public roll's die size and face counts, for dice statistics summed in SQL

``/dice stats`` read every face of up to 5,000 log entries and counted them on the event loop
(a second and more for 250-face rolls). Each public entry now carries its die size and the
count of each face (bot.storage.roll_tally), and the statistics add those up in SQL. The
entries already logged are counted here, in batches.

Revision ID: 0240_roll_tallies
Revises: 0002_characters
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.storage.roll_tally import SYSTEMS, tally

revision: str = "0240_roll_tallies"
down_revision: str | Sequence[str] | None = "0002_characters"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Log entries read and updated at a time.
BATCH = 1000

_LOG = sa.table(
    "roll_log",
    sa.column("id", sa.BigInteger()),
    sa.column("system", sa.String()),
    sa.column("input", sa.Text()),
    sa.column("faces", sa.JSON()),
    sa.column("secret", sa.Boolean()),
    sa.column("tally_sides", sa.Integer()),
    sa.column("tally", sa.JSON()),
)


def upgrade() -> None:
    # Nullable: secret rolls and rolls of no single die size have no tally.
    with op.batch_alter_table("roll_log", schema=None) as batch_op:
        batch_op.add_column(sa.Column("tally_sides", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("tally", sa.JSON(), nullable=True))
    connection = op.get_bind()
    update = (
        sa.update(_LOG)
        .where(_LOG.c.id == sa.bindparam("entry"))
        .values(tally_sides=sa.bindparam("sides"), tally=sa.bindparam("counts", type_=sa.JSON()))
    )
    after = 0
    while True:
        rows = connection.execute(
            sa.select(_LOG.c.id, _LOG.c.system, _LOG.c.input, _LOG.c.faces)
            .where(
                _LOG.c.id > after,
                _LOG.c.secret.is_(False),
                _LOG.c.system.in_(SYSTEMS),
            )
            .order_by(_LOG.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            break
        after = rows[-1].id
        values = []
        for row in rows:
            counted = tally(row.system, row.input, row.faces)
            if counted is not None:
                values.append({"entry": row.id, "sides": counted[0], "counts": counted[1]})
        if values:
            connection.execute(update, values)


def downgrade() -> None:
    with op.batch_alter_table("roll_log", schema=None) as batch_op:
        batch_op.drop_column("tally")
        batch_op.drop_column("tally_sides")
