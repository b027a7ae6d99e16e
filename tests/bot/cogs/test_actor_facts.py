"""``actor_from`` reads the caller's roles once: its facts must be discord.py's own.

:func:`bot.cogs._common.manages_guild` restates ``Member.guild_permissions.manage_guild``
over a roles list already read, and ``actor_from`` shares one ``member.roles`` between the GM
check, the role ids and that; these tests hold both to what discord.py computes itself.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any
from unittest import mock

import discord
import pytest

from bot.cogs._common import actor_from, holds_gm_role, manages_guild
from tests.e2e.fake_discord import payloads as p

GUILD = 1000
OWNER = 5
GM, MANAGER, ADMIN, PLAYER = 7, 8, 9, 10
MANAGE_GUILD = 1 << 5
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4


def _state() -> Any:
    state = mock.MagicMock()
    state.member_cache_flags = discord.MemberCacheFlags.none()
    state.self_id = 1
    state.shard_count = 1
    return state


def _guild(state: Any) -> discord.Guild:
    roles = [
        p.role(GUILD, "@everyone", permissions=p.EVERYONE_PERMISSIONS, position=0),
        p.role(GM, "Game Master", permissions=0, position=1),
        p.role(MANAGER, "Manager", permissions=MANAGE_GUILD | MANAGE_CHANNELS, position=2),
        p.role(ADMIN, "Admin", permissions=ADMINISTRATOR, position=3),
        p.role(PLAYER, "Player", permissions=0, position=4),
    ]
    channel = p.text_channel(2000, GUILD, "table", 0)
    data = {
        "id": str(GUILD),
        "name": "guild",
        "owner_id": str(OWNER),
        "roles": roles,
        "channels": [channel],
        "members": [],
        "features": [],
        "emojis": [],
        "stickers": [],
        "unavailable": False,
    }
    return discord.Guild(data=data, state=state)


def _member(guild: discord.Guild, user_id: int, roles: list[int], timed_out: bool) -> Any:
    data = p.member(p.user(user_id, f"user{user_id}"), roles, permissions=0)
    if timed_out:
        data["communication_disabled_until"] = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    return discord.Member(data=data, guild=guild, state=guild._state)


CASES = [
    (OWNER, [], False),
    (OWNER, [], True),
    (20, [], False),
    (20, [PLAYER], False),
    (20, [MANAGER], False),
    (20, [MANAGER], True),  # a timeout takes Manage Server away
    (20, [ADMIN], False),
    (20, [ADMIN], True),  # not from an administrator
    (20, [GM, PLAYER], False),
    (20, [424242], False),  # a role the guild does not know (not in member.roles)
]


@pytest.mark.parametrize(("user_id", "roles", "timed_out"), CASES)
def test_manages_guild_is_discords_manage_guild(
    user_id: int, roles: list[int], timed_out: bool
) -> None:
    member = _member(_guild(_state()), user_id, roles, timed_out)
    assert member.is_timed_out() is timed_out
    expected = member.guild_permissions.manage_guild
    assert manages_guild(member, member.roles) is expected


@pytest.mark.parametrize(("user_id", "roles", "timed_out"), CASES)
def test_actor_facts_are_read_as_before(user_id: int, roles: list[int], timed_out: bool) -> None:
    guild = _guild(_state())
    member = _member(guild, user_id, roles, timed_out)
    channel = guild.get_channel(2000)
    names = ("Game Master", "gm")
    interaction = SimpleNamespace(
        client=SimpleNamespace(settings=SimpleNamespace(gm_role_names=names)),
        user=member,
        channel=channel,
        channel_id=2000,
        guild_id=GUILD,
        guild=guild,
        extras={},
    )
    actor = actor_from(interaction)  # type: ignore[arg-type]
    assert actor.gm_role is holds_gm_role(member, channel, names)
    assert actor.role_ids == frozenset(role.id for role in member.roles)
    assert actor.manage_guild is member.guild_permissions.manage_guild
    assert actor.display_name == member.display_name


def test_the_cases_cover_both_answers() -> None:
    """The cases above are not all one answer (a test that could not fail)."""
    answers = set()
    for user_id, roles, timed_out in CASES:
        member = _member(_guild(_state()), user_id, roles, timed_out)
        answers.add((member.guild_permissions.manage_guild, holds_gm_role(member, None, ("gm",))))
    assert {True, False} <= {manage for manage, _gm in answers}
    assert {True, False} <= {gm for _manage, gm in answers}
