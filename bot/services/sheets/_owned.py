"""A player's own characters: create, show, choose, list and delete them, with the owner
rule (only a character's owner changes it) and the row a change locks.

It exists as the bottom of the ``/sheet`` services: editing entries and export/import
act on the rows it finds and inserts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import N_, _
from bot.services.permissions import require_gm
from bot.services.sheets._lookup import (
    active_character,
    active_row,
    character_by_name,
    guild_key,
    row_by_name,
)
from bot.services.sheets._model import NAME_LENGTH, CharacterSheet, name_key, sheet_from_row
from bot.storage import Database
from bot.storage.models import Character
from bot.storage.repositories import characters as repo
from bot.text import UserText, listed
from engine.systems import SYSTEMS

MAX_CHARACTERS = 50  # per player and guild
MAX_IMPORT_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class SheetChange:
    """A sheet after a change, with one line saying what changed."""

    sheet: CharacterSheet
    summary: str


@dataclass(frozen=True, slots=True)
class CharacterEntry:
    """One line of a player's character list (the name as its player typed it)."""

    name: UserText
    system: str
    active: bool


@dataclass(frozen=True, slots=True)
class CharacterList:
    owner_id: int
    entries: tuple[CharacterEntry, ...]


def check_character_name(name: str) -> str:
    cleaned = " ".join(name.split())
    if not 1 <= len(cleaned) <= NAME_LENGTH:
        raise UserError(_("A character's name has 1 to {most} characters.", most=NAME_LENGTH))
    return cleaned


async def own_row(
    session: AsyncSession, actor: Actor, character: str | None, *, for_update: bool = True
) -> Character:
    """The caller's character to change, locked (unless ``for_update`` is False, to show a
    form of it): named, or the active one."""
    if not character:
        return await active_row(session, actor, for_update=for_update)
    row = await row_by_name(session, actor, character, for_update=for_update)
    if row.owner_id != actor.user_id:
        raise PermissionDenied(
            _(
                "Only {character}'s owner can change that; a GM may change its resources.",
                character=UserText(row.name),
            )
        )
    return row


async def create(db: Database, actor: Actor, name: str, system: str) -> CharacterSheet:
    name = check_character_name(name)
    if system not in SYSTEMS:
        raise UserError(
            _(
                "Unknown system `{system}`. Systems: {systems}.",
                system=system,
                systems=", ".join(SYSTEMS),
            )
        )
    async with db.unit_of_work() as session:
        row = await insert_character(session, actor, name, system)
        await repo.select_character(session, row, actor.user_id, actor.channel_id)
        return sheet_from_row(row)


async def insert_character(
    session: AsyncSession,
    actor: Actor,
    name: str,
    system: str,
    *,
    attributes: dict[str, Any] | None = None,
    skills: dict[str, Any] | None = None,
    resources: dict[str, Any] | None = None,
    notes: str = "",
) -> Character:
    # Without the lock, two creates at once both count 49 and both insert a 50th and 51st.
    await repo.lock_owner(session, guild_key(actor), actor.user_id)
    owned = await repo.owned(session, guild_key(actor), actor.user_id)
    if any(c.name_key == name_key(name) for c in owned):
        raise UserError(
            _(
                "You already have a character called {name} (names ignore case): "
                "pick another name, or delete it first with `/sheet delete`.",
                name=UserText(name),
            )
        )
    if len(owned) >= MAX_CHARACTERS:
        raise UserError(
            _("A player has at most {most} characters in a server.", most=MAX_CHARACTERS)
        )
    row = Character(
        guild_id=guild_key(actor),
        owner_id=actor.user_id,
        name=name,
        name_key=name_key(name),
        system=system,
        attributes=attributes or {},
        skills=skills or {},
        resources=resources or {},
        notes=notes,
    )
    session.add(row)
    await session.flush()
    return row


async def show(
    db: Database, actor: Actor, character: str | None = None, owner_id: int | None = None
) -> CharacterSheet:
    """Your sheet (named or active); a GM also reads the channel's characters."""
    if not character and owner_id in (None, actor.user_id):
        # The common case, your only character, is one statement; none or several (a choice
        # to read, or an error to explain) take the unit of work below.
        owned = await repo.owned_snapshot(db, guild_key(actor), actor.user_id)
        if len(owned) == 1:
            return sheet_from_row(owned[0])
    async with db.unit_of_work(read_only=True) as session:
        if character:
            return await character_by_name(session, actor, character, owner_id=owner_id)
        if owner_id is not None and owner_id != actor.user_id:
            return await _players_active(session, actor, owner_id)
        return await active_character(session, actor)


async def _players_active(session: AsyncSession, actor: Actor, owner_id: int) -> CharacterSheet:
    await require_gm(session, actor, N_("look at another player's characters"))
    player = Actor(user_id=owner_id, channel_id=actor.channel_id, guild_id=actor.guild_id)
    try:
        row = await active_row(session, player)
    except UserError:
        raise UserError(_("That player has no active character in this channel.")) from None
    return sheet_from_row(row)


async def use(db: Database, actor: Actor, character: str) -> CharacterSheet:
    async with db.unit_of_work() as session:
        row = await _owned_by_name(session, actor, character)
        await repo.select_character(session, row, actor.user_id, actor.channel_id)
        return sheet_from_row(row)


async def list_characters(db: Database, actor: Actor, owner_id: int | None = None) -> CharacterList:
    owner = actor.user_id if owner_id is None else owner_id
    async with db.unit_of_work(read_only=True) as session:
        if owner != actor.user_id:
            await require_gm(session, actor, N_("list another player's characters"))
        player = Actor(user_id=owner, channel_id=actor.channel_id, guild_id=actor.guild_id)
        owned = await repo.owned(session, guild_key(actor), owner)
        try:
            active_id = (await active_row(session, player)).id
        except UserError:
            active_id = None
    return CharacterList(
        owner, tuple(CharacterEntry(UserText(c.name), c.system, c.id == active_id) for c in owned)
    )


async def own_character(db: Database, actor: Actor, character: str) -> CharacterSheet:
    """The caller's own character by name (what ``/sheet delete`` asks to confirm)."""
    async with db.unit_of_work(read_only=True) as session:
        row = await _owned_by_name(
            session, actor, character, note=" " + _("Only a character's owner can delete it.")
        )
        return sheet_from_row(row)


async def _owned_by_name(
    session: AsyncSession, actor: Actor, character: str, *, note: str = ""
) -> Character:
    """The caller's own character called ``character``; the refusal lists theirs."""
    row = await repo.by_name(session, guild_key(actor), actor.user_id, character)
    if row is None:
        names = [c.name for c in await repo.owned(session, guild_key(actor), actor.user_id)]
        raise UserError(
            _(
                "You have no character called `{character}`. Yours: {yours}.",
                character=UserText(character.strip()),
                yours=listed(names) if names else _("none yet (create one with /sheet create)"),
            )
            + note
        )
    return row


async def delete(db: Database, actor: Actor, character_id: int) -> str:
    async with db.unit_of_work() as session:
        row = await repo.by_id(session, character_id, for_update=True)
        if row is None:
            raise UserError(_("That character was already deleted."))
        if row.owner_id != actor.user_id:
            raise PermissionDenied(_("Only a character's owner can delete it."))
        name = row.name
        await session.delete(row)
        await session.flush()
        return name
