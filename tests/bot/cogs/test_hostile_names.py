"""Hostile names, as players type them, through the commands that show them: nothing a user
typed pings, links or restyles a message (DESIGN.md, "Hostile input"), in either language.

Each scenario names a character, its attribute, skill, specialty, resource, macro, an NPC,
a condition and the quidditch teams with one hostile text, runs the commands that echo
those names (replies, public messages, refusals) and checks every message of the channel:
its content, and each embed's title, description, fields, footer and author.
"""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from bot.internals import simcord_message
from engine.dice import SeededDice
from tests.conftest import Table

#: Each hostile text, and what it would do if it reached a message as typed.
HOSTILE = {
    "@everyone": "pings the whole server",
    "<@123>": "renders a mention",
    "<#5> <@&6> @here": "renders a channel and a role, pings who is online",
    "[click](https://evil)": "a masked link",
    "**bold** __u__ ~~s~~": "restyles the text",
    "`code`": "opens a code span",
    "# heading": "a heading",
    "||spoiler||": "hides text",
    "> quote *i* -# small": "quotes and shrinks",
    "[x](<https://evil>) <https://evil>": "a masked link in brackets, an autolink",
    "a\u200bb\u200dc\u2060 *z\u200b*": "zero-width characters around markup",
    "\u202eevil\u202d \u2066x": "reverses (or isolates) the text after it",
}
#: A full quidditch team, each player named after the hostile text.
_POSITIONS = ("chaser", "chaser", "chaser", "beater", "beater", "keeper", "seeker")
#: The longest name a sheet takes, every character escaped: escaping must keep the limits.
LONG = "*_" * 32

#: Patterns that are live wherever they stand unescaped (the bot's own mentions use real
#: member ids, never 123, 5 or 6).
_MENTIONS = r"@everyone|@here|<@!?123>|<#5>|<@&6>"
_LIVE = re.compile(_MENTIONS + r"|\]\(<?https|https://evil")
#: Bidirectional controls: an override or isolate left open in a name reverses the bot's
#: own text after it, on every surface.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
#: In a code span nothing renders; a mention is neutralised all the same, should a client
#: read one there.
_LIVE_IN_CODE = re.compile(_MENTIONS)

_MARKDOWN_SURFACES = ("content", "title", "description", "field name", "field value")


def _outside_code(text: str) -> tuple[str, str]:
    """``text`` split into what Discord renders as markdown and what sits in code spans
    (escaped characters, a backslash and the next one, count as plain text)."""
    outside, inside, in_code, i = [], [], False, 0
    while i < len(text):
        char = text[i]
        if char == "\\" and not in_code and i + 1 < len(text):
            outside.append("\x01\x01")  # an escaped pair: neither markup nor a fragment
            i += 2
            continue
        if char == "`":
            in_code = not in_code
            (outside if in_code else inside).append("\x00")
        else:
            (inside if in_code else outside).append(char)
        i += 1
    return "".join(outside), "".join(inside)


def live_parts(text: str, hostile: str, *, markdown: bool) -> list[str]:
    """What of ``hostile`` would be live in ``text`` (empty when nothing is)."""
    found = []
    # Escaped twice: three backslashes before a punctuation mark (no hostile text holds a
    # backslash; a repr's escaped backslash before "u200b" is one escape, rightly).
    if re.search(r"\\\\\\[^\w\s]", text) or "\u200b\u200b" in text:
        found.append("escaped twice")
    found += _BIDI.findall(text)
    if not markdown:  # footers and authors render neither markdown nor mentions
        return found
    outside, inside = _outside_code(text)
    found += _LIVE.findall(outside) + _LIVE_IN_CODE.findall(inside)
    # The hostile text standing as typed in rendered markdown (its special characters
    # unescaped), or any of its pieces of markup.
    pieces = [hostile, *re.findall(r"\*\*\w+\*\*|__\w+__|~~\w+~~|\|\|\w+\|\||\*\w+\*", hostile)]
    found += [piece for piece in pieces if any(not c.isalnum() for c in piece) and piece in outside]
    if re.search(r"(^|\n)\s*(#|>|-#) ", outside):
        found.append("a heading or quote")
    if outside.count("\x00") > inside.count("\x00"):  # each span's opening tick stays outside
        found.append("a code span left open")
    found += [f"unbalanced {mark}" for mark in ("**", "||", "~~", "__") if outside.count(mark) % 2]
    return found


def _surfaces(message: discord.Message) -> list[tuple[str, str]]:
    shown = [("content", message.content or "")]
    for embed in message.embeds:
        shown += [("title", embed.title or ""), ("description", embed.description or "")]
        for field in embed.fields:
            shown += [("field name", field.name or ""), ("field value", field.value or "")]
        shown += [("footer", embed.footer.text or ""), ("author", embed.author.name or "")]
    return shown


#: Discord's limits on what one message holds (a longer one is refused whole).
_LIMITS = {
    "content": 2000,
    "title": 256,
    "description": 4096,
    "field name": 256,
    "field value": 1024,
    "footer": 2048,
    "author": 256,
}


def _within_discord(message: Any, command: str) -> None:
    for where, text in _surfaces(message):
        assert len(text) <= _LIMITS[where], f"/{command}: {where} of {len(text)} characters"
    for embed in message.embeds:
        assert len(embed) <= 6000 and len(embed.fields) <= 25, f"/{command}: embed too large"


def _pings_nobody_named(stored: Any, members: set[int], command: str) -> None:
    """The message (as SimCord stored it) pings no role and nobody but the table's members
    (a turn pings its player): never the ids or @everyone a name holds."""
    assert not stored.mention_everyone and not stored.ping_role_ids, f"/{command} pinged"
    assert set(stored.ping_user_ids) <= members, f"/{command}: {stored.ping_user_ids}"
    assert not stored.allowed_mentions.everyone, f"/{command} may ping @everyone"


def assert_inert(
    messages: list[Any], hostile: str, command: str, table: Table | None = None
) -> None:
    """Nothing of ``hostile`` live in any of ``messages``, each within Discord's limits."""
    for message in messages:
        for where, text in _surfaces(message):
            live = live_parts(text, hostile, markdown=where in _MARKDOWN_SURFACES)
            assert not live, f"/{command}: {hostile!r} live in {where}: {live} in {text!r}"
        assert not getattr(message, "mention_everyone", False), message.content
        _within_discord(message, command)
        if table is not None:
            stored = (
                table.env.backend.get_message(message.channel.id, message.id)
                if isinstance(message, discord.Message)
                else simcord_message(message)  # a reply: the message SimCord stored for it
            )
            members = {m.id for m in (table.gm, table.alice, table.bob, table.carol)}
            _pings_nobody_named(stored, members, command)


async def _play(table: Table, name: str, hostile: str) -> None:
    """Every command that shows the names: the player's, the GM's, and their refusals."""
    alice, gm, channel = table.alice, table.gm, table.channel
    checked: set[tuple[int, str]] = set()

    async def run(actor: Any, command: str, /, **options: Any) -> Any:
        result = await actor.slash(channel, command, **options)
        replies = [m for m in [result.response, *result.followups] if m is not None]
        # The replies (ephemeral ones too), and the channel: public messages, edited trackers.
        fresh = []
        for message in [*replies, *channel.history()]:
            key = (message.id, repr(_surfaces(message)))
            if key not in checked:
                checked.add(key)
                fresh.append(message)
        assert_inert(fresh, hostile, command, table)
        return result

    async def press(actor: Any, asked: Any, command: str) -> None:
        """The message's first button (Dodge), whatever its label's language."""
        button = asked.response.message.components[0].children[0]
        await actor.click(asked.response, custom_id=button.custom_id)
        assert_inert(channel.history()[-1:], hostile, f"{command} (pressed)", table)

    await run(alice, "sheet create", name=name, system="coda")
    await run(alice, "sheet set", attribute=name[:32], value=3)
    await run(alice, "sheet set", attribute="Strength", value=3)
    await run(alice, "sheet skill", name=name[:32], ranks=2, attribute=name[:32], specialty=name)
    await run(alice, "sheet skill", name="Brawl", ranks=1, specialty=f"{name}, {name}")
    await run(alice, "sheet resource", name=name[:32], current=5, max=10)
    await run(alice, "sheet resource", name=name[:32], change=-1)
    await run(alice, "sheet note", text=f"{hostile}\n{hostile}")
    await run(alice, "sheet show")
    await run(alice, "sheet list")
    await run(gm, "sheet list", player=alice)
    await run(gm, "sheet resource", character=name, name=name[:32], change=-2)
    await run(gm, "sheet show", character=name)
    await run(gm, "sheet show", character=f"{name[:63]}!")
    await run(alice, "sheet use", character=f"{name[:63]}?")
    await run(alice, "sheet resource", name=f"{name[:31]}?", change=1)
    await run(alice, "sheet set", attribute=f"{name[:31]}?")
    await run(alice, "sheet skill", name=name[:32], specialty=f"{name[:30]}??")
    await run(alice, "coda attack", skill=f"{name[:31]}?", target=name[:32], defence=5)
    await run(alice, "coda skill", skill=f"{name[:31]}?")
    await run(alice, "coda skill", skill=name[:32], specialty=f"{name[:31]}?")
    await run(alice, "coda skill", skill=name[:32], label=name)
    await run(alice, "coda opposed", a=name, a_skill=name[:32], b="3", label=name)
    await run(alice, "coda opposed", a="2", b=name, b_skill=name[:32])
    await run(alice, "coda combined", leader=name, helpers=f"2, {name}", skill=name[:32], tn=15)
    await run(alice, "coda attack", skill="Brawl", attribute="Strength", target=name[:32])
    table.bot.dice = SeededDice(3)
    attack = await run(
        alice, "coda attack", skill="Brawl", attribute="Strength", target=name[:32], defence=2
    )
    await press(gm, attack, "coda attack")  # the NPC's defence, the damage

    macro = name[:32].replace("`", "'")
    await run(alice, "macro save", name=macro, command="roll expression:d6")
    await run(alice, "macro save", name=macro, command="roll expression:d8")
    await run(alice, "macro show", name=macro)
    await run(alice, "macro list")
    await run(alice, "macro run", name=macro)
    await run(alice, "macro run", name=f"{macro[:31]}?")
    await run(
        alice, "macro save", name=macro[:31] + "2", command="roll expression:d6", scope="character"
    )
    await run(alice, "sheet panel")
    await run(alice, "roll", expression="d20", label=name)

    # An initiator named like numbered NPCs ("x 1", "x 2"): a warning names them all.
    await run(gm, "init start", initiator=name[:30])
    await run(gm, "init add", name=name[:30], roll=5, count=2)
    await run(gm, "init add", name=name[:32], roll=12)
    await run(gm, "init add", name=f"{name[:30]}~~", roll=8, hidden=True)
    await run(alice, "init join")
    await run(gm, "init act", name=name[:32])
    await run(gm, "init act", name=f"{name[:31]}?")
    await run(gm, "init condition add", target=name[:32], name=name[:32], note=name[:32])
    await run(gm, "init show")
    await run(gm, "init next")
    await run(gm, "init delay")
    await run(gm, "init remove", name=f"{name[:31]}?")
    await run(gm, "init end")

    # A team or player name may not hold "," or ":" (they separate a turn's targets).
    team = name.replace(",", ";").replace(":", ";")
    await run(gm, "quidditch new", home=team[:32], away=f"{team[:30]}!!")
    for side, stats in (("home", (5, 3, 3, 3)), ("away", (4, 3, 3, 3))):
        for index, position in enumerate(_POSITIONS):
            strength, dexterity, toughness, health = stats
            await run(
                gm,
                "quidditch player",
                team=side,
                position=position,
                name=f"{team[:60]}{index}",
                strength=strength,
                dexterity=dexterity,
                toughness=toughness,
                health=health,
            )
    await run(alice, "quidditch roster")
    await run(gm, "quidditch status")
    await run(gm, "quidditch snitch", team=f"{team[:31]}?")
    table.bot.dice = SeededDice(7)  # turns with goals, blocks and hits, then the snitch
    await run(gm, "quidditch turn")
    await run(gm, "quidditch turn", until="snitch")
    await run(gm, "quidditch undo")

    await run(alice, "coda extended start", name=name, stages="15,20")
    await run(alice, "coda extended start", name=name, stages="15")
    await run(alice, "coda extended roll", task=name, modifier=2, label=name)
    await run(alice, "coda extended roll", task=f"{name[:60]}?", modifier=1)
    await run(alice, "coda extended status")
    await run(gm, "coda extended abandon", task=name)
    await run(alice, "roll", expression=f"1d20+2 # {name}")
    await run(alice, "sheet rename", character=name, new_name=f"{name[:60]} 2")
    await run(alice, "sheet rename", character=f"{name[:60]} 2", new_name=name)
    await run(alice, "sheet copy", new_name=name)
    await run(alice, "sheet copy", new_name=f"{name[:60]} 3")
    await run(alice, "sheet use", character=name)
    await run(alice, "sheet delete", character=f"{name[:60]} 3")
    await run(alice, "help", command=name[:60])

    drama = f"{name[:60]} D"
    await run(alice, "sheet create", name=drama, system="drama")
    await run(alice, "sheet set", attribute=name[:32], value=3)
    await run(alice, "drama test", attribute=name[:32], label=name)
    await run(gm, "penalty add", character=drama, amount=4, reason=name)
    await run(gm, "penalty show", character=drama)
    await run(gm, "penalty recover", character=drama, amount=1)

    attribute = name[:32]
    await run(alice, "sheet create", name=f"{name[:60]} H", system="h90")
    await run(alice, "sheet set", attribute=attribute, value=3)
    await run(alice, "h90 roll", attribute=attribute, label=name)
    await run(alice, "h90 roll", attribute=attribute)
    await run(alice, "h90 opposed", attribute=attribute, vs_name=attribute, vs_bonus=2)
    table.bot.dice = SeededDice(3)
    attack = await run(
        gm,
        "h90 attack",
        target=f"{name[:60]} H",
        attacker=name,
        difficulty=1,
        bonus=30,
        dodge=attribute,
    )
    await press(alice, attack, "h90 attack")
    await run(alice, "sheet create", name=f"{name[:60]} R", system="rps")
    await run(alice, "sheet set", attribute=attribute, value=40)
    await run(alice, "sheet skill", name=attribute, ranks=10, attribute=attribute)
    await run(alice, "rps check", skill=attribute, label=name)
    await run(alice, "rps check", attribute=attribute)
    # A party that is a mention ("<@123>" alone) is that player, shown as the mention: an
    # embed never pings, and the name is the player's own. Hence a prefix.
    await run(alice, "rps resisted", parties=f"x{name[:20]}:40, {name[:20]}!:30", label=name)
    await run(alice, "rps sustained start", goal=3, label=name)
    await run(alice, "rps sustained roll", skill=attribute)
    await run(alice, "sheet create", name=f"{name[:60]} I", system="infinity")
    await run(alice, "sheet set", attribute=attribute, value=12)
    await run(alice, "infinity roll", attribute=attribute, label=name)
    await run(
        alice,
        "infinity ftf",
        active_attribute=attribute,
        reactive_attribute="12",
        active_burst=3,
        targets=f"{team[:20]}:1:13, {team[:20]}!:1:12",
        label=name,
    )


#: One name holding a piece of each kind: the fast tier's representative of the sweep.
MIXED = "<@123> @everyone [x](https://evil) **b** ||s|| `c` \u202e> q"


async def test_a_hostile_name_is_inert_everywhere(table: Table) -> None:
    """Fast tier: every command of the sweep, one name mixing every kind of hostile text."""
    await _play(table, MIXED, MIXED)


# Slow tier: ~50 commands x 13 hostile names x 2 languages (about 30 s); the fast tier has
# the mixed name above and the escaping's unit tests (tests/bot/test_text.py).
@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("hostile", [*HOSTILE, LONG])
async def test_no_name_a_player_types_is_live(
    table: Table, as_spanish: Any, hostile: str, language: str
) -> None:
    if language == "es":  # Spanish clients: every reply, refusal and public message in Spanish
        as_spanish(table.alice), as_spanish(table.gm)
    await _play(table, hostile, hostile)
    if language == "es":
        assert any("Personaje" in m.content or m.embeds for m in table.channel.history())


async def _between_players(table: Table, name: str, hostile: str) -> None:
    """The requests one player's roll makes of another's character ("Roll my side", "Roll
    my part"): the line that pings the asked player, the parts as they come in, the result.
    """
    alice, bob, carol, channel = table.alice, table.bob, table.carol, table.channel
    seen: set[tuple[int, str]] = set()

    async def check(command: str) -> None:
        fresh = []
        for message in channel.history():
            key = (message.id, repr(_surfaces(message)))
            if key not in seen:
                seen.add(key)
                fresh.append(message)
        assert_inert(fresh, hostile, command, table)

    async def slash(actor: Any, command: str, /, **options: Any) -> Any:
        result = await actor.slash(channel, command, **options)
        assert_inert([m for m in [result.response, *result.followups] if m], hostile, command)
        await check(command)
        return result

    async def press(actor: Any, asked: Any, command: str) -> None:
        """The request's one button, whatever its label's language."""
        button = asked.response.message.components[0].children[0]
        await actor.click(asked.response, custom_id=button.custom_id)
        assert channel.last_message.embeds, f"/{command}: no result once every side rolled"
        await check(f"{command} (pressed)")

    skill = name[:32]
    for member in (alice, bob):
        await slash(member, "sheet create", name=f"{name[:60]} {member.name[0]}", system="coda")
        await slash(member, "sheet set", attribute=skill, value=4)
        await slash(member, "sheet skill", name=skill, ranks=2, attribute=skill)
    await slash(carol, "sheet create", name=f"{name[:60]} R", system="rps")
    await slash(carol, "sheet set", attribute=skill, value=40)
    await slash(alice, "sheet create", name=f"{name[:60]} P", system="rps")
    await slash(alice, "sheet set", attribute=skill, value=50)

    await slash(alice, "sheet use", character=f"{name[:60]} a")
    asked = await slash(
        alice,
        "coda opposed",
        a=f"{name[:60]} a",
        a_skill=skill,
        b=f"{name[:60]} b",
        b_skill=skill,
        label=name,
    )
    await press(bob, asked, "coda opposed")

    await slash(alice, "sheet use", character=f"{name[:60]} P")
    asked = await slash(
        alice,
        "rps resisted",
        parties=f"x{name[:20]}:40, <@{carol.id}>",
        attribute=skill,
        label=name,
    )
    await press(carol, asked, "rps resisted")


async def test_a_hostile_name_is_inert_between_players(table: Table) -> None:
    """Fast tier: the requests between players, one name mixing every kind of hostile text."""
    await _between_players(table, MIXED, MIXED)


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("hostile", [*HOSTILE, LONG])
async def test_no_name_is_live_between_players(
    table: Table, as_spanish: Any, hostile: str, language: str
) -> None:
    if language == "es":
        for member in (table.alice, table.bob, table.carol, table.gm):
            as_spanish(member)
    await _between_players(table, hostile, hostile)
