"""RPS and Drama services: pure pool/base building, party parsing, one transaction per roll,
and the price paid once under concurrent presses."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.services import drama, penalty, rps, sheets
from bot.services.drama import OfferClosed, PoolRequest
from bot.services.rps import BaseRequest, PartySpec, parse_parties
from bot.services.sheets import CharacterSheet, Skill
from bot.storage import Database
from bot.storage.models import PenaltyLogEntry, RollLog
from engine.dice import ScriptedDice
from engine.errors import InputError

GUILD, TABLE = 1, 10
ALICE = Actor(user_id=100, channel_id=TABLE, guild_id=GUILD, display_name="alice")
BOB = Actor(user_id=200, channel_id=TABLE, guild_id=GUILD, display_name="bob")
NOW = datetime(2026, 11, 21, 6, 0, tzinfo=UTC)

SHEET = CharacterSheet(
    id=1,
    guild_id=GUILD,
    owner_id=ALICE.user_id,
    name="William",
    system="drama",
    attributes={"Agility": 3, "Physical": 2},
    skills={"Riding": Skill(2, "Agility"), "Lore": Skill(5, None)},
)


# --- pure building ---------------------------------------------------------------------------


def test_rps_base_parts_name_every_source() -> None:
    base = rps.base_from(BaseRequest(skill="riding", difficulty="Simple", modifier=-1), SHEET)
    assert (base.value, base.parts) == (14, ("Riding 2", "Agility 3", "Simple +10", "modifier −1"))
    assert rps.base_from(BaseRequest(attribute="physical"), SHEET).value == 4
    assert rps.base_from(BaseRequest(base=7, difficulty="Tricky"), None).value == 5
    with pytest.raises(UserError, match="no parent attribute"):
        rps.base_from(BaseRequest(skill="Lore"), SHEET)
    assert rps.base_from(BaseRequest(skill="Lore", attribute="Agility"), SHEET).value == 8


def test_drama_pools_from_the_sheet_and_penalty() -> None:
    pools = drama.pools_from(PoolRequest(skill="Riding", drama=1), SHEET, penalty_dice=2)
    assert (pools.base, pools.resistance, pools.drama) == (5, 2, 1)
    pools = drama.pools_from(
        PoolRequest(attribute="Physical", backgrounds=3, indirect=True), SHEET, penalty_dice=0
    )
    # 2 + 3 Bd; 3 indirect Rd; 3 backgrounds counted > attribute 2: +1 Rd.
    assert (pools.base, pools.resistance) == (5, 4)
    # The cap is on what the player adds; penalty dice come on top (docs/rules.md).
    assert (
        drama.pools_from(PoolRequest(base=2, resistance=60), None, penalty_dice=11).resistance == 71
    )
    with pytest.raises(InputError, match="at most 60 dice"):
        drama.pools_from(PoolRequest(base=2, resistance=60, target=1), None, penalty_dice=0)


@pytest.mark.parametrize(
    ("text", "specs"),
    [
        ("Johnny:12, Franky:-3", [PartySpec("Johnny", 12), PartySpec("Franky", -3)]),
        (
            "A: 1; <@5>\n<@!6>:7",
            [PartySpec("A", 1), PartySpec(None, None, 5), PartySpec(None, 7, 6)],
        ),
        ("Mr. Big: −4", [PartySpec("Mr. Big", -4)]),
    ],
)
def test_parse_parties(text: str, specs: list[PartySpec]) -> None:
    assert parse_parties(text) == specs


@pytest.mark.parametrize(
    "mention", ["<@99999999999999999999999>", "<@9223372036854775808>", "<@0>"]
)
async def test_a_mention_no_user_can_have_is_refused_before_any_query(
    db: Database, mention: str
) -> None:
    # Such an id used to reach the query and fail it (SQLite: OverflowError), a bug reply.
    with pytest.raises(UserError, match="mentions nobody"):
        parse_parties(f"{mention}:3, Bob:3")
    with pytest.raises(UserError, match="mentions nobody"):
        await drama.opposed(
            db,
            ScriptedDice([]),
            ALICE,
            PoolRequest(base=2),
            drama.their_request(2),
            their_name=mention,
            now=datetime.now(UTC),
        )
    assert parse_parties("<@9223372036854775807>") == [PartySpec(None, None, 2**63 - 1)]


# --- transactions ------------------------------------------------------------------------------


async def william(db: Database) -> None:
    await sheets.create(db, ALICE, "William", "drama")
    await sheets.set_attribute(db, ALICE, "Agility", 3)


async def count(db: Database, model) -> int:
    async with db.unit_of_work(read_only=True) as session:
        return int((await session.execute(select(func.count()).select_from(model))).scalar_one())


async def test_a_refused_roll_changes_nothing(db: Database) -> None:
    await william(db)
    await penalty.add(db, ALICE, character="William", amount=1)
    with pytest.raises(
        InputError, match=r"would be 61 \(10 from Formidable \+ 51 from situational resistance\)"
    ):
        await drama.test(
            db,
            ScriptedDice([]),
            ALICE,
            PoolRequest(base=2, resistance=51, difficulty="Formidable"),
            now=NOW,
        )
    assert await count(db, RollLog) == 0
    assert await count(db, PenaltyLogEntry) == 1  # only the /penalty add


async def test_drama_ones_and_the_roll_log_commit_together(db: Database) -> None:
    await william(db)
    faces = ScriptedDice([5, 5, 3, 3, 3, 3, 1, 1])
    outcome = await drama.test(db, faces, ALICE, PoolRequest(attribute="Agility", drama=2), now=NOW)
    assert (outcome.pools.base, outcome.result.net, outcome.result.penalty_gained) == (6, 0, 2)
    assert outcome.gained is not None and outcome.gained.after == 2
    assert await count(db, RollLog) == 1
    assert await count(db, PenaltyLogEntry) == 1
    assert (await penalty.show(db, ALICE)).dice == 2


async def test_the_price_is_paid_once_under_concurrent_presses(db: Database) -> None:
    await william(db)
    outcome = await drama.test(db, ScriptedDice([5, 3]), ALICE, PoolRequest(base=2), now=NOW)
    assert outcome.offer_id is not None
    results = await asyncio.gather(
        *(drama.pay_price(db, ALICE, outcome.offer_id, now=NOW) for _ in range(3)),
        return_exceptions=True,
    )
    paid = [r for r in results if isinstance(r, drama.PriceOutcome)]
    closed = [r for r in results if isinstance(r, OfferClosed)]
    assert len(paid) == 1 and len(closed) == 2
    view = await penalty.show(db, ALICE)
    assert view.dice == 1


async def test_the_price_belongs_to_the_roller_and_expires(db: Database) -> None:
    await william(db)
    outcome = await drama.test(db, ScriptedDice([5, 3]), ALICE, PoolRequest(base=2), now=NOW)
    with pytest.raises(PermissionDenied, match="who rolled"):
        await drama.pay_price(db, BOB, outcome.offer_id, now=NOW)
    later = NOW + drama.PRICE_WINDOW + timedelta(seconds=1)
    with pytest.raises(OfferClosed, match="Too late"):
        await drama.pay_price(db, ALICE, outcome.offer_id, now=later)
    with pytest.raises(OfferClosed, match="no longer"):
        await drama.pay_price(db, ALICE, 999, now=NOW)
