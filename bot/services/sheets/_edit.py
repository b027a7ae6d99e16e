"""A sheet in one go: ``/sheet edit`` forms, ``/sheet rename`` and ``/sheet copy``.

One unit of work each, like :mod:`bot.services.sheets` (whose ownership rule they share:
only a character's owner changes it). A form is built from the sheet when the modal opens
and read back against the sheet as it is when the modal is submitted, so a change made
meanwhile by another command is never silently mixed with a stale form.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import _
from bot.services.sheets._form import Part, SheetForm, build_form, read_form
from bot.services.sheets._lookup import named_or_active
from bot.services.sheets._model import CharacterSheet, name_key, sheet_from_row
from bot.services.sheets._owned import SheetChange, check_character_name, insert_character, own_row
from bot.storage import Database
from bot.storage.models import Character
from bot.storage.repositories import characters as repo
from bot.text import UserText, listed


async def form(db: Database, actor: Actor, part: Part, character: str | None = None) -> SheetForm:
    """The form for one part of the caller's own character (named, or the active one)."""
    async with db.unit_of_work(read_only=True) as session:
        row = await own_row(session, actor, character, for_update=False)
        return build_form(sheet_from_row(row), part)


async def submit(
    db: Database, actor: Actor, character_id: int, part: Part, values: Mapping[str, str]
) -> SheetChange:
    """Replace the part of the sheet the form showed with what the form now says."""
    async with db.unit_of_work() as session:
        row = await _owned_row_by_id(session, actor, character_id)
        sheet = sheet_from_row(row)
        shown = build_form(sheet, part)
        read = read_form(shown, values, sheet.attributes)
        if part == "skills":
            assert read.skills is not None
            row.skills = read.skills
            summary = _("skills: {count}", count=len(read.skills))
        else:
            assert read.attributes is not None and read.resources is not None
            row.attributes = read.attributes
            row.resources = read.resources
            row.notes = read.notes or ""
            summary = _(
                "attributes: {attributes}, resources: {resources}",
                attributes=len(read.attributes),
                resources=len(read.resources),
            )
            orphans = _orphaned_skills(row)
            if orphans:
                summary += " " + _(
                    "(skills now without their attribute: {skills})", skills=listed(orphans)
                )
        await session.flush()
        return SheetChange(sheet_from_row(row), _("edited in one go — {summary}", summary=summary))


def _orphaned_skills(row: Character) -> list[str]:
    """Skills whose parent attribute the form removed (they say so when rolled)."""
    keys = {name_key(a) for a in row.attributes}
    return [
        name
        for name, skill in row.skills.items()
        if skill.get("attribute") and name_key(skill["attribute"]) not in keys
    ]


async def _owned_row_by_id(session: AsyncSession, actor: Actor, character_id: int) -> Character:
    row = await repo.by_id(session, character_id, for_update=True)
    if row is None:
        raise UserError(_("That character was deleted meanwhile: nothing was saved."))
    if row.owner_id != actor.user_id:
        raise PermissionDenied(
            _("Only {character}'s owner can change that.", character=UserText(row.name))
        )
    return row


async def rename(db: Database, actor: Actor, character: str, new_name: str) -> SheetChange:
    """Rename one of the caller's characters (a change of case alone is allowed)."""
    new_name = check_character_name(new_name)
    try:
        async with db.unit_of_work() as session:
            row = await own_row(session, actor, character)
            old = row.name
            clash = await repo.by_name(session, row.guild_id, actor.user_id, new_name)
            if clash is not None and clash.id != row.id:
                raise UserError(
                    _("You already have a character called {name}.", name=UserText(clash.name))
                )
            row.name = new_name
            row.name_key = name_key(new_name)
            await session.flush()
            return SheetChange(sheet_from_row(row), _("renamed from {name}", name=UserText(old)))
    except IntegrityError as error:  # a simultaneous create took the name
        raise UserError(
            _("You already have a character called {name}.", name=UserText(new_name))
        ) from error


async def copy(db: Database, actor: Actor, character: str | None, new_name: str) -> CharacterSheet:
    """A new character of the caller's, copied from a sheet they can read (their own, or as a
    GM one used in this channel): a template for the next NPC or a twin."""
    new_name = check_character_name(new_name)
    try:
        async with db.unit_of_work() as session:
            source = await named_or_active(session, actor, character)
            row = await insert_character(
                session,
                actor,
                new_name,
                source.system,
                **{k: v for k, v in source.to_dict().items() if k not in ("name", "system")},
            )
            return sheet_from_row(row)
    except IntegrityError as error:
        raise UserError(
            _("You already have a character called {name}.", name=UserText(new_name))
        ) from error
