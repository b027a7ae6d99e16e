"""Small pieces every renderer shares: percentages, dice lists, labels, roll footers, and the
numbers of :mod:`bot.text` (which services use too, so they live outside the render layer)."""

from __future__ import annotations

from collections.abc import Iterable

import discord
from babel.numbers import format_decimal

from bot.i18n import _, current_language, numbers
from bot.render.limits import FOOTER, TITLE, clip
from bot.text import UserText, number, signed, term

__all__ = ["faces", "fixed", "number", "percent", "roll_footer", "signed", "term", "titled"]


def percent(chance: float) -> str:
    """A chance as a table reads it: "41.7%", never "100.0%" for something short of certain."""
    value = chance * 100
    if 0 < value < 0.1:
        return "<" + numbers.percent(0.001)
    if 99.9 < value < 100:
        return ">" + numbers.percent(0.999)
    return numbers.percent(chance)


def fixed(value: float, pattern: str) -> str:
    """``value`` by a CLDR ``pattern`` ("0.00", "#,##0") with the language's separators:
    unlike :func:`bot.i18n.numbers.decimal`, trailing zeros stay ("2.0 of each face")."""
    return format_decimal(value, format=pattern, locale=current_language())


def faces(values: Iterable[int], *, marks: dict[int, str] | None = None) -> str:
    """Faces as ``[6] [6] [3]``; ``marks`` adds a marker after the face at that index."""
    marks = marks or {}
    return " ".join(f"[{face}]{marks.get(i, '')}" for i, face in enumerate(values))


def titled(title: str, label: UserText | None) -> str:
    """A roll title with the player's label, e.g. "Stealth — sneaking past Filch": the label
    is what the player typed (or a subject naming their skill), so it is only ever shown
    escaped, cut to the title's room."""
    if not label:
        return clip(title, TITLE)
    return clip(f"{title} — {label.shown(max(TITLE - len(title) - 3, 1))}", TITLE)


def roll_footer(
    embed: discord.Embed,
    roller: str,
    *notes: str,
    secret: bool,
    character: UserText | None = None,
) -> None:
    """Who rolled (as which character), the notes, and "secret roll" when it was one: the
    copy a GM is sent of a secret roll says so, though it looks like any other. A footer
    renders no markdown, so the character's name takes its plain form (no backslashes)."""
    shown = character.plain(FOOTER) if character else None
    who = _("{roller} as {character}", roller=roller, character=shown) if shown else roller
    text = " · ".join([who, *notes, *([_("secret roll")] if secret else [])])
    embed.set_footer(text=clip(text, FOOTER))
