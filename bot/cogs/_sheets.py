"""Autocomplete for character, attribute, skill and resource names, for any cog's options.

Free functions, so any command binds them with ``@app_commands.autocomplete(skill=
skill_autocomplete)`` (discord.py passes no cog to a module-level callback). Sheet names
come from the character named in the command's ``character`` option (or another option, see
:func:`sheet_names_from`) when it has one, else from the caller's active character.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs._common import Choices, actor_from, safe_autocomplete
from bot.i18n import _
from bot.services import sheets
from bot.services.sheets import NameLookup

AutocompleteCallback = app_commands.commands.AutocompleteCallback


def sheet_names_from(
    lookup: NameLookup, *, character_option: str = "character", needs_character: bool = False
) -> AutocompleteCallback:
    """Autocomplete of ``lookup``'s names on the sheet named in ``character_option``.

    ``needs_character``: offer nothing until that option is filled (the other side of an
    opposed roll has no "active character" of the caller's to fall back on).
    """

    @safe_autocomplete
    async def complete(interaction: discord.Interaction, current: str) -> Choices:
        character = getattr(interaction.namespace, character_option, None) or None
        if needs_character and character is None:
            return []
        names = await sheets.suggest(
            interaction.client.db,  # type: ignore[attr-defined]
            actor_from(interaction),
            lookup,
            current,
            character,
        )
        return [app_commands.Choice(name=_shown(interaction, name), value=name) for name in names]

    return complete


def _shown(interaction: discord.Interaction, value: str) -> str:
    """How a suggestion reads: "Hermione <@123>" (one player's Hermione) as "Hermione (alice)"."""
    name, owner_id = sheets.split_owner(value)
    if owner_id is None:
        return value
    member = interaction.guild.get_member(owner_id) if interaction.guild else None
    player = member.display_name if member else _("another player")
    return f"{name} ({player})"[:100]


character_autocomplete = sheet_names_from(sheets.character_names)
attribute_autocomplete = sheet_names_from(sheets.attribute_names)
skill_autocomplete = sheet_names_from(sheets.skill_names)
