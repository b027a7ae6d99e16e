"""The bot records who plays where and who is a GM there (for the web), writing only changes."""

from __future__ import annotations

import pytest

from bot.services.access import NotVisible, channel_for
from bot.services.members import actor_for, guild_ids_of, places_of
from tests.conftest import Table


async def test_a_command_records_its_player_once_and_a_gm_as_gm(table: Table) -> None:
    records = table.bot.member_records
    await table.alice.slash(table.channel, "roll", expression="1d6")
    await table.gm.slash(table.channel, "roll", expression="1d6")
    await records.settle()
    assert records.writes == 2
    for _ in range(3):  # nothing changed: no write at all
        await table.alice.slash(table.channel, "roll", expression="2d6")
    await records.settle()
    assert records.writes == 2
    [alice] = await places_of(table.bot.db, table.alice.id)
    assert alice.guild_id == table.guild.id and alice.guild_name == "Campaign"
    assert not alice.gm and alice.channels == ((table.channel.id, "table"),)
    [gm] = await places_of(table.bot.db, table.gm.id)
    assert gm.gm
    assert await guild_ids_of(table.bot.db, table.bob.id) == frozenset()


async def test_a_new_channel_or_role_is_written_and_the_actor_follows_it(table: Table) -> None:
    records = table.bot.member_records
    await table.bob.slash(table.channel, "roll", expression="1d6")
    arena = table.guild.create_text_channel("arena")
    await table.bob.slash(arena, "roll", expression="1d6")
    await records.settle()
    [bob] = await places_of(table.bot.db, table.bob.id)
    assert {name for _id, name in bob.channels} == {"table", "arena"}
    user = table.env.create_user("dave")
    dave = table.guild.add_member(user)
    await dave.slash(table.channel, "roll", expression="1d6")
    await records.settle()
    actor = await actor_for(table.bot.db, dave.id, table.guild.id, table.channel.id)
    assert actor is not None and not actor.gm_role
    table.guild.remove_member(dave)  # back with the GM role: the record follows
    dave = table.guild.add_member(user, roles=[table.gm_role])
    await dave.slash(table.channel, "roll", expression="1d6")
    await records.settle()
    actor = await actor_for(table.bot.db, dave.id, table.guild.id, table.channel.id)
    assert actor is not None and actor.gm_role
    assert await actor_for(table.bot.db, table.carol.id, table.guild.id) is None


async def test_a_channel_is_open_to_its_guilds_players_and_says_who_is_gm(table: Table) -> None:
    await table.alice.slash(table.channel, "roll", expression="1d6")
    await table.gm.slash(table.channel, "roll", expression="1d6")
    arena = table.guild.create_text_channel("arena")
    await table.bob.slash(arena, "roll", expression="1d6")
    await table.bot.member_records.settle()
    guilds = frozenset({table.guild.id})
    alice = await channel_for(table.bot.db, table.alice.id, guilds, table.channel.id)
    assert alice.channel_name == "table" and not alice.gm
    assert (await channel_for(table.bot.db, table.gm.id, guilds, table.channel.id)).gm
    gm_in_arena = await channel_for(table.bot.db, table.gm.id, guilds, arena.id)
    assert gm_in_arena.gm and gm_in_arena.channel_name == "arena"  # a GM may look anywhere
    with pytest.raises(NotVisible):  # bob plays in the guild, but never in #table
        await channel_for(table.bot.db, table.bob.id, guilds, table.channel.id)
    with pytest.raises(NotVisible):
        await channel_for(table.bot.db, table.carol.id, guilds, table.channel.id)  # never seen
    with pytest.raises(NotVisible):
        await channel_for(table.bot.db, table.alice.id, frozenset(), table.channel.id)
