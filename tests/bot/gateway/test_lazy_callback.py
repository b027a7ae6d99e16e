"""The callback's returned message is parsed only when read, and then as discord.py would."""

from __future__ import annotations

from typing import Any

import discord
import discord.interactions as interactions
import pytest

from bot.gateway import _lazy_callback as lazy_callback
from bot.gateway._lazy_callback import LazyCallbackResponse
from bot.internals import CallbackResponseHooks
from tests.conftest import Table, embed_of

#: discord.py's own (eager) class, under the accessors of bot.internals.
EAGER = CallbackResponseHooks.__mro__[1]


def spy_on_responses(monkeypatch: pytest.MonkeyPatch) -> list[tuple[LazyCallbackResponse, Any]]:
    """Every lazy response built, with the raw data it was built from."""
    built: list[tuple[LazyCallbackResponse, Any]] = []
    original = LazyCallbackResponse._update

    def _update(self: LazyCallbackResponse, data: Any) -> None:
        built.append((self, data))
        original(self, data)

    monkeypatch.setattr(LazyCallbackResponse, "_update", _update)
    return built


async def test_discord_py_builds_the_lazy_response(table: Table) -> None:
    assert interactions.InteractionCallbackResponse is LazyCallbackResponse
    # Installed twice: still the same class, still a subclass of discord.py's.
    lazy_callback.install_lazy_callbacks()
    assert issubclass(interactions.InteractionCallbackResponse, EAGER)


async def test_the_message_is_unparsed_until_read_and_then_the_same_as_eager(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = spy_on_responses(monkeypatch)
    result = await table.alice.slash(table.channel, "roll", expression="1d20+3 sneak attack")
    [(lazy, data)] = built
    assert data.get("resource", {}).get("message") is not None  # there was a message to parse
    assert lazy._resource is lazy_callback._UNPARSED  # nobody read it: never built

    eager = EAGER(data=data, parent=lazy._parent, state=lazy._state, type=lazy.type)
    for name in ("id", "type", "message_id", "activity_id", "_thinking", "_ephemeral"):
        assert getattr(lazy, name) == getattr(eager, name), name

    message = lazy.resource
    assert isinstance(message, discord.InteractionMessage)
    assert lazy.resource is message  # built once
    assert isinstance(eager.resource, discord.InteractionMessage)
    assert message.id == eager.resource.id == lazy.message_id
    assert message.content == eager.resource.content
    assert [e.to_dict() for e in message.embeds] == [e.to_dict() for e in eager.resource.embeds]
    assert message.embeds[0].to_dict() == embed_of(result).to_dict()
    assert message.flags.value == eager.resource.flags.value
    assert message.channel == eager.resource.channel


def test_no_resource_means_none() -> None:
    response = LazyCallbackResponse.__new__(LazyCallbackResponse)
    response._update({"interaction": {"id": "7", "type": 2}})
    assert response.id == 7 and response.message_id is None
    assert response.resource is None
    response.resource = "set"  # discord.py's own code may assign it: a plain attribute then
    assert response.resource == "set"
