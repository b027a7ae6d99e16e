"""``/characters`` as players and GMs use it: every route's permissions, edits through the
``/sheet`` services (seen by ``/sheet show`` in Discord), CSRF, limits, import and export."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest
from sqlalchemy import select

from bot.storage.models import Character
from tests.bot.web.conftest import Browser
from tests.conftest import Table, text_of


async def hermione(table: Table) -> int:
    """Alice's CODA character, used in #table (her only one), and everyone recorded."""
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=3)
    for member in (table.gm, table.bob):
        await member.slash(table.channel, "roll", expression="1d6")
    await table.bot.member_records.settle()
    async with table.bot.db.unit_of_work(read_only=True) as session:
        return int(await session.scalar(select(Character.id).where(Character.name == "Hermione")))


@pytest.fixture
async def as_member(table: Table, browser_for: Callable[..., Any]) -> Callable[..., Any]:
    async def make(member: Any) -> Browser:
        browser: Browser = await browser_for()
        browser.log_in_as(member.id, member.name, frozenset({table.guild.id}))
        return browser

    return make


async def test_anonymous_visitors_are_sent_to_log_in(browser: Browser) -> None:
    for path in ("/characters", "/characters/1", "/characters/1/export"):
        response = await browser.client.get(path, allow_redirects=False)
        assert response.status == 302
        assert response.headers["Location"].startswith("/login?next=/characters")


async def test_a_player_edits_their_sheet_and_discord_shows_it(
    table: Table, as_member: Callable[..., Any]
) -> None:
    character_id = await hermione(table)
    alice: Browser = await as_member(table.alice)
    listing = await (await alice.client.get("/characters")).text()
    assert f'href="/characters/{character_id}"' in listing and "Hermione" in listing
    page = await (await alice.client.get(f"/characters/{character_id}")).text()
    assert re.search(r"Wits 3", page)
    form = {
        "group0": "Wits 4\nStrength 2",
        "group1": "",
        "attributes": "",
        "resources": "Health 9/10",
        "notes": "Brave.",
    }
    response = await alice.post(
        f"/characters/{character_id}/edit/attributes", form, allow_redirects=False
    )
    assert response.status == 303
    shown = text_of(await table.alice.slash(table.channel, "sheet show"))
    assert "Wits" in shown and "4" in shown and "Health" in shown and "Brave." in shown
    response = await alice.post(
        f"/characters/{character_id}/edit/skills",
        {"skills0": "Stealth 2 Wits Shadows"},
        allow_redirects=False,
    )
    assert response.status == 303
    shown = text_of(await table.alice.slash(table.channel, "sheet show"))
    assert "Stealth" in shown and "Shadows" in shown


async def test_a_bad_line_gets_the_sheet_forms_own_message_and_saves_nothing(
    table: Table, as_member: Callable[..., Any]
) -> None:
    character_id = await hermione(table)
    alice: Browser = await as_member(table.alice)
    form = {"group0": "Wits 5000", "group1": "", "attributes": "", "resources": "", "notes": ""}
    response = await alice.post(f"/characters/{character_id}/edit/attributes", form)
    assert response.status == 400
    page = await response.text()
    assert "a value is between −100 and 1000" in page or "a value is between -100 and 1000" in page
    assert "Wits 5000" in page  # what was typed stays in the form to fix
    assert "3" in text_of(await table.alice.slash(table.channel, "sheet show"))


async def test_another_player_cannot_see_or_change_the_sheet(
    table: Table, as_member: Callable[..., Any]
) -> None:
    character_id = await hermione(table)
    bob: Browser = await as_member(table.bob)
    assert (await bob.client.get(f"/characters/{character_id}")).status == 404
    assert (await bob.client.get(f"/characters/{character_id}/export")).status == 404
    response = await bob.post(
        f"/characters/{character_id}/edit/attributes", {"group0": "Wits 1"}, allow_redirects=False
    )
    assert response.status == 404
    assert "Hermione" not in await (await bob.client.get("/characters")).text()


async def test_a_gm_reads_the_channels_sheets_but_cannot_change_them(
    table: Table, as_member: Callable[..., Any]
) -> None:
    character_id = await hermione(table)
    gm: Browser = await as_member(table.gm)
    assert "Hermione" in await (await gm.client.get("/characters")).text()
    page = await gm.client.get(f"/characters/{character_id}")
    assert page.status == 200
    text = await page.text()
    assert "Wits" in text and "<textarea" not in text and "played by alice" in text
    response = await gm.post(
        f"/characters/{character_id}/edit/attributes", {"group0": "Wits 1"}, allow_redirects=False
    )
    assert response.status == 403
    assert (await gm.client.get(f"/characters/{character_id}/export")).status == 403


async def test_an_edit_without_the_form_token_is_refused(
    table: Table, as_member: Callable[..., Any]
) -> None:
    character_id = await hermione(table)
    alice: Browser = await as_member(table.alice)
    response = await alice.client.post(
        f"/characters/{character_id}/edit/attributes", data={"group0": "Wits 1"}
    )
    assert response.status == 403
    assert "Wits" in (shown := text_of(await table.alice.slash(table.channel, "sheet show")))
    assert "3" in shown


async def test_a_request_past_the_size_limit_is_refused(
    table: Table, as_member: Callable[..., Any]
) -> None:
    character_id = await hermione(table)
    alice: Browser = await as_member(table.alice)
    response = await alice.post(
        f"/characters/{character_id}/edit/attributes", {"notes": "x" * 300_000}
    )
    assert response.status == 413
    assert "too much to send" in await response.text()


async def test_export_then_import_as_a_new_character(
    table: Table, as_member: Callable[..., Any]
) -> None:
    character_id = await hermione(table)
    alice: Browser = await as_member(table.alice)
    exported = await alice.client.get(f"/characters/{character_id}/export")
    assert exported.status == 200
    data = json.loads(await exported.read())
    assert data["name"] == "Hermione" and data["attributes"] == {"Wits": 3}
    data["name"] = "Ginny"
    token = await alice.token("/characters")
    form = aiohttp.FormData()
    form.add_field("csrf_token", token)
    form.add_field("guild", str(table.guild.id))
    form.add_field("file", json.dumps(data).encode(), filename="ginny.json")
    response = await alice.client.post("/characters/import", data=form, allow_redirects=False)
    assert response.status == 303, await response.text()
    await table.alice.slash(table.channel, "sheet use", character="Ginny")
    assert "Ginny" in text_of(await table.alice.slash(table.channel, "sheet show"))


async def test_a_characters_macros_are_listed_edited_and_deleted_by_its_owner_only(
    table: Table, as_member: Callable[..., Any]
) -> None:
    character_id = await hermione(table)
    await table.alice.slash(
        table.channel, "macro save", name="peek", command="roll expression:1d6", scope="character"
    )
    alice: Browser = await as_member(table.alice)
    page = await (await alice.client.get(f"/characters/{character_id}")).text()
    found = re.search(r'action="/characters/\d+/macros/(\d+)"', page)
    assert found and "roll expression:1d6" in page
    macro = found.group(1)
    bob: Browser = await as_member(table.bob)
    refused = await bob.post(
        f"/characters/{character_id}/macros/{macro}", {"command": "roll expression:6d6"}
    )
    assert refused.status == 404
    response = await alice.post(
        f"/characters/{character_id}/macros/{macro}",
        {"command": "roll expression:2d6"},
        allow_redirects=False,
    )
    assert response.status == 303
    listed = text_of(await table.alice.slash(table.channel, "macro list"))
    assert "2d6" in listed
    response = await alice.post(
        f"/characters/{character_id}/macros/{macro}/delete", {}, allow_redirects=False
    )
    assert response.status == 303
    assert "peek" not in text_of(await table.alice.slash(table.channel, "macro list"))


async def test_a_macros_name_shows_on_the_page_as_typed(
    table: Table, as_member: Callable[..., Any]
) -> None:
    """The page escapes HTML itself: the name is neither Markdown-escaped for Discord (no
    backslashes) nor live HTML."""
    character_id = await hermione(table)
    await table.alice.slash(
        table.channel,
        "macro save",
        name="*peek*_<b>",
        command="roll expression:1d6",
        scope="character",
    )
    alice: Browser = await as_member(table.alice)
    page = await (await alice.client.get(f"/characters/{character_id}")).text()
    assert "*peek*_&lt;b&gt;</label>" in page
    assert "\\*" not in page and "<b>" not in page


async def test_home_lists_the_viewers_tables_with_their_channels(
    table: Table, as_member: Callable[..., Any]
) -> None:
    await hermione(table)
    gm: Browser = await as_member(table.gm)
    page = await (await gm.client.get("/")).text()
    assert "Campaign" in page and f'href="/channels/{table.channel.id}"' in page
    assert 'class="badge"' in page  # the GM role
    bob: Browser = await as_member(table.bob)
    page = await (await bob.client.get("/")).text()
    assert "Campaign" in page and 'class="badge"' not in page
    carol: Browser = await as_member(table.carol)  # never seen by the bot
    assert "nothing of yours yet" in await (await carol.client.get("/")).text()


async def test_rename_and_delete_use_the_sheet_services_rules(
    table: Table, as_member: Callable[..., Any]
) -> None:
    character_id = await hermione(table)
    await table.alice.slash(table.channel, "sheet create", name="Ginny", system="coda")
    alice: Browser = await as_member(table.alice)
    clash = await alice.post(f"/characters/{character_id}/rename", {"name": "ginny"})
    assert clash.status == 400 and "You already have a character called Ginny" in (
        await clash.text()
    )
    response = await alice.post(
        f"/characters/{character_id}/rename", {"name": "Luna"}, allow_redirects=False
    )
    assert response.status == 303
    await table.alice.slash(table.channel, "sheet use", character="Luna")
    assert "Luna" in text_of(await table.alice.slash(table.channel, "sheet show"))
    unconfirmed = await alice.post(f"/characters/{character_id}/delete", {"confirm": "luna!"})
    assert unconfirmed.status == 400
    response = await alice.post(
        f"/characters/{character_id}/delete", {"confirm": "Luna"}, allow_redirects=False
    )
    assert response.status == 303
    assert (await alice.client.get(f"/characters/{character_id}")).status == 404
