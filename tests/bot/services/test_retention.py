"""Retention: the newest N rolls per channel stay, old offers and ended states go."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from bot.services import retention
from bot.storage import Database
from bot.storage.models import (
    AttackExchange,
    Character,
    CodaAttack,
    DramaPriceOffer,
    InitiativeEncounter,
    PenaltyLogEntry,
    PenaltyPool,
    QuidditchMatch,
    RollLog,
)

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def roll(channel_id: int, n: int) -> RollLog:
    return RollLog(
        channel_id=channel_id, user_id=1, system="dice", input=f"#{n}", outcome="", faces=[]
    )


async def ids_of(db: Database, model: type, **where: object) -> list[object]:
    query = select(model).filter_by(**where).order_by(model.id)
    async with db.unit_of_work(read_only=True) as session:
        return [row for row in (await session.execute(query)).scalars()]


async def test_each_channel_keeps_its_newest_rolls(any_db: Database) -> None:
    async with any_db.unit_of_work() as session:
        session.add_all([roll(1, n) for n in range(12)] + [roll(2, n) for n in range(3)])
    pruned = await retention.prune(any_db, now=NOW, keep_rolls=5, batch=2)
    assert pruned.rolls == 7
    assert [r.input for r in await ids_of(any_db, RollLog, channel_id=1)] == [
        f"#{n}" for n in range(7, 12)
    ]
    assert len(await ids_of(any_db, RollLog, channel_id=2)) == 3
    assert (await retention.prune(any_db, now=NOW, keep_rolls=5)).rolls == 0  # idempotent


async def test_offers_go_a_week_after_they_expire(any_db: Database) -> None:
    ages = {"old": 8, "recent": 6, "open": -1}  # days since expiry
    async with any_db.unit_of_work() as session:
        session.add_all(
            DramaPriceOffer(
                channel_id=1,
                user_id=1,
                character_name=name,
                expires_at=NOW - timedelta(days=days),
            )
            for name, days in ages.items()
        )
    pruned = await retention.prune(any_db, now=NOW, keep_rolls=100)
    assert pruned.offers == 1
    kept = await ids_of(any_db, DramaPriceOffer)
    assert sorted(o.character_name for o in kept) == ["open", "recent"]


@pytest.mark.parametrize("model", [InitiativeEncounter, QuidditchMatch])
async def test_ended_states_go_after_thirty_days_running_ones_never(
    any_db: Database, model: type
) -> None:
    def state(channel_id: int, *, days: int, running: bool) -> object:
        return model(
            channel_id=channel_id,
            active_channel_id=channel_id if running else None,
            started_by=1,
            status="active" if running else "ended",
            state={},
            updated_at=NOW - timedelta(days=days),
        )

    async with any_db.unit_of_work() as session:
        session.add_all(
            [
                state(1, days=31, running=False),
                state(2, days=29, running=False),
                state(3, days=400, running=True),
            ]
        )
    pruned = await retention.prune(any_db, now=NOW, keep_rolls=100)
    assert (pruned.encounters, pruned.matches) == (
        (1, 0) if model is InitiativeEncounter else (0, 1)
    )
    assert sorted(row.channel_id for row in await ids_of(any_db, model)) == [2, 3]


async def test_each_penalty_pool_keeps_its_newest_log_entries(
    any_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(retention, "PENALTY_LOG_KEEP", 3)
    async with any_db.unit_of_work() as session:
        characters = [
            Character(guild_id=1, owner_id=1, name=name, name_key=name.lower(), system="drama")
            for name in ("Tom", "Ann")
        ]
        session.add_all(characters)
        await session.flush()
        pools = [PenaltyPool(guild_id=1, character_id=c.id, dice=0) for c in characters]
        session.add_all(pools)
        await session.flush()
        session.add_all(
            PenaltyLogEntry(pool_id=pool.id, user_id=1, kind="add", before=n, after=n + 1)
            for pool, count in zip(pools, (7, 2), strict=True)
            for n in range(count)
        )
    pruned = await retention.prune(any_db, now=NOW, keep_rolls=100, batch=2)
    assert pruned.penalty_entries == 4
    kept = await ids_of(any_db, PenaltyLogEntry)
    assert [e.before for e in kept if e.pool_id == pools[0].id] == [4, 5, 6]
    assert len([e for e in kept if e.pool_id == pools[1].id]) == 2
    assert (await retention.prune(any_db, now=NOW, keep_rolls=100)).penalty_entries == 0


@pytest.mark.parametrize("model", [CodaAttack, AttackExchange])
async def test_attack_exchanges_go_a_week_after_they_closed(any_db: Database, model: type) -> None:
    def exchange(channel_id: int, *, expired_days: int, finished_days: int | None) -> object:
        extra = {"system": "h90"} if model is AttackExchange else {}
        return model(
            channel_id=channel_id,
            attacker_id=1,
            expires_at=NOW - timedelta(days=expired_days),
            finished_at=None if finished_days is None else NOW - timedelta(days=finished_days),
            **extra,
        )

    async with any_db.unit_of_work() as session:
        session.add_all(
            [
                exchange(1, expired_days=8, finished_days=None),  # lapsed unanswered: goes
                exchange(2, expired_days=-1, finished_days=8),  # answered long ago: goes
                exchange(3, expired_days=6, finished_days=6),  # closed this week: stays
                exchange(4, expired_days=-1, finished_days=None),  # still open: stays
            ]
        )
    pruned = await retention.prune(any_db, now=NOW, keep_rolls=100)
    assert pruned.exchanges == 2
    assert sorted(row.channel_id for row in await ids_of(any_db, model)) == [3, 4]
