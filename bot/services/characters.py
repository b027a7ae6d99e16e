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
from bot.services.sheet import ENTRY_KINDS as ENTRY_KINDS
from bot.services.sheet import KINDS as KINDS
from bot.services.sheet import MAX_ATTRIBUTES as MAX_ATTRIBUTES
from bot.services.sheet import MAX_RESOURCES as MAX_RESOURCES
from bot.services.sheet import MAX_SKILLS as MAX_SKILLS
from bot.services.sheet import MAX_SPECIALTIES as MAX_SPECIALTIES
from bot.services.sheet import MAX_VALUE as MAX_VALUE
from bot.services.sheet import MIN_VALUE as MIN_VALUE
from bot.services.sheet import NAME_LENGTH as NAME_LENGTH
from bot.services.sheet import NOTES_LENGTH as NOTES_LENGTH
from bot.services.sheet import CharacterSheet as CharacterSheet
from bot.services.sheet import Kind as Kind
from bot.services.sheet import ResolvedValue as ResolvedValue
from bot.services.sheet import Resource as Resource
from bot.services.sheet import Skill as Skill
from bot.services.sheet import find_key as find_key
from bot.services.sheet import name_key as name_key
from bot.services.sheet import resolve as resolve
from bot.services.sheet import sheet_from_row as sheet_from_row

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
