"""Characters: lookups by owner, by name and by channel, and the per-channel selection."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.db import Database
from bot.storage.models import ActiveCharacter, Character, RollLog
from bot.storage.one_statement import PreparedSelect, select_rows
from bot.storage.repositories._atomic import lock_parent, upsert


async def lock_owner(session: AsyncSession, guild_id: int, owner_id: int) -> None:
    """Hold the player's lock in the guild (before checking names and the character limit)."""
    await lock_parent(session, "characters", guild_id, owner_id)


_OWNED = (
    select(Character)
    .where(Character.guild_id == bindparam("guild_id"), Character.owner_id == bindparam("owner"))
    .order_by(Character.name_key)
)  # built once: every sheet read and sheet roll runs it (docs/decisions/hot-path.md)


async def owned(session: AsyncSession, guild_id: int, owner_id: int) -> list[Character]:
    parameters = {"guild_id": guild_id, "owner": owner_id}
    return list((await session.execute(_OWNED, parameters)).scalars())


_OWNED_COLUMNS = PreparedSelect(
    select(*Character.__table__.columns)
    .where(Character.guild_id == bindparam("guild_id"), Character.owner_id == bindparam("owner"))
    .order_by(Character.name_key)
)


async def owned_snapshot(db: Database, guild_id: int, owner_id: int) -> list[Any]:
    """:func:`owned`'s rows for a read that is this one statement (``/sheet show``): every
    column, as read-only named tuples, without a unit of work
    (:func:`bot.storage.one_statement.select_rows`)."""
    return await select_rows(db, _OWNED_COLUMNS, {"guild_id": guild_id, "owner": owner_id})


async def by_name(
    session: AsyncSession, guild_id: int, owner_id: int, name: str, *, for_update: bool = False
) -> Character | None:
    query = select(Character).where(
        Character.guild_id == guild_id,
        Character.owner_id == owner_id,
        Character.name_key == " ".join(name.split()).casefold(),  # = services.sheet.name_key
    )
    if for_update:
        # populate_existing: a row read earlier in this transaction is refreshed under the lock.
        query = query.with_for_update().execution_options(populate_existing=True)
    return (await session.execute(query)).scalar_one_or_none()


async def of_owners(session: AsyncSession, owner_ids: set[int]) -> list[Character]:
    """Every character of these players (in any guild), for the tracker's Health column."""
    if not owner_ids:
        return []
    query = select(Character).where(Character.owner_id.in_(owner_ids)).order_by(Character.id)
    return list((await session.execute(query)).scalars())


async def attribute_maps(session: AsyncSession, guild_id: int, system: str) -> list[Any]:
    """The attributes of every character of ``system`` in the guild (names an encounter's
    initiative attribute may take)."""
    query = select(Character.attributes).where(
        Character.guild_id == guild_id, Character.system == system
    )
    return [row or {} for row in (await session.execute(query)).scalars()]


async def named(session: AsyncSession, guild_id: int, name: str) -> list[Character]:
    """Every player's character of that name in the guild (to explain why one is out of reach)."""
    query = (
        select(Character)
        .where(
            Character.guild_id == guild_id,
            Character.name_key == " ".join(name.split()).casefold(),
        )
        .order_by(Character.id)
    )
    return list((await session.execute(query)).scalars())


async def by_id(
    session: AsyncSession, character_id: int, *, for_update: bool = False
) -> Character | None:
    query = select(Character).where(Character.id == character_id)
    if for_update:
        # populate_existing: a row read earlier in this transaction is refreshed under the lock.
        query = query.with_for_update().execution_options(populate_existing=True)
    return (await session.execute(query)).scalar_one_or_none()


async def selected(session: AsyncSession, user_id: int, channel_id: int) -> Character | None:
    """The character ``user_id`` chose with ``/sheet use`` in ``channel_id``, if any."""
    query = (
        select(Character)
        .join(ActiveCharacter, ActiveCharacter.character_id == Character.id)
        .where(ActiveCharacter.user_id == user_id, ActiveCharacter.channel_id == channel_id)
    )
    return (await session.execute(query)).scalar_one_or_none()


async def select_character(
    session: AsyncSession, character: Character, user_id: int, channel_id: int
) -> None:
    """Make ``character`` the user's choice in the channel (one upsert: no lost race)."""
    await upsert(
        session,
        ActiveCharacter,
        ["user_id", "channel_id"],
        ["character_id", "guild_id", "updated_at"],
        user_id=user_id,
        channel_id=channel_id,
        guild_id=character.guild_id,
        character_id=character.id,
    )


async def in_channel(session: AsyncSession, guild_id: int, channel_id: int) -> list[Character]:
    """Characters used in a channel: chosen there with ``/sheet use``, or the only character
    of a player who has rolled there (a single character is active everywhere).

    Two indexed reads whose cost follows the channel (its choices, its rollers' characters),
    not the guild: one query with ``chosen OR single roller`` walked every character of the
    guild (60 ms for 100,000 on SQLite, for each GM's sheet autocomplete; issue 31).
    """
    chosen = select(ActiveCharacter.character_id).where(ActiveCharacter.channel_id == channel_id)
    rollers = select(RollLog.user_id).where(RollLog.channel_id == channel_id).distinct()
    single_rollers = (
        select(Character.owner_id)
        .where(Character.guild_id == guild_id, Character.owner_id.in_(rollers))
        .group_by(Character.owner_id)
        .having(func.count(Character.id) == 1)
    )
    # The chosen ones by id alone: with the guild in the WHERE too, SQLite walks the guild's
    # index instead of looking the ids up. Another guild's row is dropped below.
    found = {
        row.id: row
        for row in (
            await session.execute(select(Character).where(Character.id.in_(chosen)))
        ).scalars()
    }
    singles = select(Character).where(
        Character.guild_id == guild_id, Character.owner_id.in_(single_rollers)
    )
    found.update((row.id, row) for row in (await session.execute(singles)).scalars())
    return sorted(
        (row for row in found.values() if row.guild_id == guild_id),
        key=lambda row: (row.name_key, row.id),
    )
