"""Who rolls a CODA test when it comes from a sheet or from a side's text: a character's
skill, attribute or reaction (with its named terms), a bare modifier or an NPC
("Troll +4"), and the sheet names offered by autocomplete.

It exists so that the rules for turning a sheet into a test's terms live in one place,
below every use case that rolls a character (single, combined, extended, opposed, attack).
"""

from __future__ import annotations

import re

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import NoSuchCharacter, UserError
from bot.i18n import _
from bot.services import sheets
from bot.services.coda._roller import SYSTEM, Roller, plain_roller
from bot.services.sheets import CharacterSheet
from bot.storage import Database
from bot.text import UserText, listed
from engine.systems import coda
from engine.systems.coda import Part

#: CODA's reactions (chapter 2); the sheet keeps them among the attributes.
REACTIONS = ("Stamina", "Swiftness", "Willpower", "Wisdom")
REACTION_KEYS = frozenset(r.casefold() for r in REACTIONS)


def parse_modifier(text: str) -> int | None:
    """A side written as a number ("+5", "-2", "7"), or None when it names a character."""
    cleaned = text.strip().replace("−", "-").replace(" ", "")
    try:
        return int(cleaned)
    except ValueError:
        return None


_NAMED_MODIFIER = re.compile(r"^(?P<name>.*?\S)\s+(?P<value>[+\-−]?\s*\d{1,3})$")


def parse_named_modifier(text: str) -> tuple[str, int] | None:
    """A side written as a name and its modifier ("Troll +4", "Goblin −1"), or None."""
    match = _NAMED_MODIFIER.match(text.strip())
    if match is None:
        return None
    value = parse_modifier(match["value"])
    return None if value is None else (match["name"][:64], value)


def _checked_modifier(value: int, who: str) -> int:
    if not coda.MODIFIER_MIN <= value <= coda.MODIFIER_MAX:
        raise UserError(
            _(
                "{who}'s modifier must be between {low} and {high}.",
                who=who,
                low=coda.MODIFIER_MIN,
                high=coda.MODIFIER_MAX,
            )
        )
    return value


async def resolve_roller(
    session: AsyncSession,
    actor: Actor,
    text: str,
    using: str | None,
    *,
    who: str,
    untrained: str | None = None,
) -> Roller:
    """A side of an opposed or combined test: a modifier, a character with what it rolls, or
    an NPC named with its modifier ("Troll +4") when no character goes by that name.

    ``untrained`` is the attribute a character lacking the skill ``using`` rolls instead
    (attribute − 2, RULES.md §1); a character who has the skill rolls it as usual.
    """
    value = parse_modifier(text)
    if value is not None:
        return plain_roller(_checked_modifier(value, who))
    try:
        return await character_roller(session, actor, text, using, who=who, untrained=untrained)
    except NoSuchCharacter:
        named = parse_named_modifier(text)
        if named is None:
            raise
    npc, value = named
    return Roller(parts=(Part(npc, _checked_modifier(value, who)),), npc=npc)


async def character_roller(
    session: AsyncSession,
    actor: Actor,
    character: str | None,
    using: str | None,
    *,
    who: str,
    untrained: str | None = None,
) -> Roller:
    """A character (by name, else the caller's active one) rolling a skill or attribute,
    or a skill it lacks, untrained, with the attribute ``untrained``; with no skill named,
    ``untrained`` alone is the attribute rolled (what `b_attribute:Wits` reads as)."""
    sheet = await load_sheet(session, actor, character)
    if (not using or not using.strip()) and untrained and untrained.strip():
        using, untrained = untrained, None
    if not using or not using.strip():
        raise UserError(
            _(
                "{who}: say what {character} rolls: a skill, an attribute or a reaction.",
                who=who,
                character=UserText(sheet.name),
            )
        )
    if sheet.find_skill(using) is not None:
        return skill_roller(sheet, using)
    if sheet.find_attribute(using) is not None:
        return attribute_roller(sheet, using)
    if untrained and untrained.strip():
        return skill_roller(sheet, using, attribute=untrained)
    raise UserError(
        _(
            "{character} has no skill or attribute `{name}`; an untrained attempt (−2) "
            "needs the `attribute` it uses. Skills: {skills}. Attributes: {attributes}.",
            character=UserText(sheet.name),
            name=UserText(using.strip()),
            skills=listed(sheet.skills) or _("none yet"),
            attributes=listed(sheet.attributes) or _("none yet"),
        )
    )


async def load_sheet(session: AsyncSession, actor: Actor, character: str | None) -> CharacterSheet:
    """A CODA sheet: the named character (own, or any used here for a GM), else the active one."""
    named = character if character and character.strip() else None
    return await sheets.named_or_active(session, actor, named, system=SYSTEM)


def _relabel(parts: tuple[Part, ...], names: dict[str, str]) -> tuple[Part, ...]:
    return tuple(Part(names.get(p.label, p.label), p.value) for p in parts)


def skill_roller(
    sheet: CharacterSheet,
    skill: str,
    *,
    attribute: str | None = None,
    specialty: str | None = None,
    affinity: int = 0,
    modifier: int = 0,
) -> Roller:
    """Skill test: attribute + ranks (+2 specialty, + affinity); untrained: attribute − 2."""
    found = sheet.find_skill(skill)
    specialty_name = None
    if found is None:
        if not attribute:
            raise UserError(
                _(
                    "{character} has no skill `{skill}`: an untrained attempt (−2) needs "
                    "the `attribute` it uses. Skills: {skills}.",
                    character=UserText(sheet.name),
                    skill=UserText(skill.strip()),
                    skills=listed(sheet.skills) or _("none yet"),
                )
            )
        if specialty:
            raise UserError(
                _(
                    "{character} is untrained in {skill}, so no specialty of it applies.",
                    character=UserText(sheet.name),
                    skill=UserText(skill.strip()),
                )
            )
        key, ranks, parent = skill.strip(), None, attribute
    else:
        key, data = found
        ranks, parent = data.ranks, attribute or data.attribute  # type: ignore[assignment]
        if parent is None:
            raise UserError(
                _(
                    "{character}'s skill {skill} names no attribute: give one with "
                    "`attribute`, or set it with `/sheet skill name:{skill} attribute:…`.",
                    character=UserText(sheet.name),
                    skill=UserText(key),
                )
            )
        if specialty and specialty.strip():
            wanted = specialty.strip().casefold()
            specialty_name = next((s for s in data.specialties if s.casefold() == wanted), None)
            if specialty_name is None:
                shown = listed(data.specialties) or _("none yet")
                raise UserError(
                    _(
                        "{character}'s {skill} has no specialty `{specialty}`. "
                        "Specialties: {listed}.",
                        character=UserText(sheet.name),
                        skill=UserText(key),
                        specialty=UserText(specialty.strip()),
                        listed=shown,
                    )
                )
    attribute_name, attribute_value = sheet.named_attribute(parent)
    parts = coda.skill_parts(
        attribute=attribute_value,
        ranks=ranks,
        specialty=specialty_name is not None,
        affinity=affinity,
        misc=modifier,
    )
    untrained = any(p.label == "untrained" for p in parts)
    names = {"attribute": attribute_name, "ranks": _("{skill} ranks", skill=key)}
    if specialty_name:
        names["specialty"] = _("specialty: {name}", name=specialty_name)
    if untrained:
        subject = _("{skill} ({attribute}, untrained)", skill=key, attribute=attribute_name)
    else:
        subject = f"{key} ({attribute_name})"
    return Roller(
        parts=_relabel(parts, names),
        character=sheet.name,
        subject=subject,
        owner_id=sheet.owner_id,
    )


def attribute_roller(
    sheet: CharacterSheet, name: str, *, modifier: int = 0, reaction: bool = False
) -> Roller:
    """Attribute test (2d6 + attribute modifier) or reaction test (2d6 + reaction score)."""
    key, value = sheet.named_attribute(name)
    if reaction:
        if key.casefold() not in REACTION_KEYS:
            raise UserError(
                _(
                    "{name} is not a reaction; the reactions are {reactions}. "
                    "Roll {name} with `/coda attribute`.",
                    name=UserText(key),
                    reactions=", ".join(REACTIONS),
                )
            )
        parts = coda.reaction_parts(reaction=value, misc=modifier)
        names = {"reaction": key}
    else:
        parts = coda.attribute_parts(attribute=value, misc=modifier)
        names = {"attribute": key}
    return Roller(
        parts=_relabel(parts, names), character=sheet.name, subject=key, owner_id=sheet.owner_id
    )


async def sheet_entries(
    db: Database, actor: Actor, prefix: str, *, character: str | None, kinds: tuple[str, ...]
) -> list[str]:
    """For autocomplete: skills and/or attributes of the named (else active) character."""
    async with db.unit_of_work(read_only=True) as session:
        sheet = await sheets.sheet_for_autocomplete(session, actor, character)
    if sheet is None:
        return []
    names: list[str] = []
    if "skill" in kinds:
        names += sheets.matching(list(sheet.skills), prefix)
    if "attribute" in kinds:
        names += sheets.matching(list(sheet.attributes), prefix)
    if "reaction" in kinds:
        found = sheets.matching(list(sheet.attributes), prefix)
        names += [n for n in found if n.casefold() in REACTION_KEYS]
    return list(dict.fromkeys(names))[: sheets.AUTOCOMPLETE_LIMIT]


async def specialty_names(
    db: Database, actor: Actor, prefix: str, *, character: str | None, skill: str | None
) -> list[str]:
    """For autocomplete: the specialties of a skill of the named (else active) character."""
    if not skill:
        return []
    async with db.unit_of_work(read_only=True) as session:
        try:
            sheet = await load_sheet(session, actor, character)
        except UserError:
            return []
    found = sheet.find_skill(skill)
    return sheets.matching(list(found[1].specialties), prefix) if found else []
