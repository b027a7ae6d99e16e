"""A fair share of a channel's limit (docs/hosting.md "Fair use and limits"), as players would
try it: a few accounts flooding within their own limits never lock out the GM, the player
whose turn it is or a quiet player; every press and autocomplete is counted at the gateway,
and a flood past the limit costs no database read. Time passes on SimCord's virtual clock."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event

from bot.app import create_bot
from bot.gateway import Rate, RateLimiter, Standings
from engine.dice import ScriptedDice, SeededDice
from tests.conftest import Table, text_of

STEP = 0.5  # each flooder sends one command a step: 2 a second, exactly their own limit


def limits(table: Table, *, autocomplete: Rate | None = None) -> None:
    """The shipped figures (bot/hosting/config.py) on SimCord's clock."""

    def clock() -> float:
        return float(table.env.now().timestamp())

    table.bot.rate_limiter = RateLimiter(
        Rate(10, 2.0), Rate(30, 5.0), autocomplete=autocomplete, clock=clock
    )
    table.bot.standings = Standings(table.bot.db, clock=clock)


@contextmanager
def counted_queries(table: Table) -> Iterator[list[str]]:
    """Every SQL statement the bot's database runs meanwhile."""
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    engine = table.bot.db.engine.sync_engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", record)


def refused(result: Any) -> bool:
    """Told to slow down, or (the rest of a flood) not answered at all."""
    return not result.acknowledged or "Slow down" in text_of(result)


async def flood_step(table: Table, flooders: list[Any]) -> int:
    """One command from each flooder; how many were refused."""
    results = [await p.slash(table.channel, "roll", expression="1d6") for p in flooders]
    return sum(refused(result) for result in results)


async def test_three_flooding_accounts_never_lock_out_the_gm_or_a_quiet_player(
    table: Table,
) -> None:
    limits(table)
    dave = table.guild.add_member(table.env.create_user("dave"))
    flooders = [table.alice, table.bob, table.carol]
    flood_refusals = gm_refusals = quiet_refusals = 0
    for step in range(40):  # 20 s: the flood sends 6 a second, the GM 2, the channel gives 5
        flood_refusals += await flood_step(table, flooders)
        gm = await table.gm.slash(table.channel, "roll", expression="1d6")
        gm_refusals += refused(gm)
        if step % 4 == 0:  # a quiet player: one roll every 2 s
            quiet = await dave.slash(table.channel, "roll", expression="1d6")
            quiet_refusals += refused(quiet)
        await table.env.advance_time(STEP)
    assert gm_refusals == 0
    assert quiet_refusals == 0
    assert flood_refusals > 20  # the channel did limit the three accounts
    # Another channel has its own bucket.
    other = table.guild.create_text_channel("arena")
    assert not refused(await table.alice.slash(other, "roll", expression="1d6"))


async def test_many_quiet_players_share_the_reserve_then_wait(table: Table) -> None:
    """The reserve is a bound, not a hole: past it even quiet players wait."""
    limits(table)
    players = [table.guild.add_member(table.env.create_user(f"p{i}")) for i in range(12)]
    answered = [
        not refused(await players[i % 12].slash(table.channel, "roll", expression="1d6"))
        for i in range(31)
    ]
    assert answered == [True] * 30 + [False]


async def test_the_current_combatants_turn_is_never_refused_for_a_flood(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="h90")
    await table.alice.slash(table.channel, "sheet set", attribute="Humor", value=3)
    await table.gm.slash(table.channel, "init start", system="h90", attribute="Humor")
    table.bot.dice = ScriptedDice([7, 14])
    await table.alice.slash(table.channel, "init join", modifier=1)  # 18
    await table.gm.slash(table.channel, "init add", name="Goblin", roll=1)
    table.bot.dice = SeededDice(7)
    first = await table.gm.slash(table.channel, "init next")
    assert "**Hermione**'s turn" in first.response.content
    limits(table)
    dave = table.guild.add_member(table.env.create_user("dave"))
    flooders = [table.bob, table.carol, dave]
    turns = gm_refusals = 0
    for step in range(40):
        await flood_step(table, flooders)
        if step % 4 == 1:  # Alice's turn: she ends it, then the GM plays the goblin's
            ended = await table.alice.slash(table.channel, "init next")
            assert not refused(ended) and "**Goblin**'s turn" in ended.response.content
            turns += 1
        elif step % 4 == 3:
            back = await table.gm.slash(table.channel, "init next")
            gm_refusals += refused(back)
        else:  # Alice rolls too: busy in the channel, she is not one of its quiet players
            await table.alice.slash(table.channel, "roll", expression="1d6")
        await table.env.advance_time(STEP)
    assert turns == 10 and gm_refusals == 0
    assert table.bot.standings.queries > 0  # the channel was crowded: her turn was looked up


async def harry_hits_draco(table: Table) -> Any:
    """Alice's Harry hits Bob's Draco (tests/bot/cogs/coda/test_coda_attack.py, shortened)."""
    alice, bob, channel = table.alice, table.bob, table.channel
    await alice.slash(channel, "sheet create", name="Harry", system="coda")
    await alice.slash(channel, "sheet set", attribute="Strength", value=3)
    await alice.slash(channel, "sheet skill", name="Melee", ranks=2, attribute="Strength")
    await bob.slash(channel, "sheet create", name="Draco", system="coda")
    await bob.slash(channel, "sheet set", attribute="Defence", value=9)
    await bob.slash(channel, "sheet use", character="Draco")
    table.bot.dice = ScriptedDice([3, 2])
    result = await alice.slash(
        channel, "coda attack", skill="Melee", target="Draco", dice=2, modifier=1
    )
    assert "defend?" in result.response.embeds[0].title
    return result


async def test_a_non_defender_pressing_dodge_is_refused_without_reading(table: Table) -> None:
    attack = await harry_hits_draco(table)
    limits(table)
    with counted_queries(table) as queries:
        presses = []
        for press in range(100):
            presses.append(await table.carol.click(attack.response, label="Dodge"))
            if press == 9:
                within_burst = len(queries)
    # Her first 10 are refused by the exchange (only Bob, or the GM, answers it), from the
    # bot's memory of it: the exchange and the channel's GMs are never read (what is read is
    # the gateway's own, once per user: her language, the member record)...
    assert all("answers this attack on Draco" in text_of(p) for p in presses[:10])
    exchange_reads = [
        q
        for q in queries
        if any(t in q for t in ("coda_attacks", "gm_roles", "encounter", "quidditch"))
    ]
    assert exchange_reads == [] and within_burst <= 3, queries
    # ...then by her limit: told once, the rest unanswered, and nothing more is read.
    assert text_of(presses[10]) == "Slow down: try again in 1 s."
    assert not any(p.acknowledged for p in presses[11:])
    assert len(queries) == within_burst
    # Bob, the defender, still answers at once.
    table.bot.dice = ScriptedDice([1, 1, 2, 3])
    dodged = await table.bob.click(attack.response, label="Dodge")
    assert dodged.acknowledged and not refused(dodged)


async def test_after_a_restart_a_bystanders_first_press_alone_reads_the_exchange(
    table: Table,
) -> None:
    attack = await harry_hits_draco(table)
    await table.env.restart_bot(create_bot(table.bot.settings, sync_globally=True))
    first = await table.carol.click(attack.response, label="Dodge")  # read, and remembered
    assert "answers this attack on Draco" in text_of(first)
    with counted_queries(table) as queries:
        again = await table.carol.click(attack.response, label="Dodge")
    assert "answers this attack on Draco" in text_of(again)
    assert queries == []
    # The GM's press is never refused from memory: the database decides, and it answers.
    table.bot.dice = ScriptedDice([1, 1, 2, 3])
    dodged = await table.gm.click(attack.response, label="Dodge")
    assert dodged.acknowledged and "answers this attack" not in text_of(dodged)


@pytest.mark.slow  # seconds; make check runs it
async def test_an_autocomplete_flood_gets_empty_answers_without_reading(table: Table) -> None:
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="h90")
    limits(table, autocomplete=Rate(20, 5.0))
    answers = []
    with counted_queries(table) as queries:
        for call in range(400):
            answers.append(
                await table.alice.autocomplete(table.channel, "sheet show", "character", "her")
            )
            if call == 19:
                within_budget = len(queries)
    assert all(answer for answer in answers[:20])  # Hermione, every time
    assert not any(answers[20:])  # then no suggestions...
    assert len(queries) == within_budget  # ...and no query
    # A bystander's command is untouched; the flooder's budget comes back with time.
    assert not refused(await table.bob.slash(table.channel, "roll", expression="1d6"))
    await table.env.advance_time(1)
    assert await table.alice.autocomplete(table.channel, "sheet show", "character", "her")
