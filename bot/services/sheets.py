"""The ``/sheet`` commands' services: one unit of work each, owners change their sheets.

Reading and resources (with the GM rule) are :mod:`bot.services.characters`; this module
adds what only an owner may do: create, edit, choose, delete, export and import.

The work lives in :mod:`bot.services.sheets_owned` (owning characters),
:mod:`bot.services.sheets_entries` (editing entries) and :mod:`bot.services.sheets_transfer`
(export and import); this module re-exports their names (and ``own_row`` and ``insert_character``,
which callers use).
"""

from __future__ import annotations

from bot.services.sheets_entries import remove_resource as remove_resource
from bot.services.sheets_entries import set_attribute as set_attribute
from bot.services.sheets_entries import set_notes as set_notes
from bot.services.sheets_entries import set_resource as set_resource
from bot.services.sheets_entries import set_skill as set_skill
from bot.services.sheets_entries import suggested_names as suggested_names
from bot.services.sheets_entries import suggestions as suggestions
from bot.services.sheets_owned import MAX_CHARACTERS as MAX_CHARACTERS
from bot.services.sheets_owned import MAX_IMPORT_BYTES as MAX_IMPORT_BYTES
from bot.services.sheets_owned import CharacterEntry as CharacterEntry
from bot.services.sheets_owned import CharacterList as CharacterList
from bot.services.sheets_owned import SheetChange as SheetChange
from bot.services.sheets_owned import check_character_name as check_character_name
from bot.services.sheets_owned import create as create
from bot.services.sheets_owned import delete as delete
from bot.services.sheets_owned import insert_character as insert_character
from bot.services.sheets_owned import list_characters as list_characters
from bot.services.sheets_owned import own_character as own_character
from bot.services.sheets_owned import own_row as own_row
from bot.services.sheets_owned import show as show
from bot.services.sheets_owned import use as use
from bot.services.sheets_transfer import check_import_size as check_import_size
from bot.services.sheets_transfer import export as export
from bot.services.sheets_transfer import import_sheet as import_sheet
