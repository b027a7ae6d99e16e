"""Characters used in a channel (a GM's sheet lookups and autocomplete): chosen there, or the
only character of a player who rolled there; the query reads by channel, not by guild."""

from __future__ import annotations

from bot.actor import Actor
from bot.services import rolls, sheets
from bot.storage import Database
from bot.storage.repositories import characters
from engine.dice import SeededDice

GUILD, HERE, ELSEWHERE = 7, 10, 99


def actor(user_id: int, channel_id: int, guild_id: int = GUILD) -> Actor:
    return Actor(user_id=user_id, channel_id=channel_id, guild_id=guild_id, display_name="x")


async def test_chosen_here_or_a_single_character_that_rolled_here(any_db: Database) -> None:
    dice = SeededDice(5)
    await sheets.create(any_db, actor(1, ELSEWHERE), "Alma", "coda")  # alone, rolls here
    await sheets.create(any_db, actor(2, ELSEWHERE), "Bea", "coda")  # two, rolls here
    await sheets.create(any_db, actor(2, ELSEWHERE), "Bo", "coda")
    await sheets.create(any_db, actor(3, HERE), "Cid", "coda")  # chosen here
    await sheets.create(any_db, actor(4, ELSEWHERE), "Dora", "coda")  # alone, never rolled here
    await sheets.create(any_db, actor(1, HERE, guild_id=8), "Other", "coda")  # another server
    for user in (1, 2):
        await rolls.roll_notation(
            any_db, dice, actor(user, HERE), expression="1d20", label=None, secret=False
        )
    async with any_db.unit_of_work(read_only=True) as session:
        found = await characters.in_channel(session, GUILD, HERE)
    assert [c.name for c in found] == ["Alma", "Cid"]
