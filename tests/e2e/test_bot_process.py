"""``narrator run`` as its own process, over real sockets, against the local Discord stand-in.

SimCord tests drive the command tree in-process; these prove the shipped program works:
login, command sync, the gateway (zlib-stream, heartbeats, RESUME), interaction callbacks,
follow-ups and message edits, and that it talks to nothing but the configured endpoints.
"""

from __future__ import annotations

import re
import sqlite3

import pytest

from tests.e2e.fake_discord import FakeDiscord, InteractionResult
from tests.e2e.process import BotProcess

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

CHANNEL_MESSAGE_WITH_SOURCE, UPDATE_MESSAGE = 4, 7
Running = tuple[FakeDiscord, BotProcess]


def integers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"-?\d+", text)]


def assert_public_embed(result: InteractionResult) -> dict:
    assert result.callback_type == CHANNEL_MESSAGE_WITH_SOURCE, result.callback
    assert not result.ephemeral, result.content
    assert len(result.embeds) == 1, result.callback
    embed = result.embeds[0]
    assert embed.get("title") or embed.get("description")
    return embed


def require(fake: FakeDiscord, *commands: str) -> None:
    missing = [c for c in commands if not fake.has_command(c)]
    if missing:
        pytest.skip(f"not registered yet: {', '.join('/' + c for c in missing)}")


def sqlite_path(bot: BotProcess) -> str:
    return bot.database_url.removeprefix("sqlite+aiosqlite:///")


async def test_commands_are_synced_to_the_dev_guild(running: Running) -> None:
    fake, _bot = running
    commands = fake.guild_commands.get(fake.table.guild_id)
    assert commands, "DEV_GUILD_ID is set: the bot syncs its commands to that guild at start"
    assert {"roll", "settings", "history", "help"} <= set(commands)
    for command in commands.values():
        assert 1 <= len(command["description"]) <= 100
    assert fake.has_command("settings rule")


async def test_roll_gets_a_public_embed(running: Running) -> None:
    fake, _bot = running
    result = await fake.interact("roll", channel=fake.channel(1), expression="2d6+3", label="Hit")
    embed = assert_public_embed(result)
    total = integers(embed.get("title") or "")
    assert total and 5 <= total[-1] <= 15, embed
    assert "Hit" in str(embed)
    assert result.callback_status == 200  # within Discord's deadline: the stand-in says so


async def test_bad_input_is_answered_privately(running: Running) -> None:
    fake, _bot = running
    result = await fake.interact("roll", channel=fake.channel(1), expression="2d")
    assert result.callback_type == CHANNEL_MESSAGE_WITH_SOURCE
    assert result.ephemeral
    assert result.content or result.embeds


async def test_a_secret_roll_reaches_the_gm_by_direct_message(running: Running) -> None:
    fake, _bot = running
    result = await fake.interact(
        "roll", channel=fake.channel(7), user="alice", expression="1d20", secret=True
    )
    assert result.ephemeral and result.embeds
    gm_id = str(fake.user_id("gm"))
    await fake._wait_state(
        lambda: any(c["recipients"][0]["id"] == gm_id for c in fake.dm_channels.values()),
        5,
        "a DM channel with the GM",
    )
    (dm,) = [c for c in fake.dm_channels.values() if c["recipients"][0]["id"] == gm_id]
    await fake._wait_state(
        lambda: bool(fake.channel_messages.get(int(dm["id"]))), 5, "the DM to the GM"
    )
    (message,) = fake.channel_messages[int(dm["id"])]
    assert message["embeds"] == [{"type": "rich", **e} for e in result.embeds]


async def test_a_dropped_gateway_is_resumed_and_the_bot_answers(running: Running) -> None:
    fake, _bot = running
    identifies, resumes = fake.identifies, fake.resumes
    await fake.disconnect(code=4000)
    # Sent while the bot is away: Discord keeps it and replays it after RESUME.
    pending = fake.send(
        fake.command_payload("roll", channel=fake.channel(2), expression="1d20"), "roll"
    )
    await fake.wait_resumed(resumes=resumes + 1)
    await pending.wait(10)
    assert_public_embed(pending)
    assert fake.identifies == identifies, "the bot resumed the session instead of identifying"
    after = await fake.interact("roll", channel=fake.channel(2), expression="1d4")
    assert_public_embed(after)
    connections = [r for r in fake.requests if r.path == "/gateway"]
    assert len(connections) >= 2
    for connection in connections:  # READY's resume_gateway_url is the stand-in too
        assert connection.query == {"v": "10", "encoding": "json", "compress": "zlib-stream"}
    assert fake.heartbeats >= len(connections), "a heartbeat right after each HELLO"


async def test_a_gm_changes_a_rule_and_it_is_stored(running: Running) -> None:
    fake, bot = running
    channel = fake.channel(3)
    refused = await fake.interact(
        "settings rule", channel=channel, user="alice", name="coda.ones", value="fumble"
    )
    assert refused.ephemeral
    done = await fake.interact(
        "settings rule", channel=channel, user="gm", name="coda.ones", value="fumble"
    )
    assert_public_embed(done)
    with sqlite3.connect(sqlite_path(bot)) as db:
        (rules,) = db.execute(
            "SELECT rules FROM channel_settings WHERE channel_id = ?", (channel,)
        ).fetchone()
    assert '"fumble"' in rules


async def test_coda_test(running: Running) -> None:
    fake, _bot = running
    require(fake, "coda test")
    result = await fake.interact("coda test", channel=fake.channel(4), modifier=2, tn=10)
    embed = assert_public_embed(result)
    assert "10" in str(embed)


async def test_sheet_create(running: Running) -> None:
    fake, bot = running
    require(fake, "sheet create")
    result = await fake.interact(
        "sheet create", channel=fake.channel(5), user="bob", name="Hermione", system="coda"
    )
    assert result.callback_type == CHANNEL_MESSAGE_WITH_SOURCE
    assert result.embeds and "Hermione" in str(result.embeds[0])
    with sqlite3.connect(sqlite_path(bot)) as db:
        rows = db.execute(
            "SELECT system FROM characters WHERE owner_id = ? AND name = 'Hermione'",
            (fake.user_id("bob"),),
        ).fetchall()
    assert rows == [("coda",)]


async def test_sheet_export_uploads_a_file_that_import_reads_back(running: Running) -> None:
    fake, _bot = running
    require(fake, "sheet create", "sheet export", "sheet import")
    channel = fake.channel(8)
    created = await fake.interact(
        "sheet create", channel=channel, user="carol", name="Luna", system="coda"
    )
    assert created.callback_status == 200
    exported = await fake.interact("sheet export", channel=channel, user="carol")
    ((filename, content),) = exported.files.items()  # a multipart upload, as to Discord
    assert filename.endswith(".json") and b"Luna" in content
    file_id = fake.attach(filename, content.replace(b"Luna", b"Pandora"))
    imported = await fake.interact("sheet import", channel=channel, user="carol", file=file_id)
    assert imported.callback_status == 200 and "Pandora" in str(imported.embeds), imported.content
    downloads = [r for r in fake.requests if r.path.startswith(f"/attachments/{file_id}/")]
    assert len(downloads) == 1, "the bot read the file from the stand-in, not a CDN"


async def test_initiative_with_buttons(running: Running) -> None:
    fake, _bot = running
    require(fake, "init start", "init add", "init next")
    channel = fake.channel(6)
    start = await fake.interact("init start", channel=channel, user="gm", system="coda")
    assert start.callback_type == CHANNEL_MESSAGE_WITH_SOURCE
    assert start.embeds and start.message is not None
    assert _tracker(fake, channel) is not None, "the tracker has its buttons"

    for name, roll in (("Goblin", 15), ("Orc", 8)):
        added = await fake.interact("init add", channel=channel, user="gm", name=name, roll=roll)
        assert added.callback_type == CHANNEL_MESSAGE_WITH_SOURCE, added.callback
        assert not added.ephemeral
    # The bot edits the tracker (or posts a new one) after answering.
    await _wait_for(fake, lambda: _tracker_shows(fake, channel, "Goblin", "Orc"))

    before = _tracker(fake, channel)
    pressed = await fake.click(before, user="gm", label="Next")
    assert pressed.callback_status == 200, pressed.callback
    assert pressed.callback_type in (CHANNEL_MESSAGE_WITH_SOURCE, UPDATE_MESSAGE)
    assert "Goblin" in pressed.content + str(pressed.embeds), "the highest roll acts first"
    await _wait_for(fake, lambda: _tracker(fake, channel) != before)

    refused = await fake.click(_tracker(fake, channel), user="alice", label="End")
    assert refused.ephemeral, "only the GM ends an encounter"
    ask = await fake.click(_tracker(fake, channel), user="gm", label="End")
    assert ask.callback_status == 200
    if ask.message is not None and ask.message.get("components"):
        confirm = await fake.click(ask.message, user="gm", label="End the encounter", followups=1)
        assert confirm.callback_type == UPDATE_MESSAGE
        assert confirm.followups and confirm.followups[0].get("embeds")


def _tracker(fake: FakeDiscord, channel: int) -> dict | None:
    """The channel's newest message with the tracker's Next button, as it is now."""
    for message in sorted(fake.messages.values(), key=lambda m: -int(m["id"])):
        if int(message["channel_id"]) != channel:
            continue
        if any(
            c.get("label") == "Next"
            for row in message.get("components") or []
            for c in row.get("components") or []
        ):
            return message
    return None


def _tracker_shows(fake: FakeDiscord, channel: int, *names: str) -> bool:
    tracker = _tracker(fake, channel)
    return tracker is not None and all(name in str(tracker["embeds"]) for name in names)


async def _wait_for(fake: FakeDiscord, predicate, within: float = 5.0) -> None:
    try:
        await fake._wait_state(predicate, within, "the tracker")
    except TimeoutError:
        raise AssertionError([(r.method, r.path, r.status) for r in fake.requests[-8:]]) from None


async def test_only_the_stand_in_was_contacted(running: Running) -> None:
    """Last: every request of the whole module went to the stand-in, on known routes."""
    fake, bot = running
    assert fake.unknown == [], [(r.method, r.path) for r in fake.unknown]
    assert fake.rejected == [], fake.rejected
    assert fake.late_callbacks == []
    assert {r.host for r in fake.requests} == {f"127.0.0.1:{fake.port}"}
    contacted = bot.contacted()
    assert contacted, "the network audit hook recorded nothing: is it loaded?"
    assert bot.foreign_contacts({fake.port}) == set()
