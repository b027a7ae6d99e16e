"""Discord's message and embed limits: the stand-in refuses what Discord would refuse (400)."""

from __future__ import annotations

from typing import Any


def message_errors(body: dict[str, Any]) -> list[str]:
    """Every reason Discord would answer ``body`` with "Invalid Form Body"."""
    errors: list[str] = []
    content = body.get("content")
    if content is not None and len(str(content)) > 2000:
        errors.append("content longer than 2000")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        errors.append("more than 10 embeds")
    total = 0
    for index, embed in enumerate(embeds):
        for problem in embed_errors(embed):
            errors.append(f"embeds[{index}]: {problem}")
        total += embed_length(embed)
    if total > 6000:
        errors.append(f"embeds total {total} characters > 6000")
    components = body.get("components") or []
    if len(components) > 5 and not (int(body.get("flags") or 0) & (1 << 15)):
        errors.append("more than 5 action rows")
    for row in components:
        if row.get("type") == 1 and len(row.get("components") or []) > 5:
            errors.append("more than 5 components in a row")
        for item in row.get("components") or []:
            if len(item.get("label") or "") > 80:
                errors.append("button label longer than 80")
            if len(item.get("custom_id") or "") > 100:
                errors.append("custom_id longer than 100")
    if (
        not content
        and not embeds
        and not components
        and "flags" not in body
        and not body.get("attachments")
    ):
        errors.append("cannot send an empty message")
    return errors


def embed_length(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for field in embed.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    return total


def embed_errors(embed: dict[str, Any]) -> list[str]:
    errors: list[str] = []
    if len(embed.get("title") or "") > 256:
        errors.append("title longer than 256")
    if len(embed.get("description") or "") > 4096:
        errors.append("description longer than 4096")
    fields = embed.get("fields") or []
    if len(fields) > 25:
        errors.append("more than 25 fields")
    for index, field in enumerate(fields):
        name, value = field.get("name"), field.get("value")
        if not name or len(name) > 256:
            errors.append(f"fields[{index}].name empty or longer than 256")
        if not value or len(value) > 1024:
            errors.append(f"fields[{index}].value empty or longer than 1024")
    footer = embed.get("footer")
    if footer is not None and len(footer.get("text") or "") > 2048:
        errors.append("footer longer than 2048")
    author = embed.get("author")
    if author is not None and len(author.get("name") or "") > 256:
        errors.append("author name longer than 256")
    colour = embed.get("color")
    if colour is not None and not (isinstance(colour, int) and 0 <= colour <= 0xFFFFFF):
        errors.append(f"color {colour!r} is not 0..0xFFFFFF")
    if embed_length(embed) == 0 and not embed.get("image") and not embed.get("thumbnail"):
        errors.append("empty embed")
    return errors
