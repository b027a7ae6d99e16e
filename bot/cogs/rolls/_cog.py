"""``/roll expression [label] [secret]``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._common import NarratorCog, actor_from, send_roll
from bot.cogs._options import ROLL_HELP, Label
from bot.render.rolls import notation_embed
from bot.services import rolls
from engine.notation import MAX_EXPRESSION_LENGTH


class RollsCog(NarratorCog):
    @app_commands.command(
        name="roll", description=locale_str("Roll dice in d20 notation, e.g. 4d6kh3 + 2")
    )
    @app_commands.describe(
        expression=locale_str(
            "Dice notation: 2d6+3, 4d6kh3, 10d6e6 … {Stealth} takes your character's value"
        ),
        **ROLL_HELP,
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        expression: app_commands.Range[str, 1, MAX_EXPRESSION_LENGTH],
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await rolls.roll_notation(
            self.db,
            self.dice,
            actor_from(interaction),
            expression=expression,
            label=label,
            secret=secret,
        )
        await send_roll(
            interaction, notation_embed(outcome, interaction.user.display_name), outcome.secrecy
        )
