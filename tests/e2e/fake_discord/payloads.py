"""Discord API payloads shaped like the real ones, so discord.py parses them unmodified.

Only the fields discord.py reads are filled in, with the types Discord documents
(snowflakes as strings, permissions as decimal strings, ISO-8601 timestamps).
"""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
_counter = itertools.count()

#: Default permissions of @everyone: view, send, read history, embed links, use commands.
EVERYONE_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 14) | (1 << 31)
ALL_PERMISSIONS = (1 << 53) - 1

# Option types of application commands.
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
ATTACHMENT = 11

# Interaction types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5


def snowflake() -> int:
    """A fresh snowflake: time-ordered like Discord's, unique in this process."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def now_iso() -> str:
    return datetime.now(UTC).isoformat()


def user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "global_name": name.title(),
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
        "flags": 0,
    }


def role(role_id: int, name: str, *, permissions: int, position: int) -> dict[str, Any]:
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def member(
    user_payload: dict[str, Any], role_ids: list[int], *, permissions: int
) -> dict[str, Any]:
    return {
        "user": user_payload,
        "nick": None,
        "avatar": None,
        "roles": [str(r) for r in role_ids],
        "joined_at": "2024-01-01T00:00:00+00:00",
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
        # Only interaction payloads carry the computed permissions; the gateway ignores it.
        "permissions": str(permissions),
    }


def text_channel(channel_id: int, guild_id: int, name: str, position: int) -> dict[str, Any]:
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }


def dm_channel(channel_id: int, recipient: dict[str, Any]) -> dict[str, Any]:
    return {"id": str(channel_id), "type": 1, "last_message_id": None, "recipients": [recipient]}


def message(
    *,
    message_id: int,
    channel_id: int,
    guild_id: int | None,
    author: dict[str, Any],
    body: dict[str, Any],
    interaction: dict[str, Any] | None = None,
    application_id: int | None = None,
) -> dict[str, Any]:
    """A message as Discord returns it, built from what the bot sent (``body``)."""
    payload: dict[str, Any] = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": author,
        "content": body.get("content") or "",
        "timestamp": now_iso(),
        "edited_timestamp": None,
        "tts": bool(body.get("tts", False)),
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [{"type": "rich", **e} for e in body.get("embeds") or []],
        "reactions": [],
        "pinned": False,
        "type": 0,
        "flags": int(body.get("flags") or 0),
        "components": body.get("components") or [],
    }
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
    if interaction is not None:
        # A reply to an interaction: discord.py finds the view of a button press through
        # interaction_metadata, exactly as with the real API.
        payload["type"] = 20 if interaction["type"] == APPLICATION_COMMAND else 0
        payload["webhook_id"] = str(application_id)
        payload["application_id"] = str(application_id)
        payload["interaction_metadata"] = {
            "id": interaction["id"],
            "type": interaction["type"],
            "user": interaction["member"]["user"]
            if "member" in interaction
            else interaction["user"],
            "authorizing_integration_owners": interaction.get("authorizing_integration_owners", {}),
        }
    return payload


def edit_message(existing: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """``existing`` with the fields ``body`` sets replaced, as a PATCH does."""
    updated = dict(existing)
    for key in ("content", "components", "flags"):
        if key in body and body[key] is not None:
            updated[key] = body[key]
    if "embeds" in body and body["embeds"] is not None:
        updated["embeds"] = [{"type": "rich", **e} for e in body["embeds"]]
    updated["edited_timestamp"] = now_iso()
    return updated


def command_options(
    definition: dict[str, Any], path: list[str], values: dict[str, Any]
) -> list[dict[str, Any]]:
    """The ``options`` of an interaction for ``/name sub... key=value`` against the synced
    definition, so every value gets the option type Discord would give it."""
    options = definition.get("options") or []
    if path:
        head, rest = path[0], path[1:]
        for option in options:
            if option["name"] == head and option["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP):
                return [
                    {
                        "name": head,
                        "type": option["type"],
                        "options": command_options(option, rest, values),
                    }
                ]
        raise KeyError(f"no subcommand {head!r} in /{definition['name']}")
    by_name = {option["name"]: option for option in options}
    built = []
    for name, value in values.items():
        if name not in by_name:
            raise KeyError(f"/{definition['name']} has no option {name!r}")
        kind = by_name[name]["type"]
        if kind in (USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT):
            value = str(value)
        built.append({"name": name, "type": kind, "value": value})
    missing = [o["name"] for o in options if o.get("required") and o["name"] not in values]
    if missing:
        raise KeyError(f"/{definition['name']} needs option(s) {', '.join(missing)}")
    return built


def find_component(message_payload: dict[str, Any], *, custom_id: str | None, label: str | None):
    """The first component in a message whose custom_id or label matches."""

    def walk(components: list[dict[str, Any]]):
        for component in components:
            yield component
            yield from walk(component.get("components") or [])
            if isinstance(component.get("accessory"), dict):
                yield component["accessory"]

    for component in walk(message_payload.get("components") or []):
        if "custom_id" not in component:
            continue
        if custom_id is not None and component["custom_id"] == custom_id:
            return component
        if label is not None and label in (component.get("label") or ""):
            return component
    raise KeyError(f"no component with custom_id={custom_id!r} label={label!r} in the message")


def leaf_options(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The value options of an interaction, under any subcommand (group)."""
    while options and options[0]["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP):
        options = options[0].get("options") or []
    return options
