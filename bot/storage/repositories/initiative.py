"""Initiative encounters: the channel's active one (locked when it is to change).

A change to an encounter (``/init next`` and every other ``/init`` change) reads the row
locked and writes it back with direct statements (:func:`lock`, :func:`write`): one
``SELECT … FOR UPDATE`` and one ``UPDATE`` built once, with no ORM object, identity map or
unit-of-work flush between them, which cost more CPU than the statements themselves
(docs/performance.md). The ORM row (:func:`active`) stays for reads and for the other
features that change an encounter in passing.

:func:`locked` and :func:`write_locked` are the same two statements in a transaction of
their own, without a unit of work (:func:`bot.storage.one_statement.locked_row`): for a
change that needs nothing else from the database in its transaction (``/init next``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Table, and_, bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.db import Database
from bot.storage.models import InitiativeEncounter
from bot.storage.models.base import utcnow
from bot.storage.one_statement import (
    LockedRow,
    PreparedSelect,
    PreparedUpdate,
    locked_row,
    update_returning,
)
from bot.storage.repositories import _channel_state

ENDED = "ended"


@dataclass(frozen=True, slots=True)
class Locked:
    """The channel's running encounter as one change read it, its row locked until the
    change's transaction ends: the columns a change reads, as plain values."""

    id: int
    guild_id: int | None
    channel_id: int
    started_by: int
    status: str
    state: dict[str, Any]
    attribute: str | None
    dice: str | None
    tracker_message_id: int | None
    language: str | None
    revision: int
    updated_at: datetime  # with the revision, what write_seen checks (ids can be reused)


#: An encounter as the services read it: the ORM row (reads, a new encounter) or a locked one.
Encounter = InitiativeEncounter | Locked

_TABLE: Table = InitiativeEncounter.__table__  # type: ignore[assignment]
_COLUMNS = tuple(_TABLE.c[field.name] for field in dataclasses.fields(Locked))
# Built once: building a statement costs more than running it (docs/decisions/hot-path.md).
_LOCK = (
    select(*_COLUMNS).where(_TABLE.c.active_channel_id == bindparam("channel_id")).with_for_update()
)
# The revision read under the lock is checked again: a writer that did not take the lock
# (a bug) makes the change fail instead of overwriting a state it never saw.
_SAME_ROW = and_(_TABLE.c.id == bindparam("row_id"), _TABLE.c.revision == bindparam("seen"))
_UPDATE = (
    update(_TABLE)
    .where(_SAME_ROW)
    .values(
        state=bindparam("state"),
        revision=bindparam("revision"),
        updated_at=bindparam("now"),
    )
)
_CLOSE = _UPDATE.values(status=bindparam("status"), active_channel_id=None)
# The same two statements outside a unit of work (:func:`locked`, :func:`write_locked`).
_LOCK_ROW = PreparedSelect(_LOCK)
_UPDATE_ROW = PreparedUpdate(_UPDATE)
# The UPDATE as a compare-and-set of its own (:func:`write_seen`): the row's other columns back.
_UPDATE_SEEN = PreparedSelect(
    _UPDATE.where(
        _TABLE.c.active_channel_id == bindparam("channel_id"),
        _TABLE.c.updated_at == bindparam("seen_at"),
    ).returning(*(column for column in _COLUMNS if column.key != "state"))
)


class LostLock(RuntimeError):
    """The locked row changed or went before its change's UPDATE (nothing is written)."""


async def active(
    session: AsyncSession, channel_id: int, *, for_update: bool = False
) -> InitiativeEncounter | None:
    return await _channel_state.active(
        session, InitiativeEncounter, channel_id, for_update=for_update
    )


async def lock(session: AsyncSession, channel_id: int) -> Locked | None:
    """The channel's running encounter, its row locked for this transaction (``FOR UPDATE``
    on PostgreSQL; on SQLite the write transaction's ``BEGIN IMMEDIATE`` holds the file)."""
    found = (await session.execute(_LOCK, {"channel_id": channel_id})).first()
    return None if found is None else Locked(*found)


async def write(
    session: AsyncSession, row: Locked, state: dict[str, Any], *, close: bool = False
) -> Locked:
    """Write the locked encounter's new state and bump its revision, in one UPDATE; with
    ``close`` it ends too (:data:`ENDED`) and frees its channel. Returns the row as written.

    Every writer of ``state`` bumps the revision (:func:`store` for the ORM row), so the
    tracker can tell which of two views is newer.
    """
    values = _written(row, state)
    if close:
        values["status"] = ENDED
    result = await session.execute(_CLOSE if close else _UPDATE, values)
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise LostLock(f"encounter {row.id} changed under its lock")
    status = ENDED if close else row.status
    return dataclasses.replace(
        row, status=status, state=state, revision=row.revision + 1, updated_at=values["now"]
    )


def _written(row: Locked, state: dict[str, Any]) -> dict[str, Any]:
    """The UPDATE's values: the new state, the revision bumped from the one read locked."""
    return {
        "row_id": row.id,
        "seen": row.revision,
        "state": state,
        "revision": row.revision + 1,
        "now": utcnow(),
    }


@asynccontextmanager
async def locked(db: Database, channel_id: int) -> AsyncIterator[tuple[LockedRow, Locked | None]]:
    """The channel's running encounter (None: none runs) read locked in a transaction of
    its own, as :func:`lock` reads it; :func:`write_locked` writes it back and commits. A
    block that ends without writing, or raises, rolls back."""
    async with locked_row(db, _LOCK_ROW, {"channel_id": channel_id}) as locking:
        found = locking.row
        yield locking, None if found is None else Locked(*found)


async def write_locked(locking: LockedRow, row: Locked, state: dict[str, Any]) -> Locked:
    """:func:`write` for a row :func:`locked` read: the UPDATE and the commit in one trip.
    Returns the row as committed; raises :class:`LostLock` (nothing written) as ``write``."""
    values = _written(row, state)
    if not await locking.write(_UPDATE_ROW, values):
        raise LostLock(f"encounter {row.id} changed under its lock")
    return dataclasses.replace(
        row, state=state, revision=row.revision + 1, updated_at=values["now"]
    )


def start(session: AsyncSession, **columns: Any) -> InitiativeEncounter:
    return _channel_state.start(session, InitiativeEncounter, **columns)


def store(row: InitiativeEncounter, state: dict[str, Any]) -> None:
    """Write the ORM row's new state and bump its revision, in the same UPDATE.

    The row is locked by the caller's transaction (``active(..., for_update=True)``), so
    the increment cannot be lost; every writer of ``state`` goes through here or
    :func:`write`.
    """
    row.state = state
    row.revision += 1


async def write_seen(db: Database, row: Locked, state: dict[str, Any]) -> Locked | None:
    """:func:`write` without reading the row again: one ``UPDATE … RETURNING``, a
    transaction of its own, that writes only while the encounter still runs in its channel
    at the revision ``row`` was read at (the check a locked read makes, as one
    compare-and-set; with the time of that write, as a reused id or a restored database
    could show the same revision of another state). The row as committed (its other
    columns as they are now), or None: it moved on, nothing written."""
    values = _written(row, state)
    values["channel_id"] = row.channel_id
    values["seen_at"] = row.updated_at
    found = await update_returning(db, _UPDATE_SEEN, values)
    return None if found is None else Locked(state=state, **found._asdict())
