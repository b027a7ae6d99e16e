"""The roll log: append one entry per roll, read a channel's latest."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Integer,
    Select,
    bindparam,
    cast,
    func,
    insert,
    literal_column,
    or_,
    select,
    true,
)
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from bot.actor import Actor
from bot.storage.db import Database, deferred
from bot.storage.models import RollLog
from bot.storage.models.base import utcnow
from bot.storage.one_statement import PreparedInsert, PreparedSelect, insert_one
from bot.storage.roll_tally import tally
from engine import commitment

#: ``session.info`` key of the secret entries added in this unit of work (see :func:`sealed`).
_SEALED = "narrator.sealed_rolls"

_TABLE = RollLog.__table__
#: Every column but the id: one set of keys for every row of an executemany.
_COLUMNS = tuple(column.key for column in _TABLE.columns if column.key != "id")
_INSERT = insert(_TABLE)  # type: ignore[arg-type]
_INSERT_RETURNING_ID = insert(_TABLE).returning(_TABLE.c.id)  # type: ignore[arg-type]
_PREPARED = PreparedInsert(insert(_TABLE), _COLUMNS)  # type: ignore[arg-type]


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
    """A log entry's columns (bounded: a hostile input cannot make a huge row). A public
    entry's faces are counted here for dice statistics (:mod:`bot.storage.roll_tally`)."""
    counted = None if secret else tally(system, input, faces)
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
        "tally_sides": counted[0] if counted else None,
        "tally": counted[1] if counted else None,
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
    query = _visible(channel_id, include_secret=include_secret, viewer_id=viewer_id)
    query = query.order_by(RollLog.id.desc()).limit(count)
    return list((await session.execute(query)).scalars())


@dataclass(frozen=True, slots=True)
class FaceTotals:
    """What dice statistics read of a channel's newest public entries: one row per die size
    (None: entries that cannot be counted) and one per die size and face, never per entry."""

    entries: list[tuple[int | None, int]]  # (die size, how many entries)
    faces: list[tuple[int, int, int]]  # (die size, face, how often it came up)


#: Runs read queries on an SQLite file in another process: ``(path, [(sql, parameters)])``
#: → each query's rows (the service's worker job, with its budget and its fair queues).
ReadElsewhere = Callable[
    [str, Sequence[tuple[str, Sequence[Any]]]], Awaitable[Sequence[Sequence[Sequence[Any]]]]
]


async def face_totals(
    db: Database,
    channel_id: int,
    *,
    systems: Sequence[str],
    user_id: int | None,
    since: datetime | None,
    limit: int,
    elsewhere: ReadElsewhere | None = None,
) -> FaceTotals:
    """The newest ``limit`` public entries of this channel (of these systems, this user, since
    then), added up by the database from each entry's tally: two grouped queries, whose rows
    are bounded by the distinct die sizes and faces, not by the entries or their faces.

    On an SQLite file, with ``elsewhere``, the queries run there (another process, on a
    read-only connection of its own): the same statements, compiled once per shape
    (:func:`_face_totals_prepared`) and sent with their parameters, so neither the aggregate
    nor the compiler (~2 ms a request) costs this process's event loop. PostgreSQL adds up
    in its own server process and an in-memory SQLite database (tests) cannot be opened by
    another process: those run in a read-only unit of work here."""
    filters: dict[str, Any] = {"user_id": user_id, "since": since, "limit": limit}
    path = db.sqlite_file
    if path is not None and elsewhere is not None:
        values = {
            "channel_id": channel_id,
            **filters,
            **{f"system_{index}": system for index, system in enumerate(systems)},
        }
        queries = []
        for prepared in _face_totals_prepared(len(systems), user_id is not None, since is not None):
            compiled = prepared.compiled(db.engine.dialect)[0]
            queries.append((compiled.sql, compiled.parameters(values)))
        entry_rows, face_rows = await elsewhere(path, queries)
        return _face_totals_of(entry_rows, face_rows)
    async with db.unit_of_work(read_only=True) as session:
        dialect = session.bind.dialect.name  # type: ignore[union-attr]
        entries, faces = _face_totals_queries(
            channel_id, systems=systems, dialect=dialect, **filters
        )
        return _face_totals_of(
            (await session.execute(entries)).all(),
            (await session.execute(faces)).all(),
        )


def _face_totals_of(entries: Sequence[Sequence[Any]], faces: Sequence[Sequence[Any]]) -> FaceTotals:
    """:class:`FaceTotals` from the rows of :func:`face_totals`' two queries, wherever they
    ran (this process's session or another process's connection)."""
    return FaceTotals(
        entries=[(row[0], row[1]) for row in entries],
        faces=[(row[0], row[1], row[2]) for row in faces],
    )


@functools.lru_cache(maxsize=64)
def _face_totals_prepared(
    systems: int, by_user: bool, since: bool
) -> tuple[PreparedSelect, PreparedSelect]:
    """:func:`_face_totals_queries` with named parameters, for the SQLite worker: one pair per
    shape (how many systems, with or without a roller and a start), compiled once per
    dialect by :class:`PreparedSelect` (its bind processors write the start as the column
    stores it)."""
    return tuple(  # type: ignore[return-value]
        PreparedSelect(query)
        for query in _face_totals_queries(
            bindparam("channel_id"),
            systems=[bindparam(f"system_{index}") for index in range(systems)],
            user_id=bindparam("user_id") if by_user else None,
            since=bindparam("since") if since else None,
            limit=bindparam("limit"),
            dialect="sqlite",
        )
    )


def _face_totals_queries(
    channel_id: Any,
    *,
    systems: Sequence[Any],
    user_id: Any,
    since: Any,
    limit: Any,
    dialect: str,
) -> tuple[Select[Any], Select[Any]]:
    """The two grouped queries of :func:`face_totals`: entries per die size, and faces per
    (die size, face), over the newest ``limit`` matching entries (each filter a value, or a
    bind parameter for :func:`_face_totals_prepared`)."""
    newest = select(RollLog.tally_sides, RollLog.tally).where(
        RollLog.channel_id == channel_id,
        RollLog.system.in_(list(systems)),
        RollLog.secret.is_(False),
    )
    if user_id is not None:
        newest = newest.where(RollLog.user_id == user_id)
    if since is not None:
        newest = newest.where(RollLog.created_at >= since)
    # OFFSET written as SQL: SQLite's compiler adds one to every LIMIT, which would otherwise be
    # an anonymous parameter that the statement compiled once could not be given.
    newest_sq = (
        newest.order_by(RollLog.id.desc())
        .limit(limit)
        .offset(literal_column("0"))
        .subquery("newest")
    )
    entries = select(newest_sq.c.tally_sides, func.count().label("entries")).group_by(
        newest_sq.c.tally_sides
    )
    # {"face": count} as (key, value) rows: json_each on SQLite, json_each_text on PostgreSQL
    # (its json_each gives the values as JSON, which SUM cannot add).
    name = "json_each_text" if dialect == "postgresql" else "json_each"
    each = getattr(func, name)(newest_sq.c.tally).table_valued("key", "value").alias("tally_face")
    sides, face = newest_sq.c.tally_sides, cast(each.c.key, Integer)
    faces = (
        select(sides, face.label("face"), func.sum(cast(each.c.value, Integer)).label("times"))
        .select_from(newest_sq.join(each, true()))
        .where(sides.is_not(None))
        .group_by(sides, face)
    )
    return entries, faces


async def search(
    session: AsyncSession,
    channel_id: int,
    *,
    include_secret: bool,
    viewer_id: int | None,
    count: int,
    system: str | None = None,
    user_id: int | None = None,
    since: datetime | None = None,
    before_id: int | None = None,
) -> list[RollLog]:
    """A page of the channel's log, newest first, filtered (the web's roll log): like
    :func:`latest` with the same secrecy rule, plus a system, a roller, a start time and
    ``before_id`` (keyset paging: the page after one ending at that id). Bounded by ``count``
    and served by the ``(channel_id, id)`` index."""
    query = _visible(channel_id, include_secret=include_secret, viewer_id=viewer_id)
    if system is not None:
        query = query.where(RollLog.system == system)
    if user_id is not None:
        query = query.where(RollLog.user_id == user_id)
    if since is not None:
        query = query.where(RollLog.created_at >= since)
    if before_id is not None:
        query = query.where(RollLog.id < before_id)
    query = query.order_by(RollLog.id.desc()).limit(count)
    return list((await session.execute(query)).scalars())


def _visible(channel_id: int, *, include_secret: bool, viewer_id: int | None) -> Select[Any]:
    """The channel's log entries that a viewer may read: secret ones with ``include_secret``
    (GMs), else only the ``viewer_id``'s own (a roller saw their secret roll already)."""
    query = select(RollLog).where(RollLog.channel_id == channel_id)
    if not include_secret:
        visible = RollLog.secret.is_(False)
        if viewer_id is not None:
            visible = or_(visible, RollLog.user_id == viewer_id)  # type: ignore[assignment]
        query = query.where(visible)
    return query
