"""Embeds for generic notation rolls and the roll history."""

from __future__ import annotations

import discord

from bot.i18n import _
from bot.render import colours
from bot.render.common import roll_footer, titled
from bot.render.limits import DESCRIPTION, clip, fit_embed, fits
from bot.services.rolls import History, NotationOutcome
from bot.text import UserText
from bot.text import number as plain_number
from engine.notation import PoolCount


def notation_embed(outcome: NotationOutcome, roller: str) -> discord.Embed:
    """One ``/roll`` command: every result in the title, each roll's dice in the description,
    and "read as …" first whenever the reading differs from what was typed."""
    command = outcome.roll
    rolls = [roll for part in command.parts for roll in part.rolls]
    results = " · ".join(map(plain_number, command.results))
    title = titled(f"🎲 {results}", outcome.label or UserText.of(command.comment))
    colour = colours.SECRET if outcome.secrecy.secret else colours.NEUTRAL
    if len(rolls) == 1 and not command.parts[0].counts:
        if rolls[0].crit:
            colour = colours.GREAT_SUCCESS
        elif rolls[0].fumble:
            colour = colours.DISASTER
    lines = []
    if command.rewritten:
        lines.append(_("Read as `{reading}`", reading=clip(command.expression, 300)))
    several = len(rolls) > 1
    room = max((DESCRIPTION - 400) // max(len(rolls), 1), 60)  # every roll gets its share
    for part in command.parts:
        for index, roll in enumerate(part.rolls):
            line = _pool_line(roll.breakdown, part.counts[index]) if part.counts else roll.breakdown
            if part.part.comment and several:
                line += f" *{UserText(clip(part.part.comment, 60))}*"
            lines.append(clip(line, room))
    description = clip("\n".join(lines), DESCRIPTION)
    embed = discord.Embed(title=title, description=description, colour=colour)
    notes = []
    if outcome.character:
        values = ", ".join(f"{value.name} {value.value}" for value in outcome.sheet_values)
        notes.append(f"{outcome.character}: {values}")  # a footer: plain text, no markdown
    rolled = _("{roller} rolled {expression}", roller=roller, expression=command.expression)
    roll_footer(embed, rolled, *notes, secret=outcome.secrecy.secret)
    return embed if fits(title, description, embed.footer.text or "") else fit_embed(embed)


def _pool_line(breakdown: str, count: PoolCount) -> str:
    """A pool's dice, then what they count: "successes 3 − failures 1 = **2**"."""
    dice, equals, _total = breakdown.rpartition(" = `")
    dice = dice if equals else breakdown  # d20's sum means nothing for a pool
    counted = _(
        "successes {successes} − failures {failures} = **{net}**",
        successes=count.successes,
        failures=count.failures,
        net=plain_number(count.net),
    )
    if count.botches:
        counted += " · " + _("botches {botches}", botches=count.botches)
    if count.botch:
        counted += " · **" + _("botch") + "**"
    return f"{dice} → {counted}"


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
        label = f" *{UserText(clip(entry.label, 60))}*" if entry.label else ""
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
