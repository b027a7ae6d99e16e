"""Replies tell the truth about what was saved: "nothing was saved" only after a rollback."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

import discord
import pytest
from sqlalchemy import select

from bot import gateway
from bot.actor import Actor
from bot.errors import StorageBusy
from bot.gateway import GENERIC_FAILURE, SAVED_BUT_FAILED
from bot.gateway import _deadline as deadline
from bot.services import penalty, sheets
from bot.storage import Database
from bot.storage.models import PenaltyPool
from tests.conftest import POSTGRES_URL, Table, embed_of, empty_postgres, text_of


class _ServerError:
    status = 500
    reason = "Internal Server Error"


def fail_first_reply_with(monkeypatch: pytest.MonkeyPatch, predicate: Any) -> list[Any]:
    """Discord answers 500 to the first interaction response that ``predicate`` accepts."""
    original = discord.InteractionResponse.send_message
    failed: list[Any] = []

    async def send_message(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not failed and predicate(kwargs):
            failed.append(kwargs)
            raise discord.HTTPException(_ServerError(), "500: Internal Server Error")
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(discord.InteractionResponse, "send_message", send_message)
    return failed


async def test_a_reply_failing_after_the_commit_says_the_change_was_saved(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await table.alice.slash(table.channel, "sheet create", name="William", system="drama")
    failed = fail_first_reply_with(monkeypatch, lambda kwargs: "embed" in kwargs)
    result = await table.alice.slash(table.channel, "penalty add", character="William", amount=3)
    assert failed, "the penalty reply was not the one that failed"
    assert result.ephemeral
    assert SAVED_BUT_FAILED in text_of(result)
    assert "Nothing was saved" not in text_of(result)
    [bug] = table.acknowledge_bugs()
    assert isinstance(bug.original, discord.HTTPException)  # logged as a bug all the same
    shown = await table.alice.slash(table.channel, "penalty show", character="William")
    assert "**3 penalty dice**" in embed_of(shown).description  # saved, once


async def test_a_failure_before_the_commit_still_says_nothing_was_saved(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await table.alice.slash(table.channel, "sheet create", name="William", system="drama")

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("mid-transaction")

    monkeypatch.setattr(penalty, "apply", broken)
    result = await table.alice.slash(table.channel, "penalty add", character="William", amount=3)
    assert GENERIC_FAILURE in text_of(result)
    table.acknowledge_bugs()
    monkeypatch.undo()
    shown = await table.alice.slash(table.channel, "penalty show", character="William")
    assert "**0 penalty dice**" in embed_of(shown).description


# --- Discord's deadline: a command held up by a lock is deferred and answers in time -------


#: Seconds a test waits for what must happen before it gives up (never reached when it works).
FAILSAFE = 60.0


@contextlib.contextmanager
def sqlite_write_lock_held(url: str, seconds: float = FAILSAFE) -> Iterator[None]:
    """Another process's writer: SQLite's write lock held (from a thread) until the block
    ends, or at most ``seconds``."""
    connection = sqlite3.connect(
        url.split("///", 1)[1], isolation_level=None, timeout=5, check_same_thread=False
    )
    connection.execute("BEGIN IMMEDIATE")
    release = threading.Timer(seconds, connection.rollback)
    release.start()
    try:
        yield
    finally:
        release.cancel()
        release.join()
        connection.rollback()
        connection.close()


@pytest.fixture
def deferrals(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The commands the deadline deferred, in order (SimCord shows a completed deferral as
    a plain message, as Discord does)."""
    seen: list[str] = []
    original = gateway.DeadlineResponse.auto_defer

    async def auto_defer(self: gateway.DeadlineResponse) -> None:
        await original(self)
        if self.auto_deferred:
            seen.append(self.interaction.command.qualified_name)

    monkeypatch.setattr(gateway.DeadlineResponse, "auto_defer", auto_defer)
    return seen


def deferring_database(
    table: Table, monkeypatch: pytest.MonkeyPatch, lock_timeout: float
) -> Database:
    """Defer at once, and give up a lock after ``lock_timeout`` seconds.

    (SimCord runs the bot's timers on a virtual clock, so the 1.5 s of the real deferral
    would never pass here; deferring at the first wait exercises the same path.)
    """
    monkeypatch.setattr(deadline, "DEFER_AFTER", 0)
    database = Database(table.bot.db.url, lock_timeout=lock_timeout)
    table.bot.db = database
    return database


@pytest.fixture
def quick_deadline(table: Table, monkeypatch: pytest.MonkeyPatch) -> Database:
    """Gives up a lock after 0.3 s: the tests that hold it longer stay short."""
    return deferring_database(table, monkeypatch, lock_timeout=0.3)


@pytest.fixture
def patient_deadline(table: Table, monkeypatch: pytest.MonkeyPatch) -> Database:
    """Waits for a lock far longer than any test holds it (only a failsafe)."""
    return deferring_database(table, monkeypatch, lock_timeout=FAILSAFE)


async def test_a_command_waiting_on_a_lock_is_deferred_and_then_answers(
    table: Table, patient_deadline: Database, deferrals: list[str]
) -> None:
    await table.alice.slash(table.channel, "sheet create", name="William", system="drama")
    with sqlite_write_lock_held(patient_deadline.url, seconds=0.3):
        result = await table.alice.slash(
            table.channel, "penalty add", character="William", amount=2
        )
    assert deferrals[-1] == "penalty add"
    assert not result.ephemeral
    assert "0 → **2**" in text_of(result)
    await patient_deadline.dispose()


async def test_a_lock_held_too_long_rolls_back_and_says_so_in_time(
    table: Table, quick_deadline: Database, deferrals: list[str]
) -> None:
    await table.alice.slash(table.channel, "sheet create", name="William", system="drama")
    # The lock is held until the command has answered (FAILSAFE at most): the answer can
    # only come from the lock timeout, never from the holder letting go.
    with sqlite_write_lock_held(quick_deadline.url):
        result = await table.alice.slash(
            table.channel, "penalty add", character="William", amount=2
        )
    assert deferrals[-1] == "penalty add"
    # The deferral was public: it is completed with a neutral line, the error is private.
    assert result.response.content == gateway.ANSWERED_PRIVATELY
    assert result.followups[0].ephemeral
    assert "waited too long" in text_of(result) and "nothing was saved" in text_of(result)
    shown = await table.alice.slash(table.channel, "penalty show", character="William")
    assert "**0 penalty dice**" in embed_of(shown).description
    await quick_deadline.dispose()


@pytest.mark.postgres
async def test_a_postgres_row_lock_held_too_long_is_a_bounded_rollback() -> None:
    """The same bound on PostgreSQL: ``lock_timeout`` ends the wait on a locked row."""
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    async with empty_postgres() as url:
        holder, patient = Database(url), Database(url, lock_timeout=0.5)
        try:
            await holder.upgrade_async()
            player = Actor(user_id=5, channel_id=6, guild_id=7)
            await sheets.create(holder, player, "William", "drama")
            await penalty.add(holder, player, character="William", amount=1)
            async with holder.unit_of_work() as session:
                await session.execute(select(PenaltyPool).with_for_update())  # held meanwhile
                # The row stays locked until this block ends: the wait can only end by
                # the lock timeout (FAILSAFE: a wait that never ends fails the test).
                with pytest.raises(StorageBusy, match="nothing was saved"):
                    async with asyncio.timeout(FAILSAFE):
                        await penalty.add(patient, player, character="William", amount=2)
            assert (await penalty.show(patient, player, character="William")).dice == 1
        finally:
            await holder.dispose()
            await patient.dispose()
