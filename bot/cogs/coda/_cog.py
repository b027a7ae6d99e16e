"""``/coda test|skill|attribute|reaction|damage|opposed|combined|extended …``."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs._common import (
    LABEL_LENGTH,
    Choices,
    NarratorCog,
    actor_from,
    safe_autocomplete,
    send_roll,
)
from bot.cogs._sheets import attribute_autocomplete, character_autocomplete, skill_autocomplete
from bot.render import coda as render
from bot.services import coda as service
from engine.systems import coda
from engine.systems.coda_tables import condition_options

Label = app_commands.Range[str, 1, LABEL_LENGTH]
Modifier = app_commands.Range[int, coda.MODIFIER_MIN, coda.MODIFIER_MAX]
TN = app_commands.Range[int, coda.TN_MIN, coda.TN_MAX]
Penalty = app_commands.Range[int, coda.PENALTY_MIN, coda.PENALTY_MAX]
Attempt = app_commands.Range[int, 1, coda.MAX_ATTEMPT]
ExtraActions = app_commands.Range[int, 0, coda.MAX_ACTIONS]
Conditions = app_commands.Range[str, 1, 1000]
Name = app_commands.Range[str, 1, 100]

DIFFICULTIES = [
    app_commands.Choice(name=f"{d.label} ({d.tn})", value=d.label) for d in coda.Difficulty
]
UNITS = [
    app_commands.Choice(name=unit, value=unit)
    for unit in ("rounds", "minutes", "hours", "days", "weeks", "months")
]
AUTOCOMPLETE_LIMIT = 25
CHOICE_LENGTH = 100

_TEST_HELP = {
    "tn": "The target number (or pick a difficulty instead)",
    "difficulty": "A named TN: Routine 5 … Virtually Impossible 25",
    "penalty": "Penalties to subtract (wounds, …)",
    "attempt": "Which attempt at this task this is: −2 per earlier failure",
    "extra_actions": "Actions this round beyond the second: −5 each (3rd action = 1)",
    "conditions": "Tables 9-2…9-4 and combat modifiers, e.g. 'Darkness +5, Heavy rain -3'",
    "label": "What the test is for (shown in the title)",
    "secret": "Show the result only to you and the GM",
}


def condition_choices(current: str) -> Choices:
    """Completions for the last item of a comma-separated list of conditions."""
    head, _, last = current.rpartition(",")
    prefix = f"{head.strip()}, " if head.strip() else ""
    wanted = last.strip().casefold()
    choices: Choices = []
    for option in condition_options():
        if wanted and wanted not in option.casefold():
            continue
        value = prefix + option
        if len(value) <= CHOICE_LENGTH:
            choices.append(app_commands.Choice(name=value, value=value))
        if len(choices) >= AUTOCOMPLETE_LIMIT:
            break
    return choices


class CodaCog(NarratorCog):
    coda_group = app_commands.Group(name="coda", description="CODA (Harry Potter RPG) tests")
    extended = app_commands.Group(
        name="extended",
        description="Extended tests: stages, running total, time",
        parent=coda_group,
    )

    # ----------------------------------------------------------------------- /coda test

    @coda_group.command(name="test", description="2d6 + modifier − penalties against a TN")
    @app_commands.describe(modifier="Everything added to 2d6", **_TEST_HELP)
    @app_commands.choices(difficulty=DIFFICULTIES)
    async def test(
        self,
        interaction: discord.Interaction,
        modifier: Modifier = 0,
        tn: TN | None = None,
        difficulty: str | None = None,
        penalty: Penalty = 0,
        attempt: Attempt = 1,
        extra_actions: ExtraActions = 0,
        conditions: Conditions | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.roll_test(
            self.db,
            self.dice,
            actor_from(interaction),
            modifier=modifier,
            tn=tn,
            difficulty=difficulty,
            penalty=penalty,
            attempt=attempt,
            extra_actions=extra_actions,
            conditions=conditions,
            label=label,
            secret=secret,
        )
        embed = render.coda_test_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)

    @test.autocomplete("conditions")
    @safe_autocomplete
    async def _test_conditions(self, interaction: discord.Interaction, current: str) -> Choices:
        return condition_choices(current)

    # ----------------------------------------------------------------------- sheet tests

    @coda_group.command(name="skill", description="A skill test from your character's sheet")
    @app_commands.describe(
        skill="The skill (untrained, −2, when the character lacks it)",
        attribute="The attribute to use (default: the skill's own)",
        specialty="A specialty of the skill that applies (+2)",
        affinity="An affinity bonus that applies (+1 or more)",
        modifier="Anything else added to the test",
        character="Whose sheet (default: your active character)",
        **_TEST_HELP,
    )
    @app_commands.choices(difficulty=DIFFICULTIES)
    @app_commands.autocomplete(
        skill=skill_autocomplete,
        attribute=attribute_autocomplete,
        character=character_autocomplete,
    )
    async def skill(
        self,
        interaction: discord.Interaction,
        skill: Name,
        tn: TN | None = None,
        difficulty: str | None = None,
        attribute: Name | None = None,
        specialty: Name | None = None,
        affinity: app_commands.Range[int, 0, coda.AFFINITY_MAX] = 0,
        modifier: Modifier = 0,
        penalty: Penalty = 0,
        attempt: Attempt = 1,
        extra_actions: ExtraActions = 0,
        conditions: Conditions | None = None,
        character: Name | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.roll_skill(
            self.db,
            self.dice,
            actor_from(interaction),
            skill=skill,
            character=character,
            attribute=attribute,
            specialty=specialty,
            affinity=affinity,
            modifier=modifier,
            tn=tn,
            difficulty=difficulty,
            penalty=penalty,
            attempt=attempt,
            extra_actions=extra_actions,
            conditions=conditions,
            label=label,
            secret=secret,
        )
        embed = render.coda_test_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)

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

    @skill.autocomplete("conditions")
    @safe_autocomplete
    async def _skill_conditions(self, interaction: discord.Interaction, current: str) -> Choices:
        return condition_choices(current)

    @coda_group.command(name="attribute", description="An attribute test from your sheet")
    @app_commands.describe(
        name="The attribute",
        modifier="Anything else added to the test",
        character="Whose sheet (default: your active character)",
        **_TEST_HELP,
    )
    @app_commands.choices(difficulty=DIFFICULTIES)
    @app_commands.autocomplete(name=attribute_autocomplete, character=character_autocomplete)
    async def attribute(
        self,
        interaction: discord.Interaction,
        name: Name,
        tn: TN | None = None,
        difficulty: str | None = None,
        modifier: Modifier = 0,
        penalty: Penalty = 0,
        attempt: Attempt = 1,
        extra_actions: ExtraActions = 0,
        conditions: Conditions | None = None,
        character: Name | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        await self._attribute_test(
            interaction,
            reaction=False,
            name=name,
            tn=tn,
            difficulty=difficulty,
            modifier=modifier,
            penalty=penalty,
            attempt=attempt,
            extra_actions=extra_actions,
            conditions=conditions,
            character=character,
            label=label,
            secret=secret,
        )

    @coda_group.command(name="reaction", description="A reaction test (Stamina, Swiftness, …)")
    @app_commands.describe(
        name="The reaction: Stamina, Swiftness, Willpower or Wisdom",
        modifier="Anything else added to the test",
        character="Whose sheet (default: your active character)",
        **_TEST_HELP,
    )
    @app_commands.choices(difficulty=DIFFICULTIES)
    @app_commands.autocomplete(character=character_autocomplete)
    async def reaction(
        self,
        interaction: discord.Interaction,
        name: Name,
        tn: TN | None = None,
        difficulty: str | None = None,
        modifier: Modifier = 0,
        penalty: Penalty = 0,
        attempt: Attempt = 1,
        extra_actions: ExtraActions = 0,
        conditions: Conditions | None = None,
        character: Name | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        await self._attribute_test(
            interaction,
            reaction=True,
            name=name,
            tn=tn,
            difficulty=difficulty,
            modifier=modifier,
            penalty=penalty,
            attempt=attempt,
            extra_actions=extra_actions,
            conditions=conditions,
            character=character,
            label=label,
            secret=secret,
        )

    async def _attribute_test(
        self, interaction: discord.Interaction, *, reaction: bool, **options: object
    ) -> None:
        outcome = await service.roll_attribute(
            self.db,
            self.dice,
            actor_from(interaction),
            reaction=reaction,
            **options,  # type: ignore[arg-type]
        )
        embed = render.coda_test_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)

    @reaction.autocomplete("name")
    @safe_autocomplete
    async def _reactions(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._entries(interaction, current, ("reaction",), "character")

    @attribute.autocomplete("conditions")
    @reaction.autocomplete("conditions")
    @safe_autocomplete
    async def _attribute_conditions(
        self, interaction: discord.Interaction, current: str
    ) -> Choices:
        return condition_choices(current)

    async def _entries(
        self,
        interaction: discord.Interaction,
        current: str,
        kinds: tuple[str, ...],
        character_option: str,
    ) -> Choices:
        character = getattr(interaction.namespace, character_option, None)
        if character and service.parse_modifier(str(character)) is not None:
            return []  # the side is a bare modifier: it rolls nothing from a sheet
        names = await service.sheet_entries(
            self.db, actor_from(interaction), current, character=character, kinds=kinds
        )
        return [app_commands.Choice(name=n, value=n) for n in names]

    # ----------------------------------------------------------------------- /coda damage

    @coda_group.command(name="damage", description="A weapon's damage: Nd6 + modifier, rolling 6s")
    @app_commands.describe(
        dice="How many d6 the weapon deals",
        modifier="Added to the dice",
        label=_TEST_HELP["label"],
        secret=_TEST_HELP["secret"],
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

    # ----------------------------------------------------------------------- /coda opposed

    @coda_group.command(name="opposed", description="Two sides test; the higher result wins")
    @app_commands.describe(
        a="Side A: a modifier (+5) or a character's name",
        b="Side B: a modifier (+3) or a character's name",
        a_skill="The skill, attribute or reaction side A's character rolls",
        b_skill="The skill, attribute or reaction side B's character rolls",
        label=_TEST_HELP["label"],
        secret=_TEST_HELP["secret"],
    )
    async def opposed(
        self,
        interaction: discord.Interaction,
        a: Name,
        b: Name,
        a_skill: Name | None = None,
        b_skill: Name | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.roll_opposed(
            self.db,
            self.dice,
            actor_from(interaction),
            a=a,
            b=b,
            a_with=a_skill,
            b_with=b_skill,
            label=label,
            secret=secret,
        )
        embed = render.opposed_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)

    @opposed.autocomplete("a")
    @opposed.autocomplete("b")
    @safe_autocomplete
    async def _opposed_sides(self, interaction: discord.Interaction, current: str) -> Choices:
        return await character_autocomplete(interaction, current)

    @opposed.autocomplete("a_skill")
    @safe_autocomplete
    async def _a_skill(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._entries(interaction, current, ("skill", "attribute"), "a")

    @opposed.autocomplete("b_skill")
    @safe_autocomplete
    async def _b_skill(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._entries(interaction, current, ("skill", "attribute"), "b")

    # ----------------------------------------------------------------------- /coda combined

    @coda_group.command(
        name="combined", description="Helpers test at TN − 5, then the leader with their help"
    )
    @app_commands.describe(
        leader="The leader: a modifier (+4) or a character's name",
        helpers="Helpers in order, separated by commas: modifiers or characters' names",
        skill="The skill, attribute or reaction the characters roll",
        tn=_TEST_HELP["tn"],
        difficulty=_TEST_HELP["difficulty"],
        conditions=_TEST_HELP["conditions"],
        label=_TEST_HELP["label"],
        secret=_TEST_HELP["secret"],
    )
    @app_commands.choices(difficulty=DIFFICULTIES)
    async def combined(
        self,
        interaction: discord.Interaction,
        leader: Name,
        helpers: app_commands.Range[str, 1, 1000],
        tn: TN | None = None,
        difficulty: str | None = None,
        skill: Name | None = None,
        conditions: Conditions | None = None,
        label: Label | None = None,
        secret: bool = False,
    ) -> None:
        outcome = await service.roll_combined(
            self.db,
            self.dice,
            actor_from(interaction),
            leader=leader,
            helpers=helpers,
            tn=tn,
            difficulty=difficulty,
            using=skill,
            conditions=conditions,
            label=label,
            secret=secret,
        )
        embed = render.combined_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)

    @combined.autocomplete("leader")
    @safe_autocomplete
    async def _leader(self, interaction: discord.Interaction, current: str) -> Choices:
        return await character_autocomplete(interaction, current)

    @combined.autocomplete("skill")
    @safe_autocomplete
    async def _combined_skill(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._entries(interaction, current, ("skill", "attribute"), "leader")

    @combined.autocomplete("conditions")
    @safe_autocomplete
    async def _combined_conditions(self, interaction: discord.Interaction, current: str) -> Choices:
        return condition_choices(current)

    # ----------------------------------------------------------------------- /coda extended

    @extended.command(name="start", description="Start an extended test in this channel")
    @app_commands.describe(
        name="What the task is (e.g. Brew Polyjuice Potion)",
        stages="Each stage's TN, in order, e.g. 15,15,20 (or 15:Potions,20:Herbology)",
        interval="Game time one test takes (in the unit)",
        unit="The interval's unit",
    )
    @app_commands.choices(unit=UNITS)
    async def extended_start(
        self,
        interaction: discord.Interaction,
        name: Name,
        stages: app_commands.Range[str, 1, 400],
        interval: app_commands.Range[int, 1, coda.MAX_INTERVAL] = 1,
        unit: str = "",
    ) -> None:
        view = await service.start_extended(
            self.db, actor_from(interaction), name=name, stages=stages, interval=interval, unit=unit
        )
        await interaction.response.send_message(
            embed=render.task_embed(view, title="Extended test started")
        )

    @extended.command(name="roll", description="The next test of an extended test")
    @app_commands.describe(
        task="Which extended test (needed only when several are in progress)",
        modifier="Everything added to 2d6 (or use skill)",
        skill="Your active character's skill (default: the stage's skill, if it names one)",
        penalty=_TEST_HELP["penalty"],
        conditions=_TEST_HELP["conditions"],
        label=_TEST_HELP["label"],
        secret=_TEST_HELP["secret"],
    )
    async def extended_roll(
        self,
        interaction: discord.Interaction,
        task: Name | None = None,
        modifier: Modifier | None = None,
        skill: Name | None = None,
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
            penalty=penalty,
            conditions=conditions,
            label=label,
            secret=secret,
        )
        embed = render.extended_roll_embed(outcome, interaction.user.display_name)
        await send_roll(interaction, embed, outcome.secrecy)

    @extended.command(name="status", description="Extended tests in progress in this channel")
    @app_commands.describe(task="One extended test (default: all of them)")
    async def extended_status(
        self, interaction: discord.Interaction, task: Name | None = None
    ) -> None:
        views = await service.extended_status(self.db, actor_from(interaction), task=task)
        await interaction.response.send_message(embed=render.status_embed(views))

    @extended.command(name="abandon", description="Give up an extended test (starter or GM)")
    @app_commands.describe(task="Which extended test (needed only when several are in progress)")
    async def extended_abandon(
        self, interaction: discord.Interaction, task: Name | None = None
    ) -> None:
        view = await service.abandon_extended(self.db, actor_from(interaction), task=task)
        await interaction.response.send_message(
            embed=render.task_embed(view, title="Extended test abandoned")
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

    @extended_roll.autocomplete("skill")
    @safe_autocomplete
    async def _extended_skill(self, interaction: discord.Interaction, current: str) -> Choices:
        return await self._entries(interaction, current, ("skill",), "character")

    @extended_roll.autocomplete("conditions")
    @safe_autocomplete
    async def _extended_conditions(self, interaction: discord.Interaction, current: str) -> Choices:
        return condition_choices(current)
