"""Macros: an owner's list, one by name, the free slot for a new one."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage.models import Macro
from bot.storage.models.macros import MAX_PER_SCOPE

#: One owner of macros: (scope, owner_id).
Owner = tuple[str, int]


async def owned(session: AsyncSession, guild_id: int, owners: Sequence[Owner]) -> list[Macro]:
    """Every macro of these owners, by name."""
    if not owners:
        return []
    query = (
        select(Macro)
        .where(
            Macro.guild_id == guild_id,
            or_(*(and_(Macro.scope == scope, Macro.owner_id == owner) for scope, owner in owners)),
        )
        .order_by(Macro.name_key, Macro.id)
    )
    return list((await session.execute(query)).scalars())


async def by_name(
    session: AsyncSession, guild_id: int, owner: Owner, name_key: str, *, for_update: bool = False
) -> Macro | None:
    query = select(Macro).where(
        Macro.guild_id == guild_id,
        Macro.scope == owner[0],
        Macro.owner_id == owner[1],
        Macro.name_key == name_key,
    )
    if for_update:
        query = query.with_for_update().execution_options(populate_existing=True)
    return (await session.execute(query)).scalar_one_or_none()


async def by_id(session: AsyncSession, macro_id: int) -> Macro | None:
    return await session.get(Macro, macro_id)


async def free_slot(session: AsyncSession, guild_id: int, owner: Owner) -> int | None:
    """The lowest slot this owner has free, or None when all ``MAX_PER_SCOPE`` are taken.

    Two saves reading the same free slot both try it; the unique constraint lets one win.
    """
    query = select(Macro.slot).where(
        Macro.guild_id == guild_id, Macro.scope == owner[0], Macro.owner_id == owner[1]
    )
    taken = set((await session.execute(query)).scalars())
    return next((slot for slot in range(MAX_PER_SCOPE) if slot not in taken), None)


async def of_character(session: AsyncSession, character_id: int) -> list[Macro]:
    """A character's macros, most used first (its quick-roll panel, its export)."""
    query = (
        select(Macro)
        .where(Macro.character_id == character_id)
        .order_by(Macro.uses.desc(), Macro.name_key)
    )
    return list((await session.execute(query)).scalars())
