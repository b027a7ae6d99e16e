"""Discord's embed limits, and the one helper that keeps any embed within them.

Anything cut is cut with "…" and the footer says so, rather than the send failing with a
400 from Discord (which would lose a reply whose transaction already committed).
"""

from __future__ import annotations

from typing import Any, cast

import discord

from bot.i18n import N_, _

TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
TOTAL = 6000
MESSAGE = 2000

TRUNCATED_NOTE = N_("(shortened to fit Discord's limits)")


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in "…" when it was cut."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Return ``embed`` cut down to every Discord limit (a new embed only when something is cut)."""
    note = _(TRUNCATED_NOTE)
    if _fits(embed, len(note) + len(" · ")):
        return embed  # what the round trip below returns too, for a tenth of its cost
    # Edited in place as a plain dict (EmbedData's keys become optional on the way).
    data = cast("dict[str, Any]", embed.to_dict())
    cut = False

    def take(value: str | None, limit: int) -> str | None:
        nonlocal cut
        if value is None:
            return None
        if len(value) > limit:
            cut = True
            return clip(value, limit)
        return value

    data["title"] = take(data.get("title"), TITLE)
    data["description"] = take(data.get("description"), DESCRIPTION)
    fields = data.get("fields", [])
    if len(fields) > FIELDS:
        cut = True
        fields = fields[:FIELDS]
    data["fields"] = [
        {
            **f,
            "name": take(f.get("name") or "\u200b", FIELD_NAME),
            "value": take(f.get("value") or "\u200b", FIELD_VALUE),
        }
        for f in fields
    ]
    if "footer" in data:
        data["footer"]["text"] = take(data["footer"].get("text"), FOOTER - len(note) - len(" · "))
    if "author" in data:
        data["author"]["name"] = take(data["author"].get("name"), AUTHOR)
    data = {key: value for key, value in data.items() if value is not None}
    fitted = discord.Embed.from_dict(data)
    # The total counts every text together; drop fields from the end, then cut the description.
    budget = TOTAL - len(note) - len(" · ")
    while len(fitted) > budget and fitted.fields:
        cut = True
        fitted.remove_field(len(fitted.fields) - 1)
    if len(fitted) > budget and fitted.description:
        cut = True
        excess = len(fitted) - budget
        fitted.description = clip(fitted.description, max(len(fitted.description) - excess, 1))
    if not cut:
        return embed
    footer = fitted.footer.text or ""
    fitted.set_footer(
        text=f"{footer} · {note}" if footer else note,
        icon_url=fitted.footer.icon_url,
    )
    return fitted


def fits(title: str, description: str, footer: str) -> bool:
    """True when an embed of these texts alone (no field, no author) is one :func:`fit_embed`
    returns as it is: a renderer that wrote them says so from their lengths, rather than
    :func:`fit_embed` reading them back out of the embed (about ten µs a reply, most of it
    discord.py's proxies for the fields, footer and author it has not got)."""
    room = len(_(TRUNCATED_NOTE)) + len(" · ")
    return (
        len(title) <= TITLE
        and len(description) <= DESCRIPTION
        and len(footer) <= FOOTER - room
        and len(title) + len(description) + len(footer) <= TOTAL - room
    )


def _fits(embed: discord.Embed, note: int) -> bool:
    """True when :func:`fit_embed` would cut nothing: every text within its limit, with room
    for the footer's note, and no empty field (the round trip would fill it in). Most
    replies are far below every limit, and checking them costs less than rebuilding them."""
    if len(embed.title or "") > TITLE or len(embed.description or "") > DESCRIPTION:
        return False
    fields = embed.fields
    if len(fields) > FIELDS or any(
        not field.name
        or not field.value
        or len(field.name) > FIELD_NAME
        or len(field.value) > FIELD_VALUE
        for field in fields
    ):
        return False
    if len(embed.footer.text or "") > FOOTER - note or len(embed.author.name or "") > AUTHOR:
        return False
    return len(embed) <= TOTAL - note
