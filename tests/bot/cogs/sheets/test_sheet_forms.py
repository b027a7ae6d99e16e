"""A sheet in one go: ``/sheet edit`` modals, ``/sheet rename``, ``/sheet copy`` and the
templates ``/sheet create`` offers, through SimCord as players fill them in."""

from __future__ import annotations

from typing import Any

import pytest

from bot.actor import Actor
from bot.errors import PermissionDenied
from bot.services import sheets
from bot.services.sheets import CharacterSheet, Skill
from tests.conftest import Table, text_of


def fields_of(result: Any) -> dict[str, dict[str, Any]]:
    """The modal's text inputs by custom id (label, prefilled value)."""
    modal = result.modal
    assert modal is not None, text_of(result)
    inputs: dict[str, dict[str, Any]] = {}
    for row in modal["components"]:
        for item in row.get("components") or [row.get("component")]:
            inputs[item["custom_id"]] = item
    return inputs


async def create(table: Table, name: str = "Hermione", system: str = "coda") -> Any:
    result = await table.alice.slash(table.channel, "sheet create", name=name, system=system)
    assert result.ephemeral
    return result


async def sheet_text(table: Table, member: Any = None) -> str:
    return text_of(await (member or table.alice).slash(table.channel, "sheet show"))


# --- templates at /sheet create ------------------------------------------------------------


async def test_create_offers_the_systems_template_in_a_form(table: Table) -> None:
    created = await create(table)
    assert created.response.components, "Fill in buttons"
    shown = await table.alice.click(created.response, label="Fill in attributes")
    inputs = fields_of(shown)
    assert shown.modal["title"] == "Hermione: attributes"
    # CODA: the six attributes, then reactions and Defence apart, each name on its own line.
    assert inputs["group0"]["label"] == "Attributes (modifiers)"
    assert inputs["group0"].get("value", "").splitlines() == [
        "Bearing", "Nimbleness", "Perception", "Strength", "Vitality", "Wits",
    ]  # fmt: skip
    assert inputs["group1"].get("value", "").splitlines() == [
        "Stamina", "Swiftness", "Willpower", "Wisdom", "Defence",
    ]  # fmt: skip
    assert inputs["resources"].get("value", "") == "Health\nCourage"
    filled = await table.alice.submit_modal(
        shown,
        {
            "group0": "Bearing 1\nNimbleness 0\nPerception 2\nStrength -1\nVitality 0\nWits 3",
            "group1": "Stamina 1\nSwiftness 2\nWillpower\nWisdom 3\nDefence 11",
            "resources": "Health 8/10\nCourage 2",
            "notes": "Muggle-born",
        },
    )
    assert filled.ephemeral
    text = text_of(filled)
    assert "edited in one go" in text
    assert "Wits **3**" in text and "Defence **11**" in text and "Strength **−1**" in text
    assert "Willpower" not in text  # a name without a number is left unset
    assert (
        "Health **8/10**" in text and "Courage **2**" in text and "Muggle\\-born" in text
    )  # escaped: shown as typed


async def test_other_systems_have_one_attribute_field(table: Table) -> None:
    await create(table, "Tali", "infinity")
    shown = await table.alice.slash(table.channel, "sheet edit")
    inputs = fields_of(shown)
    assert list(inputs) == ["attributes", "resources", "notes"]
    assert inputs["attributes"].get("value", "") == "CC\nBS\nPH\nWIP\nARM\nBTS"
    assert inputs["resources"].get("value", "") == "W"


# --- /sheet edit ----------------------------------------------------------------------------


async def test_edit_prefills_the_sheet_and_replaces_it(table: Table) -> None:
    await create(table)
    await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=2)
    await table.alice.slash(table.channel, "sheet set", attribute="Luck", value=1)
    shown = await table.alice.slash(table.channel, "sheet edit")
    inputs = fields_of(shown)
    assert "Wits 2" in inputs["group0"].get("value", "").splitlines()
    assert inputs["attributes"]["label"] == "Other attributes"
    assert inputs["attributes"].get("value", "") == "Luck 1"
    # Deleting the Luck line deletes Luck; a typed minus sign is read as one.
    done = await table.alice.submit_modal(
        shown, {"group0": "Wits −1", "group1": "", "attributes": "", "resources": ""}
    )
    text = text_of(done)
    assert "Wits **−1**" in text and "Luck" not in text


async def test_skills_form_one_per_line(table: Table) -> None:
    await create(table)
    await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=2)
    await table.alice.slash(table.channel, "sheet set", attribute="Ranged Combat", value=1)
    shown = await table.alice.slash(table.channel, "sheet edit", part="skills")
    assert shown.modal["title"] == "Hermione: skills"
    done = await table.alice.submit_modal(
        shown,
        {
            "skills0": (
                "Potions 3 Wits Brewing, Poisons\n"
                "Care of Magical Creatures 2 wits\n"
                "Spells 4 ranged combat Jinxes\n"
                "Stealth 1 - Hiding\n"
                "Flying 2"
            )
        },
    )
    text = text_of(done)
    assert "Potions **3** (Wits) [Brewing, Poisons]" in text
    assert "Care of Magical Creatures **2** (Wits)" in text
    assert "Spells **4** (Ranged Combat) [Jinxes]" in text
    assert "Stealth **1** [Hiding]" in text and "Flying **2**" in text
    again = fields_of(await table.alice.slash(table.channel, "sheet edit", part="skills"))
    assert again["skills0"].get("value", "").splitlines()[0] == "Potions 3 Wits Brewing, Poisons"
    assert "Stealth 1 - Hiding" in again["skills0"].get("value", "")
    assert again["skills1"].get("value", "") == ""  # room for new skills


async def test_a_bad_line_is_named_and_nothing_is_saved(table: Table) -> None:
    await create(table)
    await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=2)
    shown = await table.alice.slash(table.channel, "sheet edit", part="skills")
    refused = await table.alice.submit_modal(
        shown, {"skills0": "Potions 3 Wits\n\nCharms 2 Wist Wand work"}
    )
    assert refused.ephemeral
    message = refused.response.content
    assert message.startswith("Nothing was saved. Skills, line 3 (`Charms 2 Wist Wand work`)")
    assert "no attribute of this sheet (Wits)" in message
    assert "Potions" not in await sheet_text(table)
    # Fix it reopens the form with what was typed.
    reopened = await table.alice.click(refused.response, label="Fix it")
    assert (
        fields_of(reopened)["skills0"].get("value", "")
        == "Potions 3 Wits\n\nCharms 2 Wist Wand work"
    )
    fixed = await table.alice.submit_modal(reopened, {"skills0": "Charms 2 Wits Wand work"})
    assert "Charms **2** (Wits) [Wand work]" in text_of(fixed)


async def test_bad_attribute_and_resource_lines(table: Table) -> None:
    await create(table)
    cases = {
        "group0": ("Wits two2", "Attributes (modifiers), line 1 (`Wits two2`): write the name"),
        "attributes": ("Luck 5000", "Other attributes, line 1 (`Luck 5000`): a value is between"),
        "resources": ("Health 11/10", "Resources (current/max), line 1 (`Health 11/10`): 11 is"),
    }
    for key, (line, expected) in cases.items():
        shown = await table.alice.slash(table.channel, "sheet edit")
        refused = await table.alice.submit_modal(shown, {key: line})
        assert refused.ephemeral
        assert expected in refused.response.content, refused.response.content
    shown = await table.alice.slash(table.channel, "sheet edit")
    twice = await table.alice.submit_modal(shown, {"group0": "Wits 1", "attributes": "wits 2"})
    assert "Other attributes, line 1 (`wits 2`): wits is already given " in (twice.response.content)
    assert "(Attributes (modifiers), line 1)" in twice.response.content
    shown = await table.alice.slash(table.channel, "sheet edit")
    braces = await table.alice.submit_modal(shown, {"attributes": "{Wits} 1"})
    assert "cannot contain { or }" in braces.response.content


async def test_hostile_text_never_breaks_the_reply(table: Table) -> None:
    await create(table)
    shown = await table.alice.slash(table.channel, "sheet edit")
    line = "`" * 30 + "@everyone " + "x" * 80
    refused = await table.alice.submit_modal(shown, {"attributes": line + " 1"})
    content = refused.response.content
    assert refused.ephemeral and content.count("`") == 2  # only the quoting pair
    assert len(content) <= 2000


async def test_nobody_edits_another_players_sheet(table: Table) -> None:
    await create(table)
    result = await table.gm.slash(table.channel, "sheet edit", character="Hermione")
    assert result.ephemeral and result.modal is None
    assert "Hermione" in text_of(result)
    # A form opened by its owner cannot be submitted by anyone else (SimCord, like Discord,
    # sends it only to its opener); the service checks the owner too.
    shown = await table.alice.slash(table.channel, "sheet edit")
    form = await sheets.form(
        table.bot.db, Actor(table.alice.id, table.channel.id, table.guild.id), "attributes"
    )
    bob = Actor(table.bob.id, table.channel.id, table.guild.id)
    with pytest.raises(PermissionDenied, match="Only Hermione's owner"):
        await sheets.submit(table.bot.db, bob, form.character_id, "attributes", {})
    assert shown.modal is not None


async def test_the_form_of_a_deleted_character_saves_nothing(table: Table) -> None:
    await create(table)
    shown = await table.alice.slash(table.channel, "sheet edit")
    await table.alice.slash(table.channel, "sheet create", name="Other", system="coda")
    alice = Actor(table.alice.id, table.channel.id, table.guild.id)
    hermione = await sheets.own_character(table.bot.db, alice, "Hermione")
    await sheets.delete(table.bot.db, alice, hermione.id)
    result = await table.alice.submit_modal(shown, {"group0": "Wits 1"})
    assert result.ephemeral and "deleted meanwhile" in result.response.content


# --- rename / copy --------------------------------------------------------------------------


async def test_rename_and_copy(table: Table) -> None:
    await create(table)
    await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=3)
    renamed = await table.alice.slash(
        table.channel, "sheet rename", character="hermione", new_name="Hermione  Granger"
    )
    assert "Hermione Granger — renamed from Hermione" in text_of(renamed)
    case = await table.alice.slash(
        table.channel, "sheet rename", character="Hermione Granger", new_name="hermione granger"
    )
    assert "hermione granger — renamed from Hermione Granger" in text_of(case)
    copied = await table.alice.slash(table.channel, "sheet copy", new_name="Twin")
    assert "Twin — a copy" in text_of(copied) and "Wits **3**" in text_of(copied)
    clash = await table.alice.slash(
        table.channel, "sheet rename", character="Twin", new_name="Hermione granger"
    )
    assert clash.ephemeral and "already have a character called hermione granger" in (
        clash.response.content
    )
    again = await table.alice.slash(table.channel, "sheet copy", new_name="twin")
    assert "already have a character called twin" in again.response.content
    listing = text_of(await table.alice.slash(table.channel, "sheet list"))
    assert "▶ **hermione granger**" in listing and "**Twin**" in listing


async def test_rename_is_for_owners_and_a_gm_copies_an_npc(table: Table) -> None:
    await create(table)
    refused = await table.gm.slash(
        table.channel, "sheet rename", character="Hermione", new_name="X"
    )
    assert refused.ephemeral and "Hermione" in refused.response.content
    assert "Hermione" in text_of(await table.alice.slash(table.channel, "sheet list"))
    # A GM copies a character used here into a sheet of their own; alice's is untouched.
    copied = await table.gm.slash(
        table.channel, "sheet copy", character="Hermione", new_name="Polyjuice"
    )
    assert "Polyjuice — a copy" in text_of(copied)
    assert "Polyjuice" in text_of(await table.gm.slash(table.channel, "sheet list"))
    # A player cannot copy another player's character.
    bob = await table.bob.slash(table.channel, "sheet copy", character="Hermione", new_name="Me")
    assert bob.ephemeral


# --- the form's text, pure ------------------------------------------------------------------


def test_a_full_skill_list_spreads_over_fields() -> None:
    skills = {f"Skill number {i:03}": Skill(10, "Wits", ("Specialty one",)) for i in range(128)}
    sheet = CharacterSheet(1, 1, 1, "X", "rps", {"Wits": 1}, skills)
    form = sheets.build_form(sheet, "skills")
    assert 2 <= len(form.fields) <= sheets.FIELDS
    assert all(len(f.value) <= sheets.FIELD_TEXT for f in form.fields)
    values = {f.key: f.value for f in form.fields}
    read = sheets.read_form(form, values, sheet.attributes)
    assert read.skills is not None and len(read.skills) == 128
