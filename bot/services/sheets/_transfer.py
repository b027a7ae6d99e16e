"""Exporting a sheet to a JSON file and importing one as a new character, within the
size and count limits.

It exists to keep files in and out apart from owning characters
(:mod:`bot.services.sheets._owned`).
"""

from __future__ import annotations

import json
import re

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.services import macros as sheet_macros
from bot.services.sheets._file import SheetFileError, parse_sheet
from bot.services.sheets._lookup import guild_key, named_or_active
from bot.services.sheets._model import CharacterSheet, sheet_from_row
from bot.services.sheets._owned import (
    MAX_IMPORT_BYTES,
    insert_character,
)
from bot.storage import Database
from bot.storage.repositories import characters as repo
from bot.text import UserText


async def export(db: Database, actor: Actor, character: str | None = None) -> tuple[str, bytes]:
    """The sheet as a JSON file: (file name, UTF-8 bytes)."""
    async with db.unit_of_work(read_only=True) as session:
        sheet = await named_or_active(session, actor, character)
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
                        name=UserText(existing.name),
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
        row = await insert_character(
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
