"""``/sheet`` services: lossless export/import, bounds, and concurrent resource changes."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.actor import Actor
from bot.errors import UserError
from bot.services import sheets
from bot.services.sheets import (
    MAX_ATTRIBUTES,
    MAX_RESOURCES,
    MAX_SKILLS,
    MAX_VALUE,
    MIN_VALUE,
    Resource,
    SheetFileError,
    name_key,
    parse_sheet,
)
from bot.storage import Database
from engine.systems import SYSTEMS
from tests.hypothesis_profiles import examples

ALICE = Actor(user_id=100, channel_id=10, guild_id=1)
GM = Actor(user_id=900, channel_id=10, guild_id=1, gm_role=True)

values = st.integers(MIN_VALUE, MAX_VALUE)
# Names as a player might type them: any printable text without braces or edge spaces.
entry_names = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="{}"),
    min_size=1,
    max_size=64,
).filter(lambda s: s == s.strip() and s.strip())


def unique_by_case(keys: list[str]) -> list[str]:
    """Names the sheet tells apart (case and whitespace runs are ignored)."""
    seen: set[str] = set()
    return [k for k in keys if not (name_key(k) in seen or seen.add(name_key(k)))]


@st.composite
def sheet_dicts(draw: st.DrawFn) -> dict[str, Any]:
    def names(limit: int) -> list[str]:
        return unique_by_case(draw(st.lists(entry_names, max_size=limit)))

    attributes = {name: draw(values) for name in names(8)}
    skills = {
        name: {
            "ranks": draw(values),
            "attribute": draw(st.none() | entry_names),
            "specialties": draw(st.lists(entry_names, max_size=3)),
        }
        for name in names(8)
    }
    resources = {}
    for name in names(5):
        maximum = draw(st.none() | values)
        current = draw(st.integers(MIN_VALUE, MAX_VALUE if maximum is None else maximum))
        resources[name] = {"current": current, "max": maximum}
    return {
        "name": draw(entry_names),
        "system": draw(st.sampled_from(list(SYSTEMS))),
        "attributes": attributes,
        "skills": skills,
        "resources": resources,
        # Any text a database stores: NUL and lone surrogates are refused on import (tested
        # on their own), so a lossless round trip is about everything else.
        "notes": draw(
            st.text(
                st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
                max_size=1000,
            )
        ),
    }


_owners = itertools.count(1000)


@pytest.mark.slow  # seconds; make check runs it
@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=sheet_dicts())
def test_export_import_round_trip_is_lossless(database_url: str, data: dict[str, Any]) -> None:
    assert parse_sheet(json.loads(json.dumps(data))) == data

    async def round_trip() -> dict[str, Any]:
        db = Database(database_url)
        owner = Actor(user_id=next(_owners), channel_id=10, guild_id=1)
        try:
            imported = await sheets.import_sheet(db, owner, json.dumps(data).encode())
            assert imported.to_dict() == data
            _, exported = await sheets.export(db, owner, data["name"])
            # Exported again and re-imported over itself: still the same sheet.
            await sheets.import_sheet(db, owner, exported, replace=True)
            _, again = await sheets.export(db, owner)
            assert again == exported
            return json.loads(exported)
        finally:
            await db.dispose()

    assert asyncio.run(round_trip()) == data


def test_parse_accepts_missing_optional_sections() -> None:
    parsed = parse_sheet({"name": " Ron ", "system": "rps"})
    assert parsed == {
        "name": "Ron",
        "system": "rps",
        "attributes": {},
        "skills": {},
        "resources": {},
        "notes": "",
    }
    skill = parse_sheet({"name": "R", "system": "rps", "skills": {"Guns": {"ranks": 2}}})
    assert skill["skills"] == {"Guns": {"ranks": 2, "attribute": None, "specialties": []}}


@pytest.mark.parametrize(
    ("section", "limit"),
    [("attributes", MAX_ATTRIBUTES), ("skills", MAX_SKILLS), ("resources", MAX_RESOURCES)],
)
def test_parse_enforces_the_sheet_bounds(section: str, limit: int) -> None:
    entry = {"attributes": 1, "skills": {"ranks": 1}, "resources": {"current": 1}}[section]
    ok = {"name": "R", "system": "coda", section: {f"N{i}": entry for i in range(limit)}}
    assert len(parse_sheet(ok)[section]) == limit
    ok[section]["one more"] = entry
    with pytest.raises(SheetFileError, match=f"`{section}`: at most {limit} entries"):
        parse_sheet(ok)


async def test_an_over_long_note_is_refused_by_the_service_too(db: Database) -> None:
    await sheets.create(db, ALICE, "Hermione", "coda")
    with pytest.raises(UserError, match="Notes have at most 1000 characters"):
        await sheets.set_notes(db, ALICE, "n" * 1001)
    assert (await sheets.set_notes(db, ALICE, "n" * 1000)).sheet.notes == "n" * 1000


@pytest.mark.parametrize(
    ("content", "message"),
    [
        # json's own limits raise RecursionError / ValueError, not JSONDecodeError.
        (b"[" * 5000, "nests too deeply"),
        (b'{"name": ' + b"1" * 5000 + b"}", "number too long"),
        # "\ud800" escapes decode to lone surrogates, which SQLite cannot store.
        (b'{"name": "\\ud800", "system": "coda"}', "`name`: holds characters that are not"),
        (b'{"name": "A", "system": "coda", "skills": {"\\udfff": {"ranks": 1}}}', "`skills."),
        (b'{"name": "A", "system": "coda", "notes": "\\u0000"}', "`notes`: holds characters"),
    ],
)
async def test_an_import_the_json_module_chokes_on_is_refused(
    db: Database, content: bytes, message: str
) -> None:
    with pytest.raises(SheetFileError, match=message):
        await sheets.import_sheet(db, ALICE, content)
    assert not (await sheets.list_characters(db, ALICE)).entries


@pytest.mark.postgres
async def test_fifty_simultaneous_resource_changes_lose_no_update(any_database_url: str) -> None:
    db = Database(any_database_url)
    try:
        await sheets.create(db, ALICE, "Hermione", "coda")
        await sheets.set_resource(db, ALICE, "Health", current=0)
        # 25 owner heals of +3 and 25 GM hits of -1, all at once.
        changes = [
            sheets.set_resource(db, ALICE, "Health", delta=3)
            if i % 2
            else sheets.set_resource(db, GM, "Health", delta=-1, character="Hermione")
            for i in range(50)
        ]
        results = await asyncio.gather(*changes)
        async with db.unit_of_work(read_only=True) as session:
            sheet = await sheets.active_character(session, ALICE)
    finally:
        await db.dispose()
    assert sheet.resource("Health") == Resource(25 * 3 - 25, None)
    # Every change started from the previous one's result: the befores are exactly the
    # starting 0 and every after but the last (a lost update would repeat a before).
    befores = Counter(r.before.current for r in results if r.before is not None)
    afters = Counter(r.after.current for r in results)
    assert befores == Counter([0]) + afters - Counter([50])


@pytest.mark.postgres
async def test_simultaneous_creates_of_one_name_make_one_character(any_database_url: str) -> None:
    db = Database(any_database_url)
    try:
        results = await asyncio.gather(
            *(
                sheets.create(db, ALICE, f"hermione{'' if i % 2 else ' '}", "coda")
                for i in range(10)
            ),
            return_exceptions=True,
        )
        listing = await sheets.list_characters(db, ALICE)
    finally:
        await db.dispose()
    created = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(created) == 1 and len(listing.entries) == 1
    assert all(isinstance(r, UserError) for r in refused)
    assert all("You already have a character called hermione" in str(r) for r in refused)


@pytest.mark.parametrize("notes", ["a\x00b", "\ud800", "fine\udfff"])
def test_import_refuses_text_no_database_stores(notes: str) -> None:
    with pytest.raises(SheetFileError, match="`notes`: holds characters that are not text"):
        parse_sheet({"name": "Ron", "system": "rps", "notes": notes})
