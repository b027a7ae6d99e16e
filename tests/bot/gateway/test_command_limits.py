"""Slash commands are limited at the gateway, from the raw payload (bot.gateway._interactions,
bot.gateway._ratelimit), like buttons and modals: a command refused for a flood never reaches
the command tree, the command or the database, so a flood costs the bot as little as it can.
Time passes on SimCord's virtual clock."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event

from bot.gateway import Rate, RateLimiter, Standings
from tests.conftest import Table, text_of


def limits(table: Table) -> None:
    """The shipped figures (bot/hosting/config.py) on SimCord's clock."""

    def clock() -> float:
        return float(table.env.now().timestamp())

    table.bot.rate_limiter = RateLimiter(Rate(10, 2.0), Rate(30, 5.0), clock=clock)
    table.bot.standings = Standings(table.bot.db, clock=clock)


@contextmanager
def watched(table: Table) -> Iterator[tuple[list[str], list[str]]]:
    """Every SQL statement the bot runs meanwhile, and every command the tree is asked to run
    (its ``interaction_check``: the first thing it does with a command)."""
    statements: list[str] = []
    checked: list[str] = []
    tree = table.bot.tree
    check = tree.interaction_check

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    async def counted(interaction: Any) -> bool:
        checked.append(str((interaction.data or {}).get("name")))
        return await check(interaction)

    engine = table.bot.db.engine.sync_engine
    event.listen(engine, "before_cursor_execute", record)
    tree.interaction_check = counted  # type: ignore[method-assign]
    try:
        yield statements, checked
    finally:
        event.remove(engine, "before_cursor_execute", record)
        del tree.interaction_check


async def test_a_refused_command_reaches_neither_the_tree_nor_the_database(table: Table) -> None:
    limits(table)
    for _ in range(10):  # her burst: every roll is answered (and logged)
        assert not (await table.alice.slash(table.channel, "roll", expression="1d6")).ephemeral
    with watched(table) as (statements, checked):
        told = await table.alice.slash(table.channel, "roll", expression="1d6")
        flood = [
            await table.alice.slash(table.channel, "roll", expression="1d6") for _ in range(20)
        ]
    # Told once to slow down, privately; the rest of the flood is not answered at all...
    assert told.ephemeral and text_of(told) == "Slow down: try again in 1 s."
    assert not any(result.acknowledged for result in flood)
    # ...and not one of them was looked up, run, or read or wrote anything.
    assert checked == [] and statements == []
    # Her next token comes back with time, and the roll runs as usual.
    await table.env.advance_time(0.5)
    with watched(table) as (_statements, checked):
        again = await table.alice.slash(table.channel, "roll", expression="1d6")
    assert not again.ephemeral and checked == ["roll"]


async def test_a_gm_is_admitted_in_a_full_channel_where_a_player_waits(table: Table) -> None:
    limits(table)
    players = [table.guild.add_member(table.env.create_user(f"p{i}")) for i in range(10)]
    for _ in range(3):  # 30 rolls by ten players: the channel's burst is gone
        for player in players:
            assert (await player.slash(table.channel, "roll", expression="1d6")).acknowledged
    with watched(table) as (_statements, checked):
        waits = await table.bob.slash(table.channel, "roll", expression="1d6")
    assert text_of(waits).startswith("Slow down") and checked == []
    ruled = await table.gm.slash(table.channel, "roll", expression="1d6")
    assert ruled.acknowledged and not ruled.ephemeral
