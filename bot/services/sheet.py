"""A character sheet as plain values, its bounds, and the resolver every system rolls from.

Pure (no database): the sheet is read once inside a command's unit of work and then used
as immutable data, so a system service can resolve "skill Stealth" without touching storage.
Import these names from :mod:`bot.services.characters`, which re-exports them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from bot.errors import UserError
from bot.i18n import N_, _
from engine.systems import SYSTEMS

MAX_ATTRIBUTES = 64
MAX_SKILLS = 128
MAX_RESOURCES = 32
MAX_SPECIALTIES = 16
MIN_VALUE = -100
MAX_VALUE = 1000
NAME_LENGTH = 64  # character, attribute, skill, resource and specialty names
NOTES_LENGTH = 1000

Kind = Literal["attribute", "skill", "resource"]
V = TypeVar("V")
KINDS: tuple[Kind, ...] = ("attribute", "skill", "resource")


@dataclass(frozen=True, slots=True)
class Skill:
    ranks: int
    attribute: str | None = None
    specialties: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Resource:
    current: int
    max: int | None = None


@dataclass(frozen=True, slots=True)
class CharacterSheet:
    """One character's sheet. Name lookups ignore case; the stored spelling is kept."""

    id: int
    guild_id: int
    owner_id: int
    name: str
    system: str
    attributes: dict[str, int] = field(default_factory=dict)
    skills: dict[str, Skill] = field(default_factory=dict)
    resources: dict[str, Resource] = field(default_factory=dict)
    notes: str = ""

    @property
    def system_title(self) -> str:
        return SYSTEMS.get(self.system, self.system)

    def find_attribute(self, name: str) -> tuple[str, int] | None:
        return _found(self.attributes, name)

    def attribute(self, name: str) -> int:
        return self.named_attribute(name)[1]

    def named_attribute(self, name: str) -> tuple[str, int]:
        """The attribute as the sheet spells it (for replies and the roll log), with its value;
        a missing one is refused with the sheet's attributes listed."""
        return self._required(self.attributes, "attribute", name, "set attribute:{} value")

    def find_skill(self, name: str) -> tuple[str, Skill] | None:
        return _found(self.skills, name)

    def skill(self, name: str) -> Skill | None:
        """The skill, or None when the character is untrained in it."""
        found = self.find_skill(name)
        return None if found is None else found[1]

    def find_resource(self, name: str) -> tuple[str, Resource] | None:
        return _found(self.resources, name)

    def resource(self, name: str) -> Resource:
        return self._required(self.resources, "resource", name, "resource name:{} current")[1]

    def _required(
        self, entries: Mapping[str, V], kind: Kind, name: str, command: str
    ) -> tuple[str, V]:
        """The entry called ``name`` (key, value), or a UserError listing the sheet's and how
        to add it."""
        found = _found(entries, name)
        if found is not None:
            return found
        wanted = name.strip()
        raise UserError(
            _(
                "{character} has no {kind} `{name}`. {section}: {listing}. "
                "Set one with `/sheet {command}:…`.",
                character=self.name,
                kind=_(ENTRY_KINDS[kind]),
                name=wanted,
                section=_(ENTRY_SECTIONS[kind]),
                listing=_listing(entries),
                command=command.format(wanted),
            )
        )

    def to_dict(self) -> dict[str, Any]:
        """The sheet as export JSON (what ``/sheet import`` reads back)."""
        return {
            "name": self.name,
            "system": self.system,
            "attributes": dict(self.attributes),
            "skills": {
                name: {
                    "ranks": skill.ranks,
                    "attribute": skill.attribute,
                    "specialties": list(skill.specialties),
                }
                for name, skill in self.skills.items()
            },
            "resources": {
                name: {"current": resource.current, "max": resource.max}
                for name, resource in self.resources.items()
            },
            "notes": self.notes,
        }


@dataclass(frozen=True, slots=True)
class ResolvedValue:
    """What a reference like "skill Stealth" means on one sheet, in the numbers systems use.

    ``value`` is the attribute's value, the skill's ranks, or the resource's current value.
    For a skill, ``attribute``/``attribute_value`` are its parent attribute (None when the
    skill names none) and ``specialties`` its specialties. ``maximum`` is a resource's max.
    """

    character: str
    kind: Kind
    name: str
    value: int
    attribute: str | None = None
    attribute_value: int | None = None
    specialties: tuple[str, ...] = ()
    maximum: int | None = None

    @property
    def label(self) -> str:
        """E.g. "Stealth (skill 3 + Agility 2)", for roll titles and footers."""
        if self.kind == "skill" and self.attribute is not None:
            return f"{self.name} (skill {self.value} + {self.attribute} {self.attribute_value})"
        return f"{self.name} ({self.kind} {self.value})"


_PREFIX = re.compile(r"^\s*(skill|attribute|attr|resource)\s*[: ]\s*(.+?)\s*$", re.IGNORECASE)


def resolve(sheet: CharacterSheet, reference: str) -> ResolvedValue:
    """Resolve "skill Stealth", "attribute Strength", "resource Health" or a bare name.

    A bare name is looked up among attributes, then skills, then resources.
    """
    match = _PREFIX.match(reference)
    if match:
        kind_word, name = match.group(1).casefold(), match.group(2)
        kind: Kind = "attribute" if kind_word == "attr" else kind_word  # type: ignore[assignment]
        kinds: tuple[Kind, ...] = (kind,)
    else:
        name = reference.strip()
        kinds = KINDS
    if not name:
        raise UserError(_("Name an attribute, skill or resource of your character."))
    for kind in kinds:
        resolved = _resolve_kind(sheet, kind, name)
        if resolved is not None:
            return resolved
    entries = {"attribute": sheet.attributes, "skill": sheet.skills, "resource": sheet.resources}
    what = _(ENTRY_KINDS[kinds[0]]) if len(kinds) == 1 else _("attribute, skill or resource")
    return_hint = "; ".join(
        f"{_(ENTRY_SECTIONS[k])}: {_listing(entries[k])}"  # type: ignore[arg-type]
        for k in kinds
    )
    raise UserError(
        _(
            "{character} has no {kind} `{name}`. {listing}.",
            character=sheet.name,
            kind=what,
            name=name,
            listing=return_hint,
        )
    )


_REFERENCE = re.compile(r"\{([^{}]*)\}")


def substitute(sheet: CharacterSheet, text: str) -> tuple[str, tuple[ResolvedValue, ...]]:
    """Replace every ``{reference}`` in dice notation by the sheet's number for it.

    ``2d6 + {Stealth}`` becomes ``2d6 + 3``; a negative value is parenthesised so that
    ``1d20 - {Wits}`` stays arithmetic. Returns the text and what each reference meant.
    """
    found: list[ResolvedValue] = []

    def replace(match: re.Match[str]) -> str:
        value = resolve(sheet, match.group(1))
        found.append(value)
        return str(value.value) if value.value >= 0 else f"({value.value})"

    result = _REFERENCE.sub(replace, text)
    if "{" in result or "}" in result:
        raise UserError(
            _(
                "Unmatched `{open}` or `{close}`: write sheet values as `{example}`, "
                "`{skill_example}` or `{attribute_example}`.",
                open="{",
                close="}",
                example="{Stealth}",
                skill_example="{skill Stealth}",
                attribute_example="{attribute Strength}",
            )
        )
    return result, tuple(found)


def _resolve_kind(sheet: CharacterSheet, kind: Kind, name: str) -> ResolvedValue | None:
    if kind == "attribute":
        found_attribute = sheet.find_attribute(name)
        if found_attribute is None:
            return None
        return ResolvedValue(sheet.name, "attribute", found_attribute[0], found_attribute[1])
    if kind == "resource":
        found_resource = sheet.find_resource(name)
        if found_resource is None:
            return None
        key, resource = found_resource
        return ResolvedValue(sheet.name, "resource", key, resource.current, maximum=resource.max)
    found_skill = sheet.find_skill(name)
    if found_skill is None:
        return None
    key, skill = found_skill
    attribute_name, attribute_value = None, None
    if skill.attribute is not None:
        parent = sheet.find_attribute(skill.attribute)
        if parent is None:
            raise UserError(
                _(
                    "{character}'s skill {skill} uses the attribute {attribute}, which the "
                    "sheet does not have. Set it with `/sheet set attribute:{attribute} "
                    "value:…`, or change the skill's attribute with `/sheet skill`.",
                    character=sheet.name,
                    skill=key,
                    attribute=skill.attribute,
                )
            )
        attribute_name, attribute_value = parent
    return ResolvedValue(
        sheet.name,
        "skill",
        key,
        skill.ranks,
        attribute=attribute_name,
        attribute_value=attribute_value,
        specialties=skill.specialties,
    )


def name_key(name: str) -> str:
    """How names compare: ignoring case and runs of whitespace ("Tom  riddle" = "Tom Riddle")."""
    return " ".join(name.split()).casefold()


def _found(entries: Mapping[str, V], name: str) -> tuple[str, V] | None:
    key = find_key(entries, name)
    return None if key is None else (key, entries[key])


def find_key(entries: Iterable[str], name: str) -> str | None:
    """The stored spelling of ``name`` among ``entries``, if it is there."""
    key = name_key(name)
    return next((existing for existing in entries if name_key(existing) == key), None)


def _listing(names: Iterable[str]) -> str:
    names = list(names)
    if not names:
        return _("none yet")
    shown = ", ".join(names[:40])
    if len(names) > 40:
        return _("{names} and {count} more", names=shown, count=len(names) - 40)
    return shown


def sheet_from_row(row: Any) -> CharacterSheet:
    """Build the immutable sheet from a ``Character`` row (JSON columns as stored)."""
    return CharacterSheet(
        id=row.id,
        guild_id=row.guild_id,
        owner_id=row.owner_id,
        name=row.name,
        system=row.system,
        attributes={name: int(value) for name, value in (row.attributes or {}).items()},
        skills={
            name: Skill(
                ranks=int(data["ranks"]),
                attribute=data.get("attribute"),
                specialties=tuple(data.get("specialties") or ()),
            )
            for name, data in (row.skills or {}).items()
        },
        resources={
            name: Resource(current=int(data["current"]), max=data.get("max"))
            for name, data in (row.resources or {}).items()
        },
        notes=row.notes or "",
    )


#: Suggested names per system (from RULES.md and the seeds), offered on create and in
#: autocomplete. Any other name is allowed.
TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    "coda": {
        "attributes": (
            "Bearing",
            "Nimbleness",
            "Perception",
            "Strength",
            "Vitality",
            "Wits",
            "Stamina",
            "Swiftness",
            "Willpower",
            "Wisdom",
            "Defence",
        ),
        "resources": ("Health", "Courage"),
    },
    "h90": {
        "attributes": ("Strength", "Dexterity", "Toughness", "Humor"),
        "resources": ("Health",),
    },
    "infinity": {
        "attributes": ("CC", "BS", "PH", "WIP", "ARM", "BTS"),
        "resources": ("W",),
    },
    "rps": {
        "attributes": ("Strength", "Agility", "Intellect", "Intuition"),
        "resources": ("Health",),
    },
    "drama": {
        "attributes": ("Physical", "Agility", "Mental", "Social"),
        "resources": ("Grit", "Flesh", "Fortitude", "Composure"),
    },
}


#: What ``kind`` names in messages about a sheet entry (shown translated).
ENTRY_KINDS = {
    "attribute": N_("attribute"),
    "skill": N_("skill"),
    "resource": N_("resource"),
    "specialty": N_("specialty"),
}

#: A sheet's section of each kind, as messages list them ("Attributes: Wits, Grit").
ENTRY_SECTIONS = {
    "attribute": N_("Attributes"),
    "skill": N_("Skills"),
    "resource": N_("Resources"),
}


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
        raise SheetFileError(_("`{path}`: not a sheet field.", path=unknown[0]))
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
    _storable(notes, "notes")
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
    return _storable(value.strip(), path)


def _storable(value: str, path: str) -> str:
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
    return _storable(value, path)


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
                _("`{path}`: the same name twice (names ignore case).", path=f"{path}.{key}")
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
