"""Embeds for generic notation rolls and the roll history."""

from __future__ import annotations

import discord

from bot.i18n import _
from bot.render import colours
from bot.render.common import roll_footer, titled
from bot.render.limits import DESCRIPTION, clip, fit_embed
from bot.services.rolls import History, NotationOutcome
from bot.text import escape


def notation_embed(outcome: NotationOutcome, roller: str) -> discord.Embed:
    roll = outcome.roll
    title = titled(f"🎲 {roll.total}", outcome.label or roll.comment)
    colour = colours.SECRET if outcome.secrecy.secret else colours.NEUTRAL
    if roll.crit:
        colour = colours.GREAT_SUCCESS
    elif roll.fumble:
        colour = colours.DISASTER
    embed = discord.Embed(title=title, description=clip(roll.breakdown, DESCRIPTION), colour=colour)
    notes = []
    if outcome.character:
        values = ", ".join(f"{value.name} {value.value}" for value in outcome.sheet_values)
        notes.append(f"{outcome.character}: {values}")  # a footer: plain text, no markdown
    rolled = _("{roller} rolled {expression}", roller=roller, expression=roll.expression)
    roll_footer(embed, rolled, *notes, secret=outcome.secrecy.secret)
    return fit_embed(embed)


def history_pages(history: History, *, per_page: int = 10) -> list[discord.Embed]:
    """The history as pages of at most ``per_page`` rolls, each page within the limits."""
    if not history.entries:
        return [
            discord.Embed(
                title=_("Roll history"),
                description=_("No rolls in this channel yet."),
                colour=colours.INFO,
            )
        ]
    lines = []
    for entry in history.entries:
        when = discord.utils.format_dt(entry.created_at, "R")
        # A secret roll's id is what /history reveal takes.
        secret = f" 🔒 #{entry.id}" if entry.secret else ""
        label = f" *{escape(clip(entry.label, 60))}*" if entry.label else ""
        lines.append(
            f"{when} <@{entry.user_id}> **{entry.system}** `{clip(entry.input, 80)}`"
            f" → **{clip(entry.outcome, 120)}**{label}{secret}"
        )
    chunks = [lines[i : i + per_page] for i in range(0, len(lines), per_page)]
    pages = []
    for number, chunk in enumerate(chunks, start=1):
        embed = discord.Embed(
            title=_("Roll history"), description="\n".join(chunk), colour=colours.INFO
        )
        footer = _("Newest first · page {number}/{pages}", number=number, pages=len(chunks))
        if history.includes_secret:
            footer += " · " + _("🔒 secret rolls shown to GMs only")
        elif any(entry.secret for entry in history.entries):
            footer += " · " + _("🔒 your secret rolls are shown to you and the GMs only")
        embed.set_footer(text=footer)
        pages.append(fit_embed(embed))
    return pages
