"""``/coda opposed`` and ``/coda combined``: tests rolled by several sides or helpers, where
a player named as a side or a helper rolls their own part with a button.

One of the classes :class:`~bot.cogs.coda._cog.CodaCog` is assembled from; the parts those
buttons roll are registered here, beside the commands that ask for them.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._attack import refresh_tracker
from bot.cogs._common import NarratorCog, actor_from, send_roll
from bot.cogs._options import ROLL_HELP, Label, SheetName
from bot.cogs._sheets import character_autocomplete
from bot.cogs._side_request import register, send_challenge, send_parts
from bot.cogs.coda._coda_options import (
    DIFFICULTIES,
    SIDE_ATTRIBUTE_HELP,
    TEST_HELP,
    TN,
    Conditions,
    conditions_autocomplete,
    sheet_entries,
)
from bot.cogs.coda._groups import CODA
from bot.render import coda as render
from bot.services import coda as service
from bot.services.side_requests import Challenge, PartsRequest

register(service.OPPOSED_KIND, service.roll_their_side, render.opposed_embed)
register(service.COMBINED_KIND, service.roll_their_part, render.combined_embed, parts=True)


class TogetherCommands(NarratorCog):
    """``/coda``'s opposed and combined tests."""

    @CODA.command(name="opposed", description=locale_str("Two sides test; the higher result wins"))
    @app_commands.describe(
        a=locale_str("Side A: a modifier (+5) or a character's name"),
        b=locale_str("Side B: a modifier (+3) or a character's name"),
        a_skill=locale_str("The skill, attribute or reaction side A's character rolls"),
        b_skill=locale_str("The skill, attribute or reaction side B's character rolls"),
        a_attribute=SIDE_ATTRIBUTE_HELP,
        b_attribute=SIDE_ATTRIBUTE_HELP,
        **ROLL_HELP,
    )
    @app_commands.autocomplete(
        a=character_autocomplete,
        b=character_autocomplete,
        a_skill=sheet_entries(("skill", "attribute"), "a"),
        b_skill=sheet_entries(("skill", "attribute"), "b"),
        a_attribute=sheet_entries(("attribute",), "a"),
        b_attribute=sheet_entries(("attribute",), "b"),
    )
    async def opposed(
        self,
        interaction: discord.Interaction,
        a: SheetName,
        b: SheetName,
        a_skill: SheetName | None = None,
        b_skill: SheetName | None = None,
        a_attribute: SheetName | None = None,
        b_attribute: SheetName | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.roll_opposed(
            self.db,
            self.dice,
            actor_from(interaction),
            now=interaction.created_at,
            a=a,
            b=b,
            a_with=a_skill,
            b_with=b_skill,
            a_untrained=a_attribute,
            b_untrained=b_attribute,
            label=label,
            secret=secret,
        )
        if isinstance(outcome, Challenge):
            await send_challenge(interaction, service.OPPOSED_KIND, outcome)
            return
        embed = render.opposed_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)
        if outcome.turn is not None:  # an action spent on the tracker: it shows it
            await refresh_tracker(interaction)

    # ----------------------------------------------------------------------- /coda combined

    @CODA.command(
        name="combined",
        description=locale_str("Helpers test at TN − 5, then the leader with their help"),
    )
    @app_commands.describe(
        leader=locale_str("The leader: a modifier (+4) or a character's name"),
        helpers=locale_str(
            "Helpers in order, by commas: modifiers or characters (a player rolls their own)"
        ),
        skill=locale_str("The skill, attribute or reaction the characters roll"),
        attribute=SIDE_ATTRIBUTE_HELP,
        tn=TEST_HELP["tn"],
        difficulty=TEST_HELP["difficulty"],
        conditions=TEST_HELP["conditions"],
        **ROLL_HELP,
    )
    @app_commands.choices(difficulty=DIFFICULTIES)
    @app_commands.autocomplete(
        leader=character_autocomplete,
        skill=sheet_entries(("skill", "attribute"), "leader"),
        attribute=sheet_entries(("attribute",), "leader"),
        conditions=conditions_autocomplete,
    )
    async def combined(
        self,
        interaction: discord.Interaction,
        leader: SheetName,
        helpers: app_commands.Range[str, 1, 1000],
        tn: TN | None = None,
        difficulty: str | None = None,
        skill: SheetName | None = None,
        attribute: SheetName | None = None,
        conditions: Conditions | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.combined(
            self.db,
            self.dice,
            actor_from(interaction),
            leader=leader,
            helpers=helpers,
            tn=tn,
            difficulty=difficulty,
            using=skill,
            untrained=attribute,
            conditions=conditions,
            label=label,
            secret=secret,
            now=interaction.created_at,
        )
        if isinstance(outcome, PartsRequest):
            await send_parts(interaction, service.COMBINED_KIND, outcome)
            return
        embed = render.combined_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)
        if outcome.turn is not None:  # an action spent on the tracker: it shows it
            await refresh_tracker(interaction)
