"""The shared autocomplete callbacks (bot/cogs/_sheets.py) as a player's client sees them."""

from __future__ import annotations

from tests.conftest import Table


def names(choices: list[dict]) -> list[str]:
    return [choice["value"] for choice in choices]


async def _hermione(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=3)
    await table.alice.slash(table.channel, "sheet set", attribute="Strength", value=1)
    await table.alice.slash(table.channel, "sheet skill", name="Stealth", ranks=2)
    await table.alice.slash(table.channel, "sheet skill", name="Investigation", ranks=4)
    await table.alice.slash(table.channel, "sheet resource", name="Health", current=8)


async def test_character_autocomplete_offers_own_characters(table: Table) -> None:
    await _hermione(table)
    await table.alice.slash(table.channel, "sheet create", name="Luna", system="drama")
    choices = await table.alice.autocomplete(table.channel, "sheet use", "character", "")
    assert names(choices) == ["Hermione", "Luna"]
    assert names(await table.alice.autocomplete(table.channel, "sheet use", "character", "lu")) == [
        "Luna"
    ]
    assert await table.bob.autocomplete(table.channel, "sheet use", "character", "") == []


async def test_a_gms_character_autocomplete_includes_the_channels_characters(
    table: Table,
) -> None:
    await _hermione(table)
    choices = await table.gm.autocomplete(table.channel, "sheet show", "character", "he")
    assert names(choices) == ["Hermione"]
    elsewhere = table.guild.create_text_channel("elsewhere")
    assert await table.gm.autocomplete(elsewhere, "sheet show", "character", "he") == []


async def test_skill_and_attribute_autocomplete_read_the_active_character(table: Table) -> None:
    await _hermione(table)
    skills = await table.alice.autocomplete(table.channel, "sheet skill", "name", "st")
    assert names(skills) == ["Stealth", "Investigation"]
    attributes = await table.alice.autocomplete(table.channel, "sheet skill", "attribute", "")
    assert names(attributes) == ["Wits", "Strength"]
    assert await table.bob.autocomplete(table.channel, "sheet skill", "name", "") == []


async def test_attribute_autocomplete_follows_the_character_option(table: Table) -> None:
    await _hermione(table)
    await table.alice.slash(table.channel, "sheet create", name="Luna", system="drama")
    # Luna is now active here and has no attributes; the character option points at Hermione.
    assert await table.alice.autocomplete(table.channel, "sheet skill", "attribute", "") == []
    choices = await table.alice.autocomplete(
        table.channel, "sheet skill", "attribute", "w", character="Hermione"
    )
    assert names(choices) == ["Wits"]


async def test_set_suggests_the_systems_template_after_existing_names(table: Table) -> None:
    await _hermione(table)
    choices = names(await table.alice.autocomplete(table.channel, "sheet set", "attribute", ""))
    assert choices[:2] == ["Wits", "Strength"]
    assert "Nimbleness" in choices and choices.count("Strength") == 1
    resources = await table.alice.autocomplete(table.channel, "sheet resource", "name", "")
    assert names(resources) == ["Health", "Courage"]
