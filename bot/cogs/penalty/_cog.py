"""``/penalty add|recover|rest|show``: a Drama character's persistent penalty dice."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._common import NarratorCog, actor_from
from bot.cogs._options import CHARACTER_HELP, SheetName
from bot.cogs._sheets import character_autocomplete
from bot.render import penalty as render
from bot.services import penalty as service
from engine import penalty

Amount = app_commands.Range[int, 1, penalty.MAX_CHANGE]
Hours = app_commands.Range[float, 0, penalty.MAX_REST_HOURS]
Reason = app_commands.Range[str, 1, service.REASON_LENGTH]


class PenaltyCog(NarratorCog):
    penalty_group = app_commands.Group(
        name="penalty", description=locale_str("Penalty dice: added to the Rd of every Drama test")
    )

    @penalty_group.command(
        name="add",
        description=locale_str("Add penalty dice (the GM; a player to their own character)"),
    )
    @app_commands.describe(
        character=locale_str("Whose pool"),
        amount=locale_str("How many dice"),
        reason=locale_str("Fatigue, fear, wounds, drink…"),
    )
    @app_commands.autocomplete(character=character_autocomplete)
    async def add(
        self,
        interaction: discord.Interaction,
        character: SheetName,
        amount: Amount,
        reason: Reason | None = None,
    ) -> None:
        update = await service.add(
            self.db,
            actor_from(interaction),
            character=character,
            amount=amount,
            reason=reason or "",
        )
        await interaction.response.send_message(embed=render.update_embed(update))

    @penalty_group.command(
        name="recover", description=locale_str("Remove penalty dice (GM); stops at 0")
    )
    @app_commands.describe(character=locale_str("Whose pool"), amount=locale_str("How many dice"))
    @app_commands.autocomplete(character=character_autocomplete)
    async def recover(
        self, interaction: discord.Interaction, character: SheetName, amount: Amount
    ) -> None:
        update = await service.recover(
            self.db, actor_from(interaction), character=character, amount=amount
        )
        await interaction.response.send_message(embed=render.update_embed(update))

    @penalty_group.command(
        name="rest", description=locale_str("Sleep or serious rest: 1 die per 3 full hours")
    )
    @app_commands.describe(
        character=locale_str("Who rests"), hours=locale_str("Hours of sleep or serious rest")
    )
    @app_commands.autocomplete(character=character_autocomplete)
    async def rest(
        self, interaction: discord.Interaction, character: SheetName, hours: Hours
    ) -> None:
        update = await service.rest(
            self.db, actor_from(interaction), character=character, hours=hours
        )
        await interaction.response.send_message(embed=render.update_embed(update))

    @penalty_group.command(
        name="show", description=locale_str("A pool's dice, level and recent changes")
    )
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=character_autocomplete)
    async def show(
        self, interaction: discord.Interaction, character: SheetName | None = None
    ) -> None:
        view = await service.show(self.db, actor_from(interaction), character=character)
        await interaction.response.send_message(embed=render.show_embed(view))
