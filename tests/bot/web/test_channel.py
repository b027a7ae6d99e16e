"""``/channels/{id}`` over HTTP: who may open it (anonymous, a member, an outsider), what each
viewer sees (a player, another player, the GM: hidden combatants, NPC Health, the roster,
secret rolls), the log's filters, the live fragment and the change stream."""

from __future__ import annotations

import asyncio
import dataclasses
import re

import pytest

from bot.actor import Actor
from bot.console import GUILD_ID, stable_id
from bot.services import initiative, members, rolls, sheets
from bot.storage import Database
from bot.web._events import PER_VIEWER
from engine.dice import ScriptedDice
from tests.bot.web.conftest import Browser

CHANNEL = 4242
OTHER_GUILD_CHANNEL = 4343


def actor(name: str, channel: int = CHANNEL, guild: int = GUILD_ID) -> Actor:
    """The console user ``name`` (who ``--local-login`` as ``name`` is) in a channel."""
    return Actor(user_id=stable_id(f"user:{name}"), channel_id=channel, guild_id=guild)


ALICE, BOB = actor("alice"), actor("bob")
#: The GM as Discord sees them (the GM role); the web knows them as the encounter's starter.
GM = dataclasses.replace(actor("gm"), gm_role=True)


async def _seat(db: Database, *players: Actor) -> None:
    """The bot saw these players use commands in #table (bot.services.members): the web lets
    them open the channel's page (bot.services.access.channel_for)."""
    records = members.MemberRecords(db)
    for player in players:
        records.saw(player, "Campaign", "table")
    await records.settle()


async def _table(db: Database) -> int:
    """A fight the GM started (so the GM is the channel's GM), Alice's sheet, a secret roll of
    Alice's, everyone seated; returns the secret roll's id."""
    await _seat(db, GM, ALICE, BOB)
    await sheets.create(db, ALICE, "Hermione", "coda")
    await initiative.start(db, GM)
    await initiative.add(db, ScriptedDice([]), GM, name="Troll", roll=18, health=30)
    await initiative.add(db, ScriptedDice([]), GM, name="Lurker", roll=12, hidden=True)
    await initiative.add(db, ScriptedDice([]), GM, name="Hermione", roll=15)
    await initiative.next_turn(db, GM)
    secret = await rolls.roll_notation(
        db, ScriptedDice([5]), ALICE, expression="1d6", label="sneak", secret=True
    )
    await rolls.roll_notation(
        db, ScriptedDice([3]), BOB, expression="1d6", label=None, secret=False
    )
    return secret.secrecy.seals[0].roll_id


async def _page(browser: Browser, path: str = f"/channels/{CHANNEL}") -> tuple[int, str]:
    response = await browser.client.get(path, allow_redirects=False)
    return response.status, await response.text()


async def test_anonymous_viewers_are_sent_to_log_in(browser: Browser) -> None:
    for path in ("", "/live", "/events", "/dice.png", "/odds", "/odds.png"):
        response = await browser.client.get(f"/channels/{CHANNEL}{path}", allow_redirects=False)
        assert response.status in (302, 303), path
        assert response.headers["Location"].startswith("/login")


async def test_outsiders_and_unknown_channels_get_the_same_404(
    db: Database, browser: Browser
) -> None:
    await rolls.roll_notation(
        db,
        ScriptedDice([1]),
        actor("eve", OTHER_GUILD_CHANNEL, guild=77),
        expression="1d6",
        label=None,
        secret=False,
    )
    await browser.log_in("alice")
    for channel in (OTHER_GUILD_CHANNEL, 999_999, "abc", "1" * 30, -5):
        for path in ("", "/live", "/events", "/dice.png", "/odds", "/odds.png"):
            status, text = await _page(browser, f"/channels/{channel}{path}")
            assert status == 404, (channel, path)
            assert "Traceback" not in text


async def test_a_member_who_never_played_there_is_not_let_in(
    db: Database, browser: Browser
) -> None:
    await _table(db)
    await browser.log_in("carol")  # in the guild, never used a command in #table
    status, text = await _page(browser)
    assert status == 404 and "Troll" not in text


async def test_a_player_sees_the_table_but_not_the_gms_secrets(
    db: Database, browser: Browser
) -> None:
    secret_id = await _table(db)
    await browser.log_in("bob")
    status, text = await _page(browser)
    assert status == 200
    assert "Troll" in text and "Hermione" in text
    assert "Lurker" not in text  # hidden combatant
    assert "30/30" not in text  # the NPC's Health is the GM's
    assert "Every character of the channel" not in text  # the roster is the GM's
    assert f'id="roll-{secret_id}"' not in text  # Alice's secret roll
    assert re.findall(r"<script(?![^>]*\bsrc=)", text) == []  # no inline script (CSP)
    assert 'src="/static/channel.js"' in text


async def test_the_roller_sees_their_secret_roll_with_its_commitment_checked(
    db: Database, browser: Browser
) -> None:
    secret_id = await _table(db)
    await browser.log_in("alice")
    status, text = await _page(browser)
    assert status == 200 and f'id="roll-{secret_id}"' in text
    assert "The record and salt below give this commitment" in text
    assert "Lurker" not in text


async def test_the_gm_sees_everything(db: Database, browser: Browser) -> None:
    secret_id = await _table(db)
    await browser.log_in("gm")
    status, text = await _page(browser)
    assert status == 200
    assert "Lurker" in text and "30/30" in text
    assert "Every character of the channel" in text and "Hermione" in text
    assert f'id="roll-{secret_id}"' in text


async def test_user_text_is_escaped(db: Database, browser: Browser) -> None:
    await _seat(db, GM, ALICE)
    await initiative.start(db, GM)
    await initiative.add(db, ScriptedDice([]), GM, name="<script>x</script>", roll=3)
    await browser.log_in("alice")
    _status, text = await _page(browser)
    assert "<script>x</script>" not in text and "&lt;script&gt;x&lt;/script&gt;" in text


async def test_the_logs_filters(db: Database, browser: Browser) -> None:
    await _table(db)
    await browser.log_in("gm")
    _status, text = await _page(browser, f"/channels/{CHANNEL}?player={BOB.user_id}")
    assert text.count('id="roll-') == 1  # Bob's one roll
    _status, text = await _page(browser, f"/channels/{CHANNEL}?system=coda")
    assert "No rolls here match." in text
    status, text = await _page(browser, f"/channels/{CHANNEL}?since=forever")
    assert status == 400 and "Since is one of" in text and "Traceback" not in text
    status, text = await _page(browser, f"/channels/{CHANNEL}?count=x")
    assert status == 400 and "whole number" in text


async def test_the_live_fragment_follows_the_turn_order(db: Database, browser: Browser) -> None:
    await _table(db)
    await browser.log_in("alice")
    before = await (await browser.client.get(f"/channels/{CHANNEL}/live")).text()
    assert re.search(r"Round 1 · Troll", before)
    await initiative.next_turn(db, GM)
    after = await (await browser.client.get(f"/channels/{CHANNEL}/live")).text()
    assert re.search(r"Round 1 · Hermione", after)
    assert "<html" not in after  # a fragment, not a page


async def test_a_change_reaches_an_open_stream(db: Database, browser: Browser) -> None:
    await _table(db)
    await browser.log_in("alice")
    page = await (await browser.client.get(f"/channels/{CHANNEL}")).text()
    mark = re.search(r'data-mark="([0-9.]+)"', page)
    assert mark is not None
    response = await browser.client.get(
        f"/channels/{CHANNEL}/events", params={"mark": mark.group(1)}
    )
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/event-stream")
    assert await response.content.readline() == b"retry: 2000\n"
    await initiative.next_turn(db, GM)  # as /init next in the bot's process
    async with asyncio.timeout(60):  # a failsafe only: the poll runs every 0.4 s
        while (line := await response.content.readline()) != b"event: change\n":
            assert line, "the stream ended"
    data = await response.content.readline()
    assert data.startswith(b"data: ") and data.strip() != f"data: {mark.group(1)}".encode()
    response.close()


async def test_streams_are_bounded_per_viewer(db: Database, browser: Browser) -> None:
    await _table(db)
    await browser.log_in("alice")
    opened = [await browser.client.get(f"/channels/{CHANNEL}/events") for _ in range(PER_VIEWER)]
    assert [r.status for r in opened] == [200] * PER_VIEWER
    refused = await browser.client.get(f"/channels/{CHANNEL}/events")
    assert refused.status == 429 and refused.headers["Retry-After"]
    for response in opened:
        response.close()


async def test_no_chart_without_public_rolls(db: Database, browser: Browser) -> None:
    await _seat(db, GM, ALICE)
    await initiative.start(db, GM)
    await browser.log_in("alice")
    status, _text = await _page(browser, f"/channels/{CHANNEL}/dice.png")
    assert status == 404


@pytest.mark.slow  # the first chart starts a worker process (matplotlib's import: ~2 s)
async def test_the_dice_chart_is_a_cached_png(db: Database, browser: Browser) -> None:
    await _table(db)
    await browser.log_in("alice")
    response = await browser.client.get(f"/channels/{CHANNEL}/dice.png")
    assert response.status == 200 and response.content_type == "image/png"
    assert (await response.read()).startswith(b"\x89PNG")
    assert response.headers["Cache-Control"].startswith("private, max-age=")


async def test_the_page_speaks_spanish_from_the_bots_catalog(
    db: Database, browser: Browser
) -> None:
    await _table(db)
    await browser.log_in("alice")
    response = await browser.client.get(
        f"/channels/{CHANNEL}", headers={"Accept-Language": "es-ES,es;q=0.9"}
    )
    text = await response.text()
    assert "Orden de turnos" in text and "Registro de tiradas" in text
    assert "Ronda 1 · turno de Troll." in text
    refused = await browser.client.get(
        f"/channels/{CHANNEL}?since=forever", headers={"Accept-Language": "es"}
    )
    assert refused.status == 400 and "since es uno de" in await refused.text()


async def test_a_gm_by_discord_role_is_a_gm_here_too(db: Database, browser: Browser) -> None:
    """The bot recorded the GM role at a command (bot.services.members); nobody started
    anything, yet the GM sees the roster, and the page takes the channel's name."""
    await sheets.create(db, ALICE, "Hermione", "coda")
    records = members.MemberRecords(db)
    records.saw(dataclasses.replace(actor("ruth"), gm_role=True), "Hogwarts", "great-hall")
    records.saw(dataclasses.replace(ALICE, display_name="Alice"), "Hogwarts", "great-hall")
    await records.settle()
    await browser.log_in("ruth")
    status, text = await _page(browser)
    assert status == 200 and "#great-hall" in text
    assert "Every character of the channel" in text and "Alice (Hermione)" in text


async def test_odds_use_the_bots_service_and_refuse_numbers_out_of_bounds(
    db: Database, browser: Browser
) -> None:
    await _table(db)
    await browser.log_in("alice")
    status, text = await _page(browser, f"/channels/{CHANNEL}/odds?modifier=3&tn=12")
    assert status == 200 and "CODA 2d6 +3 vs TN 12" in text
    assert f"/channels/{CHANNEL}/odds.png?modifier=3&amp;tn=12" in text
    status, text = await _page(browser, f"/channels/{CHANNEL}/odds?system=rps&base=40")
    assert status == 200 and "RPS check at Base 40" in text
    status, text = await _page(browser, f"/channels/{CHANNEL}/odds?tn=1000")
    assert status == 400 and "tn is a whole number from 1 to 100" in text
    status, _text = await _page(browser, f"/channels/{CHANNEL}/odds.png?tn=x")
    assert status == 400
