"""SQLite writers of one process queue in the Database instead of polling the file lock."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from bot.actor import Actor
from bot.errors import StorageBusy
from bot.storage import Database
from bot.storage.models import RollLog
from bot.storage.repositories import rolls as roll_log

ACTOR = Actor(user_id=7, channel_id=100, guild_id=1)


async def test_sqlite_write_units_of_work_run_one_at_a_time(db: Database) -> None:
    inside = peak = 0

    async def writer(number: int) -> None:
        nonlocal inside, peak
        async with db.unit_of_work() as session:
            inside += 1
            peak = max(peak, inside)
            roll_log.add(session, ACTOR, system="dice", input=f"{number}", faces=[1], outcome="1")
            await asyncio.sleep(0.001)  # hand the loop to the other writers
            inside -= 1

    await asyncio.wait_for(asyncio.gather(*(writer(n) for n in range(12))), 60)  # failsafe
    assert peak == 1
    async with db.unit_of_work(read_only=True) as session:
        assert await session.scalar(select(func.count()).select_from(RollLog)) == 12


async def test_reads_do_not_wait_for_a_writer(db: Database) -> None:
    async with db.unit_of_work() as session:
        roll_log.add(session, ACTOR, system="dice", input="1d6", faces=[3], outcome="3")
        await session.flush()
        async with db.unit_of_work(read_only=True) as reader:  # WAL: a snapshot, no lock
            count = await asyncio.wait_for(
                reader.scalar(select(func.count()).select_from(RollLog)), 5
            )
    assert count == 0  # the writer had not committed yet


async def test_a_failed_writer_releases_the_queue(db: Database) -> None:
    try:
        async with db.unit_of_work() as session:
            roll_log.add(session, ACTOR, system="dice", input="1d6", faces=[3], outcome="3")
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    async with asyncio.timeout(60), db.unit_of_work() as session:  # failsafe: no deadlock
        roll_log.add(session, ACTOR, system="dice", input="1d6", faces=[4], outcome="4")


async def test_sqlite_writers_wait_their_turn_in_order_and_give_up_in_time(
    database_url: str,
) -> None:
    """This process's SQLite writers queue first come, first served: one arriving just as the
    turn is handed on waits behind the one it is handed to, and a writer still queued after
    ``lock_timeout`` gives up with StorageBusy (nothing saved), however many are queued."""
    db = Database(database_url, lock_timeout=0.2)
    try:
        order: list[str] = []
        holder = await db.take_writer_turn()
        assert holder is not None

        async def write(name: str) -> None:
            turn = await db.take_writer_turn()
            assert turn is not None
            order.append(name)
            turn.release()

        first = asyncio.create_task(write("queued first"))
        await asyncio.sleep(0)  # it is queued
        holder.release()  # handed to "queued first", which has not run yet
        await write("arrived after")
        await first
        assert order == ["queued first", "arrived after"]

        holder = await db.take_writer_turn()
        assert holder is not None
        waiting = [asyncio.create_task(write(f"writer {n}")) for n in range(2)]
        results = await asyncio.gather(*waiting, return_exceptions=True)
        assert [type(result) for result in results] == [StorageBusy, StorageBusy]
        holder.release()
        await write("once the turn is free")
        assert order[-1] == "once the turn is free"
    finally:
        await db.dispose()
