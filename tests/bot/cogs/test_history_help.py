"""``/history`` pages and ``/help`` lines, and errors that never reach users as tracebacks."""

from __future__ import annotations

import logging

import pytest
from simcord.backend.errors import OptionError

from bot.services import rolls
from tests.conftest import Table, embed_of, text_of


async def test_history_is_newest_first_and_paged(table: Table) -> None:
    for sides in range(1, 24):
        await table.alice.slash(table.channel, "roll", expression=f"1d{sides}")
    result = await table.alice.slash(table.channel, "history", count=23)
    first = embed_of(result)
    assert first.description.splitlines()[0].count("`1d23`") == 1
    assert "page 1/3" in first.footer.text
    page_two = await table.alice.click(result.response, label="Next ▶")
    assert "`1d13`" in page_two.response.embeds[0].description
    assert result.ephemeral  # the pages are the asker's alone


async def test_history_when_empty_and_bounds(table: Table) -> None:
    result = await table.alice.slash(table.channel, "history")
    assert "No rolls in this channel yet" in text_of(result)
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "history", count=0)
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "history", count=101)


async def test_help_lists_every_command_group(table: Table) -> None:
    result = await table.alice.slash(table.channel, "help")
    description = embed_of(result).description
    for name in [c.name for c in table.bot.tree.get_commands()]:
        assert f"**/{name}**" in description
    assert "show|system|rule|secret|gm-channel" in description
    assert "No default system here yet" in embed_of(result).footer.text


async def test_a_bug_is_logged_with_context_and_answered_kindly(
    table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("internal detail")

    monkeypatch.setattr(rolls, "roll_notation", broken)
    with caplog.at_level(logging.ERROR, logger="bot.gateway._tree"):
        result = await table.alice.slash(table.channel, "roll", expression="1d6")
    assert result.ephemeral
    assert "Something went wrong on our side" in result.response.content
    assert "internal detail" not in result.response.content
    record = next(r for r in caplog.records if r.name == "bot.gateway._tree")
    assert f"user {table.alice.id}" in record.getMessage()
    assert f"channel {table.channel.id}" in record.getMessage()
    assert "/roll" in record.getMessage()
    assert [type(e.original) for e in table.acknowledge_bugs()] == [KeyError]


async def test_a_failing_autocomplete_offers_nothing_and_is_logged(
    table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from bot.cogs.settings import _cog

    monkeypatch.setattr(_cog, "RULE_VALUES", None)  # breaks the callback
    with caplog.at_level(logging.ERROR):
        choices = await table.gm.autocomplete(table.channel, "settings rule", "value", "x")
    assert choices == []
    assert any("autocomplete" in r.getMessage() for r in caplog.records)
