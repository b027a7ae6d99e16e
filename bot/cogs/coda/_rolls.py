"""``/coda test|skill|attribute|reaction``, ``/coda damage`` and ``/coda attack``: the rolls
one player makes on their own, from a modifier or from a character's sheet.

One of the classes :class:`~bot.cogs.coda._cog.CodaCog` is assembled from, so that the tests
a player rolls alone read apart from those rolled together and from extended tests.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._attack import refresh_tracker
from bot.cogs._common import Choices, NarratorCog, actor_from, safe_autocomplete, send_roll
from bot.cogs._options import ROLL_HELP, Label, SheetName
from bot.cogs._sheets import attribute_autocomplete, character_autocomplete, skill_autocomplete
from bot.cogs.coda._attack import run_attack
from bot.cogs.coda._coda_options import (
    ACTION_HELP,
    DIFFICULTIES,
    SHEET_TEST_HELP,
    TEST_HELP,
    TN,
    UNTRAINED_HELP,
    Affinity,
    Attempt,
    Conditions,
    ExtraActions,
    Modifier,
    Penalty,
    conditions_autocomplete,
    from_options,
    sheet_entries,
)
from bot.cogs.coda._groups import CODA
from bot.render import coda as render
from bot.services import coda as service
from bot.services.coda import AttackRequest
from engine.systems import coda


class RollCommands(NarratorCog):
    """``/coda``'s single tests, damage and attack."""

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

    @CODA.command(name="test", description=locale_str("2d6 + modifier − penalties against a TN"))
    @app_commands.describe(
        modifier=locale_str("Everything added to 2d6"), action=ACTION_HELP, **TEST_HELP
    )
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
        action: bool = True,
    ) -> None:
        await self._test(interaction, service.PlainRoll, locals())

    @CODA.command(name="skill", description=locale_str("A skill test from your character's sheet"))
    @app_commands.describe(
        skill=locale_str("The skill (untrained, −2, when the character lacks it)"),
        attribute=locale_str("The attribute to use (default: the skill's own)"),
        specialty=locale_str("A specialty of the skill that applies (+2)"),
        affinity=locale_str("An affinity bonus that applies (+1 or more)"),
        action=ACTION_HELP,
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
        action: bool = True,
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

    @CODA.command(name="attribute", description=locale_str("An attribute test from your sheet"))
    @app_commands.describe(name=locale_str("The attribute"), action=ACTION_HELP, **SHEET_TEST_HELP)
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
        action: bool = True,
    ) -> None:
        await self._test(interaction, service.AttributeRoll, locals())

    @CODA.command(
        name="reaction", description=locale_str("A reaction test (Stamina, Swiftness, …)")
    )
    @app_commands.describe(
        name=locale_str("The reaction: Stamina, Swiftness, Willpower or Wisdom"),
        action=ACTION_HELP,
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
        action: bool = True,
    ) -> None:
        await self._test(interaction, service.ReactionRoll, locals())

    # ----------------------------------------------------------------------- /coda damage

    @CODA.command(
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

    @CODA.command(
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
        attacker=locale_str("A name for an attacker without a sheet (an NPC; give its bonus)"),
        bonus=locale_str("The NPC attacker's combat skill bonus (with `attacker`)"),
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
        attacker: SheetName | None = None,
        bonus: Modifier = 0,
    ) -> None:
        await run_attack(interaction, from_options(AttackRequest, locals()))
