"""Gateway events that change what a member may do in a guild: its roles, owner, channels.

Facts worked out from a guild's cached state (who holds a GM role or Manage Channels in a
channel: :class:`bot.cogs._common.CallerFacts`) are kept between commands and forgotten at
each of these events, as discord.py parses it (before anything else can read the new state).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.internals import gateway_parsers

#: Every event after which discord.py's cached roles, owner, channels or overwrites may differ.
GUILD_STATE_EVENTS = (
    "READY",
    "GUILD_CREATE",
    "GUILD_UPDATE",
    "GUILD_DELETE",
    "GUILD_ROLE_CREATE",
    "GUILD_ROLE_UPDATE",
    "GUILD_ROLE_DELETE",
    "CHANNEL_CREATE",
    "CHANNEL_UPDATE",
    "CHANNEL_DELETE",
    "THREAD_CREATE",
    "THREAD_UPDATE",
    "THREAD_DELETE",
    "THREAD_LIST_SYNC",
)


def on_guild_state_change(client: Any, forget: Callable[[], None]) -> None:
    """Call ``forget()`` whenever ``client`` parses one of :data:`GUILD_STATE_EVENTS`."""
    parsers = gateway_parsers(client)
    for event in GUILD_STATE_EVENTS:
        parsers[event] = _forgetting(parsers[event], forget)


def _forgetting(parse: Callable[[Any], None], forget: Callable[[], None]) -> Callable[[Any], None]:
    def parse_then_forget(data: Any) -> None:
        try:
            parse(data)
        finally:
            forget()  # after the new state is in place (and even if parsing it failed)

    return parse_then_forget
