"""Replies tell the truth about what was saved: "nothing was saved" only after a rollback."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
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


@contextlib.contextmanager
def sqlite_write_lock_held(url: str, seconds: float) -> Iterator[None]:
    """Another process's writer: SQLite's write lock held for ``seconds`` (from a thread)."""
    connection = sqlite3.connect(
        url.split("///", 1)[1], isolation_level=None, timeout=5, check_same_thread=False
    )
    connection.execute("BEGIN IMMEDIATE")
    release = threading.Timer(seconds, connection.rollback)
    release.start()
    try:
        yield
    finally:
        release.join()
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


@pytest.fixture
def quick_deadline(table: Table, monkeypatch: pytest.MonkeyPatch) -> Database:
    """Defer at once and give up a lock after 1 s, so that the tests stay short.

    (SimCord runs the bot's timers on a virtual clock, so the 1.5 s of the real deferral
    would never pass here; deferring at the first wait exercises the same path.)
    """
    monkeypatch.setattr(deadline, "DEFER_AFTER", 0)
    patient = Database(table.bot.db.url, lock_timeout=1.0)
    table.bot.db = patient
    return patient


async def test_a_command_waiting_on_a_lock_is_deferred_and_then_answers(
    table: Table, quick_deadline: Database, deferrals: list[str]
) -> None:
    await table.alice.slash(table.channel, "sheet create", name="William", system="drama")
    with sqlite_write_lock_held(quick_deadline.url, seconds=0.6):
        result = await table.alice.slash(
            table.channel, "penalty add", character="William", amount=2
        )
    assert deferrals[-1] == "penalty add"
    assert not result.ephemeral
    assert "0 → **2**" in text_of(result)
    await quick_deadline.dispose()


async def test_a_lock_held_too_long_rolls_back_and_says_so_in_time(
    table: Table, quick_deadline: Database, deferrals: list[str]
) -> None:
    await table.alice.slash(table.channel, "sheet create", name="William", system="drama")
    started = time.monotonic()
    with sqlite_write_lock_held(quick_deadline.url, seconds=2.0):
        result = await table.alice.slash(
            table.channel, "penalty add", character="William", amount=2
        )
        waited = time.monotonic() - started
    assert deferrals[-1] == "penalty add"
    # The deferral was public: it is completed with a neutral line, the error is private.
    assert result.response.content == gateway.ANSWERED_PRIVATELY
    assert result.followups[0].ephemeral
    assert "waited too long" in text_of(result) and "nothing was saved" in text_of(result)
    assert waited < 2.0  # bounded by the lock timeout, not by whoever holds the lock
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
                started = time.monotonic()
                with pytest.raises(StorageBusy, match="nothing was saved"):
                    await penalty.add(patient, player, character="William", amount=2)
                assert time.monotonic() - started < 3.0
            assert (await penalty.show(patient, player, character="William")).dice == 1
        finally:
            await holder.dispose()
            await patient.dispose()
