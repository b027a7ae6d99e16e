"""The roll log: append one entry per roll, read a channel's latest."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import insert, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from bot.actor import Actor
from bot.storage.db import Database, deferred
from bot.storage.models import RollLog
from bot.storage.models.base import utcnow
from bot.storage.one_statement import PreparedInsert, insert_one
from engine import commitment

#: ``session.info`` key of the secret entries added in this unit of work (see :func:`sealed`).
_SEALED = "narrator.sealed_rolls"

_TABLE = RollLog.__table__
#: Every column but the id: one set of keys for every row of an executemany.
_COLUMNS = tuple(column.key for column in _TABLE.columns if column.key != "id")
_INSERT = insert(_TABLE)
_INSERT_RETURNING_ID = insert(_TABLE).returning(_TABLE.c.id)
_PREPARED = PreparedInsert(insert(_TABLE), _COLUMNS)


def add(
    session: AsyncSession,
    actor: Actor,
    *,
    system: str,
    input: str,
    faces: Sequence[Any],
    outcome: str,
    secret: bool = False,
    label: str | None = None,
) -> None:
    """Add an entry to the current unit of work; it commits with the command's other changes.

    The entry is written by a Core INSERT just before the session's next flush, ORM query or
    commit (the points where the ORM would have flushed it), not by the ORM's unit-of-work
    flush, which cost about 300 µs more per roll; a public entry is not even an ORM object.
    A secret entry is sealed here and listed in :func:`sealed`; it gets its id when it is
    written (its reply shows the id).
    """
    values = _values(
        actor, system=system, input=input, faces=faces, outcome=outcome, secret=secret, label=label
    )
    pending = deferred(session, _write)
    if not secret:
        pending.append(values)
        return
    entry = RollLog(**values)
    _seal(entry)
    sealed(session).append(entry)
    pending.append(entry)


async def append_public(
    db: Database,
    actor: Actor,
    *,
    system: str,
    input: str,
    faces: Sequence[Any],
    outcome: str,
    label: str | None = None,
) -> None:
    """Log a public roll that is its command's only write, committed when this returns.

    The same row as :func:`add` writes, as one autocommitted INSERT
    (:func:`bot.storage.one_statement.insert_one`) instead of a unit of work: a third of the
    CPU of a plain ``/roll`` went to the unit of work around this one statement.
    """
    values = _values(
        actor, system=system, input=input, faces=faces, outcome=outcome, secret=False, label=label
    )
    await insert_one(db, _PREPARED, values)


def _values(
    actor: Actor,
    *,
    system: str,
    input: str,
    faces: Sequence[Any],
    outcome: str,
    secret: bool,
    label: str | None,
) -> dict[str, Any]:
    """A log entry's columns (bounded: a hostile input cannot make a huge row)."""
    return {
        "guild_id": actor.guild_id,
        "channel_id": actor.channel_id,
        "user_id": actor.user_id,
        "system": system,
        "input": input[:2000],
        "label": label[:100] if label else None,
        "macro": actor.macro,
        "faces": list(faces),
        "outcome": outcome[:2000],
        "secret": secret,
        "created_at": utcnow(),
        "record": None,
        "salt": None,
        "commitment": None,
    }


def _write(session: Session, pending: list[dict[str, Any] | RollLog]) -> None:
    """Insert the added entries in order, in the session's transaction (run by the session,
    see :func:`bot.storage.db.deferred`). Only a secret entry reads back its id."""
    connection = session.connection()
    public: list[dict[str, Any]] = []
    for item in pending:
        if isinstance(item, dict):
            public.append(item)
            continue
        if public:  # keep the log's order: the ids follow the order of the rolls
            connection.execute(_INSERT, public)
            public = []
        values = {key: getattr(item, key) for key in _COLUMNS}
        item.id = connection.execute(_INSERT_RETURNING_ID, values).scalar_one()
    if public:
        connection.execute(_INSERT, public)


def _seal(entry: RollLog) -> None:
    """Commit to a secret roll as it is logged: the record, a fresh salt and their SHA-256."""
    entry.record = commitment.record(
        system=entry.system,
        input=entry.input,
        label=entry.label,
        faces=entry.faces,
        outcome=entry.outcome,
        time=entry.created_at,
        roller=entry.user_id,
        channel=entry.channel_id,
        guild=entry.guild_id,
    )
    entry.salt = commitment.new_salt()
    entry.commitment = commitment.commit(entry.record, entry.salt)


def sealed(session: AsyncSession) -> list[RollLog]:
    """The secret entries this unit of work logs, in order: the one list every secret roll's
    reply reads its commitments from (it fills as :func:`add` runs)."""
    entries: list[RollLog] = session.info.setdefault(_SEALED, [])
    return entries


async def get(session: AsyncSession, roll_id: int, *, channel_id: int) -> RollLog | None:
    """One entry of this channel's log by its id (another channel's id finds nothing)."""
    entry = await session.get(RollLog, roll_id)
    return entry if entry is not None and entry.channel_id == channel_id else None


async def latest(
    session: AsyncSession,
    channel_id: int,
    *,
    count: int,
    include_secret: bool,
    viewer_id: int | None = None,
) -> list[RollLog]:
    """The channel's newest rolls; secret ones with ``include_secret`` (GMs), else only the
    ``viewer_id``'s own (a roller saw their secret roll already)."""
    query = select(RollLog).where(RollLog.channel_id == channel_id)
    if not include_secret:
        visible = RollLog.secret.is_(False)
        if viewer_id is not None:
            visible = or_(visible, RollLog.user_id == viewer_id)
        query = query.where(visible)
    query = query.order_by(RollLog.id.desc()).limit(count)
    return list((await session.execute(query)).scalars())


async def faces_since(
    session: AsyncSession,
    channel_id: int,
    *,
    systems: Sequence[str],
    user_id: int | None,
    since: datetime | None,
    limit: int,
) -> list[tuple[str, str, list[Any]]]:
    """The newest ``limit`` public entries' (system, input, faces) of this channel, for dice
    statistics: only the columns they need, newest first, bounded before the query runs."""
    query = select(RollLog.system, RollLog.input, RollLog.faces).where(
        RollLog.channel_id == channel_id,
        RollLog.system.in_(list(systems)),
        RollLog.secret.is_(False),
    )
    if user_id is not None:
        query = query.where(RollLog.user_id == user_id)
    if since is not None:
        query = query.where(RollLog.created_at >= since)
    query = query.order_by(RollLog.id.desc()).limit(limit)
    return [(row.system, row.input, row.faces) for row in await session.execute(query)]
