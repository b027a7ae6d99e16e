"""Point discord.py at a REST and gateway proxy (or a local stand-in) instead of Discord."""

from __future__ import annotations

from bot.hosting.config import Settings
from bot.internals import set_endpoints


def apply_endpoints(settings: Settings) -> None:
    """Route REST calls and the gateway through the configured base URLs, when both are set."""
    if settings.discord_api_base and settings.discord_gateway_url:
        set_endpoints(settings.discord_api_base.rstrip("/"), settings.discord_gateway_url)
