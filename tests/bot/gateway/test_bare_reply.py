"""A command's plain reply on the wire: one bare POST of the body discord.py would send,
without asking for the message back; anything else, and a refusal to retry, the discord.py
way (a client logged in against an in-process server standing in for Discord)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from typing import Any

import discord
import orjson
import pytest

from bot.gateway import DeadlineResponse
from bot.gateway._deadline import DeadlineFollowup, answer_in_time
from tests.bot.gateway.http_discord import Discord, logged_in_client

ID = 1_234_567_890_123_456_789
EMBED = discord.Embed(title="4d6kh3 + 2", description="[6, 5, 3] + 2 = **16**")


def interaction(client: discord.Client, number: int = 0) -> discord.Interaction:
    """A slash command's interaction, as discord.py builds it from the gateway's payload."""
    data = {
        "id": str(ID + number),
        "type": 2,
        "token": f"tok.en-{number}",
        "application_id": "9",
        "channel_id": "5",
        "version": 1,
        "attachment_size_limit": 8_388_608,
        "locale": "en-US",
        "data": {"id": "77", "name": "roll", "type": 1},
        "user": {"id": "2", "username": "bob", "discriminator": "0", "avatar": None},
    }
    return discord.Interaction(data=data, state=client._connection)


@pytest.fixture
async def client(
    monkeypatch: pytest.MonkeyPatch, discord_server: tuple[Discord, str]
) -> AsyncIterator[discord.Client]:
    _fake, base = discord_server
    async with logged_in_client(
        monkeypatch, base, allowed_mentions=discord.AllowedMentions.none()
    ) as logged:
        yield logged


async def reply(command: discord.Interaction, content: Any = None, **options: Any) -> Any:
    """``send_message`` inside the deadline guard, as a command replies."""
    async with answer_in_time(command, after=60):
        assert isinstance(command.response, DeadlineResponse)
        return await command.response.send_message(content, **options)


def sent(fake: Discord) -> list[tuple[dict[str, str], Any]]:
    """Each callback request's query and body."""
    return [(dict(request.query), orjson.loads(body)) for request, body in fake.callbacks()]


PLAIN_REPLIES = [
    pytest.param((None,), {"embed": EMBED}, id="embed"),
    pytest.param(("*bold* @everyone",), {"ephemeral": True}, id="ephemeral content"),
    pytest.param((None,), {"embeds": [EMBED, EMBED], "silent": True}, id="embeds, silent"),
    pytest.param(
        ("<@2>",),
        {"allowed_mentions": discord.AllowedMentions(users=True), "suppress_embeds": True},
        id="mentions",
    ),
]


@pytest.mark.parametrize(("args", "options"), PLAIN_REPLIES)
async def test_a_plain_reply_is_one_post_of_discord_py_s_body_without_with_response(
    client: discord.Client,
    discord_server: tuple[Discord, str],
    args: tuple[Any, ...],
    options: dict[str, Any],
) -> None:
    fake, _base = discord_server
    command = interaction(client)
    assert await reply(command, *args, **options) is None
    assert command.response.is_done()
    with pytest.raises(discord.InteractionResponded):
        await command.response.send_message("again")
    # The same reply sent by discord.py itself, on another interaction, for its body.
    await discord.InteractionResponse(interaction(client, 1)).send_message(*args, **options)
    (bare_query, bare_body), (library_query, library_body) = sent(fake)
    assert bare_query == {} and library_query == {"with_response": "1"}
    assert bare_body == library_body


async def test_a_reply_with_a_view_asks_for_its_message(
    client: discord.Client, discord_server: tuple[Discord, str]
) -> None:
    """discord.py stores the view by the message's id, which only the answer tells."""
    fake, _base = discord_server
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Again", custom_id="again"))
    answered = await reply(interaction(client), embed=EMBED, view=view)
    assert answered.message_id == 4242
    ((query, body),) = sent(fake)
    assert query == {"with_response": "1"} and body["data"]["components"]


@pytest.mark.parametrize("status", [429, 500, 503])
async def test_a_reply_refused_for_now_is_sent_again_the_discord_py_way(
    client: discord.Client, discord_server: tuple[Discord, str], status: int
) -> None:
    """A rate limit or a server error: discord.py's adapter waits and retries, so the reply
    goes to it (it sends at once, asking for the message, and is answered)."""
    fake, _base = discord_server
    fake.statuses = [status]
    command = interaction(client)
    answered = await reply(command, embed=EMBED)
    assert answered is not None and command.response.is_done()
    (first_query, first), (second_query, second) = sent(fake)
    assert (first_query, second_query) == ({}, {"with_response": "1"}) and first == second


@pytest.mark.parametrize(
    ("status", "error"),
    [(404, discord.NotFound), (403, discord.Forbidden), (400, discord.HTTPException)],
)
async def test_a_reply_refused_for_good_raises_as_discord_py_raises_it(
    client: discord.Client,
    discord_server: tuple[Discord, str],
    status: int,
    error: type[discord.HTTPException],
) -> None:
    fake, _base = discord_server
    fake.statuses = [status]
    command = interaction(client)
    with pytest.raises(error) as raised:
        await reply(command, embed=EMBED)
    assert type(raised.value) is error and raised.value.status == status
    assert len(fake.callbacks()) == 1  # not sent again
    assert not command.response.is_done()  # nothing was answered


def left_in_cycles(make: Any) -> list[type]:
    """The Interaction and response types among what the cyclic collector finds once
    ``make()``'s objects are let go (``gc.DEBUG_SAVEALL`` keeps what it would free)."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        make()
        gc.collect()
        found = [type(thing) for thing in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    kinds = (discord.Interaction, discord.InteractionResponse, DeadlineResponse)
    return [kind for kind in found if issubclass(kind, kinds)]


async def test_an_answered_command_leaves_nothing_for_the_cyclic_collector(
    client: discord.Client,
) -> None:
    """discord.py's response and its interaction point at each other: every command left
    that cycle (and all that hangs off it) to the collector, whose young collections it
    alone triggered. Once answered, the interaction holds a spent response instead."""
    command = interaction(client)
    await reply(command, embed=EMBED)
    spent = command.response
    assert type(spent) is discord.InteractionResponse and spent.is_done()
    with pytest.raises(discord.InteractionResponded):  # answering again still refused
        await spent.send_message("again")
    assert not isinstance(command.followup, DeadlineFollowup)  # discord.py's own, built anew
    held = [command]
    assert left_in_cycles(held.clear) == []
    # discord.py's own response, by contrast, is left in the cycle.
    library = interaction(client, 1)
    await library.response.send_message(embed=EMBED)
    held = [library]
    del library
    assert discord.Interaction in left_in_cycles(held.clear)


async def test_a_deferred_command_keeps_its_deadline_response(client: discord.Client) -> None:
    """A deferral's answer is the follow-up, which must first settle the "thinking"
    message: that response stays in place."""
    command = interaction(client)
    async with answer_in_time(command, after=0):
        await asyncio.sleep(0.05)  # the deferral goes out
    assert isinstance(command.response, DeadlineResponse) and command.response.auto_deferred
    assert isinstance(command.followup, DeadlineFollowup)
