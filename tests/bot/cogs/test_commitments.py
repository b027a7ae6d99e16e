"""Committed secret rolls as a table uses them: the notice, the reveal, the check.

The commitment is recomputed here with nothing but :mod:`hashlib` (and, where the machine has
it, with docs/players.md's exact ``sha256sum`` line), never with the bot's own code.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import shutil

import pytest
from simcord.backend.errors import OptionError
from sqlalchemy import select

from bot.storage.models import RollLog
from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of

SHORT = re.compile(r"Roll #(\d+) · commitment `([0-9a-f]{16})…`")


async def secret_roll(table: Table, member: object, faces: list[int], expression: str) -> tuple:
    table.bot.dice = ScriptedDice(faces)
    result = await member.slash(table.channel, "roll", expression=expression, secret=True)
    notice = next(f for f in result.followups if not f.ephemeral)
    match = SHORT.search(notice.content)
    assert match is not None, notice.content
    return result, notice, int(match.group(1)), match.group(2)


def field(embed: object, name: str, *, raw: bool = False) -> str:
    value = next(f.value for f in embed.fields if f.name == name)
    return value if raw else value.strip("`")


async def test_the_table_sees_a_commitment_and_checks_it_after_the_reveal(table: Table) -> None:
    result, notice, roll_id, short = await secret_roll(table, table.alice, [3, 4], "2d6")
    assert result.ephemeral and short in result.response.content  # the roller's copy
    assert not notice.embeds and "🎲" not in notice.content  # the table sees no result
    dm = table.gm.user.dm_channel.last_message
    assert short in dm.content  # the GM's copy carries it too
    full = await table.bob.click(notice, label="Full commitment")
    assert full.ephemeral
    commitment = re.search(r"`([0-9a-f]{64})`", full.response.content).group(1)
    assert commitment.startswith(short)

    revealed = await table.alice.slash(table.channel, "history", reveal=roll_id)
    assert not revealed.ephemeral  # laid open to the table
    embed = embed_of(revealed)
    record = re.search(r"```json\n(.*)\n```", embed.description, re.S).group(1)
    salt = field(embed, "Salt")
    assert len(salt) == 32 and int(salt, 16) >= 0  # 128 bits
    assert field(embed, "Commitment (SHA-256)") == commitment
    # Anyone can check it: SHA-256 of salt + "." + record.
    assert hashlib.sha256(f"{salt}.{record}".encode()).hexdigest() == commitment

    # The record is the roll as the log holds it.
    fields = json.loads(record)
    async with table.bot.db.unit_of_work(read_only=True) as session:
        entry = (await session.execute(select(RollLog).where(RollLog.id == roll_id))).scalar_one()
    assert fields == {
        "v": 1,
        "system": "dice",
        "input": "2d6",
        "label": None,
        "faces": [3, 4],
        "outcome": "7",
        "time": entry.created_at.isoformat(timespec="microseconds"),
        "roller": str(table.alice.id),
        "channel": str(table.channel.id),
        "guild": str(table.guild.id),
    }
    assert (entry.faces, entry.outcome, entry.user_id) == ([3, 4], "7", table.alice.id)
    assert entry.record == record and entry.salt == salt and entry.commitment == commitment

    checked = await table.bob.click(revealed.response, label="Verify")
    assert checked.ephemeral and "✅ The commitment matches" in text_of(checked)


@pytest.mark.skipif(shutil.which("sha256sum") is None, reason="no sha256sum here")
async def test_the_readme_shell_line_checks_it(table: Table) -> None:
    # A label with an apostrophe and a non-ASCII letter: the record still quotes safely.
    table.bot.dice = ScriptedDice([5])
    result = await table.alice.slash(
        table.channel, "roll", expression="1d6", label="Bob's “sneak” — é", secret=True
    )
    roll_id = int(SHORT.search(result.followups[0].content).group(1))
    embed = embed_of(await table.alice.slash(table.channel, "history", reveal=roll_id))
    line = re.search(
        r"```sh\n(.*)\n```", field(embed, "Check it with sha256sum", raw=True), re.S
    ).group(1)
    assert line.startswith("printf '%s.%s' '")
    shell = await asyncio.create_subprocess_exec("bash", "-c", line, stdout=asyncio.subprocess.PIPE)
    output, _ = await shell.communicate()
    assert shell.returncode == 0
    assert output.decode().split()[0] == field(embed, "Commitment (SHA-256)")


async def test_only_the_roller_or_a_gm_reveals(table: Table) -> None:
    _, _, roll_id, _ = await secret_roll(table, table.alice, [2], "1d6")
    own = await table.alice.slash(table.channel, "history")
    assert f"`1d6` → **2** 🔒 #{roll_id}" in text_of(own)  # the id to reveal it by
    refused = await table.bob.slash(table.channel, "history", reveal=roll_id)
    assert refused.ephemeral
    assert "Only whoever made a secret roll, or a GM" in refused.response.content
    by_gm = await table.gm.slash(table.channel, "history", reveal=roll_id)
    assert not by_gm.ephemeral and "revealed" in embed_of(by_gm).title
    # A GM's own secret roll: the GM sees it, the table sees the notice.
    _, notice, gm_roll, _ = await secret_roll(table, table.gm, [6], "1d6")
    assert "made a secret roll" in notice.content
    assert (await table.alice.slash(table.channel, "history", reveal=gm_roll)).ephemeral


async def test_reveal_of_what_cannot_be_revealed(table: Table) -> None:
    table.bot.dice = ScriptedDice([4])
    await table.alice.slash(table.channel, "roll", expression="1d6")
    public = await table.alice.slash(table.channel, "history", reveal=1)
    assert public.ephemeral and "has no commitment to reveal" in public.response.content
    missing = await table.alice.slash(table.channel, "history", reveal=999)
    assert missing.ephemeral and "No roll #999" in missing.response.content
    _, _, roll_id, _ = await secret_roll(table, table.alice, [1], "1d6")
    elsewhere = table.guild.create_text_channel("elsewhere")
    other = await table.alice.slash(elsewhere, "history", reveal=roll_id)
    assert other.ephemeral and f"No roll #{roll_id}" in other.response.content
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "history", reveal=0)


async def test_dice_verify_recomputes_for_anyone(table: Table) -> None:
    _, _, roll_id, short = await secret_roll(table, table.alice, [2, 2], "2d6")
    embed = embed_of(await table.alice.slash(table.channel, "history", reveal=roll_id))
    record = re.search(r"```json\n(.*)\n```", embed.description, re.S).group(1)
    salt = field(embed, "Salt")
    good = await table.carol.slash(
        table.channel, "dice verify", record=record, salt=salt, commitment=short
    )
    assert good.ephemeral and "✅ The commitment matches" in text_of(good)
    assert "outcome 4" in text_of(good)
    forged = record.replace('"outcome":"4"', '"outcome":"12"')
    bad = await table.carol.slash(
        table.channel, "dice verify", record=forged, salt=salt, commitment=short
    )
    assert "❌ The commitment does not match" in text_of(bad)
    nonsense = await table.carol.slash(
        table.channel, "dice verify", record="@everyone", salt="x", commitment="xyz"
    )
    assert nonsense.ephemeral and "A commitment is 16 to 64 hex digits" in text_of(nonsense)
    hostile = await table.carol.slash(
        table.channel,
        "dice verify",
        record='{"outcome":"<@123456789012345678> **bold** @everyone"}',
        salt="00",
        commitment="0" * 64,
    )
    assert "<@123456789012345678>" not in text_of(hostile)
    assert "@everyone" not in text_of(hostile) and "❌" in text_of(hostile)


async def test_a_refused_notice_leaves_the_roll_and_the_gms_copy(table: Table) -> None:
    table.env.inject_error("POST", "/webhooks/*/*", status=403, times=1)
    table.bot.dice = ScriptedDice([6])
    result = await table.alice.slash(table.channel, "roll", expression="1d6", secret=True)
    assert result.ephemeral and "commitment" in result.response.content
    assert not any(not f.ephemeral for f in result.followups)  # the notice was refused
    dm = table.gm.user.dm_channel.last_message
    assert dm is not None and "commitment" in dm.content
