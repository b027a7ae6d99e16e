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

from tests.conftest import Table

# Slow tier: ~40 commands x 20 hostile names; the fast tier keeps the escaping's unit tests
# (tests/bot/test_text.py).
pytestmark = pytest.mark.slow

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
}
#: The longest name a sheet takes, every character escaped: escaping must keep the limits.
LONG = "*_" * 32

#: Patterns that are live wherever they stand unescaped (the bot's own mentions use real
#: member ids, never 123, 5 or 6).
_MENTIONS = r"@everyone|@here|<@!?123>|<#5>|<@&6>"
_LIVE = re.compile(_MENTIONS + r"|\]\(https|https://evil")
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
            outside.append("\x00\x00")  # an escaped pair: neither markup nor a fragment
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
    if "\\\\" in text or "\u200b\u200b" in text:
        found.append("escaped twice")
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
    return found


def _surfaces(message: discord.Message) -> list[tuple[str, str]]:
    shown = [("content", message.content or "")]
    for embed in message.embeds:
        shown += [("title", embed.title or ""), ("description", embed.description or "")]
        for field in embed.fields:
            shown += [("field name", field.name or ""), ("field value", field.value or "")]
        shown += [("footer", embed.footer.text or ""), ("author", embed.author.name or "")]
    return shown


def assert_inert(messages: list[Any], hostile: str, command: str) -> None:
    """Nothing of ``hostile`` live in any of ``messages``."""
    for message in messages:
        for where, text in _surfaces(message):
            live = live_parts(text, hostile, markdown=where in _MARKDOWN_SURFACES)
            assert not live, f"/{command}: {hostile!r} live in {where}: {live} in {text!r}"
        assert not getattr(message, "mention_everyone", False), message.content


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
        assert_inert(fresh, hostile, command)
        return result

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
    await run(alice, "coda attack", skill="Brawl", attribute="Strength", target=name[:32])

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

    await run(gm, "init start")
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

    await run(gm, "quidditch new", home=name[:32], away=f"{name[:30]}!!")
    await run(alice, "quidditch roster")
    await run(gm, "quidditch status")
    await run(gm, "quidditch snitch", team=f"{name[:31]}?")


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
