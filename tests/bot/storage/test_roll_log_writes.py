"""The roll log's Core insert keeps what ``session.add`` promised (SQLite, PostgreSQL).

``rolls.add`` no longer hands the entry to the ORM: the session writes it with one INSERT
just before its next flush, ORM query or commit. These tests pin the ORM's guarantees down:
a later query in the same unit of work sees the entry, a rollback writes nothing, the log
keeps the order of the rolls, and a secret entry's id (shown in its reply) is the stored one.
"""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.storage import Database
from bot.storage.models import RollLog
from bot.storage.repositories import rolls as roll_log
from engine import commitment

ACTOR = Actor(user_id=7, channel_id=100, guild_id=1)


def _add(session: AsyncSession, input: str, *, secret: bool = False) -> RollLog | None:
    roll_log.add(
        session, ACTOR, system="dice", input=input, faces=[[3]], outcome="3", secret=secret
    )
    return roll_log.sealed(session)[-1] if secret else None


async def _stored(db: Database) -> list[RollLog]:
    async with db.unit_of_work(read_only=True) as session:
        return list((await session.execute(select(RollLog).order_by(RollLog.id))).scalars())


async def test_a_later_query_in_the_same_unit_of_work_sees_the_entry(any_db: Database) -> None:
    async with any_db.unit_of_work() as session:
        _add(session, "1d6")
        seen = await roll_log.latest(session, ACTOR.channel_id, count=5, include_secret=True)
        _add(session, "2d6")
        await session.flush()  # an explicit flush writes it too
        count = await session.scalar(select(func.count()).select_from(RollLog))
    assert [entry.input for entry in seen] == ["1d6"]
    assert count == 2
    assert [entry.input for entry in await _stored(any_db)] == ["1d6", "2d6"]


async def test_a_rolled_back_unit_of_work_writes_nothing(any_db: Database) -> None:
    with pytest.raises(RuntimeError):
        async with any_db.unit_of_work() as session:
            _add(session, "1d6")
            raise RuntimeError("the command failed before its commit")
    with pytest.raises(RuntimeError):
        async with any_db.unit_of_work() as session:
            _add(session, "1d6")
            await session.flush()
            raise RuntimeError("the command failed after writing")
    async with any_db.unit_of_work() as session:
        _add(session, "1d8")
        await session.rollback()  # drops what was not written yet, as it expunges pending objects
        _add(session, "1d10")
    assert [entry.input for entry in await _stored(any_db)] == ["1d10"]


async def test_secret_entries_get_their_stored_ids_in_the_order_rolled(any_db: Database) -> None:
    async with any_db.unit_of_work() as session:
        _add(session, "1d4")
        first = _add(session, "1d6", secret=True)
        _add(session, "1d8")
        _add(session, "1d10")
        second = _add(session, "1d12", secret=True)
        sealed = list(roll_log.sealed(session))
    stored = await _stored(any_db)
    assert [entry.input for entry in stored] == ["1d4", "1d6", "1d8", "1d10", "1d12"]
    assert sealed == [first, second]
    by_id = {entry.id: entry for entry in stored}
    for entry in sealed:
        kept = by_id[entry.id]
        assert (kept.input, kept.secret, kept.commitment) == (entry.input, True, entry.commitment)
        assert kept.salt is not None and kept.record is not None
        assert commitment.commit(kept.record, kept.salt) == kept.commitment
    public = [entry for entry in stored if not entry.secret]
    assert all(entry.commitment is None and entry.salt is None for entry in public)
    assert all(entry.created_at.tzinfo is not None for entry in stored)


async def test_only_a_unit_of_works_session_takes_entries(db: Database) -> None:
    async with AsyncSession(db.engine) as session:
        with pytest.raises(TypeError, match="unit_of_work"):
            _add(session, "1d6")
