"""A character sheet as immutable data: its bounds, skills, resources, the sheet itself,
resolving ``"skill Stealth"`` or ``{Wits}`` against it, name keys, and the sheet built from
a stored row; with the names messages give each kind of entry.

It exists as the bottom of the sheet modules: templates and the sheet-file parser build on
its bounds and names. Pure (no database).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from bot.errors import UserError
from bot.i18n import N_, _
from bot.text import UserText, listed
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
                character=UserText(self.name),
                kind=_(ENTRY_KINDS[kind]),
                name=UserText(wanted),
                section=_(ENTRY_SECTIONS[kind]),
                listing=_listing(entries),
                command=UserText(command.format(wanted)),
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
            character=UserText(sheet.name),
            kind=what,
            name=UserText(name),
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
                    character=UserText(sheet.name),
                    skill=UserText(key),
                    attribute=UserText(skill.attribute),
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
    shown = listed(names[:40])
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
