"""``/coda``'s cog: its command groups and ``/coda table``, with the commands of the classes
it is assembled from: single tests, damage and attack (``_rolls``), opposed and combined tests
(``_together``) and extended tests (``_extended``).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._common import Choices, safe_autocomplete
from bot.cogs.coda._extended import ExtendedCommands
from bot.cogs.coda._groups import CODA, EXTENDED
from bot.cogs.coda._rolls import RollCommands
from bot.cogs.coda._together import TogetherCommands
from bot.render.coda import table_embed
from engine.systems import coda


class CodaCog(RollCommands, TogetherCommands, ExtendedCommands):
    coda_group = CODA
    extended = EXTENDED

    @CODA.command(
        name="table", description=locale_str("A reference table of seed 000 (9-1, 9-5…9-13)")
    )
    @app_commands.describe(
        name=locale_str("The table: its number (9-7) or a word of its title, with autocomplete"),
        strength=locale_str("Table 9-8: the loads for this Strength"),
        titanic=locale_str("Table 9-7: walking distances for Titanic +X (this X)"),
    )
    async def table(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 100],
        strength: app_commands.Range[int, coda.MIN_STRENGTH, coda.MAX_STRENGTH] | None = None,
        titanic: app_commands.Range[int, 0, coda.MAX_TITANIC_X] | None = None,
    ) -> None:
        found = coda.find_table(name)
        await interaction.response.send_message(
            embed=table_embed(found, strength=strength, titanic=titanic)
        )

    @table.autocomplete("name")
    @safe_autocomplete
    async def _table_names(self, interaction: discord.Interaction, current: str) -> Choices:
        wanted = current.strip().casefold()
        return [
            app_commands.Choice(name=name, value=name.split(":")[0].removeprefix("Table "))
            for name in coda.table_names()
            if wanted in name.casefold()
        ]
