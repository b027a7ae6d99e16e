"""A preloaded database (benchmarks/_preload.py, at a tiny scale) is one the bot reads: the
services answer over it as over the rows they wrote themselves."""

from __future__ import annotations

from benchmarks._preload import Shape, preload
from bot.actor import Actor
from bot.services import dice_stats, initiative, macros, rolls, sheets
from bot.storage import Database
from engine.dice import SeededDice
from engine.initiative import Next

GUILD = 4242
BUSY = 777  # a load run's channel: it gets a tenth of the roll log


async def test_the_services_read_a_preloaded_database(any_database_url: str) -> None:
    url = any_database_url  # already migrated: the preload's own migration finds it at head
    done = await preload(url, scale=0.002, guild_id=GUILD, busy_channels=[BUSY])
    shape = Shape.scaled(0.002)
    assert done.rows["roll_log"] == shape.rolls == 2000
    assert done.rows["characters"] == shape.characters
    assert done.rows["initiative_encounters"] == shape.encounters
    player, channel = done.players[0], done.active_channels[0]
    db = Database(url)
    try:
        here = Actor(user_id=player, channel_id=channel, guild_id=GUILD, display_name="p")
        # Five characters: the one chosen with /sheet use in this channel is shown.
        sheet = await sheets.show(db, here)
        assert sheet.name == "Hero 0"
        assert sheet.attributes == {"Strength": 3, "Agility": 4, "Wits": 2}
        panel = await macros.panel(db, here)
        assert panel.character.raw == "Hero 0" and panel.macros
        view = await initiative.show(db, here)
        assert len(view.state.log) == shape.events
        assert view.state.started and isinstance(view.state.log[-1], Next)
        busy = Actor(user_id=player, channel_id=BUSY, guild_id=GUILD, display_name="p")
        history = await rolls.history(db, busy, count=20)
        assert len(history.entries) == 20
        assert history.entries[0].id > history.entries[-1].id  # newest first
        stats = await dice_stats.stats(db, busy)
        assert stats.rows == shape.rolls // 10  # every busy roll is public and counted...
        assert {test.sides for test in stats.tests} >= {20, 6}
        assert stats.uncounted > 0  # ...but "1d20 + 1d4" has no single die size
        # The bot writes after the preloaded ids (PostgreSQL: the sequences were moved on).
        await rolls.roll_notation(
            db, SeededDice(1), busy, expression="1d6", label=None, secret=False
        )
        assert (await rolls.history(db, busy, count=1)).entries[0].id == shape.rolls + 1
    finally:
        await db.dispose()
