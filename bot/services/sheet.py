"""A character sheet as plain values, its bounds, and the resolver every system rolls from.

Pure (no database): the sheet is read once inside a command's unit of work and then used
as immutable data, so a system service can resolve "skill Stealth" without touching storage.
Import these names from :mod:`bot.services.characters`, which re-exports them. The work
lives in :mod:`bot.services.sheet_model` (the sheet), :mod:`bot.services.sheet_templates`
(suggested names) and :mod:`bot.services.sheet_file` (a sheet file's checks); this module
re-exports their names (and ``storable``, which a caller uses).
"""

from __future__ import annotations

from bot.services.sheet_file import SheetFileError as SheetFileError
from bot.services.sheet_file import parse_sheet as parse_sheet
from bot.services.sheet_file import storable as storable
from bot.services.sheet_model import ENTRY_KINDS as ENTRY_KINDS
from bot.services.sheet_model import ENTRY_SECTIONS as ENTRY_SECTIONS
from bot.services.sheet_model import KINDS as KINDS
from bot.services.sheet_model import MAX_ATTRIBUTES as MAX_ATTRIBUTES
from bot.services.sheet_model import MAX_RESOURCES as MAX_RESOURCES
from bot.services.sheet_model import MAX_SKILLS as MAX_SKILLS
from bot.services.sheet_model import MAX_SPECIALTIES as MAX_SPECIALTIES
from bot.services.sheet_model import MAX_VALUE as MAX_VALUE
from bot.services.sheet_model import MIN_VALUE as MIN_VALUE
from bot.services.sheet_model import NAME_LENGTH as NAME_LENGTH
from bot.services.sheet_model import NOTES_LENGTH as NOTES_LENGTH
from bot.services.sheet_model import CharacterSheet as CharacterSheet
from bot.services.sheet_model import Kind as Kind
from bot.services.sheet_model import ResolvedValue as ResolvedValue
from bot.services.sheet_model import Resource as Resource
from bot.services.sheet_model import Skill as Skill
from bot.services.sheet_model import V as V
from bot.services.sheet_model import find_key as find_key
from bot.services.sheet_model import name_key as name_key
from bot.services.sheet_model import resolve as resolve
from bot.services.sheet_model import sheet_from_row as sheet_from_row
from bot.services.sheet_model import substitute as substitute
from bot.services.sheet_templates import TEMPLATES as TEMPLATES
