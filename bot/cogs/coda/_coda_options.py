"""``/coda``'s option types, help texts and autocomplete, shared by its commands (and by
``/odds coda``): kept apart so the cog holds only the commands."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._common import Choices, actor_from, safe_autocomplete
from bot.cogs._options import CHARACTER_HELP, ROLL_HELP
from bot.services import coda as service
from engine.systems import coda
from engine.systems.coda import condition_options

Modifier = app_commands.Range[int, coda.MODIFIER_MIN, coda.MODIFIER_MAX]
TN = app_commands.Range[int, coda.TN_MIN, coda.TN_MAX]
Penalty = app_commands.Range[int, coda.PENALTY_MIN, coda.PENALTY_MAX]
Attempt = app_commands.Range[int, 1, coda.MAX_ATTEMPT]
ExtraActions = app_commands.Range[int, 0, coda.MAX_ACTIONS]
Affinity = app_commands.Range[int, 0, coda.AFFINITY_MAX]
Conditions = app_commands.Range[str, 1, 1000]
TaskName = app_commands.Range[str, 1, coda.MAX_NAME_LENGTH]

_DIFFICULTY_NAMES = {
    coda.Difficulty.ROUTINE: locale_str("Routine (5)"),
    coda.Difficulty.STANDARD: locale_str("Standard (10)"),
    coda.Difficulty.CHALLENGING: locale_str("Challenging (15)"),
    coda.Difficulty.DIFFICULT: locale_str("Difficult (20)"),
    coda.Difficulty.VIRTUALLY_IMPOSSIBLE: locale_str("Virtually Impossible (25)"),
    coda.Difficulty.NEARLY_IMPOSSIBLE: locale_str("Nearly Impossible (30)"),
}
DIFFICULTIES = [
    app_commands.Choice(name=_DIFFICULTY_NAMES[d], value=d.label) for d in coda.Difficulty
]
UNITS = [
    app_commands.Choice(name=locale_str("rounds"), value="rounds"),
    app_commands.Choice(name=locale_str("minutes"), value="minutes"),
    app_commands.Choice(name=locale_str("hours"), value="hours"),
    app_commands.Choice(name=locale_str("days"), value="days"),
    app_commands.Choice(name=locale_str("weeks"), value="weeks"),
    app_commands.Choice(name=locale_str("months"), value="months"),
]
AUTOCOMPLETE_LIMIT = 25
CHOICE_LENGTH = 100

TEST_HELP = {
    "tn": locale_str("The target number (or pick a difficulty instead)"),
    "difficulty": locale_str("A named TN: Routine 5 … Virtually Impossible 25"),
    "penalty": locale_str("Penalties to subtract (wounds, …)"),
    "attempt": locale_str("Which attempt at this task this is: −2 per earlier failure"),
    "extra_actions": locale_str(
        "Actions beyond the allowance, counted by hand (3rd action = 1); default: the tracker"
    ),
    "conditions": locale_str(
        "Tables 9-2…9-4 and combat modifiers, e.g. 'Darkness +5, Heavy rain -3'"
    ),
    **ROLL_HELP,
}
ACTION_HELP = locale_str(
    "False: not an action of the turn under way (default: on your turn, or your NPC's, it is)"
)
SIDE_ATTRIBUTE_HELP = locale_str(
    "The attribute rolled when no skill is given, or instead of a skill the character lacks (−2)"
)
UNTRAINED_HELP = locale_str(
    "The attribute a character lacking the skill rolls instead (untrained, −2)"
)
SHEET_TEST_HELP = {
    "modifier": locale_str("Anything else added to the test"),
    "character": CHARACTER_HELP,
    **TEST_HELP,
}

T = TypeVar("T")


def from_options(cls: type[T], options: Mapping[str, Any]) -> T:
    """The dataclass ``cls`` built from a command's options of the same names.

    discord.py needs every option spelled out in the command's signature; handing them on
    by name (``locals()``) keeps each written once there instead of again in every call.
    """
    names = {field.name for field in dataclasses.fields(cls)}  # type: ignore[arg-type]
    return cls(**{name: value for name, value in options.items() if name in names})


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


@safe_autocomplete
async def conditions_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    return condition_choices(current)


def sheet_entries(kinds: tuple[str, ...], character_option: str = "character") -> Any:
    """Autocomplete for what a character rolls (``kinds``: skill, attribute, reaction), from
    the sheet named in the option ``character_option`` (else the caller's active one)."""

    @safe_autocomplete
    async def complete(interaction: discord.Interaction, current: str) -> Choices:
        character = getattr(interaction.namespace, character_option, None)
        if character and service.parse_modifier(str(character)) is not None:
            return []  # the side is a bare modifier: it rolls nothing from a sheet
        names = await service.sheet_entries(
            interaction.client.db,  # type: ignore[attr-defined]
            actor_from(interaction),
            current,
            character=character,
            kinds=kinds,
        )
        return [app_commands.Choice(name=n, value=n) for n in names]

    return complete
