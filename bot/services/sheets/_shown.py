"""A sheet as its embeds show it: every name a player typed (the character's, each
attribute's, skill's, specialty's and resource's, the notes) as :class:`~bot.text.UserText`.

The sheet renderers take this, not :class:`CharacterSheet`, so that none of them can put a
name on a message without its escaping: the type says which text is the player's.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.sheets._model import CharacterSheet, Resource
from bot.text import UserText


@dataclass(frozen=True, slots=True)
class SkillText:
    """One skill as shown: its name, ranks, attribute and specialties."""

    name: UserText
    ranks: int
    attribute: UserText | None
    specialties: tuple[UserText, ...]


@dataclass(frozen=True, slots=True)
class SheetText:
    """A character sheet, ready to be drawn."""

    name: UserText
    system: str
    system_title: str
    owner_id: int
    attributes: tuple[tuple[UserText, int], ...]
    skills: tuple[SkillText, ...]
    resources: tuple[tuple[UserText, Resource], ...]
    notes: UserText | None

    @classmethod
    def of(cls, sheet: CharacterSheet) -> SheetText:
        """``sheet`` with its names as user text, in the sheet's order."""
        return cls(
            name=UserText(sheet.name),
            system=sheet.system,
            system_title=sheet.system_title,
            owner_id=sheet.owner_id,
            attributes=tuple((UserText(name), value) for name, value in sheet.attributes.items()),
            skills=tuple(
                SkillText(
                    UserText(name),
                    skill.ranks,
                    UserText.of(skill.attribute),
                    tuple(UserText(s) for s in skill.specialties),
                )
                for name, skill in sheet.skills.items()
            ),
            resources=tuple((UserText(name), r) for name, r in sheet.resources.items()),
            notes=UserText.of(sheet.notes),
        )
