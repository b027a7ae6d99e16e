"""``narrator invite``: the OAuth2 URL that adds the bot to a server with what it needs."""

from __future__ import annotations

import base64
import binascii
from urllib.parse import quote, urlencode

import discord

from bot.hosting.config import ConfigError, Settings

SCOPES = ("bot", "applications.commands")


# (discord.Permissions flag, the name Discord shows, why the bot needs it). Interaction
# replies need no permission; only what the bot posts into channels itself does. docs/hosting.md's
# "Invite" table repeats these lines (a test keeps the two in step).
PERMISSIONS = (
    (
        "view_channel",
        "View Channels",
        "see the channel a command was used in, and the GM channel, to post there",
    ),
    (
        "send_messages",
        "Send Messages",
        "post the initiative tracker, and copy secret rolls into the GM channel",
    ),
    (
        "send_messages_in_threads",
        "Send Messages in Threads",
        "the same when the table plays in a thread",
    ),
    (
        "embed_links",
        "Embed Links",
        "those messages are embeds, which a channel message needs this for",
    ),
)


def required_permissions() -> discord.Permissions:
    """Exactly the permissions in :data:`PERMISSIONS`, nothing more."""
    return discord.Permissions(**{flag: True for flag, _name, _why in PERMISSIONS})


def client_id_from_token(token: str) -> int | None:
    """The application's id: a bot token's first segment is it, base64-encoded."""
    first = token.strip().split(".", 1)[0]
    try:
        decoded = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(decoded) if decoded.isdigit() else None


def client_id(settings: Settings) -> int:
    """DISCORD_CLIENT_ID when set, else the id inside DISCORD_TOKEN."""
    if settings.discord_client_id is not None:
        return settings.discord_client_id
    if settings.discord_token is not None and settings.discord_token.get_secret_value().strip():
        found = client_id_from_token(settings.discord_token.get_secret_value())
        if found is not None:
            return found
        raise ConfigError(
            "DISCORD_TOKEN does not look like a bot token (its first part is not the "
            "application id): set DISCORD_CLIENT_ID (General Information > Application ID)."
        )
    raise ConfigError(
        "Neither DISCORD_CLIENT_ID nor DISCORD_TOKEN is set: set one (the application id is "
        "under General Information > Application ID in the developer portal)."
    )


def invite_url(application_id: int) -> str:
    query = urlencode(
        {
            "client_id": application_id,
            "scope": " ".join(SCOPES),
            "permissions": required_permissions().value,
        },
        quote_via=quote,
    )
    return f"https://discord.com/oauth2/authorize?{query}"


def run_invite(settings: Settings) -> int:
    print(invite_url(client_id(settings)))
    return 0
