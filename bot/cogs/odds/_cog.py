"""``/odds coda|h90|infinity|rps|drama``: exact chances drawn as a chart, with the numbers as
text beside it. Public: a table weighs a roll together before it is made."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._charts import send_with_chart
from bot.cogs._common import NarratorCog, actor_from
from bot.cogs.coda import TN, Modifier, Penalty
from bot.cogs.drama import Dice as Pool
from bot.cogs.hogwarts1990 import Bonus, Difficulty
from bot.cogs.infinity import Mods
from bot.cogs.rps import BaseValue
from bot.render.odds import odds_chart, odds_embed
from bot.services import odds
from bot.services.odds import OddsTable
from engine.systems import infinity

# The option types of the rolls themselves (so /odds accepts exactly what a roll does), and
# Burst capped lower: every combination up to it is drawn.
Attribute = app_commands.Range[int, infinity.ATTRIBUTE_RANGE[0], infinity.ATTRIBUTE_RANGE[1]]
Burst = app_commands.Range[int, 1, odds.MAX_FTF_BURST]


class OddsCog(NarratorCog):
    group = app_commands.Group(
        name="odds", description=locale_str("See a roll's odds as a chart before you roll")
    )

    async def _show(self, interaction: discord.Interaction, table: OddsTable) -> None:
        await interaction.response.defer(thinking=True)
        await send_with_chart(interaction, odds_embed(table), odds_chart(table))

    @group.command(
        name="coda",
        description=locale_str("CODA: the chance of each degree for a modifier vs a TN"),
    )
    @app_commands.describe(
        modifier=locale_str("Your total modifier"),
        tn=locale_str("Target number"),
        penalty=locale_str("Penalties (subtracted)"),
    )
    async def coda_odds(
        self, interaction: discord.Interaction, modifier: Modifier, tn: TN, penalty: Penalty = 0
    ) -> None:
        table = await odds.coda_odds(
            self.db, actor_from(interaction), modifier=modifier, tn=tn, penalty=penalty
        )
        await self._show(interaction, table)

    @group.command(
        name="h90", description=locale_str("Hogwarts 1990: plain, with stress, with advantage")
    )
    @app_commands.describe(bonus=locale_str("Your bonus"), difficulty=locale_str("The difficulty"))
    async def h90_odds(
        self, interaction: discord.Interaction, bonus: Bonus, difficulty: Difficulty
    ) -> None:
        table = await odds.h90_odds(actor_from(interaction), bonus=bonus, difficulty=difficulty)
        await self._show(interaction, table)

    @group.command(
        name="infinity", description=locale_str("Infinity face to face per Burst combination")
    )
    @app_commands.describe(
        a_attribute=locale_str("Side A's attribute"),
        a_mods=locale_str("Side A's modifiers"),
        a_burst=locale_str("Side A's Burst (combinations 1…this, at most 5)"),  # MAX_FTF_BURST
        b_attribute=locale_str("Side B's attribute"),
        b_mods=locale_str("Side B's modifiers"),
        b_burst=locale_str("Side B's Burst (combinations 1…this, at most 5)"),  # MAX_FTF_BURST
    )
    async def infinity_odds(
        self,
        interaction: discord.Interaction,
        a_attribute: Attribute,
        b_attribute: Attribute,
        a_mods: Mods = 0,
        a_burst: Burst = 1,
        b_mods: Mods = 0,
        b_burst: Burst = 1,
    ) -> None:
        table = await odds.infinity_odds(
            actor_from(interaction),
            a_attribute=a_attribute,
            a_mods=a_mods,
            a_burst=a_burst,
            b_attribute=b_attribute,
            b_mods=b_mods,
            b_burst=b_burst,
        )
        await self._show(interaction, table)

    @group.command(
        name="rps", description=locale_str("RPS: the chance of each success level at a Base")
    )
    @app_commands.describe(base=locale_str("The Base of the check"))
    async def rps_odds(self, interaction: discord.Interaction, base: BaseValue) -> None:
        await self._show(interaction, await odds.rps_odds(base=base))

    @group.command(
        name="drama", description=locale_str("Drama: the chance of each net, criticals off and on")
    )
    @app_commands.describe(
        base=locale_str("Base dice"),
        resistance=locale_str("Resistance dice"),
        drama_dice=locale_str("Drama dice"),
    )
    async def drama_odds(
        self,
        interaction: discord.Interaction,
        base: Pool,
        resistance: Pool = 0,
        drama_dice: Pool = 0,
    ) -> None:
        table = await odds.drama_odds(
            actor_from(interaction), base=base, resistance=resistance, drama_dice=drama_dice
        )
        await self._show(interaction, table)
