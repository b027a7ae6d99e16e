"""Replies tell the truth about what was saved: "nothing was saved" only after a rollback."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.tree import GENERIC_FAILURE, SAVED_BUT_FAILED
from tests.conftest import Table, embed_of, text_of


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
    from bot.services import penalty

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
