"""Bad input never crashes a command and never loses data: every slash command, fuzzed.

The command list is read from the cogs themselves (and checked against the live tree), so a
new command is fuzzed without anyone remembering to add it. For each leaf command, option
values come from Hypothesis strategies derived from the option's declared type and limits:
strings within their min/max length (unicode, markdown, mentions, braces, the exact maximum),
integers and numbers at and inside their bounds, the declared choices, the table's members,
channels and GM role, attachments of random bytes and malformed JSON. Values that name things which
exist (a character, an attribute, a team) are mixed in so that the deep paths run too.

Each command runs as a player (alice) and as the GM, first in a bare channel (no sheet,
no encounter, no match) and then in a prepared one. Every call must be answered, no bug may
reach the tree (the ``table`` fixture fails on those), no error may be logged, every embed
and message must fit Discord's limits, and a refused call must leave the database exactly as
it was.

The examples are drawn by running a Hypothesis test synchronously that only collects them
(``derandomize=True``: the same examples on every run), then replayed through SimCord; this
keeps Hypothesis out of pytest-asyncio's event loop.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import inspect
import json
import logging
import os
import re
import sqlite3
import string
from collections.abc import Iterator
from typing import Any

import discord
import pytest
from babel.messages.pofile import read_po
from discord import app_commands
from discord.ext import commands
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from sqlalchemy.engine import make_url

from bot.actor import Actor
from bot.cogs import EXTENSIONS
from bot.i18n import catalog_paths
from bot.render import limits
from bot.services import sheets
from engine.systems.coda import condition_options
from tests.conftest import Table
from tests.hypothesis_profiles import examples

pytestmark = pytest.mark.usefixtures("warm_charts")

#: Examples drawn per command and state (each replayed as alice and as the GM): 5 in the
#: fast tier (make test), 10 in make check (the check profile's 5x, capped: this sweep is
#: the longest test of both tiers); a longer hunt:
#: ``NARRATOR_FUZZ_EXAMPLES=100 pytest tests/bot/test_every_command.py``.
EXAMPLES = int(os.environ.get("NARRATOR_FUZZ_EXAMPLES") or min(examples(5), 10))
#: Other examples than the fixed ones: ``NARRATOR_FUZZ_SEED=7``.
SEED = os.environ.get("NARRATOR_FUZZ_SEED")
#: Commands whose one call is slow (a 2,000-match simulation) get fewer examples.
SLOW = {"quidditch odds": 1, "dice test": 2}  # dice test: up to 100,000 dice and a chart
#: Each command runs again with Spanish clients, with fewer examples: the same
#: checks (answered, within Discord's limits with the longer text, no bug), and for the
#: every reply must be Spanish (every group: ``NARRATOR_SPANISH_GROUPS=roll,sheet`` narrows
#: the check to some groups while a new language or area is being translated).
SPANISH_EXAMPLES = int(os.environ.get("NARRATOR_FUZZ_EXAMPLES_ES", "3"))
#: English in the fast tier (make test); Spanish too in make check (marked slow).
LANGUAGES = ("en", pytest.param("es", marks=pytest.mark.slow))


# --------------------------------------------------------------------------- the command list


def _leaves(command: app_commands.Command | app_commands.Group) -> Iterator[app_commands.Command]:
    if isinstance(command, app_commands.Group):
        for child in command.commands:
            yield from _leaves(child)
    else:
        yield command


def _declared_commands() -> list[str]:
    """Every leaf command's qualified name, read from the cog classes of every extension."""
    names: list[str] = []
    for extension in EXTENSIONS:
        module = importlib.import_module(f"{extension}._cog")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, commands.Cog) and cls.__module__ == module.__name__:
                for command in cls.__cog_app_commands__:
                    names.extend(leaf.qualified_name for leaf in _leaves(command))
    return sorted(names)


COMMANDS = _declared_commands()


def _tree_leaves(table: Table) -> dict[str, app_commands.Command]:
    return {
        leaf.qualified_name: leaf
        for command in table.bot.tree.get_commands()
        for leaf in _leaves(command)
    }


async def test_the_fuzzed_list_is_the_whole_tree(table: Table) -> None:
    assert sorted(_tree_leaves(table)) == COMMANDS
    assert len(COMMANDS) >= 70


async def test_every_option_is_bounded_where_discord_checks_it(table: Table) -> None:
    """Numbers have a Range, free text a maximum length: Discord refuses the rest for us."""
    unbounded = []
    for name, command in _tree_leaves(table).items():
        for p in command.parameters:
            if p.choices:
                continue
            numeric = p.type in (
                discord.AppCommandOptionType.integer,
                discord.AppCommandOptionType.number,
            )
            if numeric and (p.min_value is None or p.max_value is None):
                unbounded.append(f"/{name} {p.name}")
            if p.type is discord.AppCommandOptionType.string and p.max_value is None:
                unbounded.append(f"/{name} {p.name}")
    assert unbounded == []


# --------------------------------------------------------------------------- option values

MEMBERS = ("alice", "bob", "carol", "gm")
CHARACTERS = ("Hermione", "Ginny", "Trooper", "Johnny", "Tom")
SHEET_NAMES = (
    "Strength",
    "strength",
    "Wits",
    "Potions",
    "Stamina",
    "Swiftness",
    "Dexterity",
    "BS",
    "ARM",
    "Agility",
    "Stealth",
    "Physical",
    "Fencing",
    "Health",
    "Brewing",
    "W",
)
NASTY = (
    " ",
    "\u200b",
    "\u202eevil",
    "@everyone",
    "@here",
    "<@123>",
    "<@!123>",
    "<@99999999999999999999999>",
    "<@99999999999999999999999>:3",
    "<@&123>",
    "<#123>",
    "@alice",
    "@gm",
    "{x}",
    "{",
    "}",
    "{{}}",
    "{Strength}",
    "{0}",
    "%s",
    "**bold** __u__ ~~s~~ ||spoiler|| `code` ```block```",
    "> quote\n# heading",
    "[link](https://example.com)",
    "\\",
    "'; DROP TABLE characters; --",
    "0",
    "-1",
    "+5",
    "-0",
    "1e309",
    "nan",
    "inf",
    "0x10",
    "99999999999999999999999999",
    "9" * 5000,
    ",",
    ",,,",
    ":",
    "a:b:c",
    "🎲🐉",
    "Ωμέγα",
    "名前",
    "e\u0301",
    "\n",
    "\t",
)
#: Values that mean something to particular options, so that valid paths run too.
HINTS: dict[str, tuple[str, ...]] = {
    "character": CHARACTERS,
    "vs_character": CHARACTERS,
    "active_character": CHARACTERS,
    "reactive_character": CHARACTERS,
    "a": (*CHARACTERS, "+5", "-3", "0"),
    "b": (*CHARACTERS, "+3", "12"),
    "leader": (*CHARACTERS, "+4"),
    "helpers": ("+2, +3", "Hermione, +1", "Hermione,Hermione", "+1," * 100),
    "expression": (
        "2d6+3",
        "4d6kh3",
        "1d20+{Strength}",
        "{Potions}d6",
        "10d6e6",
        "1000d1000",
        "d",
        "1d0",
        "0d6",
        "1d20" + "+1d20" * 70,
        "((((((((((1))))))))))",
        "1d6/0",
        "999999999999d999999999999",
        "1d20 [attack]",
    ),
    "stages": ("15,15,20", "15:Potions,20:Herbology", "5", "5," * 150, "1000", "0", "abc"),
    "task": ("Brew", "brew", "Siege"),
    "team": ("home", "away", "Lions", "Snakes"),
    "chaser": ("H1", "A1", "Nobody"),
    "targets": ("home1:A1, away2:keeper", "home1:", ":", "home9:x", "home1:A1," * 20),
    "conditions": ("Darkness +5, Heavy rain -3", "Darkness", "+5", "Darkness +5," * 80),
    "parties": (
        "Johnny:12, Franky:9",
        "Johnny:12",
        "A:1, B:2, A:3",
        "x:" + "9" * 30,
        "<@ALICE>, Bob:3",
        "<@99999999999999999999999>, Bob:3",
        "@alice, @bob",
    ),
    "their_name": ("Filch", "<@ALICE>", "@bob", "<@99999999999999999999999>"),
    "value": ("on", "off", "yes", "true", "1"),
    "specialty": ("Brewing", "Brewing, Potions", ", ,", "x," * 40),
    "name": (*SHEET_NAMES, "Goblin", "Goblin 1", "Hermione", "Brew", "Nobody"),
    "initiator": ("Goblin", "Hermione"),
    "dice": ("1d20+2", "2d6", "d", "1d20" * 60),
    "home": ("Lions",),
    "away": ("Snakes",),
    "home_house": ("Gryffindor",),
    "away_house": ("Slytherin",),
}
for _option in ("attribute", "skill", "armor", "a_skill", "b_skill"):
    HINTS[_option] = SHEET_NAMES
for _option in ("active_attribute", "reactive_attribute", "vs_attribute"):
    HINTS[_option] = (*SHEET_NAMES, "12", "20")
HINTS["value"] = ("off", "fumble", "failure", "complete-failure", "on", "yes")

#: What exists in the prepared state, per command group: names a command there can use.
GROUP_HINTS: dict[str, dict[str, tuple[str, ...]]] = {
    "coda": {
        "character": ("Hermione",),
        # Attributes and reactions, and the reference tables of /coda table.
        "name": ("Strength", "Wits", "Stamina", "Swiftness", "Willpower", "Wisdom", "9-7", "9-8"),
        "skill": ("Potions", "Herbology"),
        "attribute": ("Wits", "Strength"),
        "specialty": ("Brewing",),
        "a": ("Hermione", "+5", "-3"),
        "b": ("Hermione", "+3", "12"),
        "a_skill": ("Potions", "Wits"),
        "b_skill": ("Potions", "Strength"),
        "a_attribute": ("Wits", "Strength"),
        "b_attribute": ("Wits",),
        "leader": ("Hermione", "+4"),
        "task": ("Brew", "Siege"),
        # /coda attack: a character with a sheet (Defence, Health) or an NPC.
        "target": ("Hermione", "Troll", "Nobody"),
        # /coda attack: an NPC without a sheet
        "attacker": ("Troll",),
    },
    "h90": {
        "character": ("Ginny",),
        "vs_character": ("Ginny",),
        "attribute": ("Strength", "Dexterity", "Toughness", "Humor"),
        "vs_attribute": ("Strength", "Dexterity"),
        "vs_name": ("Filch", "Peeves"),
        "defense": ("Toughness + Dexterity", "8 + 3", "Strength", "+", "1" * 60),
        "defender": ("Ginny",),
        "defender_name": ("Filch",),
        # /h90 attack: a character with a sheet (Health) or an NPC; the dodge's attributes.
        "target": ("Ginny", "Troll", "Nobody"),
        "dodge": ("Dexterity", "Dexterity + Toughness", "3", "+", "A+B+C+D+E", "1" * 60),
        "attacker": ("Goyle",),
    },
    "infinity": {
        "character": ("Trooper",),
        "active_character": ("Trooper",),
        "reactive_character": ("Trooper",),
        "attribute": ("BS", "CC", "PH", "WIP", "12", "20"),
        "active_attribute": ("BS", "CC", "13"),
        "reactive_attribute": ("BS", "PH", "11"),
        "armor": ("ARM", "BTS", "3"),
        "range": ("40:+3,80:-3,120:-6", "40:+3", "80:-3,40:+3"),
        "targets": ("Warband:1:13", "Warband:1:13:-3:2, Hacker:1:11", "Warband:9:13"),
    },
    "rps": {"attribute": ("Strength", "Agility"), "skill": ("Stealth",)},
    "drama": {"attribute": ("Physical", "Agility"), "skill": ("Fencing",)},
    "penalty": {"character": ("Tom",)},
    "init": {
        "character": ("Hermione", "Ginny"),
        "name": ("Goblin 1", "Goblin 2", "Spy", "Hermione", "Orc"),
        "attribute": ("Strength", "Humor"),
    },
    "quidditch": {
        "name": ("H1", "New"),
        "chaser": ("H1", "H2", "A1"),
        "character": ("Ginny",),
    },
    "macro": {
        "name": ("brew", "Perception check", "d", "nobody"),
        "command": (
            "coda skill skill:Potions difficulty:{difficulty:Challenging} label:brew",
            "roll expression:d20 label:Perception",
            "coda test tn:{tn}",
            "macro run name:brew",
            "sheet show player:bob",
            "roll nope:1",
        ),
        "values": ("difficulty:Standard", "tn:9999", "tn:12", "x", '"a:b'),
    },
    "sheet": {
        "character": CHARACTERS,
        "attribute": ("Strength", "Wits", "Humor"),
        "name": ("Potions", "Health", "Courage", "Stealth"),
        "new_name": ("Twin", "Hermione"),
    },
}

SHEET_FILE = {
    "name": "Imported",
    "system": "coda",
    "attributes": {"Strength": 3},
    "skills": {"Potions": {"ranks": 2, "attribute": "Strength", "specialties": ["Brewing"]}},
    "resources": {"Health": {"current": 5, "max": 10}},
    "notes": "",
}


def _json(value: Any) -> bytes:
    return json.dumps(value).encode()


BAD_FILES = (
    b"",
    b"{",
    b"null",
    b"[]",
    b"\xff\xfe\x00",
    b"[" * 5000,
    b'{"a":' * 3000,
    b"1" * 5000,
    b"\xef\xbb\xbf{}",
    _json({**SHEET_FILE, "name": "x" * 100}),
    _json({**SHEET_FILE, "system": "dnd"}),
    _json({**SHEET_FILE, "attributes": {"Strength": 10**30}}),
    _json({**SHEET_FILE, "attributes": {"Strength": "3"}}),
    _json({**SHEET_FILE, "attributes": {"Strength": True}}),
    _json({**SHEET_FILE, "attributes": {"Strength": 2.5}}),
    _json({**SHEET_FILE, "attributes": {f"A{i}": 1 for i in range(500)}}),
    _json({**SHEET_FILE, "skills": {"Potions": 3}}),
    _json({**SHEET_FILE, "skills": {"Potions": {"ranks": 1, "specialties": "x"}}}),
    _json({**SHEET_FILE, "resources": {"Health": {"current": 11, "max": 10}}}),
    _json({**SHEET_FILE, "notes": "n" * 5000}),
    _json({**SHEET_FILE, "extra": 1}),
    b'{"name": 1e999, "system": "coda"}',
    b'{"name": NaN, "system": "coda"}',
    b'{"name": "\\ud800", "system": "coda"}',
    b'{"name": "ok", "system": "coda", "attributes": {"\\udfff": 1}}',
    b'{"name": "ok", "system": "coda", "notes": "\\u0000"}',
    _json({**SHEET_FILE, "macros": {"a": 1}}),
    _json({**SHEET_FILE, "macros": [{"name": "", "command": "roll expression:d6"}]}),
    _json({**SHEET_FILE, "macros": [{"name": "a", "command": "x" * 501}]}),
    _json({**SHEET_FILE, "macros": [{"name": "a", "command": 1}]}),
    _json({**SHEET_FILE, "macros": [{"name": "a", "command": "roll", "extra": 1}]}),
    _json({**SHEET_FILE, "macros": [{"name": "a", "command": "d"}] * 101}),
    _json({**SHEET_FILE, "macros": [{"name": "brew", "command": "coda test tn:{tn}"}] * 2}),
    _json(SHEET_FILE),
    json.dumps({**SHEET_FILE, "name": "Ωμέγα 名前"}, ensure_ascii=False).encode(),
)

#: Examples every run tries besides the drawn ones.
EXTRA = {"sheet import": [{"file": ("sheet.json", data)} for data in BAD_FILES]}

_TEXT = st.characters(exclude_categories=("Cs",))


def _string(name: str, low: int, high: int, hints: tuple[str, ...]) -> st.SearchStrategy[str]:
    """Text within [low, high] characters: meaningful names, nasty ones, any unicode, the max."""
    odd = st.one_of(
        st.sampled_from(NASTY),
        st.text(_TEXT, min_size=low, max_size=min(high, 40)),
        st.text(string.printable, min_size=max(high - 2, low), max_size=high),
        st.sampled_from(["🎲" * high, "{" * high, "<@ALICE>" * (high // 8) or "x"]),
    )
    # Half the values name something that may exist, so the deep paths run too.
    return st.one_of(st.sampled_from(hints), odd).map(lambda text: _fit(text, low, high))


def _fit(text: str, low: int, high: int) -> str:
    text = text[:high]
    return text + "x" * (low - len(text)) if len(text) < low else text


def _number(low: float | None, high: float | None, integer: bool) -> st.SearchStrategy[Any]:
    if integer:
        low = -(2**53) if low is None else int(low)
        high = 2**53 if high is None else int(high)
        return st.one_of(
            st.sampled_from([low, high, 0 if low <= 0 <= high else low]), st.integers(low, high)
        )
    return st.one_of(
        st.sampled_from([low, high]),
        st.floats(low, high, allow_nan=False, allow_infinity=False),
    )


def option_strategy(
    parameter: app_commands.Parameter, group: str, *, plausible: bool
) -> st.SearchStrategy[Any]:
    """Values a Discord client could send for ``parameter``, from its declared limits.

    ``plausible``: an option that names something takes only names that exist in the
    prepared state of ``group`` (the other options are fuzzed as usual).
    """
    kind = parameter.type
    if parameter.choices:
        return st.sampled_from([choice.value for choice in parameter.choices])
    if kind is discord.AppCommandOptionType.boolean:
        return st.booleans()
    if kind is discord.AppCommandOptionType.integer:
        return _number(parameter.min_value, parameter.max_value, integer=True)
    if kind is discord.AppCommandOptionType.number:
        return _number(parameter.min_value, parameter.max_value, integer=False)
    if kind is discord.AppCommandOptionType.string:
        low = int(parameter.min_value or 0)
        high = int(parameter.max_value or 6000)  # no declared max: Discord's own is 6000
        known = GROUP_HINTS.get(group, {}).get(parameter.name)
        if plausible and known:
            return st.sampled_from(known)
        hints = HINTS.get(parameter.name, ("Strength", "x"))
        return _string(parameter.name, low, high, (*(known or ()), *hints))
    if kind is discord.AppCommandOptionType.user:
        return st.sampled_from(MEMBERS)
    if kind is discord.AppCommandOptionType.channel:
        return st.sampled_from(("table", "prepared", "gm-room"))
    if kind is discord.AppCommandOptionType.role:
        return st.just("gm-role")
    if kind is discord.AppCommandOptionType.attachment:
        return st.one_of(
            st.sampled_from(BAD_FILES),
            st.binary(max_size=200),
            st.just("EXPORTED"),
        ).map(lambda data: ("sheet.json", data))
    raise AssertionError(f"no strategy for option type {kind} of {parameter.name}")


def draw_examples(
    command: app_commands.Command, count: int, *, plausible: bool = False
) -> list[dict[str, Any]]:
    """``count`` option sets for ``command``, the same ones on every run."""
    group = command.qualified_name.split()[0]
    parameters = command.parameters
    required = {
        p.name: option_strategy(p, group, plausible=plausible) for p in parameters if p.required
    }
    optional = {
        p.name: option_strategy(p, group, plausible=plausible) for p in parameters if not p.required
    }
    strategy = st.fixed_dictionaries(required, optional=optional)
    drawn: list[dict[str, Any]] = []

    @settings(
        max_examples=count,
        derandomize=SEED is None,
        database=None,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(options: dict[str, Any]) -> None:
        drawn.append(options)

    (seed(int(SEED))(collect) if SEED else collect)()
    if plausible:
        drawn = [_plausible(command, options) for options in drawn]
    return drawn[:count] or [{}]


CONDITIONS = ", ".join(list(condition_options())[:2])


def _plausible(command: app_commands.Command, options: dict[str, Any]) -> dict[str, Any]:
    """``options`` without the combinations every command refuses, so that most succeed."""
    options = dict(options)
    declared = {p.name for p in command.parameters}
    if {"tn", "difficulty"} <= declared:  # CODA: one of the two
        options.pop("difficulty", None)
        options.setdefault("tn", 12)
    if "base" in declared and {"attribute", "skill"} & options.keys():  # RPS, Drama
        options.pop("base", None)
    if "conditions" in options:
        options["conditions"] = CONDITIONS
    if "task" in declared:
        options.setdefault("task", "Brew")
    if "penalty" in options and "attempt" in options:
        options["penalty"] = min(options["penalty"], 20)
    return options


# --------------------------------------------------------------------------- checks


def check_message(content: str | None, embeds: list[discord.Embed], where: str) -> None:
    assert len(content or "") <= limits.MESSAGE, f"{where}: content of {len(content)} characters"
    assert len(embeds) <= 10, where
    total = 0
    for embed in embeds:
        data = embed.to_dict()
        assert len(data.get("title", "")) <= limits.TITLE, where
        assert len(data.get("description", "")) <= limits.DESCRIPTION, where
        fields = data.get("fields", [])
        assert len(fields) <= limits.FIELDS, where
        for field in fields:
            assert 0 < len(field["name"]) <= limits.FIELD_NAME, f"{where}: field {field}"
            assert 0 < len(field["value"]) <= limits.FIELD_VALUE, f"{where}: field {field}"
        assert len(data.get("footer", {}).get("text", "")) <= limits.FOOTER, where
        assert len(data.get("author", {}).get("name", "")) <= limits.AUTHOR, where
        total += len(embed)
    assert total <= limits.TOTAL, f"{where}: embeds of {total} characters"


def _chunks(text: str, shortest: int) -> list[str]:
    """The literal parts of a message (between placeholders) long enough to recognise."""
    return [
        part.strip()
        for part in re.split(r"\{[^{}]*\}|\n", text)
        if len(part.strip()) >= shortest and re.search(r"[A-Za-z]{3}", part)
    ]


@functools.cache
def _catalog_chunks() -> tuple[frozenset[str], frozenset[str]]:
    """English parts that a Spanish reply must not show, and Spanish parts it should."""
    english: set[str] = set()
    spanish: set[str] = set()
    for message in read_po(catalog_paths("es")[0].open("rb")):
        if not message.id or isinstance(message.id, tuple) or message.id == message.string:
            continue
        english.update(_chunks(message.id, 12))
        spanish.update(_chunks(str(message.string), 4))  # "tiró" is a /roll reply's only word
    shared = english & spanish
    return frozenset(english - shared), frozenset(spanish - shared)


def check_spanish_reply(content: str | None, embeds: list[discord.Embed], where: str) -> None:
    """A reply in Spanish: some of the catalog's Spanish in it, none of its English."""
    parts = [content or ""]
    for embed in embeds:
        data = embed.to_dict()
        parts += [data.get("title", ""), data.get("description", "")]
        parts += [f"{f['name']}\n{f['value']}" for f in data.get("fields", [])]
        parts.append(data.get("footer", {}).get("text", ""))
    text = "\n".join(parts)
    english, spanish = _catalog_chunks()
    leaked = sorted(chunk for chunk in english if chunk in text)
    assert not leaked, f"{where}: English in a Spanish reply: {leaked[:3]} in {text[:600]!r}"
    assert any(chunk in text for chunk in spanish), f"{where}: not Spanish: {text[:300]!r}"


def snapshot(path: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table: what a refused command must leave untouched.

    Except ``members``: who the bot has seen in which channel, with their GM roles (the web
    companion's view of membership), is recorded when the bot works out who is acting, before
    it knows whether the command will be refused; it is an observation, not the table's state.
    """
    with sqlite3.connect(path) as connection:
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"
            )
            if row[0] != "members"
        ]
        return {
            table: connection.execute(f'SELECT * FROM "{table}" ORDER BY rowid').fetchall()
            for table in tables
        }


# --------------------------------------------------------------------------- the states


async def _import(table: Table, member: Any, channel: Any, sheet: dict[str, Any]) -> None:
    actor = Actor(user_id=member.id, channel_id=channel.id, guild_id=table.guild.id)
    await sheets.import_sheet(table.bot.db, actor, _json(sheet), replace=True)
    await sheets.use(table.bot.db, actor, sheet["name"])


PREPARED_SHEETS = [
    {
        "name": "Tom",
        "system": "drama",
        "attributes": {"Physical": 3, "Agility": 2, "Mental": 2, "Social": 1},
        "skills": {"Fencing": {"ranks": 2, "attribute": "Agility"}},
        "resources": {"Grit": {"current": 3, "max": 5}},
    },
    {
        "name": "Johnny",
        "system": "rps",
        "attributes": {"Strength": 12, "Agility": 10, "Intellect": 9, "Intuition": 8},
        "skills": {"Stealth": {"ranks": 5, "attribute": "Agility"}},
        "resources": {"Health": {"current": 10, "max": 10}},
    },
    {
        "name": "Trooper",
        "system": "infinity",
        "attributes": {"CC": 13, "BS": 12, "PH": 10, "WIP": 13, "ARM": 1, "BTS": 0},
        "resources": {"W": {"current": 1, "max": 1}},
    },
    {
        "name": "Ginny",
        "system": "h90",
        "attributes": {"Strength": 3, "Dexterity": 4, "Toughness": 2, "Humor": 1},
        "resources": {"Health": {"current": 5, "max": 5}},
    },
    {
        "name": "Hermione",
        "system": "coda",
        "attributes": {
            "Strength": 1,
            "Wits": 3,
            "Stamina": 2,
            "Swiftness": 1,
            "Willpower": 2,
            "Wisdom": 3,
            "Defence": 10,
        },
        "skills": {"Potions": {"ranks": 3, "attribute": "Wits", "specialties": ["Brewing"]}},
        "resources": {"Health": {"current": 10, "max": 10}, "Courage": {"current": 2}},
    },
]
#: The system whose sheet is alice's active one when a group's commands run.
ACTIVE = {
    "h90": "Ginny",
    "quidditch": "Ginny",
    "infinity": "Trooper",
    "rps": "Johnny",
    "drama": "Tom",
    "penalty": "Tom",
}
QUIDDITCH_ROSTER = [
    ("chaser", "1"),
    ("chaser", "2"),
    ("chaser", "3"),
    ("beater", "B1"),
    ("beater", "B2"),
    ("keeper", "K"),
    ("seeker", "S"),
]


async def prepare(table: Table, channel: Any, group: str) -> None:
    """Everything the commands of ``group`` may need, in ``channel``."""
    alice = Actor(user_id=table.alice.id, channel_id=channel.id, guild_id=table.guild.id)
    listing = await sheets.list_characters(table.bot.db, alice)
    if len(listing.entries) > sheets.MAX_CHARACTERS - len(PREPARED_SHEETS):
        # A long hunt's /sheet create examples filled alice's roster: make room.
        for entry in listing.entries:
            sheet = await sheets.own_character(table.bot.db, alice, entry.name.raw)
            await sheets.delete(table.bot.db, alice, sheet.id)
    for sheet in PREPARED_SHEETS:
        await _import(table, table.alice, channel, sheet)
    await _import(table, table.bob, channel, {**PREPARED_SHEETS[0], "name": "Franky"})
    active = ACTIVE.get(group)
    if active:
        await sheets.use(table.bot.db, alice, active)
    gm, player = table.gm, table.alice
    calls: list[tuple[Any, str, dict[str, Any]]] = []
    if group == "init":
        calls = [
            (gm, "init start", {"initiator": "Goblin"}),
            (player, "init join", {"character": "Hermione"}),
            (gm, "init add", {"name": "Goblin", "count": 2, "roll": 12}),
            (gm, "init add", {"name": "Spy", "roll": 5, "hidden": True}),
            (gm, "init next", {}),
            (gm, "init delay", {}),
        ]
    elif group == "quidditch":
        calls = [
            (
                gm,
                "quidditch new",
                {
                    "home": "Lions",
                    "away": "Snakes",
                    "home_house": "Gryffindor",
                    "away_house": "Slytherin",
                },
            )
        ]
        for side, prefix in (("home", "H"), ("away", "A")):
            for position, suffix in QUIDDITCH_ROSTER:
                options = {"strength": 4, "dexterity": 3, "toughness": 3, "health": 4}
                calls.append(
                    (
                        gm,
                        "quidditch player",
                        {"team": side, "position": position, "name": prefix + suffix, **options},
                    )
                )
    elif group == "coda":
        calls = [
            (player, "coda extended start", {"name": "Brew", "stages": "15:Potions,20"}),
            (gm, "coda extended start", {"name": "Siege", "stages": "30"}),
        ]
    elif group == "rps":
        calls = [(player, "rps sustained start", {"goal": 20, "label": "Climb"})]
    elif group == "penalty":
        calls = [(gm, "penalty add", {"character": "Tom", "amount": 2, "reason": "Fatigue"})]
    elif group in {"macro", "sheet"}:
        brew = "coda skill skill:Potions difficulty:{difficulty:Challenging} label:brew"
        calls = [
            (player, "sheet use", {"character": "Hermione"}),
            (player, "macro save", {"name": "brew", "command": brew, "scope": "character"}),
            (player, "macro save", {"name": "d", "command": "roll expression:d6"}),
            (
                gm,
                "macro save",
                {"name": "Perception check", "command": "roll expression:d20", "scope": "channel"},
            ),
        ]
    elif group == "settings":
        calls = [(gm, "settings system", {"name": "coda"})]
    elif group == "history":
        calls = [
            (player, "roll", {"expression": "2d6", "label": "one"}),
            (player, "roll", {"expression": "1d20", "secret": True}),
        ]
    for member, name, options in calls:
        cursor = table.env.error_cursor
        result = await member.slash(channel, name, **options)
        assert result.response is not None, (name, options)
        assert not table.env.errors_since(cursor), (name, options, table.env.errors_since(cursor))


# --------------------------------------------------------------------------- the test


def _resolve(table: Table, parameter: app_commands.Parameter, value: Any, exported: bytes) -> Any:
    if isinstance(value, str) and parameter.type is discord.AppCommandOptionType.string:
        high = int(parameter.max_value or 6000)
        return value.replace("<@ALICE>", f"<@{table.alice.id}>")[:high]
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes | str):
        filename, data = value
        return (filename, exported if data == "EXPORTED" else data)
    return value


@pytest.fixture
def logged_errors(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.ERROR, logger="bot")
    return caplog


def spanish_checked(name: str) -> bool:
    groups = os.environ.get("NARRATOR_SPANISH_GROUPS", "all")
    return groups == "all" or name.split()[0] in set(groups.split(","))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", COMMANDS)
async def test_every_command_survives_any_input(
    table: Table,
    name: str,
    language: str,
    logged_errors: pytest.LogCaptureFixture,
    as_spanish: Any,
) -> None:
    command = _tree_leaves(table)[name]
    count = SLOW.get(name, EXAMPLES)
    in_spanish = language == "es"
    if in_spanish:
        count = min(count, SPANISH_EXAMPLES)
        for member in (table.alice, table.gm):
            as_spanish(member)
    check_spanish = in_spanish and spanish_checked(name)
    examples = draw_examples(command, count)
    plausible = draw_examples(command, count, plausible=True)
    guild = table.guild
    channels = {
        "table": table.channel,
        "prepared": guild.create_text_channel("prepared"),
        "gm-room": guild.create_text_channel("gm-room"),
    }
    members = {"alice": table.alice, "bob": table.bob, "carol": table.carol, "gm": table.gm}
    path = make_url(table.bot.settings.database_url).database
    exported = {"file": _json(SHEET_FILE)}  # alice's real export once she has a sheet
    group = name.split()[0]

    async def run(
        channel: Any, options: dict[str, Any], member: Any, *, autocomplete: bool
    ) -> None:
        resolved = {}
        parameters = {p.name: p for p in command.parameters}
        for key, value in options.items():
            if key in {"player"} and value in members:
                resolved[key] = members[value]
            elif key == "channel" and value in channels:
                resolved[key] = channels[value]
            elif key == "role" and value == "gm-role":
                resolved[key] = table.gm_role
            else:
                resolved[key] = _resolve(table, parameters[key], value, exported["file"])
        before = snapshot(path)
        cursor = table.env.error_cursor
        result = await member.slash(channel, name, **resolved)
        where = f"/{name} {resolved!r} by {member.name}"
        replies = [m for m in [result.response, *result.followups] if m is not None]
        # A form (modal) is an answer too: /sheet edit, /macro run asking for values.
        assert result.acknowledged and (replies or result.modal), f"{where}: no answer"
        # /settings language and my-language may choose English: then English is right.
        spanish = check_spanish and (
            await table.bot.languages.language_for("es-ES", channel.id, member.id) == "es"
        )
        for reply in replies:
            check_message(reply.content, reply.embeds, where)
            if spanish:
                check_spanish_reply(reply.content, reply.embeds, where)
        if table.env.errors_since(cursor):  # refused (a bug would fail the test at teardown)
            assert snapshot(path) == before, f"{where}: refused, yet the database changed"
        assert not logged_errors.records, f"{where}: {logged_errors.records[0].getMessage()}"
        if autocomplete:
            await complete(channel, resolved, member, first=not autocompleted)
            autocompleted.append(name)

    async def complete(
        channel: Any, options: dict[str, Any], member: Any, *, first: bool = False
    ) -> None:
        """Type each autocompleted option's value (``first``: and nothing), others filled in."""
        filled = {k: v for k, v in options.items() if not isinstance(v, tuple)}
        for parameter in command.parameters:
            if not parameter.autocomplete:
                continue
            for typed in {str(options.get(parameter.name, "")), "" if first else None} - {None}:
                others = {k: v for k, v in filled.items() if k != parameter.name}
                choices = await member.autocomplete(channel, name, parameter.name, typed, **others)
                where = f"/{name} {parameter.name}={typed!r} autocomplete by {member.name}"
                assert len(choices) <= 25, where
                for choice in choices:
                    assert 1 <= len(choice["name"]) <= 100, f"{where}: {choice}"
                    assert 1 <= len(str(choice["value"])) <= 100, f"{where}: {choice}"
                assert not logged_errors.records, (
                    f"{where}: {logged_errors.records[0].getMessage()}"
                )

    autocompleted: list[str] = []
    for options in examples:
        for member in (table.alice, table.gm):
            await run(table.channel, options, member, autocomplete=False)
    await prepare(table, channels["prepared"], group)
    alice = Actor(user_id=table.alice.id, channel_id=channels["prepared"].id, guild_id=guild.id)
    exported["file"] = (await sheets.export(table.bot.db, alice, "Hermione"))[1]
    # Autocomplete is typed where names exist, by alice (the GM sees the same names here).
    for options in plausible + examples + EXTRA.get(name, []):
        for member in (table.alice, table.gm):
            await run(channels["prepared"], options, member, autocomplete=member is table.alice)
    for channel in channels.values():
        for message in channel.history():
            check_message(message.content, message.embeds, f"#{channel.name} {message.id}")


# --------------------------------------------------------------------------- concurrency


async def test_twenty_concurrent_changes_in_three_channels_lose_nothing(database_url: str) -> None:
    """20 state-changing commands at once, through two database handles (as two bot
    processes would hold): no "database is locked", no lost update, one log row per roll."""
    from bot.services import coda, initiative, penalty, rps
    from bot.services.rps import BaseRequest
    from bot.services.sheets import Resource, active_character
    from bot.storage import Database
    from bot.storage.repositories import rolls as roll_log
    from engine.dice import SeededDice

    first, second = Database(database_url), Database(database_url)
    dice = SeededDice(7)
    one, two, three = (
        Actor(user_id=100, channel_id=channel, guild_id=1, gm_role=True) for channel in (1, 2, 3)
    )
    try:
        await coda.start_extended(first, one, name="Siege", stages="100,100,100")
        await initiative.start(first, two, system="coda")
        await rps.sustained_start(first, three, goal=1000, no_loss=True)
        await sheets.create(first, three, "Tom", "drama")
        await sheets.set_resource(first, three, "Grit", current=0)
        handles = [first, second]
        changes = [
            *(coda.roll_extended(handles[i % 2], dice, one, modifier=-100) for i in range(5)),
            *(
                initiative.add(handles[i % 2], dice, two, name=f"Goblin {i}", roll=i)
                for i in range(5)
            ),
            *(
                rps.sustained_roll(handles[i % 2], dice, three, BaseRequest(base=10))
                for i in range(4)
            ),
            *(sheets.set_resource(handles[i % 2], three, "Grit", delta=1) for i in range(3)),
            *(penalty.add(handles[i % 2], three, character="Tom", amount=1) for i in range(3)),
        ]
        assert len(changes) == 20
        results = await asyncio.gather(*changes, return_exceptions=True)
        assert [r for r in results if isinstance(r, BaseException)] == []

        (task,) = await coda.extended_status(first, one)
        assert task.task.tests == 5 and len(task.task.log) == 5
        encounter = await initiative.show(first, two)
        assert {c.name for c in encounter.state.combatants} == {f"Goblin {i}" for i in range(5)}
        sustained = await rps.sustained_status(first, three)
        assert sustained.task.checks == 4 and len(sustained.log) == 4
        assert (await penalty.show(first, three, character="Tom")).dice == 3
        async with first.unit_of_work(read_only=True) as session:
            sheet = await active_character(session, three)
            assert sheet.resource("Grit") == Resource(3, None)
            logged = {
                channel: len(
                    await roll_log.latest(session, channel, count=100, include_secret=True)
                )
                for channel in (1, 2, 3)
            }
        assert logged == {1: 5, 2: 0, 3: 4}  # initiative rolls given as totals log nothing
    finally:
        await first.dispose()
        await second.dispose()
