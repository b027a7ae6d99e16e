"""A sheet of each of the five systems opens on the web with its own form, and saves."""

from __future__ import annotations

import re

import pytest

from bot.actor import Actor
from bot.services import sheets
from bot.storage import Database
from bot.storage.repositories import members
from engine.systems import SYSTEMS
from tests.bot.web.conftest import Browser

GUILD, PLAYER = 77, 501


@pytest.mark.parametrize("system", sorted(SYSTEMS))
async def test_every_system_has_its_editable_sheet(
    system: str, db: Database, browser: Browser
) -> None:
    async with db.unit_of_work() as session:
        await members.record(
            session, GUILD, PLAYER, display_name="ana", guild_name="G", gm_role=False, role_ids=[]
        )
    player = Actor(user_id=PLAYER, channel_id=1, guild_id=GUILD)
    sheet = await sheets.create(db, player, "Ana", system)
    browser.log_in_as(PLAYER, "ana", frozenset({GUILD}))
    page = await (await browser.client.get(f"/characters/{sheet.id}")).text()
    assert SYSTEMS[system] in page
    fields = re.findall(r'<textarea id="attributes-(\w+)" name="(\w+)"', page)
    assert ("resources", "resources") in fields and ("notes", "notes") in fields
    form = {name: "" for _id, name in fields}
    form["resources"] = "Luck 2/3"
    response = await browser.post(
        f"/characters/{sheet.id}/edit/attributes", form, allow_redirects=False
    )
    assert response.status == 303, await response.text()
    saved = await sheets.show(db, player, "Ana")
    assert saved.resources["Luck"].current == 2 and saved.resources["Luck"].max == 3
