"""The shared characters API: active character, lookups with the GM rule, resolver, resources."""

from __future__ import annotations

import pytest

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.services import sheets
from bot.services.sheets import Resource, Skill, resolve
from bot.storage import Database
from bot.storage.repositories import rolls as roll_log

GUILD, TABLE, OTHER = 1, 10, 11
ALICE = Actor(user_id=100, channel_id=TABLE, guild_id=GUILD)
BOB = Actor(user_id=200, channel_id=TABLE, guild_id=GUILD)
GM = Actor(user_id=900, channel_id=TABLE, guild_id=GUILD, gm_role=True)


def elsewhere(actor: Actor, channel: int = OTHER) -> Actor:
    return Actor(actor.user_id, channel, actor.guild_id, actor.display_name, actor.gm_role)


async def make(db: Database, actor: Actor, name: str, system: str = "coda") -> None:
    await sheets.create(db, actor, name, system)


async def test_no_character_says_how_to_create_one(db: Database) -> None:
    async with db.unit_of_work() as session:
        with pytest.raises(UserError, match="You have no character here: create one with"):
            await sheets.active_character(session, ALICE)


async def test_a_single_character_is_active_everywhere(db: Database) -> None:
    await make(db, ALICE, "Hermione")
    async with db.unit_of_work() as session:
        sheet = await sheets.active_character(session, elsewhere(ALICE, 555))
    assert sheet.name == "Hermione"
    assert sheet.owner_id == ALICE.user_id


async def test_with_several_characters_the_channel_choice_decides(db: Database) -> None:
    await make(db, ALICE, "Hermione")
    await make(db, ALICE, "Luna")  # created in TABLE: active there
    async with db.unit_of_work() as session:
        assert (await sheets.active_character(session, ALICE)).name == "Luna"
        with pytest.raises(UserError, match=r"choose one for this channel with `/sheet use"):
            await sheets.active_character(session, elsewhere(ALICE))
    await sheets.use(db, elsewhere(ALICE), "hermione")
    async with db.unit_of_work() as session:
        assert (await sheets.active_character(session, elsewhere(ALICE))).name == "Hermione"
        assert (await sheets.active_character(session, ALICE)).name == "Luna"


async def test_system_mismatch_names_both_systems(db: Database) -> None:
    await make(db, ALICE, "Hermione", "coda")
    async with db.unit_of_work() as session:
        with pytest.raises(UserError) as error:
            await sheets.active_character(session, ALICE, system="infinity")
        assert await sheets.active_character(session, ALICE, system="coda")
    assert str(error.value) == (
        "Hermione is a CODA (Harry Potter RPG) character; this command needs Infinity CodeOne."
    )


async def test_by_name_is_case_insensitive_and_private_to_the_owner(db: Database) -> None:
    await make(db, ALICE, "Hermione")
    await make(db, BOB, "Ron")
    async with db.unit_of_work() as session:
        assert (await sheets.character_by_name(session, ALICE, "  HERMIONE ")).name == "Hermione"
        with pytest.raises(UserError, match=r"no character called `Ron`.*Yours: Hermione\.$"):
            await sheets.character_by_name(session, ALICE, "Ron")
        with pytest.raises(PermissionDenied, match="Only the channel's GM"):
            await sheets.character_by_name(session, ALICE, "Ron", owner_id=BOB.user_id)


async def test_a_gm_reads_characters_used_in_the_channel_only(db: Database) -> None:
    await make(db, ALICE, "Hermione")  # chosen in TABLE by creating it there
    await make(db, BOB, "Ron", "infinity")
    await make(db, BOB, "Percy")  # Bob's second: Percy is his choice in TABLE now
    carol = Actor(user_id=300, channel_id=OTHER, guild_id=GUILD)
    await make(db, carol, "Ginny")  # created elsewhere, never used in TABLE
    async with db.unit_of_work() as session:
        assert (await sheets.character_by_name(session, GM, "hermione")).owner_id == ALICE.user_id
        assert (await sheets.character_by_name(session, GM, "Percy")).name == "Percy"
        with pytest.raises(UserError, match=r"In this channel: Hermione, Percy\."):
            await sheets.character_by_name(session, GM, "Neville")
        # A character of the guild not used here: the GM is told why, and what to do.
        with pytest.raises(UserError, match=r"^Ginny is not used in this channel yet: its pl"):
            await sheets.character_by_name(session, GM, "ginny")
        with pytest.raises(UserError, match=r"Percy is a CODA .* needs Infinity CodeOne"):
            await sheets.character_by_name(session, GM, "Percy", system="infinity")
        names = await sheets.character_names(session, GM, "")
    assert names == ["Hermione", "Percy"]


async def test_a_single_character_of_a_player_who_rolled_here_counts_as_used(
    db: Database,
) -> None:
    carol = Actor(user_id=300, channel_id=OTHER, guild_id=GUILD)
    await make(db, carol, "Ginny")
    async with db.unit_of_work() as session:
        assert await sheets.character_names(session, GM, "g") == []
        roll_log.add(
            session, elsewhere(carol, TABLE), system="dice", input="1d6", faces=[3], outcome="3"
        )
    async with db.unit_of_work() as session:
        assert await sheets.character_names(session, GM, "g") == ["Ginny"]


async def test_autocomplete_names_prefer_prefix_matches(db: Database) -> None:
    await make(db, ALICE, "Hermione")
    await sheets.set_attribute(db, ALICE, "Strength", 2)
    await sheets.set_attribute(db, ALICE, "Wits", 3)
    await sheets.set_attribute(db, ALICE, "Bearing", 1)
    await sheets.set_skill(db, ALICE, "Stealth", 2)
    await sheets.set_skill(db, ALICE, "Investigation", 4)
    async with db.unit_of_work(read_only=True) as session:
        assert await sheets.attribute_names(session, ALICE, "") == [
            "Strength",
            "Wits",
            "Bearing",
        ]
        assert await sheets.attribute_names(session, ALICE, "s") == ["Strength", "Wits"]
        assert await sheets.skill_names(session, ALICE, "st") == ["Stealth", "Investigation"]
        assert await sheets.skill_names(session, ALICE, "", "hermione") == [
            "Stealth",
            "Investigation",
        ]
        assert await sheets.skill_names(session, BOB, "") == []  # no sheet: no error
        assert await sheets.character_names(session, ALICE, "her") == ["Hermione"]


async def test_sheet_lookups_ignore_case_and_explain_what_is_missing(db: Database) -> None:
    await make(db, ALICE, "Hermione")
    await sheets.set_attribute(db, ALICE, "Wits", 3)
    await sheets.set_skill(
        db, ALICE, "Stealth", 2, attribute="wits", specialties="Hiding, Sneaking"
    )
    await sheets.set_resource(db, ALICE, "Health", current=8, maximum=10)
    async with db.unit_of_work() as session:
        sheet = await sheets.active_character(session, ALICE)
    assert sheet.attribute("WITS") == 3
    assert sheet.skill("stealth") == Skill(2, "Wits", ("Hiding", "Sneaking"))
    assert sheet.skill("Flying") is None
    assert sheet.find_skill("STEALTH") == ("Stealth", Skill(2, "Wits", ("Hiding", "Sneaking")))
    assert sheet.resource("health") == Resource(8, 10)
    with pytest.raises(UserError) as error:
        sheet.attribute("Strength")
    assert str(error.value) == (
        "Hermione has no attribute `Strength`. Attributes: Wits. "
        "Set one with `/sheet set attribute:Strength value:…`."
    )
    with pytest.raises(UserError, match="Resources: Health"):
        sheet.resource("Courage")


async def test_resolver_turns_references_into_numbers(db: Database) -> None:
    await make(db, ALICE, "Hermione")
    await sheets.set_attribute(db, ALICE, "Wits", 3)
    await sheets.set_attribute(db, ALICE, "Stealth", 9)  # an attribute shadowing the skill
    await sheets.set_skill(db, ALICE, "Stealth", 2, attribute="Wits", specialties="Hiding")
    await sheets.set_skill(db, ALICE, "Flying", 1)
    await sheets.set_resource(db, ALICE, "Health", current=8, maximum=10)
    async with db.unit_of_work() as session:
        sheet = await sheets.active_character(session, ALICE)
    skill = resolve(sheet, "skill stealth")
    assert (skill.kind, skill.name, skill.value) == ("skill", "Stealth", 2)
    assert (skill.attribute, skill.attribute_value, skill.specialties) == ("Wits", 3, ("Hiding",))
    assert skill.label == "Stealth (skill 2 + Wits 3)"
    assert resolve(sheet, "Skill: Flying").attribute is None
    assert resolve(sheet, "attribute Wits").value == 3
    assert resolve(sheet, "attr wits").kind == "attribute"
    assert resolve(sheet, "stealth").kind == "attribute"  # a bare name: attributes first
    assert resolve(sheet, "Flying").kind == "skill"
    health = resolve(sheet, "health")
    assert (health.kind, health.value, health.maximum) == ("resource", 8, 10)
    with pytest.raises(UserError) as error:
        resolve(sheet, "skill Potions")
    assert str(error.value) == "Hermione has no skill `Potions`. Skills: Stealth, Flying."
    with pytest.raises(UserError, match="Attributes: Wits, Stealth; Skills: Stealth, Flying"):
        resolve(sheet, "Potions")
    with pytest.raises(UserError, match="Name an attribute"):
        resolve(sheet, "   ")


async def test_resolver_reports_a_missing_parent_attribute(db: Database) -> None:
    await make(db, ALICE, "Hermione")
    await sheets.set_attribute(db, ALICE, "Wits", 3)
    await sheets.set_skill(db, ALICE, "Stealth", 2, attribute="Wits")
    await sheets.set_attribute(db, ALICE, "Wits", None)  # removed afterwards
    async with db.unit_of_work() as session:
        sheet = await sheets.active_character(session, ALICE)
    with pytest.raises(UserError, match="uses the attribute Wits, which the sheet does not have"):
        resolve(sheet, "skill Stealth")


async def test_owner_sets_adds_and_changes_resources(db: Database) -> None:
    await make(db, ALICE, "Hermione")
    async with db.unit_of_work() as session:
        added = await sheets.adjust_resource(session, ALICE, None, "Health", current=10, maximum=12)
        healed = await sheets.adjust_resource(session, ALICE, None, "health", delta=5)
        hurt = await sheets.adjust_resource(session, ALICE, "Hermione", "HEALTH", delta=-20)
        capped = await sheets.adjust_resource(session, ALICE, None, "Health", maximum=5)
    assert added.before is None and added.after == Resource(10, 12)
    assert healed.after == Resource(12, 12) and healed.clamped
    assert hurt.after == Resource(-8, 12) and not hurt.clamped
    assert capped.after == Resource(-8, 5)
    async with db.unit_of_work() as session:
        with pytest.raises(UserError, match="cannot be above its max"):
            await sheets.adjust_resource(session, ALICE, None, "Health", current=6)
        with pytest.raises(UserError, match="between -100 and 1000"):
            await sheets.adjust_resource(session, ALICE, None, "Health", current=-101)
        with pytest.raises(UserError, match="give its current value"):
            await sheets.adjust_resource(session, ALICE, None, "Courage", delta=1)
        with pytest.raises(UserError, match="not both"):
            await sheets.adjust_resource(session, ALICE, None, "Health", current=1, delta=1)


async def test_a_gm_changes_existing_resources_of_channel_characters_only(db: Database) -> None:
    await make(db, ALICE, "Hermione")
    await sheets.set_resource(db, ALICE, "Health", current=10, maximum=10)
    async with db.unit_of_work() as session:
        change = await sheets.adjust_resource(session, GM, "Hermione", "Health", delta=-4)
        assert (change.character.raw, change.owner_id, change.after) == (
            "Hermione",
            100,
            Resource(6, 10),
        )
        with pytest.raises(PermissionDenied, match="only its owner can add one"):
            await sheets.adjust_resource(session, GM, "Hermione", "Courage", current=3)
    async with db.unit_of_work() as session:
        with pytest.raises(UserError, match="There is no character called `Hermione`"):
            await sheets.adjust_resource(session, BOB, "Hermione", "Health", delta=-1)
        with pytest.raises(UserError, match="Hermione is not used in this channel yet"):
            await sheets.adjust_resource(session, elsewhere(GM), "Hermione", "Health", delta=-1)


async def test_names_ignore_case_and_runs_of_whitespace(db: Database) -> None:
    await make(db, ALICE, "Tom  Riddle")
    await sheets.set_attribute(db, ALICE, "Dark  Arts", 5)
    async with db.unit_of_work() as session:
        sheet = await sheets.character_by_name(session, ALICE, "tom riddle")
    assert sheet.name == "Tom Riddle"  # stored with single spaces
    assert sheet.attribute("dark   ARTS") == 5
    with pytest.raises(UserError, match="already have a character called TOM RIDDLE"):
        await make(db, ALICE, "TOM   RIDDLE")


@pytest.mark.postgres
async def test_channel_characters_query_runs_on_every_database(any_database_url: str) -> None:
    db = Database(any_database_url)
    try:
        carol = Actor(user_id=300, channel_id=OTHER, guild_id=GUILD)
        await make(db, carol, "Ginny")
        await make(db, BOB, "Ron")
        await make(db, BOB, "Percy")
        await sheets.use(db, elsewhere(BOB, TABLE), "Ron")
        async with db.unit_of_work() as session:
            roll_log.add(
                session, elsewhere(carol, TABLE), system="dice", input="1d6", faces=[3], outcome="3"
            )
        async with db.unit_of_work(read_only=True) as session:
            names = await sheets.character_names(session, GM, "")
            ginny = await sheets.character_by_name(session, GM, "GINNY")
    finally:
        await db.dispose()
    assert names == ["Ginny", "Ron"]
    assert ginny.owner_id == 300
