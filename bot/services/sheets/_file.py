"""Reading a sheet file a player uploads: every section, entry, name and value checked
against the sheet's bounds, each problem reported with its path (:class:`SheetFileError`).

It exists to keep untrusted input's checks apart from the sheet itself
(:mod:`bot.services.sheets._model`). Pure (no database).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.errors import UserError
from bot.i18n import _
from bot.services.sheets._model import (
    ENTRY_KINDS,
    MAX_ATTRIBUTES,
    MAX_RESOURCES,
    MAX_SKILLS,
    MAX_SPECIALTIES,
    MAX_VALUE,
    MIN_VALUE,
    NAME_LENGTH,
    NOTES_LENGTH,
    name_key,
)
from bot.text import UserText
from engine.systems import SYSTEMS


class SheetFileError(UserError):
    """An imported sheet file is not a sheet; the message names the first bad field."""


def parse_sheet(data: Any) -> dict[str, Any]:
    """Validate export JSON (already decoded) and return it normalised.

    Checks run in the file's natural order so the message names the *first* bad field.
    """
    if not isinstance(data, dict):
        raise SheetFileError(
            _("The file must hold one JSON object (a sheet), not a list or value.")
        )
    unknown = sorted(set(data) - {"name", "system", "attributes", "skills", "resources", "notes"})
    if unknown:
        raise SheetFileError(_("`{path}`: not a sheet field.", path=UserText(unknown[0])))
    name = _text(data.get("name"), "name", NAME_LENGTH)
    system = data.get("system")
    if system not in SYSTEMS:
        raise SheetFileError(_("`system`: must be one of {systems}.", systems=", ".join(SYSTEMS)))
    attributes = _section(data, "attributes", MAX_ATTRIBUTES, _int)
    skills = _section(data, "skills", MAX_SKILLS, _skill)
    resources = _section(data, "resources", MAX_RESOURCES, _resource)
    notes = data.get("notes", "")
    if not isinstance(notes, str) or len(notes) > NOTES_LENGTH:
        raise SheetFileError(
            _("`notes`: must be text of at most {most} characters.", most=NOTES_LENGTH)
        )
    storable(notes, "notes")
    return {
        "name": name,
        "system": system,
        "attributes": attributes,
        "skills": skills,
        "resources": resources,
        "notes": notes,
    }


def _section(
    data: dict[str, Any], section: str, limit: int, parse: Callable[[Any, str], Any]
) -> dict[str, Any]:
    """One name → entry section, each name checked before its entry (first bad field wins)."""
    entries = _mapping(data.get(section, {}), section, limit)
    return {
        _entry_name(key, f"{section}.{key}"): parse(value, f"{section}.{key}")
        for key, value in entries.items()
    }


def _record(value: Any, path: str, fields: tuple[str, ...], what: str) -> dict[str, Any]:
    """``value`` as an object holding only ``fields``, or the error naming the first stray one."""
    if not isinstance(value, dict):
        raise SheetFileError(
            _(
                "`{path}`: must be an object with {fields}.",
                path=path,
                fields=", ".join(f"`{field}`" for field in fields),  # JSON keys, as typed
            )
        )
    extra = sorted(set(value) - set(fields))
    if extra:
        raise SheetFileError(
            _(
                "`{path}`: not a {kind} field.",
                path=f"{path}.{extra[0]}",
                kind=_(ENTRY_KINDS.get(what, what)),
            )
        )
    return value


def _skill(value: Any, path: str) -> dict[str, Any]:
    record = _record(value, path, ("ranks", "attribute", "specialties"), "skill")
    ranks = _int(record.get("ranks"), f"{path}.ranks")
    attribute = record.get("attribute")
    if attribute is not None:
        attribute = _entry_name(attribute, f"{path}.attribute")
    specialties = record.get("specialties", [])
    if not isinstance(specialties, list) or len(specialties) > MAX_SPECIALTIES:
        raise SheetFileError(
            _(
                "`{path}`: must be a list of at most {most} names.",
                path=f"{path}.specialties",
                most=MAX_SPECIALTIES,
            )
        )
    return {
        "ranks": ranks,
        "attribute": attribute,
        "specialties": [
            _entry_name(s, f"{path}.specialties[{i}]") for i, s in enumerate(specialties)
        ],
    }


def _resource(value: Any, path: str) -> dict[str, Any]:
    record = _record(value, path, ("current", "max"), "resource")
    current = _int(record.get("current"), f"{path}.current")
    maximum = record.get("max")
    if maximum is not None:
        maximum = _int(maximum, f"{path}.max")
        if current > maximum:
            raise SheetFileError(
                _(
                    "`{path}`: above its max ({current} > {most}).",
                    path=f"{path}.current",
                    current=current,
                    most=maximum,
                )
            )
    return {"current": current, "max": maximum}


def _text(value: Any, path: str, limit: int) -> str:
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > limit:
        raise SheetFileError(
            _("`{path}`: must be text of 1 to {most} characters.", path=path, most=limit)
        )
    return storable(value.strip(), path)


def storable(value: str, path: str) -> str:
    """``value``, if a database can store it: JSON's "\\ud800" escapes decode to lone
    surrogates, which are not UTF-8 (SQLite refuses them), and PostgreSQL refuses NUL."""
    if "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value):
        raise SheetFileError(_("`{path}`: holds characters that are not text.", path=path))
    return value


def _entry_name(value: Any, path: str) -> str:
    if (
        not isinstance(value, str)
        or not value.strip()
        or len(value) > NAME_LENGTH
        or value != value.strip()
        or any(ch in value for ch in "{}\n\r\t")
    ):
        raise SheetFileError(
            _(
                "`{path}`: a name must be 1 to {most} characters, without braces, "
                "line breaks or surrounding spaces.",
                path=path,
                most=NAME_LENGTH,
            )
        )
    return storable(value, path)


def _mapping(value: Any, path: str, limit: int) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SheetFileError(_("`{path}`: must be an object of name → value.", path=path))
    if len(value) > limit:
        raise SheetFileError(
            _(
                "`{path}`: at most {most} entries (the file has {count}).",
                path=path,
                most=limit,
                count=len(value),
            )
        )
    seen: set[str] = set()
    for key in value:
        folded = name_key(str(key))
        if folded in seen:
            raise SheetFileError(
                _(
                    "`{path}`: the same name twice (names ignore case).",
                    path=UserText(f"{path}.{key}"),
                )
            )
        seen.add(folded)
    return value


def _int(value: Any, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SheetFileError(_("`{path}`: must be a whole number.", path=path))
    if not MIN_VALUE <= value <= MAX_VALUE:
        raise SheetFileError(
            _(
                "`{path}`: must be between {low} and {high}.",
                path=path,
                low=MIN_VALUE,
                high=MAX_VALUE,
            )
        )
    return value
