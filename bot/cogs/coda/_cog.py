"""``/coda test|skill|attribute|reaction|damage|attack|opposed|combined|table|extended …``."""

from __future__ import annotations

from typing import Any

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
from bot.cogs._sheets import attribute_autocomplete, character_autocomplete, skill_autocomplete
from bot.cogs._side_request import register, send_challenge, send_parts
from bot.cogs.coda._attack import run_attack
from bot.cogs.coda._coda_options import (
    DIFFICULTIES,
    SHEET_TEST_HELP,
    TEST_HELP,
    TN,
    UNITS,
    UNTRAINED_HELP,
    Affinity,
    Attempt,
    Conditions,
    ExtraActions,
    Modifier,
    Penalty,
    TaskName,
    conditions_autocomplete,
    from_options,
    sheet_entries,
)
from bot.i18n import N_
from bot.render import coda as render
from bot.render.coda import table_embed
from bot.services import coda as service
from bot.services.coda import AttackRequest
from bot.services.side_requests import Challenge, PartsRequest
from engine.systems import coda

__all__ = ["TN", "CodaCog", "Modifier", "Penalty"]


register(service.OPPOSED_KIND, service.roll_their_side, render.opposed_embed)
register(service.COMBINED_KIND, service.roll_their_part, render.combined_embed, parts=True)


class CodaCog(NarratorCog):
    coda_group = app_commands.Group(
        name="coda", description=locale_str("CODA (Harry Potter RPG) tests")
    )
    extended = app_commands.Group(
        name="extended",
        description=locale_str("Extended tests: stages, running total, time"),
        parent=coda_group,
    )

    async def _test(
        self, interaction: discord.Interaction, who: type[service.Who], options: dict[str, Any]
    ) -> None:
        """Every single test: who rolls (a modifier or a sheet) and the shared options."""
        outcome = await service.roll_test(
            self.db,
            self.dice,
            actor_from(interaction),
            from_options(who, options),
            from_options(service.TestRequest, options),
        )
        embed = render.coda_test_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)
        if outcome.turn is not None:  # an action spent on the tracker: it shows it
            await refresh_tracker(interaction)

    # ----------------------------------------------------------------------- single tests

    @coda_group.command(
        name="test", description=locale_str("2d6 + modifier − penalties against a TN")
    )
    @app_commands.describe(modifier=locale_str("Everything added to 2d6"), **TEST_HELP)
    @app_commands.choices(difficulty=DIFFICULTIES)
    @app_commands.autocomplete(conditions=conditions_autocomplete)
    async def test(
        self,
        interaction: discord.Interaction,
        modifier: Modifier = 0,
        tn: TN | None = None,
        difficulty: str | None = None,
        penalty: Penalty = 0,
        attempt: Attempt = 1,
        extra_actions: ExtraActions | None = None,
        conditions: Conditions | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        await self._test(interaction, service.PlainRoll, locals())

    @coda_group.command(
        name="skill", description=locale_str("A skill test from your character's sheet")
    )
    @app_commands.describe(
        skill=locale_str("The skill (untrained, −2, when the character lacks it)"),
        attribute=locale_str("The attribute to use (default: the skill's own)"),
        specialty=locale_str("A specialty of the skill that applies (+2)"),
        affinity=locale_str("An affinity bonus that applies (+1 or more)"),
        **SHEET_TEST_HELP,
    )
    @app_commands.choices(difficulty=DIFFICULTIES)
    @app_commands.autocomplete(
        skill=skill_autocomplete,
        attribute=attribute_autocomplete,
        character=character_autocomplete,
        conditions=conditions_autocomplete,
    )
    async def skill(
        self,
        interaction: discord.Interaction,
        skill: SheetName,
        tn: TN | None = None,
        difficulty: str | None = None,
        attribute: SheetName | None = None,
        specialty: SheetName | None = None,
        affinity: Affinity = 0,
        modifier: Modifier = 0,
        penalty: Penalty = 0,
        attempt: Attempt = 1,
        extra_actions: ExtraActions | None = None,
        conditions: Conditions | None = None,
        character: SheetName | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        await self._test(interaction, service.SkillRoll, locals())

    @skill.autocomplete("specialty")
    @safe_autocomplete
    async def _specialties(self, interaction: discord.Interaction, current: str) -> Choices:
        names = await service.specialty_names(
            self.db,
            actor_from(interaction),
            current,
            character=getattr(interaction.namespace, "character", None),
            skill=getattr(interaction.namespace, "skill", None),
        )
        return [app_commands.Choice(name=n, value=n) for n in names]

    @coda_group.command(
        name="attribute", description=locale_str("An attribute test from your sheet")
    )
    @app_commands.describe(name=locale_str("The attribute"), **SHEET_TEST_HELP)
    @app_commands.choices(difficulty=DIFFICULTIES)
    @app_commands.autocomplete(
        name=attribute_autocomplete,
        character=character_autocomplete,
        conditions=conditions_autocomplete,
    )
    async def attribute(
        self,
        interaction: discord.Interaction,
        name: SheetName,
        tn: TN | None = None,
        difficulty: str | None = None,
        modifier: Modifier = 0,
        penalty: Penalty = 0,
        attempt: Attempt = 1,
        extra_actions: ExtraActions | None = None,
        conditions: Conditions | None = None,
        character: SheetName | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        await self._test(interaction, service.AttributeRoll, locals())

    @coda_group.command(
        name="reaction", description=locale_str("A reaction test (Stamina, Swiftness, …)")
    )
    @app_commands.describe(
        name=locale_str("The reaction: Stamina, Swiftness, Willpower or Wisdom"),
        **SHEET_TEST_HELP,
    )
    @app_commands.choices(difficulty=DIFFICULTIES)
    @app_commands.autocomplete(
        name=sheet_entries(("reaction",)),
        character=character_autocomplete,
        conditions=conditions_autocomplete,
    )
    async def reaction(
        self,
        interaction: discord.Interaction,
        name: SheetName,
        tn: TN | None = None,
        difficulty: str | None = None,
        modifier: Modifier = 0,
        penalty: Penalty = 0,
        attempt: Attempt = 1,
        extra_actions: ExtraActions | None = None,
        conditions: Conditions | None = None,
        character: SheetName | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        await self._test(interaction, service.ReactionRoll, locals())

    # ----------------------------------------------------------------------- /coda damage

    @coda_group.command(
        name="damage", description=locale_str("A weapon's damage: Nd6 + modifier, rolling 6s")
    )
    @app_commands.describe(
        dice=locale_str("How many d6 the weapon deals"),
        modifier=locale_str("Added to the dice"),
        **ROLL_HELP,
    )
    async def damage(
        self,
        interaction: discord.Interaction,
        dice: app_commands.Range[int, coda.DAMAGE_DICE_MIN, coda.DAMAGE_DICE_MAX],
        modifier: Modifier = 0,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.roll_damage(
            self.db,
            self.dice,
            actor_from(interaction),
            count=dice,
            modifier=modifier,
            label=label,
            secret=secret,
        )
        embed = render.damage_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)

    # ----------------------------------------------------------------------- /coda attack

    @coda_group.command(
        name="attack",
        description=locale_str("A combat skill test against a target's Defence, then damage"),
    )
    @app_commands.describe(
        skill=locale_str("The combat skill (untrained, −2, with `attribute`, when lacking it)"),
        target=locale_str("A character in this channel, or an NPC (then give its `defence`)"),
        dice=locale_str("How many d6 the weapon deals"),
        modifier=locale_str("Added to the weapon's damage"),
        ranged=locale_str("A ranged attack: only Dodge avoids it"),
        defence=locale_str("The target's Defence (default: from its sheet; needed for an NPC)"),
        npc_defend=locale_str("For an NPC target: its Dodge/Parry modifier"),
        attribute=UNTRAINED_HELP,
        character=locale_str("Which of your characters attacks (default: your active one)"),
        conditions=TEST_HELP["conditions"],
        secret=ROLL_HELP["secret"],
        extra_actions=TEST_HELP["extra_actions"],
    )
    @app_commands.autocomplete(
        skill=skill_autocomplete,
        attribute=attribute_autocomplete,
        character=character_autocomplete,
        conditions=conditions_autocomplete,
    )
    async def attack(
        self,
        interaction: discord.Interaction,
        skill: SheetName,
        target: SheetName,
        dice: app_commands.Range[int, coda.DAMAGE_DICE_MIN, coda.DAMAGE_DICE_MAX] = 1,
        modifier: Modifier = 0,
        ranged: bool = False,
        defence: TN | None = None,
        npc_defend: Modifier = 0,
        conditions: Conditions | None = None,
        attribute: SheetName | None = None,
        character: SheetName | None = None,
        secret: bool = False,
        extra_actions: ExtraActions | None = None,
    ) -> None:
        await run_attack(interaction, from_options(AttackRequest, locals()))

    # ----------------------------------------------------------------------- /coda opposed

    @coda_group.command(
        name="opposed", description=locale_str("Two sides test; the higher result wins")
    )
    @app_commands.describe(
        a=locale_str("Side A: a modifier (+5) or a character's name"),
        b=locale_str("Side B: a modifier (+3) or a character's name"),
        a_skill=locale_str("The skill, attribute or reaction side A's character rolls"),
        b_skill=locale_str("The skill, attribute or reaction side B's character rolls"),
        a_attribute=UNTRAINED_HELP,
        b_attribute=UNTRAINED_HELP,
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

    # ----------------------------------------------------------------------- /coda combined

    @coda_group.command(
        name="combined",
        description=locale_str("Helpers test at TN − 5, then the leader with their help"),
    )
    @app_commands.describe(
        leader=locale_str("The leader: a modifier (+4) or a character's name"),
        helpers=locale_str(
            "Helpers in order, by commas: modifiers or characters (a player rolls their own)"
        ),
        skill=locale_str("The skill, attribute or reaction the characters roll"),
        attribute=UNTRAINED_HELP,
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

    # ----------------------------------------------------------------------- /coda table

    @coda_group.command(
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

    # ----------------------------------------------------------------------- /coda extended

    @extended.command(
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

    @extended.command(name="roll", description=locale_str("The next test of an extended test"))
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

    @extended.command(
        name="status", description=locale_str("Extended tests in progress in this channel")
    )
    @app_commands.describe(task=locale_str("One extended test (default: all of them)"))
    async def extended_status(
        self, interaction: discord.Interaction, task: TaskName | None = None
    ) -> None:
        views = await service.extended_status(self.db, actor_from(interaction), task=task)
        await interaction.response.send_message(embed=render.status_embed(views))

    @extended.command(
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
