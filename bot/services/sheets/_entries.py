"""Editing a sheet's entries: attributes, skills (with specialties), resources and notes,
renamed or removed, and the suggested names autocomplete offers for each kind.

It exists to keep the edits of a sheet apart from owning characters
(:mod:`bot.services.sheets._owned`).
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.services.sheets._model import (
    ENTRY_KINDS,
    MAX_ATTRIBUTES,
    MAX_SKILLS,
    MAX_SPECIALTIES,
    NOTES_LENGTH,
    Kind,
    find_key,
    name_key,
    sheet_from_row,
)
from bot.services.sheets._names import NameLookup, matching, sheet_for_autocomplete
from bot.services.sheets._owned import (
    SheetChange,
    own_row,
)
from bot.services.sheets._resources import (
    ResourceChange,
    adjust_resource,
    check_entry_name,
    check_value,
)
from bot.services.sheets._templates import TEMPLATES
from bot.storage import Database
from bot.storage.models import Character
from bot.text import UserText, listed, number


async def set_attribute(
    db: Database, actor: Actor, attribute: str, value: int | None, character: str | None = None
) -> SheetChange:
    """Set an attribute, or remove it when ``value`` is None."""
    async with db.unit_of_work() as session:
        row = await own_row(session, actor, character)
        if value is None:
            return await _remove_entry(session, row, "attribute", attribute)
        check_value(UserText(attribute.strip()), value)
        key = find_key(row.attributes, attribute)
        if key is None and len(row.attributes) >= MAX_ATTRIBUTES:
            raise UserError(
                _(
                    "A sheet has at most {most} attributes; {character} is full.",
                    most=MAX_ATTRIBUTES,
                    character=UserText(row.name),
                )
            )
        name = _entry_name("attribute", attribute, key)
        row.attributes = _put(row.attributes, key, name, value)
        await session.flush()
        return SheetChange(sheet_from_row(row), f"{UserText(name)} = {number(value)}")


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
        row = await own_row(session, actor, character)
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
                        character=UserText(row.name),
                        skill=UserText(skill.strip()),
                    )
                )
            ranks = int(old["ranks"])
        check_value(UserText(skill.strip()), ranks)
        if key is None and len(skills) >= MAX_SKILLS:
            raise UserError(
                _(
                    "A sheet has at most {most} skills; {character} is full.",
                    most=MAX_SKILLS,
                    character=UserText(row.name),
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
                        character=UserText(row.name),
                        attribute=UserText(attribute.strip()),
                        attributes=listed(row.attributes) or _("none yet"),
                    )
                )
            parent = found
        specialties_ = list(old.get("specialties", []))
        if specialties is not None:
            specialties_ = [
                check_entry_name("specialty", s) for s in specialties.split(",") if s.strip()
            ]
            specialties_ = list(dict.fromkeys(specialties_))
            if len(specialties_) > MAX_SPECIALTIES:
                raise UserError(_("A skill has at most {most} specialties.", most=MAX_SPECIALTIES))
        name = _entry_name("skill", skill, key)
        value = {"ranks": ranks, "attribute": parent, "specialties": specialties_}
        row.skills = _put(row.skills, key, name, value)
        await session.flush()
        summary = f"{UserText(name)} {number(ranks)}" + (f" ({UserText(parent)})" if parent else "")
        if specialties_:
            summary += _(", specialties: {specialties}", specialties=listed(specialties_))
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
    """``/sheet resource``: one unit of work around :func:`adjust_resource`."""
    async with db.unit_of_work() as session:
        return await adjust_resource(
            session, actor, character, resource, current=current, delta=delta, maximum=maximum
        )


async def remove_resource(
    db: Database, actor: Actor, resource: str, character: str | None = None
) -> SheetChange:
    async with db.unit_of_work() as session:
        row = await own_row(session, actor, character)
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
        row = await own_row(session, actor, character)
        row.notes = notes
        await session.flush()
        return SheetChange(sheet_from_row(row), _("notes updated") if notes else _("notes cleared"))


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
                character=UserText(row.name),
                kind=_(ENTRY_KINDS[kind]),
                name=UserText(name.strip()),
            )
        )
    del entries[key]
    setattr(row, column, entries)
    await session.flush()
    return SheetChange(sheet_from_row(row), _("removed {name}", name=UserText(key)))


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
    sheet = await sheet_for_autocomplete(session, actor, character)
    if sheet is None:
        return []
    existing = list(getattr(sheet, kind))
    folded = {name_key(name) for name in existing}
    template = [
        n for n in TEMPLATES.get(sheet.system, {}).get(kind, ()) if name_key(n) not in folded
    ]
    return matching(existing + template, prefix)


def suggestions(kind: str) -> NameLookup:
    """:func:`suggested_names` of ``kind`` as the :data:`NameLookup` autocomplete calls."""

    async def lookup(
        session: AsyncSession, actor: Actor, prefix: str, character: str | None
    ) -> list[str]:
        return await suggested_names(session, actor, kind, prefix, character)

    return lookup
