"""Point discord.py at a REST and gateway proxy (or a local stand-in) instead of Discord."""

from __future__ import annotations

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.config import Settings


def apply_endpoints(settings: Settings) -> None:
    """Route REST calls and the gateway through the configured base URLs, when both are set."""
    if settings.discord_api_base and settings.discord_gateway_url:
        Route.BASE = settings.discord_api_base.rstrip("/")
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)
