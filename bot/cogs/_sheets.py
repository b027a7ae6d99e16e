"""Sheet options for any cog: autocomplete for character, attribute, skill and resource names.

Free functions, so any command binds them with ``@my_command.autocomplete("skill")(
skill_autocomplete)`` (discord.py passes no cog to a module-level callback). Attribute,
skill and resource suggestions come from the character named in the command's
``character`` option when it has one, else from the caller's active character.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.cogs._common import Choices, actor_from, safe_autocomplete
from bot.services import characters

#: The five systems as a command option's choices (``/sheet create``, ``/init start``).

NameLookup = Callable[[AsyncSession, Actor, str, str | None], Awaitable[list[str]]]


def _choices(names: list[str]) -> Choices:
    return [app_commands.Choice(name=name, value=name) for name in names]


async def sheet_names(
    interaction: discord.Interaction, current: str, lookup: NameLookup
) -> Choices:
    """``lookup``'s names for the command's ``character`` option, else the active character."""
    character = getattr(interaction.namespace, "character", None)
    async with interaction.client.db.unit_of_work(read_only=True) as session:  # type: ignore[attr-defined]
        names = await lookup(
            session, actor_from(interaction), current, character if character else None
        )
    return _choices(names)


@safe_autocomplete
async def character_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    async with interaction.client.db.unit_of_work(read_only=True) as session:  # type: ignore[attr-defined]
        names = await characters.character_names(session, actor_from(interaction), current)
    return _choices(names)


@safe_autocomplete
async def attribute_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    return await sheet_names(interaction, current, characters.attribute_names)


@safe_autocomplete
async def skill_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    return await sheet_names(interaction, current, characters.skill_names)


@safe_autocomplete
async def resource_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    return await sheet_names(interaction, current, characters.resource_names)
