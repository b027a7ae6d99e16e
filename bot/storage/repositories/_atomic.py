"""Race-free building blocks for repositories: create-if-missing and a lock on a parent key.

Two commands that both find a row missing and both insert it made the loser fail with a
unique violation ("Something went wrong"); two commands that both count below a limit and
both insert went one past it. Here the database decides instead, the same way on SQLite and
PostgreSQL: ``INSERT … ON CONFLICT DO NOTHING`` (then lock whichever row won), and a lock on
the parent a limit counts under, taken before counting.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Insert, Table, inspect, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession


async def insert_missing(
    session: AsyncSession, model: type[Any], keys: Sequence[str], **values: Any
) -> None:
    """Insert the row unless one with the same ``keys`` exists (a concurrent one included).

    Column defaults apply as for an ORM insert. Read the row afterwards, locked, to use it.
    """
    table, dialect = model.__table__, session.get_bind().dialect.name
    statement = _statement(dialect, table, _columns(model, keys), None)
    await session.execute(statement, _by_column(model, values))


async def upsert(
    session: AsyncSession,
    model: type[Any],
    keys: Sequence[str],
    update: Iterable[str],
    **values: Any,
) -> None:
    """Insert the row, or set the ``update`` columns of the existing one to these values."""
    table, dialect = model.__table__, session.get_bind().dialect.name
    statement = _statement(dialect, table, _columns(model, keys), _columns(model, update))
    await session.execute(statement, _by_column(model, values))


@functools.lru_cache(maxsize=64)
def _statement(
    dialect: str, table: Table, keys: tuple[str, ...], update: tuple[str, ...] | None
) -> Insert:
    """The ``INSERT … ON CONFLICT`` of ``table``, built once and given its values as
    parameters. Built for each call, it copied every column into its ``excluded`` alias and
    left dozens of objects a call in reference cycles: with a member's record written as it
    changes, most of what the cyclic collector found under load (measured 2026-11-28,
    docs/performance.md). A Core insert of the table: an upsert loads no ORM object."""
    statement = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)
    if update is None:
        return statement.on_conflict_do_nothing(index_elements=list(keys))
    return statement.on_conflict_do_update(
        index_elements=list(keys),
        set_={column: statement.excluded[column] for column in update},
    )


def _columns(model: type[Any], keys: Iterable[str]) -> tuple[str, ...]:
    """The column names behind ``model``'s attributes ``keys``."""
    columns = inspect(model).columns
    return tuple(columns[key].name for key in keys)


def _by_column(model: type[Any], values: dict[str, Any]) -> dict[str, Any]:
    return dict(zip(_columns(model, values), values.values(), strict=True))


async def lock_parent(session: AsyncSession, scope: str, *ids: int | None) -> None:
    """Hold the lock on ``scope``'s parent ``ids`` until the transaction ends.

    Take it before counting or checking children (a player's characters in a guild, a
    channel's extended tests) so concurrent commands on the same parent run one after the
    other and a limit or a name check stays exact. The parent often has no row of its own
    (a player), so on PostgreSQL this is a transaction-scoped advisory lock on a 64-bit hash
    of the key (a collision only makes two parents wait for each other). On SQLite nothing
    more is needed: every writing unit of work begins with ``BEGIN IMMEDIATE`` and so already
    holds the database's one write lock, across processes, until it ends.
    """
    if session.get_bind().dialect.name != "postgresql":
        return
    await session.execute(
        text("SELECT pg_advisory_xact_lock(:key)"), {"key": parent_key(scope, *ids)}
    )


def parent_key(scope: str, *ids: int | None) -> int:
    """A stable signed 64-bit key for ``scope`` and ``ids`` (PostgreSQL's bigint)."""
    raw = ":".join([scope, *("" if i is None else str(i) for i in ids)]).encode()
    return int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "big", signed=True)
