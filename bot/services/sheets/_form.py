"""A sheet as a form: the text fields ``/sheet edit`` prefills, and reading them back.

Pure (no database, no discord): a form is a few paragraph fields, one entry per line
("Wits 2", "Health 8/10", "Potions 3 Wits Brewing"), because a Discord modal holds at most
five text inputs while a sheet holds up to 64 attributes. Reading a form back checks every
line and names the first bad one ("Attributes, line 3 (`Wits two`): …"), so a player fixes
one line instead of guessing which of forty.

A submitted form replaces its part of the sheet: a line deleted from the form deletes that
entry, and a line with a name but no number (how the system's template names arrive) is
left unset.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bot.errors import UserError
from bot.i18n import N_, _
from bot.services.sheets._model import (
    MAX_ATTRIBUTES,
    MAX_RESOURCES,
    MAX_SKILLS,
    MAX_SPECIALTIES,
    MAX_VALUE,
    MIN_VALUE,
    NOTES_LENGTH,
    CharacterSheet,
    name_key,
)
from bot.services.sheets._resources import check_entry_name
from bot.services.sheets._templates import TEMPLATES
from bot.text import UserText, listed

Part = Literal["attributes", "skills"]
PARTS: tuple[Part, ...] = ("attributes", "skills")

FIELD_TEXT = 4000
"""Discord's limit on one text input's value."""
FIELDS = 5
"""Discord's limit on text inputs in one modal."""
LABEL = 45
"""Discord's limit on a text input's label and a modal's title."""

#: How a system's attribute names are grouped into fields. CODA keeps its reactions and
#: Defence apart from the six attributes, as its character sheet does; seed 000 names the
#: reaction test but its chapter 2 (the derivation of reaction scores from attributes) is
#: not among the sources, so reactions are entered, not computed.
ATTRIBUTE_GROUPS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "coda": (
        (N_("Attributes (modifiers)"), TEMPLATES["coda"]["attributes"][:6]),
        (N_("Reactions and Defence"), TEMPLATES["coda"]["attributes"][6:]),
    ),
}
OTHER_ATTRIBUTES = N_("Attributes")
#: A form's part in its title ("Hermione: attributes").
PART_TITLES = {"attributes": N_("attributes"), "skills": N_("skills")}


@dataclass(frozen=True, slots=True)
class FormField:
    """One paragraph text input: its id in the modal, label, prefilled text and hint."""

    key: str
    label: str
    value: str
    placeholder: str


@dataclass(frozen=True, slots=True)
class SheetForm:
    """What a ``/sheet edit`` modal shows for one part of one character's sheet."""

    character_id: int
    character: str
    part: Part
    fields: tuple[FormField, ...]

    @property
    def title(self) -> str:
        return _clip(f"{self.character}: {_(PART_TITLES[self.part])}", LABEL)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _fit(label: str, text: str) -> str:
    if len(text) > FIELD_TEXT:
        raise UserError(
            _(
                "{field} holds more than a form field takes ({most} characters): change "
                "these entries one at a time with `/sheet set`, `/sheet skill` or "
                "`/sheet resource`.",
                field=label,
                most=FIELD_TEXT,
            )
        )
    return text


# --------------------------------------------------------------------------- building forms


def build_form(sheet: CharacterSheet, part: Part) -> SheetForm:
    fields = _attribute_fields(sheet) if part == "attributes" else _skill_fields(sheet)
    return SheetForm(sheet.id, sheet.name, part, tuple(fields))


def _attribute_fields(sheet: CharacterSheet) -> list[FormField]:
    groups = ATTRIBUTE_GROUPS.get(sheet.system, ())
    placed: set[str] = set()
    fields: list[FormField] = []
    for index, (label, names) in enumerate(groups):
        lines = [_value_line(sheet.find_attribute(n), n) for n in names]
        placed |= {name_key(n) for n in names}
        fields.append(_field(f"group{index}", _(label), lines, "Wits 2"))
    template = TEMPLATES.get(sheet.system, {}).get("attributes", ())
    rest = [n for n in template if name_key(n) not in placed]
    lines = [_value_line(sheet.find_attribute(n), n) for n in rest]
    rest_keys = {name_key(n) for n in rest} | placed
    lines += [f"{n} {v}" for n, v in sheet.attributes.items() if name_key(n) not in rest_keys]
    label = _("Other attributes") if groups else _(OTHER_ATTRIBUTES)
    fields.append(_field("attributes", label, lines, _("Strength 3 (one per line)")))
    resources = list(sheet.resources.items())
    names = {name_key(n) for n, _ in resources}  # type: ignore[assignment]
    lines = [f"{n} {_resource_text(r.current, r.max)}" for n, r in resources]
    lines += [
        n for n in TEMPLATES.get(sheet.system, {}).get("resources", ()) if name_key(n) not in names
    ]
    fields.append(_field("resources", _("Resources (current/max)"), lines, "Health 8/10"))
    fields.append(
        FormField("notes", _("Notes"), _fit(_("Notes"), sheet.notes), _("Anything else (optional)"))
    )
    return fields


def _value_line(found: tuple[str, int] | None, name: str) -> str:
    return name if found is None else f"{found[0]} {found[1]}"


def _resource_text(current: int, maximum: int | None) -> str:
    return f"{current}" if maximum is None else f"{current}/{maximum}"


def _field(key: str, label: str, lines: Sequence[str], placeholder: str) -> FormField:
    return FormField(key, label, _fit(label, "\n".join(lines)), placeholder)


def skill_line(name: str, ranks: int, attribute: str | None, specialties: Sequence[str]) -> str:
    """``Potions 3 Wits Brewing, Poisons`` (``-`` stands for no attribute before specialties)."""
    line = f"{name} {ranks}"
    if attribute:
        line += f" {attribute}"
    if specialties:
        line += f"{'' if attribute else ' -'} {', '.join(specialties)}"
    return line


def _skill_fields(sheet: CharacterSheet) -> list[FormField]:
    """Skills over as many fields as their text needs (a full sheet's 128 lines may not
    fit one), plus an empty one for new skills while there is room."""
    lines = [skill_line(n, s.ranks, s.attribute, s.specialties) for n, s in sheet.skills.items()]
    chunks: list[list[str]] = [[]]
    for line in lines:
        if chunks[-1] and len("\n".join([*chunks[-1], line])) > FIELD_TEXT:
            chunks.append([])
        chunks[-1].append(line)
    if chunks[-1] and len(chunks) < FIELDS:
        chunks.append([])
    if len(chunks) > FIELDS:
        raise UserError(
            _("These skills are more than a form holds: change them with `/sheet skill`.")
        )
    hint = _("Potions 3 Wits Brewing, Poisons (one per line)")
    return [
        _field(
            f"skills{i}",
            _("Skills") if i == 0 else _("Skills ({number})", number=i + 1),
            chunk,
            hint,
        )
        for i, chunk in enumerate(chunks)
    ]


# --------------------------------------------------------------------------- reading forms


class LineError(UserError):
    """A form line that cannot be read; the message names the field, the line and why."""


def _line_error(label: str, number: int, line: str, why: str) -> LineError:
    shown = UserText(_clip(line, 60))
    return LineError(
        _(
            "{field}, line {number} (`{line}`): {why}",
            field=label,
            number=number,
            line=shown,
            why=why,
        )
    )


def _lines(text: str) -> list[tuple[int, str]]:
    """Numbered non-blank lines (numbers as the player counts them, blank lines included)."""
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]


_NUMBER = re.compile(r"^[+\-−]?\d+$")


def _number(token: str) -> int | None:
    if not _NUMBER.match(token):
        return None
    return int(token.replace("−", "-"))


def _entry_name(kind: str, words: Sequence[str]) -> str:
    name = " ".join(words).rstrip(":=").strip()
    return check_entry_name(kind, name)


def _in_bounds(value: int) -> str | None:
    if MIN_VALUE <= value <= MAX_VALUE:
        return None
    return _("a value is between {low} and {high}.", low=MIN_VALUE, high=MAX_VALUE)


@dataclass(frozen=True, slots=True)
class FormValues:
    """A read form: the part's new entries, in the order they were typed."""

    attributes: dict[str, int] | None = None
    resources: dict[str, dict[str, Any]] | None = None
    notes: str | None = None
    skills: dict[str, dict[str, Any]] | None = None


def read_form(
    form: SheetForm, values: Mapping[str, str], attributes: Mapping[str, int]
) -> FormValues:
    """Read a submitted form; ``attributes`` are the sheet's (a skill's parent is one)."""
    labels = {f.key: f.label for f in form.fields}
    if form.part == "skills":
        return FormValues(skills=_read_skills(form.fields, values, attributes))
    entries: dict[str, int] = {}
    seen: dict[str, str] = {}
    for key, label in labels.items():
        if key in ("resources", "notes"):
            continue
        for number, line in _lines(values.get(key, "")):
            name, value = _read_value_line(label, number, line)
            if value is None:
                continue
            where = _("{field}, line {number}", field=label, number=number)
            _check_new(seen, name, where, label, number, line)
            entries[name] = value
    _check_count(entries, MAX_ATTRIBUTES, N_("attributes"))
    resources = _read_resources(labels["resources"], values.get("resources", ""))
    notes = values.get("notes", "").strip()
    if len(notes) > NOTES_LENGTH:
        raise UserError(
            _(
                "Notes have at most {most} characters (these have {length}).",
                most=NOTES_LENGTH,
                length=len(notes),
            )
        )
    return FormValues(attributes=entries, resources=resources, notes=notes)


def _check_new(
    seen: dict[str, str], name: str, where: str, label: str, number: int, line: str
) -> None:
    key = name_key(name)
    if key in seen:
        raise _line_error(
            label,
            number,
            line,
            _("{name} is already given ({where}).", name=UserText(name), where=seen[key]),
        )
    seen[key] = where


def _check_count(entries: Mapping[str, Any], limit: int, kind: str) -> None:
    if len(entries) > limit:
        raise UserError(
            _(
                "A sheet has at most {most} {kind} (the form gives {count}).",
                most=limit,
                kind=_(kind),
                count=len(entries),
            )
        )


def _read_value_line(
    label: str, number: int, line: str, kind: str = "attribute"
) -> tuple[str, int | None]:
    """``Wits 2`` → ("Wits", 2); a bare name → (name, None): left unset."""
    words = line.split()
    value = _number(words[-1])
    name_words = words[:-1] if value is not None else words
    try:
        name = _entry_name(kind, name_words)
    except UserError as error:
        raise _line_error(label, number, line, str(error)) from None
    if value is not None and (why := _in_bounds(value)):
        raise _line_error(label, number, line, why)
    if value is None and any(ch.isdigit() for ch in words[-1]):
        raise _line_error(label, number, line, _("write the name, a space, then a whole number."))
    return name, value


_RESOURCE = re.compile(r"^(?P<name>.+?)\s+(?P<current>[+\-−]?\d+)(?:\s*/\s*(?P<max>[+\-−]?\d+))?$")


def _read_resources(label: str, text: str) -> dict[str, dict[str, Any]]:
    resources: dict[str, dict[str, Any]] = {}
    seen: dict[str, str] = {}
    for number, line in _lines(text):
        match = _RESOURCE.match(line)
        if match is None:
            if any(ch.isdigit() or ch == "/" for ch in line.split()[-1]):
                raise _line_error(
                    label,
                    number,
                    line,
                    _("write the name, then current or current/max: Health 8/10."),
                )
            _read_value_line(label, number, line, "resource")  # a bare name: checked, left unset
            continue
        try:
            name = _entry_name("resource", [match["name"]])
        except UserError as error:
            raise _line_error(label, number, line, str(error)) from None
        current = int(match["current"].replace("−", "-"))
        maximum = None if match["max"] is None else int(match["max"].replace("−", "-"))
        for value in (current, maximum):
            if value is not None and (why := _in_bounds(value)):
                raise _line_error(label, number, line, why)
        if maximum is not None and current > maximum:
            raise _line_error(
                label,
                number,
                line,
                _("{current} is above its max {most}.", current=current, most=maximum),
            )
        where = _("{field}, line {number}", field=label, number=number)
        _check_new(seen, name, where, label, number, line)
        resources[name] = {"current": current, "max": maximum}
    _check_count(resources, MAX_RESOURCES, N_("resources"))
    return resources


def _read_skills(
    fields: Sequence[FormField], values: Mapping[str, str], attributes: Mapping[str, int]
) -> dict[str, dict[str, Any]]:
    skills: dict[str, dict[str, Any]] = {}
    seen: dict[str, str] = {}
    for field in fields:
        for number, line in _lines(values.get(field.key, "")):
            name, skill = _read_skill(field.label, number, line, attributes)
            where = _("{field}, line {number}", field=field.label, number=number)
            _check_new(seen, name, where, field.label, number, line)
            skills[name] = skill
    _check_count(skills, MAX_SKILLS, N_("skills"))
    return skills


def _read_skill(
    label: str, number: int, line: str, attributes: Mapping[str, int]
) -> tuple[str, dict[str, Any]]:
    """``Potions 3 Wits Brewing, Poisons``: name, ranks, then an attribute of the sheet (or
    ``-`` for none), then comma-separated specialties."""
    words = line.split()
    numbers = [i for i, w in enumerate(words) if i > 0 and _number(w) is not None]
    # A name may hold numbers ("Language 2 3 Wits"): the ranks are the first number that a
    # readable rest follows (nothing, "-", or an attribute), else the first number.
    at = next(
        (
            i
            for i in numbers
            if _parent(words[i + 1 :], attributes)[0] or words[i + 1 : i + 2] in ([], ["-"])
        ),
        numbers[0] if numbers else None,
    )
    if at is None:
        raise _line_error(
            label,
            number,
            line,
            _("write the skill, its ranks, then its attribute: Potions 3 Wits."),
        )
    try:
        name = _entry_name("skill", words[:at])
    except UserError as error:
        raise _line_error(label, number, line, str(error)) from None
    ranks = _number(words[at])
    assert ranks is not None
    if why := _in_bounds(ranks):
        raise _line_error(label, number, line, why)
    rest = words[at + 1 :]
    attribute, rest = _parent(rest, attributes)
    if rest and attribute is None and rest[0] != "-":
        known = listed(attributes) or _("none yet")
        raise _line_error(
            label,
            number,
            line,
            _(
                "`{words}` starts with no attribute of this sheet ({known}); write `-` before "
                "the specialties of a skill without one.",
                words=UserText(_clip(" ".join(rest), 40)),
                known=known,
            ),
        )
    if rest and rest[0] == "-":
        rest = rest[1:]
    specialties: list[str] = []
    for part in " ".join(rest).split(","):
        if part.strip():
            try:
                specialties.append(_entry_name("specialty", [part]))
            except UserError as error:
                raise _line_error(label, number, line, str(error)) from None
    specialties = list(dict.fromkeys(specialties))
    if len(specialties) > MAX_SPECIALTIES:
        raise _line_error(
            label, number, line, _("at most {most} specialties.", most=MAX_SPECIALTIES)
        )
    return name, {"ranks": ranks, "attribute": attribute, "specialties": specialties}


def _parent(words: list[str], attributes: Mapping[str, int]) -> tuple[str | None, list[str]]:
    """The longest run of leading words that names an attribute (names may hold spaces)."""
    keys = {name_key(a): a for a in attributes}
    for end in range(len(words), 0, -1):
        found = keys.get(name_key(" ".join(words[:end])))
        if found is not None:
            return found, words[end:]
    return None, words
