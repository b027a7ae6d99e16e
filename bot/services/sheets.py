"""The ``/sheet`` commands' services: one unit of work each, owners change their sheets.

Reading and resources (with the GM rule) are :mod:`bot.services.characters`; this module
adds what only an owner may do: create, edit, choose, delete, export and import.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import N_, _
from bot.services import characters
from bot.services import macros as sheet_macros
from bot.services.characters import (
    ENTRY_KINDS,
    CharacterSheet,
    Kind,
    NameLookup,
    ResourceChange,
    active_row,
    check_entry_name,
    check_value,
    guild_key,
    row_by_name,
)
from bot.services.permissions import require_gm
from bot.services.sheet import (
    MAX_ATTRIBUTES,
    MAX_SKILLS,
    MAX_SPECIALTIES,
    NAME_LENGTH,
    NOTES_LENGTH,
    TEMPLATES,
    SheetFileError,
    find_key,
    name_key,
    parse_sheet,
    sheet_from_row,
)
from bot.storage import Database
from bot.storage.models import Character
from bot.storage.repositories import characters as repo
from bot.text import number
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
    name: str
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


async def _own_row(
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
                character=row.name,
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
        row = await _insert(session, actor, name, system)
        await repo.select_character(session, row, actor.user_id, actor.channel_id)
        return sheet_from_row(row)


async def _insert(
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
                name=name,
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
    async with db.unit_of_work(read_only=True) as session:
        if character:
            return await characters.character_by_name(session, actor, character, owner_id=owner_id)
        if owner_id is not None and owner_id != actor.user_id:
            return await _players_active(session, actor, owner_id)
        return await characters.active_character(session, actor)


async def _players_active(session: AsyncSession, actor: Actor, owner_id: int) -> CharacterSheet:
    await require_gm(session, actor, N_("look at another player's characters"))
    player = Actor(user_id=owner_id, channel_id=actor.channel_id, guild_id=actor.guild_id)
    try:
        row = await active_row(session, player)
    except UserError:
        raise UserError(_("That player has no active character in this channel.")) from None
    return sheet_from_row(row)


async def set_attribute(
    db: Database, actor: Actor, attribute: str, value: int | None, character: str | None = None
) -> SheetChange:
    """Set an attribute, or remove it when ``value`` is None."""
    async with db.unit_of_work() as session:
        row = await _own_row(session, actor, character)
        if value is None:
            return await _remove_entry(session, row, "attribute", attribute)
        check_value(attribute.strip(), value)
        key = find_key(row.attributes, attribute)
        if key is None and len(row.attributes) >= MAX_ATTRIBUTES:
            raise UserError(
                _(
                    "A sheet has at most {most} attributes; {character} is full.",
                    most=MAX_ATTRIBUTES,
                    character=row.name,
                )
            )
        name = _entry_name("attribute", attribute, key)
        row.attributes = _put(row.attributes, key, name, value)
        await session.flush()
        return SheetChange(sheet_from_row(row), f"{name} = {number(value)}")


async def set_skill(
    db: Database,
    actor: Actor,
    skill: str,
    ranks: int | None = None,
    *,
    attribute: str | None = None,
    specialties: str | None = None,
    character: str | None = None,
    remove: bool = False,
) -> SheetChange:
    """Add or change a skill. ``ranks`` None keeps the old ranks (a new skill needs them);
    ``attribute`` "" clears the parent attribute; ``specialties`` is a comma-separated list
    replacing the old one ("" clears). ``remove`` deletes the skill."""
    async with db.unit_of_work() as session:
        row = await _own_row(session, actor, character)
        if remove:
            return await _remove_entry(session, row, "skill", skill)
        skills = row.skills
        key = find_key(skills, skill)
        old = skills[key] if key else {}
        if ranks is None:
            if key is None:
                raise UserError(
                    _(
                        "{character} has no skill `{skill}` yet: give its ranks.",
                        character=row.name,
                        skill=skill.strip(),
                    )
                )
            ranks = int(old["ranks"])
        check_value(skill.strip(), ranks)
        if key is None and len(skills) >= MAX_SKILLS:
            raise UserError(
                _(
                    "A sheet has at most {most} skills; {character} is full.",
                    most=MAX_SKILLS,
                    character=row.name,
                )
            )
        parent = old.get("attribute")
        if attribute is not None:
            found = find_key(row.attributes, attribute) if attribute.strip() else None
            if attribute.strip() and found is None:
                raise UserError(
                    _(
                        "{character} has no attribute `{attribute}`. Attributes: {attributes}. "
                        "Set it first with `/sheet set`.",
                        character=row.name,
                        attribute=attribute.strip(),
                        attributes=", ".join(row.attributes) or _("none yet"),
                    )
                )
            parent = found
        listed = list(old.get("specialties", []))
        if specialties is not None:
            listed = [check_entry_name("specialty", s) for s in specialties.split(",") if s.strip()]
            listed = list(dict.fromkeys(listed))
            if len(listed) > MAX_SPECIALTIES:
                raise UserError(_("A skill has at most {most} specialties.", most=MAX_SPECIALTIES))
        name = _entry_name("skill", skill, key)
        value = {"ranks": ranks, "attribute": parent, "specialties": listed}
        row.skills = _put(row.skills, key, name, value)
        await session.flush()
        summary = f"{name} {number(ranks)}" + (f" ({parent})" if parent else "")
        if listed:
            summary += _(", specialties: {specialties}", specialties=", ".join(listed))
        return SheetChange(sheet_from_row(row), summary)


async def set_resource(
    db: Database,
    actor: Actor,
    resource: str,
    *,
    current: int | None = None,
    delta: int | None = None,
    maximum: int | None = None,
    character: str | None = None,
) -> ResourceChange:
    """``/sheet resource``: one unit of work around :func:`characters.adjust_resource`."""
    async with db.unit_of_work() as session:
        return await characters.adjust_resource(
            session, actor, character, resource, current=current, delta=delta, maximum=maximum
        )


async def remove_resource(
    db: Database, actor: Actor, resource: str, character: str | None = None
) -> SheetChange:
    async with db.unit_of_work() as session:
        row = await _own_row(session, actor, character)
        return await _remove_entry(session, row, "resource", resource)


async def set_notes(
    db: Database, actor: Actor, notes: str | None, character: str | None = None
) -> SheetChange:
    notes = (notes or "").strip()
    if len(notes) > NOTES_LENGTH:
        raise UserError(
            _(
                "Notes have at most {most} characters (these have {length}).",
                most=NOTES_LENGTH,
                length=len(notes),
            )
        )
    async with db.unit_of_work() as session:
        row = await _own_row(session, actor, character)
        row.notes = notes
        await session.flush()
        return SheetChange(sheet_from_row(row), _("notes updated") if notes else _("notes cleared"))


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
        owner, tuple(CharacterEntry(c.name, c.system, c.id == active_id) for c in owned)
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
                character=character.strip(),
                yours=", ".join(names) if names else _("none yet (create one with /sheet create)"),
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


async def export(db: Database, actor: Actor, character: str | None = None) -> tuple[str, bytes]:
    """The sheet as a JSON file: (file name, UTF-8 bytes)."""
    async with db.unit_of_work(read_only=True) as session:
        sheet = await characters.named_or_active(session, actor, character)
        macros = await sheet_macros.exported(session, sheet.id)
    content = sheet.to_dict()
    if macros:  # files without macros stay as they were (and as older versions read them)
        content["macros"] = macros
    data = json.dumps(content, ensure_ascii=False, indent=2).encode()
    slug = re.sub(r"[^A-Za-z0-9_-]+", "_", sheet.name).strip("_") or "character"
    return f"{slug}.json", data


async def import_sheet(
    db: Database, actor: Actor, content: bytes, *, replace: bool = False
) -> CharacterSheet:
    """Create a character from export JSON; ``replace`` overwrites your namesake."""
    check_import_size(len(content))
    try:
        decoded = json.loads(content.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SheetFileError(_("The file is not JSON ({error}).", error=error)) from None
    except (ValueError, RecursionError):
        # json's own limits: an integer of over 4,300 digits, or nesting ~1,000 levels deep.
        raise SheetFileError(
            _("The file is not a sheet: it holds a number too long or nests too deeply.")
        ) from None
    # "macros" came later: older files have none, and then the character keeps its own.
    has_macros = isinstance(decoded, dict) and "macros" in decoded
    macros = sheet_macros.parse_exported(decoded.pop("macros")) if has_macros else []
    data = parse_sheet(decoded)
    async with db.unit_of_work() as session:
        await repo.lock_owner(session, guild_key(actor), actor.user_id)  # name check exact
        existing = await repo.by_name(
            session, guild_key(actor), actor.user_id, data["name"], for_update=True
        )
        if existing is not None:
            if not replace:
                raise UserError(
                    _(
                        "You already have a character called {name}: import with "
                        "`replace:True` to overwrite it, or rename it in the file.",
                        name=existing.name,
                    )
                )
            existing.name = data["name"]
            existing.system = data["system"]
            existing.attributes = data["attributes"]
            existing.skills = data["skills"]
            existing.resources = data["resources"]
            existing.notes = data["notes"]
            await session.flush()
            if has_macros:
                await sheet_macros.replace_for_character(session, actor, existing, macros)
            return sheet_from_row(existing)
        row = await _insert(
            session,
            actor,
            data["name"],
            data["system"],
            attributes=data["attributes"],
            skills=data["skills"],
            resources=data["resources"],
            notes=data["notes"],
        )
        await sheet_macros.replace_for_character(session, actor, row, macros)
        return sheet_from_row(row)


def check_import_size(size: int) -> None:
    if size > MAX_IMPORT_BYTES:
        raise SheetFileError(
            _(
                "The file is too big: a sheet file has at most {most} KB.",
                most=MAX_IMPORT_BYTES // 1024,
            )
        )


async def _remove_entry(
    session: AsyncSession, row: Character, kind: Kind, name: str
) -> SheetChange:
    """Delete one attribute, skill or resource (its JSON column is replaced, not mutated,
    so SQLAlchemy sees the change)."""
    column = f"{kind}s"
    entries = dict(getattr(row, column))
    key = find_key(entries, name)
    if key is None:
        raise UserError(
            _(
                "{character} has no {kind} `{name}` to remove.",
                character=row.name,
                kind=_(ENTRY_KINDS[kind]),
                name=name.strip(),
            )
        )
    del entries[key]
    setattr(row, column, entries)
    await session.flush()
    return SheetChange(sheet_from_row(row), _("removed {name}", name=key))


def _entry_name(kind: str, typed: str, key: str | None) -> str:
    """An existing entry keeps its first spelling (``/sheet set attribute:" WITS "`` changes
    Wits' value, not its name); a new one is the typed name, trimmed."""
    return key if key is not None else check_entry_name(kind, typed)


def _put(entries: dict, old_key: str | None, new_key: str, value: object) -> dict:
    """A copy of ``entries`` with ``old_key`` renamed to ``new_key`` in place (or appended)."""
    if old_key is None:
        return {**entries, new_key: value}
    return {
        (new_key if k == old_key else k): (value if k == old_key else v) for k, v in entries.items()
    }


async def suggested_names(
    session: AsyncSession, actor: Actor, kind: str, prefix: str, character: str | None = None
) -> list[str]:
    """Autocomplete for editing a sheet: its own ``kind`` names ("attributes" or
    "resources"), then the system template's names it does not have yet."""
    sheet = await characters.sheet_for_autocomplete(session, actor, character)
    if sheet is None:
        return []
    existing = list(getattr(sheet, kind))
    folded = {name_key(name) for name in existing}
    template = [
        n for n in TEMPLATES.get(sheet.system, {}).get(kind, ()) if name_key(n) not in folded
    ]
    return characters.matching(existing + template, prefix)


def suggestions(kind: str) -> NameLookup:
    """:func:`suggested_names` of ``kind`` as the :data:`NameLookup` autocomplete calls."""

    async def lookup(
        session: AsyncSession, actor: Actor, prefix: str, character: str | None
    ) -> list[str]:
        return await suggested_names(session, actor, kind, prefix, character)

    return lookup
