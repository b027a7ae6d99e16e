"""``/dice stats`` and ``/dice test`` as a table uses them: counts, verdicts, charts, bounds."""

from __future__ import annotations

import struct

import pytest
from simcord.backend.errors import OptionError

from bot import workers
from bot.services import dice_stats
from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of

pytestmark = pytest.mark.usefixtures("warm_charts")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


async def chart_of(result: object) -> bytes:
    message = result.followups[0] if result.followups else result.response
    (attachment,) = message.attachments
    assert attachment.filename.endswith(".png")
    assert embed_of(result).image.url == f"attachment://{attachment.filename}"
    return await attachment.read()


async def test_a_players_faces_against_fair_dice(table: Table) -> None:
    table.bot.dice = ScriptedDice([1, 2, 3, 4, 5, 6] * 2)
    await table.alice.slash(table.channel, "roll", expression="12d6")
    table.bot.dice = ScriptedDice([6, 6])
    await table.bob.slash(table.channel, "roll", expression="2d6")
    table.bot.dice = ScriptedDice([3, 2])
    await table.alice.slash(table.channel, "roll", expression="1d20 + 1d4")  # mixed: not counted
    result = await table.carol.slash(table.channel, "dice stats", player=table.alice.user)
    assert not result.ephemeral
    text = text_of(result)
    assert "d6 · 12 dice" in text
    assert "1: 2 · 2: 2 · 3: 2 · 4: 2 · 5: 2 · 6: 2" in text
    assert "Fair dice: 2.0 of each face" in text
    assert "too few rolls to judge" in text
    assert "1 with mixed or unknown dice left out" in embed_of(result).footer.text
    width, height = png_size(await chart_of(result))
    assert (width, height) == (800, 450)

    everyone = await table.carol.slash(table.channel, "dice stats")
    assert "d6 · 14 dice" in text_of(everyone) and "6: 4" in text_of(everyone)


async def test_filters_and_secret_rolls(table: Table) -> None:
    table.bot.dice = ScriptedDice([2, 2])
    await table.alice.slash(table.channel, "roll", expression="2d6")
    table.bot.dice = ScriptedDice([5, 5])
    await table.alice.slash(table.channel, "roll", expression="2d6", secret=True)
    table.bot.dice = ScriptedDice([4, 7])
    await table.alice.slash(table.channel, "rps check", base=12)
    result = await table.gm.slash(table.channel, "dice stats", player=table.alice.user)
    text = text_of(result)
    assert "d6 · 2 dice" in text and "5: 0" in text  # the secret roll is not counted
    assert "d10 · 2 dice" in text
    only_rps = await table.gm.slash(table.channel, "dice stats", system="rps", since="1h")
    assert "d10 · 2 dice" in text_of(only_rps) and "d6" not in text_of(only_rps)
    none = await table.gm.slash(table.channel, "dice stats", player=table.bob.user)
    assert "No public rolls of bob" in text_of(none)
    assert not (none.followups or [none.response])[0].attachments  # nothing to chart


async def test_the_work_is_bounded(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dice_stats, "MAX_ROWS", 2)
    for _ in range(3):
        table.bot.dice = ScriptedDice([1])
        await table.alice.slash(table.channel, "roll", expression="1d6")
    result = await table.alice.slash(table.channel, "dice stats")
    assert "d6 · 2 dice" in text_of(result)
    assert "only the newest 2" in embed_of(result).footer.text


async def test_biased_dice_are_reported_as_unusual(table: Table) -> None:
    # 600 d6 of which a third are sixes: visibly loaded.
    table.bot.dice = ScriptedDice([6, 1, 6, 2, 3, 6, 4, 5, 6] * 66 + [1, 2, 3, 4, 5, 6])
    result = await table.alice.slash(table.channel, "dice test", sides=6, count=600)
    text = text_of(result)
    assert "600 d6 from the bot's dice" in text
    assert "unusual: p = " in text
    png = await chart_of(result)
    assert len(png) < 200_000


async def test_the_production_source_is_fair(table: Table) -> None:
    # The fixture's seeded source stands in for the secure one: both are uniform.
    result = await table.alice.slash(table.channel, "dice test", sides=20, count=100_000)
    text = text_of(result)
    assert "100,000 d20" in text
    assert "unusual" not in text


async def test_bad_input(table: Table) -> None:
    for options in ({"sides": 1, "count": 10}, {"sides": 101, "count": 10}):
        with pytest.raises(OptionError):
            await table.alice.slash(table.channel, "dice test", **options)
    for count in (0, 100_001):
        with pytest.raises(OptionError):
            await table.alice.slash(table.channel, "dice test", sides=6, count=count)
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "dice stats", system="chess")
    with pytest.raises(OptionError):
        await table.alice.slash(table.channel, "dice stats", since="forever")


async def test_a_large_dice_test_runs_in_a_worker_and_is_stopped_past_its_budget(
    table: Table, hanging_workers: workers.WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dice_stats, "TEST_SECONDS", 0.5)
    monkeypatch.setattr("bot.cogs._charts.CHART_SECONDS", 0.5)
    result = await table.alice.slash(table.channel, "dice test", sides=20, count=100_000)
    assert "Too heavy to roll in time: ask for fewer dice." in text_of(result)
    assert "100,000 d20" not in text_of(result)
    # The work was stopped for real: its worker killed, none left running.
    assert hanging_workers.killed == 1 and hanging_workers.processes == 0
    # A small test is rolled inline (the hanging pool would stop it): it answers, only its
    # chart (a worker's) left out.
    small = await table.alice.slash(
        table.channel, "dice test", sides=6, count=dice_stats.INLINE_MAX
    )
    assert f"{dice_stats.INLINE_MAX:,} d6 from the bot's dice" in text_of(small)
    assert hanging_workers.started == 2 and hanging_workers.killed == 2  # the test, the chart


async def test_a_second_large_dice_test_waits_for_the_first(
    table: Table, hanging_workers: workers.WorkerPool
) -> None:
    # As if alice's queue were full; nothing of hers runs to be named (a running one is:
    # tests/bot/cogs/odds/test_previous_request.py).
    hanging_workers.per_user = 0
    result = await table.alice.slash(table.channel, "dice test", sides=6, count=50_000)
    assert "Your previous request is still being worked out: wait for it" in text_of(result)
    hanging_workers.per_user, hanging_workers.per_channel = 1, 0  # the channel's queue full
    result = await table.bob.slash(table.channel, "dice test", sides=6, count=50_000)
    assert "Too busy rolling dice right now" in text_of(result)
    assert hanging_workers.started == 0  # refused at once: no work started


async def test_stats_wait_their_turn_and_a_second_one_is_refused_at_once(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    await table.alice.slash(table.channel, "roll", expression="2d6")
    # As if alice's line were full: refused at once, privately (nothing of hers runs to be
    # named; a running one is: tests/bot/cogs/odds/test_previous_request.py).
    monkeypatch.setattr(dice_stats.GATE, "per_user", 0)
    refused = await table.alice.slash(table.channel, "dice stats")
    assert refused.ephemeral
    assert "Your previous request is still being worked out" in text_of(refused)
    monkeypatch.setattr(dice_stats.GATE, "per_user", 1)
    monkeypatch.setattr(dice_stats.GATE, "per_channel", 0)  # the channel's line full
    busy = await table.bob.slash(table.channel, "dice stats")
    assert busy.ephemeral and "Too busy counting dice right now" in text_of(busy)
    monkeypatch.setattr(dice_stats.GATE, "per_channel", 2)
    counted = await table.bob.slash(table.channel, "dice stats")
    assert "d6 · 2 dice" in text_of(counted)


async def test_stats_on_an_sqlite_file_are_counted_in_a_worker_and_stopped_past_their_budget(
    table: Table, hanging_workers: workers.WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The table's database is an SQLite file: the aggregate runs in a worker process (here,
    # one whose every job hangs), not in the bot's process.
    await table.alice.slash(table.channel, "roll", expression="2d6")
    monkeypatch.setattr(dice_stats, "STATS_SECONDS", 0.5)
    stopped = await table.alice.slash(table.channel, "dice stats")
    assert "Too heavy to count in time" in text_of(stopped)
    assert "d6 · 2 dice" not in text_of(stopped)
    # The work was stopped for real: its worker killed, none left running.
    assert hanging_workers.started == 1 and hanging_workers.killed == 1
    assert hanging_workers.processes == 0
    # The pool's own queues apply too: refused at once, no worker started.
    hanging_workers.per_channel = 0
    busy = await table.bob.slash(table.channel, "dice stats")
    assert "Too busy counting dice right now" in text_of(busy)
    assert hanging_workers.started == 1
    # Its gate let the next count in: the stopped one left no slot taken.
    hanging_workers.per_channel = workers.PER_CHANNEL
    workers.install(None)  # a working pool (the fixture puts the previous one back)
    try:
        counted = await table.bob.slash(table.channel, "dice stats")
    finally:
        await workers.shared().shutdown()
    assert "d6 · 2 dice" in text_of(counted)
