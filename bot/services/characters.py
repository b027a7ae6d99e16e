"""Characters: the active character, lookups by name with the GM rule, and resource changes.

This is the API every system's service uses to roll from a sheet::

    sheet = await active_character(session, actor, system="coda")
    stealth = resolve(sheet, "skill Stealth")

Functions taking a ``session`` run inside the caller's unit of work; the ``/sheet``
commands' own services (taking ``db``) live further down. The work lives in
:mod:`bot.services.character_lookup` (finding characters), :mod:`bot.services.character_names`
(autocomplete) and :mod:`bot.services.character_resources` (resource changes); this module
re-exports their names and the sheet's, so ``characters.X`` is the API.
"""

from __future__ import annotations

from bot.services.character_lookup import active_character as active_character
from bot.services.character_lookup import active_row as active_row
from bot.services.character_lookup import character_by_name as character_by_name
from bot.services.character_lookup import guild_key as guild_key
from bot.services.character_lookup import named_or_active as named_or_active
from bot.services.character_lookup import others_character as others_character
from bot.services.character_lookup import players_active_character as players_active_character
from bot.services.character_lookup import row_by_name as row_by_name
from bot.services.character_lookup import split_owner as split_owner
from bot.services.character_lookup import with_owner as with_owner
from bot.services.character_names import AUTOCOMPLETE_LIMIT as AUTOCOMPLETE_LIMIT
from bot.services.character_names import NameLookup as NameLookup
from bot.services.character_names import attribute_names as attribute_names
from bot.services.character_names import character_names as character_names
from bot.services.character_names import matching as matching
from bot.services.character_names import resource_names as resource_names
from bot.services.character_names import sheet_for_autocomplete as sheet_for_autocomplete
from bot.services.character_names import skill_names as skill_names
from bot.services.character_names import suggest as suggest
from bot.services.character_resources import ResourceChange as ResourceChange
from bot.services.character_resources import adjust_resource as adjust_resource
from bot.services.character_resources import check_entry_name as check_entry_name
from bot.services.character_resources import check_value as check_value
from bot.services.character_resources import lower_resource as lower_resource
from bot.services.sheet_model import (
    KINDS,
    MAX_ATTRIBUTES,
    MAX_RESOURCES,
    MAX_SKILLS,
    MAX_SPECIALTIES,
    MAX_VALUE,
    MIN_VALUE,
    NAME_LENGTH,
    NOTES_LENGTH,
    CharacterSheet,
    Kind,
    ResolvedValue,
    Resource,
    Skill,
    resolve,
)

__all__ = [
    "KINDS",
    "MAX_ATTRIBUTES",
    "MAX_RESOURCES",
    "MAX_SKILLS",
    "MAX_SPECIALTIES",
    "MAX_VALUE",
    "MIN_VALUE",
    "NAME_LENGTH",
    "NOTES_LENGTH",
    "CharacterSheet",
    "Kind",
    "ResolvedValue",
    "Resource",
    "ResourceChange",
    "Skill",
    "active_character",
    "adjust_resource",
    "attribute_names",
    "character_by_name",
    "character_names",
    "named_or_active",
    "resolve",
    "resource_names",
    "skill_names",
]
