"""``/sheet`` as players and GMs use it: every command, and every refusal."""

from __future__ import annotations

import json

import pytest
from simcord.backend.errors import OptionError

from bot.app import create_bot
from bot.cogs import _confirm
from bot.services.sheets import MAX_ATTRIBUTES, MAX_RESOURCES, MAX_SKILLS
from bot.text import number
from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of


async def hermione(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=3)
    await table.alice.slash(
        table.channel, "sheet skill", name="Stealth", ranks=2, attribute="wits", specialty="Hiding"
    )
    await table.alice.slash(table.channel, "sheet resource", name="Health", current=10, max=10)


def sheet_file(**fields: object) -> tuple[str, bytes]:
    data = {"name": "Ron", "system": "coda", "attributes": {}, "skills": {}, "resources": {}}
    data.update(fields)
    return ("ron.json", json.dumps(data).encode())


# --- create / show -----------------------------------------------------------------------


async def test_create_suggests_the_systems_template(table: Table) -> None:
    result = await table.alice.slash(table.channel, "sheet create", name="Tali", system="infinity")
    assert result.ephemeral
    text = text_of(result)
    assert "Created Tali — Infinity CodeOne" in text
    assert "CC, BS, PH, WIP, ARM, BTS" in text and "Suggested resources W" in text


async def test_names_are_unique_per_player_ignoring_case(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    again = await table.alice.slash(table.channel, "sheet create", name="HERMIONE", system="h90")
    assert again.ephemeral
    assert "You already have a character called HERMIONE" in again.response.content
    other = await table.bob.slash(table.channel, "sheet create", name="Hermione", system="coda")
    assert "Created Hermione" in text_of(other)  # another player may use the name


async def test_create_option_limits(table: Table) -> None:
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "sheet create", name="x" * 65, system="coda")
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "sheet create", name="X", system="dnd")
    blank = await table.alice.slash(table.channel, "sheet create", name="   ", system="coda")
    assert "1 to 64 characters" in blank.response.content


async def test_show_lists_everything_on_the_sheet(table: Table) -> None:
    await hermione(table)
    await table.alice.slash(table.channel, "sheet note", text="Top of the class.")
    result = await table.alice.slash(table.channel, "sheet show")
    assert result.ephemeral
    text = text_of(result)
    assert "Hermione" in text and "CODA (Harry Potter RPG)" in text
    assert "Wits **3**" in text
    assert "Stealth **2** (Wits) [Hiding]" in text
    assert "Health **10/10**" in text
    assert "Top of the class." in text


async def test_show_without_a_character_says_how_to_make_one(table: Table) -> None:
    result = await table.alice.slash(table.channel, "sheet show")
    assert result.ephemeral
    assert "You have no character here: create one with `/sheet create" in result.response.content


async def test_players_cannot_read_each_others_sheets(table: Table) -> None:
    await hermione(table)
    by_name = await table.bob.slash(table.channel, "sheet show", character="Hermione")
    assert "There is no character called `Hermione` that you can use" in by_name.response.content
    by_player = await table.bob.slash(table.channel, "sheet show", player=table.alice)
    assert "Only the channel's GM can look at another player's characters" in (
        by_player.response.content
    )
    exported = await table.bob.slash(table.channel, "sheet export", character="Hermione")
    assert not exported.response.attachments


async def test_a_gm_reads_the_sheets_used_in_the_channel(table: Table) -> None:
    await hermione(table)
    by_name = await table.gm.slash(table.channel, "sheet show", character="hermione")
    assert by_name.ephemeral and "Wits **3**" in text_of(by_name)
    by_player = await table.gm.slash(table.channel, "sheet show", player=table.alice)
    assert "Hermione" in text_of(by_player)
    nobody = await table.gm.slash(table.channel, "sheet show", player=table.bob)
    assert "That player has no active character in this channel." in nobody.response.content
    elsewhere = table.guild.create_text_channel("elsewhere")
    away = await table.gm.slash(elsewhere, "sheet show", character="Hermione")
    # The GM is told why and what to do (a player is not told the sheet exists).
    why = (
        "Hermione is not used in this channel yet: its player can choose it here with "
        "`/sheet use character:Hermione`, and then a GM can use it."
    )
    assert away.ephemeral and why in away.response.content
    await table.alice.slash(elsewhere, "sheet use", character="Hermione")
    used = await table.gm.slash(elsewhere, "sheet show", character="Hermione")
    assert "Wits **3**" in text_of(used)
    unknown = await table.gm.slash(elsewhere, "sheet show", character="Nobody")
    assert "There is no character called `Nobody`" in unknown.response.content


# --- set / skill / note ------------------------------------------------------------------


async def test_set_changes_and_removes_attributes(table: Table) -> None:
    await hermione(table)
    # The name keeps its first spelling: WITS changes Wits' value only.
    changed = await table.alice.slash(table.channel, "sheet set", attribute="WITS", value=4)
    assert "Hermione — Wits = 4" in text_of(changed)
    assert "Wits **4**" in text_of(changed) and "WITS" not in text_of(changed)
    removed = await table.alice.slash(table.channel, "sheet set", attribute="wits", remove=True)
    assert "removed Wits" in text_of(removed)
    missing = await table.alice.slash(table.channel, "sheet set", attribute="Wits")
    assert "Give the attribute a `value`" in missing.response.content
    gone = await table.alice.slash(table.channel, "sheet set", attribute="Luck", remove=True)
    assert "Hermione has no attribute `Luck` to remove" in gone.response.content


async def test_values_are_bounded(table: Table) -> None:
    await hermione(table)
    for value in (-101, 1001):
        with pytest.raises(OptionError):
            await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=value)
    for value in (-100, 1000):
        ok = await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=value)
        assert f"Wits = {number(value)}" in text_of(ok)
    braces = await table.alice.slash(table.channel, "sheet set", attribute="{x}", value=1)
    assert braces.response.content == "An attribute name cannot contain { or }."


async def test_a_full_sheet_refuses_one_more(table: Table) -> None:
    full = sheet_file(
        name="Hermione",
        attributes={f"A{i}": i for i in range(MAX_ATTRIBUTES)},
        skills={f"S{i}": {"ranks": 1} for i in range(MAX_SKILLS)},
        resources={f"R{i}": {"current": 1} for i in range(MAX_RESOURCES)},
    )
    imported = await table.alice.slash(table.channel, "sheet import", file=full)
    assert "Hermione — imported" in text_of(imported)
    attribute = await table.alice.slash(table.channel, "sheet set", attribute="Luck", value=1)
    assert "at most 64 attributes; Hermione is full" in attribute.response.content
    skill = await table.alice.slash(table.channel, "sheet skill", name="Flying", ranks=1)
    assert "at most 128 skills; Hermione is full" in skill.response.content
    resource = await table.alice.slash(table.channel, "sheet resource", name="Grit", current=1)
    assert "at most 32 resources; Hermione is full" in resource.response.content
    # Existing entries can still change.
    ok = await table.alice.slash(table.channel, "sheet set", attribute="a1", value=7)
    assert "A1 = 7" in text_of(ok)


async def test_skill_keeps_what_is_not_given(table: Table) -> None:
    await hermione(table)
    ranks = await table.alice.slash(table.channel, "sheet skill", name="stealth", ranks=5)
    assert "Stealth 5 (Wits), specialties: Hiding" in text_of(ranks)
    cleared = await table.alice.slash(
        table.channel, "sheet skill", name="Stealth", attribute="", specialty=""
    )
    assert "Stealth **5**" in text_of(cleared) and "(Wits)" not in text_of(cleared)
    new = await table.alice.slash(table.channel, "sheet skill", name="Flying")
    assert "no skill `Flying` yet: give its ranks" in new.response.content
    unknown = await table.alice.slash(
        table.channel, "sheet skill", name="Flying", ranks=1, attribute="Agility"
    )
    assert "Hermione has no attribute `Agility`. Attributes: Wits." in unknown.response.content
    removed = await table.alice.slash(table.channel, "sheet skill", name="STEALTH", remove=True)
    assert "removed Stealth" in text_of(removed)


async def test_notes_are_limited_to_1000_characters(table: Table) -> None:
    await hermione(table)
    ok = await table.alice.slash(table.channel, "sheet note", text="n" * 1000)
    assert "notes updated" in text_of(ok)
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "sheet note", text="n" * 1001)
    cleared = await table.alice.slash(table.channel, "sheet note")
    assert "notes cleared" in text_of(cleared)


async def test_only_the_owner_edits_a_sheet(table: Table) -> None:
    await hermione(table)
    gm = await table.gm.slash(
        table.channel, "sheet set", attribute="Wits", value=9, character="Hermione"
    )
    assert "Only Hermione's owner can change that" in gm.response.content
    bob = await table.bob.slash(
        table.channel, "sheet skill", name="Stealth", ranks=9, character="Hermione"
    )
    assert "There is no character called `Hermione`" in bob.response.content
    note = await table.gm.slash(table.channel, "sheet note", text="x", character="Hermione")
    assert "Only Hermione's owner" in note.response.content


# --- resources ---------------------------------------------------------------------------


async def test_resources_are_set_and_changed_within_their_max(table: Table) -> None:
    await hermione(table)
    hurt = await table.alice.slash(table.channel, "sheet resource", name="health", change=-3)
    assert hurt.ephemeral  # your own sheet: private
    assert "Health: 10/10 → **7/10**" in text_of(hurt)
    healed = await table.alice.slash(table.channel, "sheet resource", name="Health", change=9)
    assert "7/10 → **10/10** (kept within its bounds)" in text_of(healed)
    over = await table.alice.slash(table.channel, "sheet resource", name="Health", current=11)
    assert "Health cannot be above its max (11 > 10)" in over.response.content
    both = await table.alice.slash(
        table.channel, "sheet resource", name="Health", current=1, change=1
    )
    assert "either a new current value or a change" in both.response.content
    added = await table.alice.slash(table.channel, "sheet resource", name="Courage", current=3)
    assert "Courage added: **3**" in text_of(added)
    removed = await table.alice.slash(table.channel, "sheet resource", name="courage", remove=True)
    assert "removed Courage" in text_of(removed)


async def test_the_gm_deals_damage_in_public_and_players_cannot(table: Table) -> None:
    await hermione(table)
    damage = await table.gm.slash(
        table.channel, "sheet resource", name="Health", change=-4, character="Hermione"
    )
    assert not damage.ephemeral
    assert "Hermione — Health" in text_of(damage) and "10/10 → **6/10**" in text_of(damage)
    new = await table.gm.slash(
        table.channel, "sheet resource", name="Luck", current=1, character="Hermione"
    )
    assert "only its owner can add one" in new.response.content
    remove = await table.gm.slash(
        table.channel, "sheet resource", name="Health", remove=True, character="Hermione"
    )
    assert "Only Hermione's owner can change that" in remove.response.content
    bob = await table.bob.slash(
        table.channel, "sheet resource", name="Health", change=-4, character="Hermione"
    )
    assert "There is no character called `Hermione`" in bob.response.content


# --- use / list / delete -----------------------------------------------------------------


async def test_use_switches_the_active_character_per_channel(table: Table) -> None:
    await hermione(table)
    await table.alice.slash(table.channel, "sheet create", name="Luna", system="drama")
    assert "Luna" in embed_of(await table.alice.slash(table.channel, "sheet show")).title
    used = await table.alice.slash(table.channel, "sheet use", character="hermione")
    assert "You now play **Hermione** (CODA (Harry Potter RPG))" in used.response.content
    assert "Hermione" in embed_of(await table.alice.slash(table.channel, "sheet show")).title
    elsewhere = table.guild.create_text_channel("elsewhere")
    unset = await table.alice.slash(elsewhere, "sheet show")
    assert "You have 2 characters (Hermione, Luna)" in unset.response.content
    unknown = await table.alice.slash(table.channel, "sheet use", character="Ron")
    assert "You have no character called `Ron`. Yours: Hermione, Luna." in unknown.response.content


async def test_list_shows_your_characters_and_a_gm_sees_a_players(table: Table) -> None:
    await hermione(table)
    await table.alice.slash(table.channel, "sheet create", name="Luna", system="drama")
    mine = await table.alice.slash(table.channel, "sheet list")
    assert "alice's characters (2)" in text_of(mine)
    assert "**Hermione** — CODA" in text_of(mine) and "▶ **Luna** — Drama in History" in text_of(
        mine
    )
    refused = await table.bob.slash(table.channel, "sheet list", player=table.alice)
    assert "Only the channel's GM can list another player's characters" in (
        refused.response.content
    )
    gm = await table.gm.slash(table.channel, "sheet list", player=table.alice)
    assert "alice's characters (2)" in text_of(gm)
    empty = await table.bob.slash(table.channel, "sheet list")
    assert "No characters yet" in text_of(empty)


async def test_delete_asks_first_with_a_button(table: Table) -> None:
    await hermione(table)
    asked = await table.alice.slash(table.channel, "sheet delete", character="hermione")
    assert asked.ephemeral and "Delete **Hermione**" in asked.response.content
    cancelled = await table.alice.click(asked.response, label="Cancel")
    assert "Kept Hermione" in cancelled.response.content
    assert "Hermione" in text_of(await table.alice.slash(table.channel, "sheet show"))
    asked = await table.alice.slash(table.channel, "sheet delete", character="Hermione")
    deleted = await table.alice.click(asked.response, label="Delete")
    assert "Deleted Hermione." in deleted.response.content
    gone = await table.alice.slash(table.channel, "sheet show")
    assert "You have no character here" in gone.response.content


async def test_an_unanswered_delete_closes_and_keeps_the_character(table: Table) -> None:
    await hermione(table)
    asked = await table.alice.slash(table.channel, "sheet delete", character="Hermione")
    await table.env.advance_time(_confirm.CONFIRM_SECONDS + 1)
    closed = next(m for m in table.channel.history(viewer=table.alice) if m.id == asked.response.id)
    assert closed.content == "No answer. Kept Hermione: nothing was deleted."
    assert not closed.components
    assert "Hermione" in text_of(await table.alice.slash(table.channel, "sheet show"))


async def test_nobody_deletes_another_players_character(table: Table) -> None:
    await hermione(table)
    for member in (table.bob, table.gm):
        refused = await member.slash(table.channel, "sheet delete", character="Hermione")
        assert "You have no character called `Hermione`" in refused.response.content
        assert "Only a character's owner can delete it." in refused.response.content


# --- export / import ---------------------------------------------------------------------


async def test_export_then_import_restores_the_sheet(table: Table) -> None:
    await hermione(table)
    await table.alice.slash(table.channel, "sheet note", text="Top of the class.")
    exported = await table.alice.slash(table.channel, "sheet export")
    assert exported.ephemeral
    [attachment] = exported.response.attachments
    assert attachment.filename == "Hermione.json"
    content = await attachment.read()
    data = json.loads(content)
    assert data == {
        "name": "Hermione",
        "system": "coda",
        "attributes": {"Wits": 3},
        "skills": {"Stealth": {"ranks": 2, "attribute": "Wits", "specialties": ["Hiding"]}},
        "resources": {"Health": {"current": 10, "max": 10}},
        "notes": "Top of the class.",
    }
    clash = await table.alice.slash(table.channel, "sheet import", file=("h.json", content))
    assert "You already have a character called Hermione" in clash.response.content
    await table.alice.slash(table.channel, "sheet set", attribute="Wits", value=9)
    replaced = await table.alice.slash(
        table.channel, "sheet import", file=("h.json", content), replace=True
    )
    assert "Wits **3**" in text_of(replaced)
    # Another player imports the same file as their own character.
    copied = await table.bob.slash(table.channel, "sheet import", file=("h.json", content))
    assert "Hermione — imported" in text_of(copied)
    again = await table.bob.slash(table.channel, "sheet export")
    assert json.loads(await again.response.attachments[0].read()) == data


@pytest.mark.parametrize(
    ("file", "message"),
    [
        (("x.json", b"{not json"), "The file is not JSON"),
        (("x.json", b"[1, 2]"), "one JSON object"),
        (("x.json", b"\xff\xfe"), "The file is not JSON"),
        (sheet_file(name=""), "`name`: must be text of 1 to 64 characters"),
        (sheet_file(system="dnd"), "`system`: must be one of coda, h90, infinity, rps, drama"),
        (sheet_file(attributes={"Wits": "3"}), "`attributes.Wits`: must be a whole number"),
        (sheet_file(attributes={"Wits": 1001}), "`attributes.Wits`: must be between -100 and"),
        (sheet_file(attributes={"Wits": 1, "WITS": 2}), "`attributes.WITS`: the same name twice"),
        (sheet_file(skills={"Stealth": {"ranks": True}}), "`skills.Stealth.ranks`: must be a"),
        (sheet_file(skills={"Stealth": {"rank": 1}}), "`skills.Stealth.rank`: not a skill field"),
        (
            sheet_file(skills={"Stealth": {"ranks": 1, "specialties": ["ok", ""]}}),
            "`skills.Stealth.specialties[1]`: a name must be",
        ),
        (
            sheet_file(resources={"Health": {"current": 5, "max": 4}}),
            "`resources.Health.current`: above its max (5 > 4)",
        ),
        (sheet_file(notes="n" * 1001), "`notes`: must be text of at most 1000 characters"),
        (sheet_file(colour="red"), "`colour`: not a sheet field"),
        (
            sheet_file(attributes={f"A{i}": 1 for i in range(65)}),
            "`attributes`: at most 64 entries (the file has 65)",
        ),
        (("x.json", b" " * (64 * 1024 + 1)), "The file is too big"),
    ],
)
async def test_a_bad_import_file_names_the_first_bad_field(
    table: Table, file: tuple[str, bytes], message: str
) -> None:
    result = await table.alice.slash(table.channel, "sheet import", file=file)
    assert result.ephemeral
    assert message in result.response.content
    assert "Traceback" not in result.response.content
    listing = await table.alice.slash(table.channel, "sheet list")
    assert "No characters yet" in text_of(listing)  # nothing was created


# --- /roll with sheet values -------------------------------------------------------------


async def test_roll_substitutes_the_active_characters_values(table: Table) -> None:
    await hermione(table)
    await table.alice.slash(table.channel, "sheet set", attribute="Clumsy", value=-2)
    table.bot.dice = ScriptedDice([4, 5])
    result = await table.alice.slash(
        table.channel, "roll", expression="2d6 + {Stealth} + {skill stealth} + {Clumsy}"
    )
    embed = embed_of(result)
    assert embed.title == "🎲 11"  # 9 + 2 + 2 - 2
    assert "alice rolled 2d6 + 2 + 2 + (-2)" in embed.footer.text
    assert "Hermione: Stealth 2, Stealth 2, Clumsy -2" in embed.footer.text
    history = await table.alice.slash(table.channel, "history")
    assert "`2d6 + 2 + 2 + (-2)` → **11**" in text_of(history)


async def test_roll_with_an_unknown_sheet_name_says_which_exist(table: Table) -> None:
    await hermione(table)
    unknown = await table.alice.slash(table.channel, "roll", expression="2d6 + {Potions}")
    assert unknown.ephemeral
    assert "Hermione has no attribute, skill or resource `Potions`" in unknown.response.content
    assert "Attributes: Wits; Skills: Stealth; Resources: Health." in unknown.response.content
    stray = await table.alice.slash(table.channel, "roll", expression="2d6 + {Wits")
    assert "Unmatched `{` or `}`" in stray.response.content
    nobody = await table.bob.slash(table.channel, "roll", expression="1d20 + {Wits}")
    assert "You have no character here" in nobody.response.content


async def test_sheets_survive_a_restart(table: Table) -> None:
    await hermione(table)
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    result = await table.alice.slash(table.channel, "sheet show")
    assert "Wits **3**" in text_of(result)
