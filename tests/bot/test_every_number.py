"""Every number a user can reach works: each command with each of its numeric options at the
minimum and at the maximum Discord lets through (the option's ``Range``).

The answer must be a reply (a roll, a form) or a clear refusal: never the generic "something
went wrong" of a bug. Each command runs as a player (alice, with sheets) and as the GM in a
channel prepared for its group (tests/bot/test_every_command.py's ``prepare``), from a
plausible set of its other options, so that the numbers reach the rules and not only the
option checks.

The default run tries each option alone at each bound, then every option of a command at its
minimum together and at its maximum together. The exhaustive part (``slow``) has Hypothesis
draw combinations of bounds across all of a command's numeric options.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.cogs import EXTENSIONS
from bot.gateway import user_message
from bot.i18n import _
from tests.bot.test_every_command import (
    COMMANDS,
    _leaves,
    _resolve,
    _tree_leaves,
    check_message,
    draw_examples,
    prepare,
)
from tests.conftest import Table, text_of

# Slow tier: every number option at its bounds (minutes); the fast tier keeps test_every_command.
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("warm_charts")]

NUMERIC = (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number)
#: Combinations of bounds drawn per command in the slow run (each as alice and as the GM).
COMBINATIONS = 12
#: What a bug answers (gateway._tree): a reply must never say it.
BUG_REPLIES = (
    "Something went wrong on our side",
    "something went wrong after it",
    "The database connection failed while saving",
)


def bounded(command: app_commands.Command) -> list[app_commands.Parameter]:
    """The command's numeric options with a range (every one has: see test_every_command)."""
    return [
        p
        for p in command.parameters
        if p.type in NUMERIC and not p.choices and p.min_value is not None
    ]


def _declared_leaves() -> dict[str, app_commands.Command]:
    """Every leaf command as its cog class declares it (the live tree is checked against
    these names by test_every_command)."""
    leaves: dict[str, app_commands.Command] = {}
    for extension in EXTENSIONS:
        module = importlib.import_module(f"{extension}._cog")
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, commands.Cog) and cls.__module__ == module.__name__:
                for command in cls.__cog_app_commands__:
                    leaves.update((leaf.qualified_name, leaf) for leaf in _leaves(command))
    return leaves


#: The commands with a numeric option.
NUMERIC_COMMANDS = sorted(name for name, c in _declared_leaves().items() if bounded(c))


def bound(parameter: app_commands.Parameter, which: str) -> int | float:
    value = parameter.min_value if which == "min" else parameter.max_value
    assert value is not None
    return int(value) if parameter.type is discord.AppCommandOptionType.integer else value


def single_bounds(command: app_commands.Command) -> list[dict[str, Any]]:
    """Each numeric option alone at each bound, then all at their minimum, all at maximum."""
    numbers = bounded(command)
    sets = [{p.name: bound(p, which)} for p in numbers for which in ("min", "max")]
    if len(numbers) > 1:
        sets += [{p.name: bound(p, which) for p in numbers} for which in ("min", "max")]
    return sets


def drawn_bounds(command: app_commands.Command, count: int) -> list[dict[str, Any]]:
    """``count`` combinations of bounds (each option absent, at its minimum or its maximum)."""
    numbers = bounded(command)
    strategy = st.fixed_dictionaries(
        {},
        optional={p.name: st.sampled_from([bound(p, "min"), bound(p, "max")]) for p in numbers},
    )
    drawn: list[dict[str, Any]] = []

    @settings(
        max_examples=count,
        derandomize=True,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(options: dict[str, Any]) -> None:
        drawn.append(options)

    collect()
    return drawn


async def run_bounds(table: Table, name: str, number_sets: list[dict[str, Any]]) -> list[str]:
    """Each set of numbers over the command's plausible options, as alice and as the GM, in a
    channel prepared for its group; what went wrong, one line each."""
    command = _tree_leaves(table)[name]
    channel = table.guild.create_text_channel("prepared")
    await prepare(table, channel, name.split()[0])
    (base,) = draw_examples(command, 1, plausible=True)
    parameters = {p.name: p for p in command.parameters}
    members = {"alice": table.alice, "bob": table.bob, "carol": table.carol, "gm": table.gm}
    problems = []
    for numbers in number_sets:
        options = {**base, **numbers}
        resolved = {}
        for key, value in options.items():
            if key == "player" and value in members:
                resolved[key] = members[value]
            elif key == "channel":
                resolved[key] = channel
            elif key == "role":
                resolved[key] = table.gm_role
            else:
                resolved[key] = _resolve(table, parameters[key], value, b"{}")
        for member in (table.alice, table.gm):
            where = f"/{name} {numbers} by {member.name}"
            cursor = table.env.error_cursor
            result = await member.slash(channel, name, **resolved)
            bugs = [e for e in table.env.errors_since(cursor) if user_message(e) is None]
            table.acknowledge_bugs()
            if bugs:
                problems.append(f"{where}: {type(bugs[0]).__name__}: {bugs[0]}")
                continue
            replies = [m for m in [result.response, *result.followups] if m is not None]
            if not (result.acknowledged and (replies or result.modal)):
                problems.append(f"{where}: no answer")
                continue
            text = text_of(result) if replies else ""
            if any(bug in text for bug in (*BUG_REPLIES, _(BUG_REPLIES[0]))):
                problems.append(f"{where}: {text[:200]}")
            for reply in replies:
                check_message(reply.content, reply.embeds, where)
    return problems


def test_the_list_holds_every_numeric_option() -> None:
    assert set(NUMERIC_COMMANDS) <= set(COMMANDS)
    assert len(NUMERIC_COMMANDS) >= 40


@pytest.mark.parametrize("name", NUMERIC_COMMANDS)
async def test_every_number_at_its_bounds_answers(table: Table, name: str) -> None:
    command = _tree_leaves(table)[name]
    assert await run_bounds(table, name, single_bounds(command)) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", NUMERIC_COMMANDS)
async def test_every_combination_of_bounds_answers(table: Table, name: str) -> None:
    command = _tree_leaves(table)[name]
    assert await run_bounds(table, name, drawn_bounds(command, COMBINATIONS)) == []
