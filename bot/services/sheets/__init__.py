"""Characters and their sheets: every system's service reads a sheet here, and the ``/sheet``
commands' own services change them.

Rolling from a sheet, inside the caller's unit of work::

    sheet = await active_character(session, actor, system="coda")
    stealth = resolve(sheet, "skill Stealth")

The package's private modules, one job each: the sheet's values, bounds and resolver
(``_model``), suggested names per system (``_templates``), a sheet file's checks
(``_file``), finding characters with the GM rule (``_lookup``), autocomplete (``_names``),
resource changes (``_resources``), owning characters (``_owned``: create, show, choose, list,
delete), the sheet as its embeds show it (``_shown``), editing entries (``_entries``), the
edit form (``_form``, ``_edit``) and export and import (``_transfer``). This face is the API.
"""

from __future__ import annotations

from bot.services.sheets._edit import copy as copy
from bot.services.sheets._edit import form as form
from bot.services.sheets._edit import rename as rename
from bot.services.sheets._edit import submit as submit
from bot.services.sheets._entries import remove_resource as remove_resource
from bot.services.sheets._entries import set_attribute as set_attribute
from bot.services.sheets._entries import set_notes as set_notes
from bot.services.sheets._entries import set_resource as set_resource
from bot.services.sheets._entries import set_skill as set_skill
from bot.services.sheets._entries import suggested_names as suggested_names
from bot.services.sheets._entries import suggestions as suggestions
from bot.services.sheets._file import SheetFileError as SheetFileError
from bot.services.sheets._file import parse_sheet as parse_sheet
from bot.services.sheets._file import storable as storable
from bot.services.sheets._form import FIELD_TEXT as FIELD_TEXT
from bot.services.sheets._form import FIELDS as FIELDS
from bot.services.sheets._form import LABEL as LABEL
from bot.services.sheets._form import Part as Part
from bot.services.sheets._form import SheetForm as SheetForm
from bot.services.sheets._form import build_form as build_form
from bot.services.sheets._form import read_form as read_form
from bot.services.sheets._lookup import active_character as active_character
from bot.services.sheets._lookup import active_row as active_row
from bot.services.sheets._lookup import character_by_name as character_by_name
from bot.services.sheets._lookup import guild_key as guild_key
from bot.services.sheets._lookup import named_or_active as named_or_active
from bot.services.sheets._lookup import others_character as others_character
from bot.services.sheets._lookup import players_active_character as players_active_character
from bot.services.sheets._lookup import plays_system as plays_system
from bot.services.sheets._lookup import split_owner as split_owner
from bot.services.sheets._model import MAX_ATTRIBUTES as MAX_ATTRIBUTES
from bot.services.sheets._model import MAX_RESOURCES as MAX_RESOURCES
from bot.services.sheets._model import MAX_SKILLS as MAX_SKILLS
from bot.services.sheets._model import MAX_SPECIALTIES as MAX_SPECIALTIES
from bot.services.sheets._model import MAX_VALUE as MAX_VALUE
from bot.services.sheets._model import MIN_VALUE as MIN_VALUE
from bot.services.sheets._model import NAME_LENGTH as NAME_LENGTH
from bot.services.sheets._model import NOTES_LENGTH as NOTES_LENGTH
from bot.services.sheets._model import CharacterSheet as CharacterSheet
from bot.services.sheets._model import ResolvedValue as ResolvedValue
from bot.services.sheets._model import Resource as Resource
from bot.services.sheets._model import Skill as Skill
from bot.services.sheets._model import find_key as find_key
from bot.services.sheets._model import name_key as name_key
from bot.services.sheets._model import resolve as resolve
from bot.services.sheets._model import sheet_from_row as sheet_from_row
from bot.services.sheets._model import substitute as substitute
from bot.services.sheets._names import AUTOCOMPLETE_LIMIT as AUTOCOMPLETE_LIMIT
from bot.services.sheets._names import NameLookup as NameLookup
from bot.services.sheets._names import attribute_names as attribute_names
from bot.services.sheets._names import character_names as character_names
from bot.services.sheets._names import matching as matching
from bot.services.sheets._names import sheet_for_autocomplete as sheet_for_autocomplete
from bot.services.sheets._names import skill_names as skill_names
from bot.services.sheets._names import suggest as suggest
from bot.services.sheets._owned import MAX_CHARACTERS as MAX_CHARACTERS
from bot.services.sheets._owned import MAX_IMPORT_BYTES as MAX_IMPORT_BYTES
from bot.services.sheets._owned import CharacterEntry as CharacterEntry
from bot.services.sheets._owned import CharacterList as CharacterList
from bot.services.sheets._owned import SheetChange as SheetChange
from bot.services.sheets._owned import check_character_name as check_character_name
from bot.services.sheets._owned import create as create
from bot.services.sheets._owned import delete as delete
from bot.services.sheets._owned import insert_character as insert_character
from bot.services.sheets._owned import list_characters as list_characters
from bot.services.sheets._owned import own_character as own_character
from bot.services.sheets._owned import own_row as own_row
from bot.services.sheets._owned import show as show
from bot.services.sheets._owned import use as use
from bot.services.sheets._resources import ResourceChange as ResourceChange
from bot.services.sheets._resources import adjust_resource as adjust_resource
from bot.services.sheets._resources import lower_resource as lower_resource
from bot.services.sheets._shown import SheetText as SheetText
from bot.services.sheets._shown import SkillText as SkillText
from bot.services.sheets._templates import TEMPLATES as TEMPLATES
from bot.services.sheets._transfer import check_import_size as check_import_size
from bot.services.sheets._transfer import export as export
from bot.services.sheets._transfer import import_sheet as import_sheet
