"""The callers' GM facts are kept between commands, and forgotten at every gateway event that
can change them (bot.cogs._common.CallerFacts, bot.gateway._guild_state).

Each test reads a fact through the real bot's cache, changes the guild through discord.py's
own parser of a gateway event, and reads it again: a cache the event did not reach would give
the old answer.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import discord
import pytest

from bot.app import NarratorBot, create_bot
from bot.gateway import GUILD_STATE_EVENTS, on_guild_state_change
from bot.hosting.config import Settings
from tests.e2e.fake_discord import payloads as p

GUILD, CHANNEL, OWNER, CALLER = 1000, 2000, 5, 20
GM_ROLE, PLAYER_ROLE = 7, 8
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
NAMES = ("Game Master",)


def _guild_payload(*, owner: int = OWNER) -> dict[str, Any]:
    return {
        "id": str(GUILD),
        "name": "guild",
        "owner_id": str(owner),
        "roles": [
            p.role(GUILD, "@everyone", permissions=p.EVERYONE_PERMISSIONS, position=0),
            p.role(GM_ROLE, "Game Master", permissions=0, position=1),
            p.role(PLAYER_ROLE, "Player", permissions=0, position=2),
        ],
        "channels": [p.text_channel(CHANNEL, GUILD, "table", 0)],
        "members": [],
        "features": [],
        "emojis": [],
        "stickers": [],
        "unavailable": False,
    }


@pytest.fixture
def bot(settings: Settings) -> NarratorBot:
    bot = create_bot(settings)
    bot._connection._add_guild_from_data(_guild_payload())  # type: ignore[arg-type]
    return bot


def _facts(bot: NarratorBot, roles: list[int], *, timed_out: bool = False) -> tuple[bool, bool]:
    """``(gm_role, manage_guild)`` of a caller with ``roles``, through the bot's cache."""
    guild = bot.get_guild(GUILD)
    assert guild is not None
    data = p.member(p.user(CALLER, "caller"), roles, permissions=0)
    if timed_out:
        data["communication_disabled_until"] = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    member = discord.Member(data=data, guild=guild, state=bot._connection)  # type: ignore[arg-type]
    member_roles = member.roles
    ids = frozenset(role.id for role in member_roles)
    return bot.caller_facts.of(member, member_roles, ids, guild.get_channel(CHANNEL), NAMES)


def _parse(bot: NarratorBot, event: str, data: dict[str, Any]) -> None:
    bot._connection.parsers[event](data)


async def test_a_fact_is_kept_until_an_event(bot: NarratorBot) -> None:
    assert _facts(bot, [PLAYER_ROLE]) == (False, False)
    assert len(bot.caller_facts) == 1
    assert _facts(bot, [PLAYER_ROLE]) == (False, False)
    assert len(bot.caller_facts) == 1  # read from the cache: no second entry
    assert _facts(bot, [GM_ROLE]) == (True, False)  # other roles: another entry
    assert len(bot.caller_facts) == 2


async def test_a_role_given_manage_channels_makes_a_gm(bot: NarratorBot) -> None:
    assert _facts(bot, [PLAYER_ROLE]) == (False, False)
    role = p.role(PLAYER_ROLE, "Player", permissions=MANAGE_CHANNELS | MANAGE_GUILD, position=2)
    _parse(bot, "GUILD_ROLE_UPDATE", {"guild_id": str(GUILD), "role": role})
    assert _facts(bot, [PLAYER_ROLE]) == (True, True)


async def test_a_renamed_role_is_no_longer_a_gm_role(bot: NarratorBot) -> None:
    assert _facts(bot, [GM_ROLE]) == (True, False)
    role = p.role(GM_ROLE, "Retired", permissions=0, position=1)
    _parse(bot, "GUILD_ROLE_UPDATE", {"guild_id": str(GUILD), "role": role})
    assert _facts(bot, [GM_ROLE]) == (False, False)


async def test_a_deleted_then_created_gm_role(bot: NarratorBot) -> None:
    assert _facts(bot, [GM_ROLE]) == (True, False)
    _parse(bot, "GUILD_ROLE_DELETE", {"guild_id": str(GUILD), "role_id": str(GM_ROLE)})
    assert _facts(bot, [GM_ROLE]) == (False, False)
    role = p.role(GM_ROLE, "Game Master", permissions=0, position=1)
    _parse(bot, "GUILD_ROLE_CREATE", {"guild_id": str(GUILD), "role": role})
    assert _facts(bot, [GM_ROLE]) == (True, False)


async def test_a_channel_overwrite_granting_manage_channels(bot: NarratorBot) -> None:
    assert _facts(bot, [PLAYER_ROLE]) == (False, False)
    channel = p.text_channel(CHANNEL, GUILD, "table", 0)
    channel["permission_overwrites"] = [
        {"id": str(PLAYER_ROLE), "type": 0, "allow": str(MANAGE_CHANNELS), "deny": "0"}
    ]
    _parse(bot, "CHANNEL_UPDATE", channel)
    assert _facts(bot, [PLAYER_ROLE]) == (True, False)


async def test_a_new_owner_manages_the_guild(bot: NarratorBot) -> None:
    assert _facts(bot, [PLAYER_ROLE]) == (False, False)
    _parse(bot, "GUILD_UPDATE", _guild_payload(owner=CALLER))
    assert _facts(bot, [PLAYER_ROLE]) == (True, True)


async def test_a_timed_out_caller_is_never_cached(bot: NarratorBot) -> None:
    role = p.role(PLAYER_ROLE, "Player", permissions=MANAGE_GUILD, position=2)
    _parse(bot, "GUILD_ROLE_UPDATE", {"guild_id": str(GUILD), "role": role})
    assert _facts(bot, [PLAYER_ROLE], timed_out=True) == (False, False)  # a timeout takes it
    assert len(bot.caller_facts) == 0  # it ends with the clock, not with an event
    assert _facts(bot, [PLAYER_ROLE]) == (False, True)


def test_a_channel_outside_the_guilds_cache_is_never_cached(bot: NarratorBot) -> None:
    guild = bot.get_guild(GUILD)
    assert guild is not None
    data = p.member(p.user(CALLER, "caller"), [GM_ROLE], permissions=0)
    member = discord.Member(data=data, guild=guild, state=bot._connection)  # type: ignore[arg-type]
    built = discord.TextChannel(
        state=bot._connection,
        guild=guild,
        data=p.text_channel(CHANNEL, GUILD, "table", 0),  # type: ignore[arg-type]
    )
    roles = member.roles
    facts = bot.caller_facts.of(member, roles, frozenset(r.id for r in roles), built, NAMES)
    assert facts == (True, False)
    assert len(bot.caller_facts) == 0


async def test_every_guild_state_event_forgets(bot: NarratorBot) -> None:
    """Each event is wrapped on the bot's own parsers, after discord.py's (READY and the
    rest included), and forgets even when discord.py's parser raised."""
    seen: list[str] = []
    parsers = bot._connection.parsers

    class Client:
        _connection = bot._connection

    for event in GUILD_STATE_EVENTS:
        parsers[event] = lambda data, event=event: seen.append(event)
    on_guild_state_change(Client(), bot.caller_facts.forget)
    for event in GUILD_STATE_EVENTS:
        _facts(bot, [PLAYER_ROLE])
        assert len(bot.caller_facts) == 1
        parsers[event]({})
        assert len(bot.caller_facts) == 0, event
    assert seen == list(GUILD_STATE_EVENTS)

    def fails(_data: Any) -> None:
        raise KeyError("id")

    parsers["GUILD_UPDATE"] = fails
    on_guild_state_change(Client(), bot.caller_facts.forget)
    _facts(bot, [PLAYER_ROLE])
    with pytest.raises(KeyError):
        parsers["GUILD_UPDATE"]({})
    assert len(bot.caller_facts) == 0
