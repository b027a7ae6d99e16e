"""``/dice verify record salt commitment``, ``/dice stats [player] [system] [since]`` and
``/dice test sides count``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._charts import send_with_chart
from bot.cogs._common import NarratorCog, actor_from
from bot.render import dice_stats as render
from bot.render.commitments import verification_embed
from bot.services import commitments, dice_stats
from bot.text import UserText

#: A record as long as the roll log keeps (inputs and outcomes up to 2,000 characters each).
MAX_RECORD = 6000

SYSTEM_CHOICES = [app_commands.Choice(name=name, value=name) for name in dice_stats.SYSTEMS]
SINCE_CHOICES = [
    app_commands.Choice(name=locale_str("the last hour"), value="1h"),
    app_commands.Choice(name=locale_str("the last 24 hours"), value="24h"),
    app_commands.Choice(name=locale_str("the last 7 days"), value="7d"),
    app_commands.Choice(name=locale_str("the last 30 days"), value="30d"),
]


class DiceCog(NarratorCog):
    group = app_commands.Group(name="dice", description=locale_str("Fair dice you can check"))

    @group.command(
        name="verify", description=locale_str("Check a secret roll's commitment after its reveal")
    )
    @app_commands.describe(
        record=locale_str("The revealed record, exactly as posted"),
        salt=locale_str("The revealed salt (32 hex digits)"),
        commitment=locale_str("The commitment from the secret roll's notice (16 to 64 hex digits)"),
    )
    async def verify(
        self,
        interaction: discord.Interaction,
        record: app_commands.Range[str, 1, MAX_RECORD],
        salt: app_commands.Range[str, 1, 64],
        commitment: app_commands.Range[str, 1, 64],
    ) -> None:
        result = commitments.verify(record=record, salt=salt, commitment_hex=commitment)
        await interaction.response.send_message(embed=verification_embed(result), ephemeral=True)

    @group.command(
        name="stats", description=locale_str("Faces rolled here against fair dice, with a chart")
    )
    @app_commands.describe(
        player=locale_str("Whose rolls (default: everyone's in this channel)"),
        system=locale_str("Only this system's rolls"),
        since=locale_str("Only recent rolls"),
    )
    @app_commands.choices(system=SYSTEM_CHOICES, since=SINCE_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        system: str | None = None,
        since: str | None = None,
    ) -> None:
        result = await dice_stats.stats(
            self.db,
            actor_from(interaction),
            player_id=player.id if player else None,
            system=system,
            since=since,
        )
        await interaction.response.defer(thinking=True)
        who = player.display_name if player else f"#{getattr(interaction.channel, 'name', '')}"
        shown = UserText(who)
        await send_with_chart(
            interaction, render.stats_embed(result, shown), render.stats_chart(result, who)
        )

    @group.command(
        name="test",
        description=locale_str("Roll many dice from the bot's own source and chart them"),
    )
    @app_commands.describe(
        sides=locale_str("Die size (2–100)"),
        count=locale_str("How many dice (1–100,000)"),  # MAX_TEST_COUNT
    )
    async def test(
        self,
        interaction: discord.Interaction,
        sides: app_commands.Range[int, 2, dice_stats.MAX_TEST_SIDES],
        count: app_commands.Range[int, 1, dice_stats.MAX_TEST_COUNT],
    ) -> None:
        # Rolled before deferring, so a refusal (its queue full, too heavy) is private; a
        # long run is deferred by the gateway's deadline meanwhile.
        result = await dice_stats.roll_source(
            self.dice, actor_from(interaction), sides=sides, count=count
        )
        await interaction.response.defer(thinking=True)
        await send_with_chart(interaction, render.source_embed(result), render.source_chart(result))
