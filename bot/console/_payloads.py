"""What the console emits for a message the bot sent: one dict per message (its text, embeds,
buttons, whom it may ping), which ``--json`` prints as it is and :mod:`bot.console._text`
turns into readable lines.

Kept apart from the session because it only reads SimCord's messages: an interaction's reply
and a channel message come out in the same shape, whichever command or button caused them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import discord

from bot.internals import simcord_message


def button_labels(message: Any) -> list[Any]:
    """The button labels of a reply (SimCord gives its components as raw dicts) or of a
    channel message (component objects)."""
    labels = []
    for row in message.components:
        if isinstance(row, dict):
            labels += [
                child.get("label")
                for child in row.get("components", [])
                if child.get("type") == discord.ComponentType.button.value
            ]
        else:
            labels += [
                child.label
                for child in getattr(row, "children", [])
                if getattr(child, "label", None)
            ]
    return labels


def disabled_labels(message: Any) -> list[Any]:
    """The labels of the message's disabled buttons (Discord greys them out)."""
    labels = []
    for row in message.components:
        children = (
            row.get("components", []) if isinstance(row, dict) else getattr(row, "children", [])
        )
        for child in children:
            if isinstance(child, dict):
                if child.get("type") == discord.ComponentType.button.value and child.get(
                    "disabled"
                ):
                    labels.append(child.get("label"))
            elif getattr(child, "disabled", False) and getattr(child, "label", None):
                labels.append(child.label)
    return labels


def reply_payload(message: Any) -> dict[str, Any]:
    """An interaction's reply."""
    buttons = button_labels(message)
    payload = _shown(message, ephemeral=bool(message.flags.ephemeral), buttons=buttons)
    payload["allowed_mentions"] = mention_policy(simcord_message(message))
    attachments = getattr(simcord_message(message), "attachments", None)
    if attachments:
        payload["attachments"] = [
            a.get("filename") if isinstance(a, dict) else str(a) for a in attachments
        ]
    return payload


def fingerprint(message: Any) -> str:
    """What a message shows, to tell an edited message from an unchanged one."""
    return json.dumps(
        [message.content, [e.to_dict() for e in message.embeds], len(message.components)],
        sort_keys=True,
        default=str,
    )


def message_payload(message: Any) -> dict[str, Any]:
    """A channel message (not an interaction reply) in the same shape as a reply."""
    return _shown(message, ephemeral=False, buttons=button_labels(message))


def _shown(message: Any, *, ephemeral: bool, buttons: list[Any]) -> dict[str, Any]:
    """What every emitted message carries; ``buttons`` only when it has some."""
    payload: dict[str, Any] = {
        "ephemeral": ephemeral,
        "content": message.content or None,
        "embeds": [embed.to_dict() for embed in message.embeds],
    }
    if buttons:
        payload["buttons"] = buttons
        disabled = disabled_labels(message)
        if disabled:
            payload["disabled"] = disabled
    return payload


def mention_policy(stored: Any) -> dict[str, Any]:
    """Whom a message may ping (its ``allowed_mentions``) and whom it did ping: a check can
    see that user text pings nobody while a turn pings its player."""
    policy = stored.allowed_mentions
    return {
        "everyone": policy.everyone,
        "users": sorted(str(u) for u in policy.users) if policy.users is not None else "all",
        "roles": sorted(str(r) for r in policy.roles) if policy.roles is not None else "all",
        "pinged": [str(u) for u in stored.ping_user_ids]
        + [f"role:{r}" for r in stored.ping_role_ids]
        + (["everyone"] if stored.mention_everyone else []),
    }


def write_attachments(
    folder: Path | None, cdn: Any, message: Any, payload: dict[str, Any]
) -> dict[str, Any]:
    """With ``--save-files``: write the message's attachments, and say where (``saved``)."""
    attachments = simcord_message(message).attachments
    if folder is None or not attachments:
        return payload
    folder.mkdir(parents=True, exist_ok=True)
    saved = []
    for attachment in attachments:
        url, filename = (
            (attachment["url"], attachment["filename"])
            if isinstance(attachment, dict)
            else (attachment.url, attachment.filename)
        )
        data = cdn.get(url)
        if data is None:
            continue
        name = Path(filename).name or "file"
        path = folder / name
        number = 2
        while path.exists():  # never overwrite an earlier reply's file
            path = folder / f"{Path(name).stem}-{number}{Path(name).suffix}"
            number += 1
        path.write_bytes(data)
        saved.append(str(path))
    payload["saved"] = saved
    return payload
