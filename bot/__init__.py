"""Narrator, the Discord bot: cogs, services, storage and rendering around ``engine``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.app import NarratorBot


def create_bot(*args: Any, **kwargs: Any) -> NarratorBot:
    """Build the bot (see :func:`bot.app.create_bot`); imported lazily to keep ``bot`` light."""
    from bot.app import create_bot as _create_bot

    return _create_bot(*args, **kwargs)


__all__ = ["create_bot"]
