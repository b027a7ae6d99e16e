"""``/coda extended start|roll|status|abandon``: a task of several stages rolled over game
time, with its running total kept in the channel until it is done or abandoned.

One of the classes :class:`~bot.cogs.coda._cog.CodaCog` is assembled from: the subgroup's
commands and the autocomplete of the tasks in progress.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._attack import refresh_tracker
from bot.cogs._common import (
    Choices,
    NarratorCog,
    actor_from,
    safe_autocomplete,
    send_roll,
    typed_mentions,
)
from bot.cogs._options import (
    CHARACTER_HELP,
    PARTICIPANTS_HELP,
    ROLL_HELP,
    Label,
    Participants,
    SheetName,
)
from bot.cogs._sheets import attribute_autocomplete, character_autocomplete
from bot.cogs.coda._coda_options import (
    TEST_HELP,
    UNITS,
    Conditions,
    Modifier,
    Penalty,
    TaskName,
    conditions_autocomplete,
    sheet_entries,
)
from bot.cogs.coda._groups import EXTENDED
from bot.i18n import N_
from bot.render import coda as render
from bot.services import coda as service
from engine.systems import coda


class ExtendedCommands(NarratorCog):
    """``/coda extended``'s commands."""

    @EXTENDED.command(
        name="start", description=locale_str("Start an extended test in this channel")
    )
    @app_commands.describe(
        name=locale_str("What the task is (e.g. Brew Polyjuice Potion)"),
        stages=locale_str("Each stage's TN, in order, e.g. 15,15,20 (or 15:Potions,20:Herbology)"),
        interval=locale_str("Game time one test takes (in the unit)"),
        unit=locale_str("The interval's unit"),
        participants=PARTICIPANTS_HELP,
    )
    @app_commands.choices(unit=UNITS)
    async def extended_start(
        self,
        interaction: discord.Interaction,
        name: TaskName,
        stages: app_commands.Range[str, 1, 400],
        interval: app_commands.Range[int, 1, coda.MAX_INTERVAL] = 1,
        unit: str = "",
        participants: Participants | None = None,
    ) -> None:
        view = await service.start_extended(
            self.db,
            actor_from(interaction),
            name=name,
            stages=stages,
            interval=interval,
            unit=unit,
            participants=participants and typed_mentions(interaction, participants),
        )
        await interaction.response.send_message(
            embed=render.task_embed(view, title=N_("Extended test started"))
        )

    @EXTENDED.command(name="roll", description=locale_str("The next test of an extended test"))
    @app_commands.describe(
        task=locale_str("Which extended test (needed only when several are in progress)"),
        modifier=locale_str("Everything added to 2d6 (or use skill)"),
        skill=locale_str("The character's skill (default: the stage's skill, if it names one)"),
        attribute=locale_str(
            "The attribute to use (default: the skill's own; untrained, −2, if lacking it)"
        ),
        character=CHARACTER_HELP,
        penalty=TEST_HELP["penalty"],
        conditions=TEST_HELP["conditions"],
        **ROLL_HELP,
    )
    @app_commands.autocomplete(
        skill=sheet_entries(("skill",)),
        attribute=attribute_autocomplete,
        character=character_autocomplete,
        conditions=conditions_autocomplete,
    )
    async def extended_roll(
        self,
        interaction: discord.Interaction,
        task: TaskName | None = None,
        modifier: Modifier | None = None,
        skill: SheetName | None = None,
        attribute: SheetName | None = None,
        character: SheetName | None = None,
        penalty: Penalty = 0,
        conditions: Conditions | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.roll_extended(
            self.db,
            self.dice,
            actor_from(interaction),
            task=task,
            modifier=modifier,
            skill=skill,
            attribute=attribute,
            character=character,
            penalty=penalty,
            conditions=conditions,
            label=label,
            secret=secret,
        )
        embed = render.extended_roll_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)
        if outcome.turn is not None:  # an action spent on the tracker: it shows it
            await refresh_tracker(interaction)

    @EXTENDED.command(
        name="status", description=locale_str("Extended tests in progress in this channel")
    )
    @app_commands.describe(task=locale_str("One extended test (default: all of them)"))
    async def extended_status(
        self, interaction: discord.Interaction, task: TaskName | None = None
    ) -> None:
        views = await service.extended_status(self.db, actor_from(interaction), task=task)
        await interaction.response.send_message(embed=render.status_embed(views))

    @EXTENDED.command(
        name="abandon", description=locale_str("Give up an extended test (starter or GM)")
    )
    @app_commands.describe(
        task=locale_str("Which extended test (needed only when several are in progress)")
    )
    async def extended_abandon(
        self, interaction: discord.Interaction, task: TaskName | None = None
    ) -> None:
        view = await service.abandon_extended(self.db, actor_from(interaction), task=task)
        await interaction.response.send_message(
            embed=render.task_embed(view, title=N_("Extended test abandoned"))
        )

    @extended_roll.autocomplete("task")
    @extended_status.autocomplete("task")
    @extended_abandon.autocomplete("task")
    @safe_autocomplete
    async def _task_names(self, interaction: discord.Interaction, current: str) -> Choices:
        names = await service.extended_names(self.db, interaction.channel_id or 0)
        wanted = current.casefold()
        return [
            app_commands.Choice(name=name, value=name)
            for name in names
            if wanted in name.casefold()
        ]
