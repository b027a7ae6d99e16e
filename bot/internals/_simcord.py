"""SimCord's internals (the offline console), behind the accessor :mod:`bot.internals` lists."""

from __future__ import annotations

from typing import Any


def simcord_message(reply: Any) -> Any:
    """The stored message behind a SimCord reply (``ResponseMessage``); ``reply`` itself
    when it is not one (a channel message is already the message)."""
    return getattr(reply, "_message", reply)
