"""Autocomplete of characters and of a sheet's names (attributes, skills, resources):
the matching names, and the one read-only unit of work autocomplete opens.

It exists to keep autocomplete's lookups apart from the lookups a command acts on
(:mod:`bot.services.sheets._lookup`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.services.permissions import is_gm
from bot.services.sheets._lookup import (
    guild_key,
    named_or_active,
    split_owner,
    with_owner,
)
from bot.services.sheets._model import CharacterSheet
from bot.storage import Database
from bot.storage.repositories import characters as repo

AUTOCOMPLETE_LIMIT = 25


# --- autocomplete ------------------------------------------------------------------------


def matching(names: list[str], prefix: str) -> list[str]:
    """Names starting with ``prefix`` first, then names containing it (case-insensitive)."""
    wanted = prefix.strip().casefold()
    unique = list(dict.fromkeys(names))
    starts = [n for n in unique if n.casefold().startswith(wanted)]
    contains = [n for n in unique if wanted in n.casefold() and n not in starts]
    return (starts + contains)[:AUTOCOMPLETE_LIMIT]


async def character_names(
    session: AsyncSession, actor: Actor, prefix: str, _character: str | None = None
) -> list[str]:
    """The caller's characters, and for a GM also the channel's characters (``_character``
    unused: it makes this a :data:`NameLookup` like the lookups of a sheet's names).

    Another player's character whose name the GM could not reach alone (a name shared by
    two players here, or with one of the GM's own) comes with its player
    (:func:`with_owner`), so every suggestion names exactly one character."""
    own = await repo.owned(session, guild_key(actor), actor.user_id)
    names = [c.name for c in own]
    if await is_gm(session, actor):
        others = [
            c
            for c in await repo.in_channel(session, guild_key(actor), actor.channel_id)
            if c.owner_id != actor.user_id
        ]
        taken = {c.name_key for c in own}
        counts: dict[str, int] = {}
        for c in others:
            counts[c.name_key] = counts.get(c.name_key, 0) + 1
        names += [
            with_owner(c.name, c.owner_id)
            if c.name_key in taken or counts[c.name_key] > 1
            else c.name
            for c in others
        ]
    return matching(names, split_owner(prefix)[0])


async def sheet_for_autocomplete(
    session: AsyncSession, actor: Actor, character: str | None
) -> CharacterSheet | None:
    """:func:`named_or_active`, or None where it would refuse: autocomplete offers nothing
    rather than an error while the user is still typing."""
    try:
        return await named_or_active(session, actor, character)
    except UserError:
        return None


async def attribute_names(
    session: AsyncSession, actor: Actor, prefix: str, character: str | None = None
) -> list[str]:
    """Attributes of the named character, or of the active one (empty when there is none)."""
    sheet = await sheet_for_autocomplete(session, actor, character)
    return matching(list(sheet.attributes), prefix) if sheet else []


async def skill_names(
    session: AsyncSession, actor: Actor, prefix: str, character: str | None = None
) -> list[str]:
    sheet = await sheet_for_autocomplete(session, actor, character)
    return matching(list(sheet.skills), prefix) if sheet else []


async def resource_names(
    session: AsyncSession, actor: Actor, prefix: str, character: str | None = None
) -> list[str]:
    sheet = await sheet_for_autocomplete(session, actor, character)
    return matching(list(sheet.resources), prefix) if sheet else []


NameLookup = Callable[[AsyncSession, Actor, str, str | None], Awaitable[list[str]]]


async def suggest(
    db: Database, actor: Actor, lookup: NameLookup, prefix: str, character: str | None
) -> list[str]:
    """Autocomplete's one read: ``lookup``'s names in a read-only unit of work."""
    async with db.unit_of_work(read_only=True) as session:
        return await lookup(session, actor, prefix, character)
