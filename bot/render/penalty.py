"""Embeds and lines for penalty pools: a change, a level change, and a pool with its log."""

from __future__ import annotations

import discord

from bot.render import colours
from bot.render.limits import FIELD_VALUE, clip, fit_embed
from bot.services.penalty import KIND_LABELS, PenaltyUpdate, PenaltyView
from bot.text import escape
from engine.penalty import PenaltyChange, PenaltyLevel

LEVEL_ICONS = {
    PenaltyLevel.NONE: "🙂",
    PenaltyLevel.DISTRACTED: "😕",
    PenaltyLevel.SHAKEN: "😟",
    PenaltyLevel.STRESSED: "😰",
    PenaltyLevel.BROKEN: "💔",
}
LEVEL_COLOURS = {
    PenaltyLevel.NONE: colours.SUCCESS,
    PenaltyLevel.DISTRACTED: colours.INFO,
    PenaltyLevel.SHAKEN: colours.PARTIAL,
    PenaltyLevel.STRESSED: colours.FAILURE,
    PenaltyLevel.BROKEN: colours.DISASTER,
}


def dice_count(count: int) -> str:
    return f"{count} penalty {'die' if abs(count) == 1 else 'dice'}"


def change_line(change: PenaltyChange, *, what: str = "") -> str:
    """E.g. "+1 penalty die from drama-die 1s: 3 → 4 (shaken)"."""
    if change.delta == 0:
        return f"No change: the pool stays at **{change.after}** ({change.level_after.label})"
    sign = "+" if change.delta > 0 else "−"
    text = f"{sign}{dice_count(abs(change.delta))}"
    if what:
        text += f" {what}"
    text += f": {change.before} → **{change.after}** ({change.level_after.label})"
    if change.requested < 0 and change.delta != change.requested:
        text += " — the pool stops at 0"
    return text


def level_line(character: str, change: PenaltyChange) -> str:
    """The announcement of a level change."""
    level = change.level_after
    if level is PenaltyLevel.NONE:
        return f"{LEVEL_ICONS[level]} **{escape(character)}** is free of penalty dice."
    note = " and cannot act effectively" if level is PenaltyLevel.BROKEN else ""
    return (
        f"{LEVEL_ICONS[level]} **{escape(character)}** is now **{level.label}**{note} "
        f"(was {change.level_before.label})."
    )


def update_embed(update: PenaltyUpdate) -> discord.Embed:
    change = update.change
    what = {
        "add": "added",
        "recover": "recovered",
        "rest": f"recovered by {update.reason}",
    }.get(update.kind, "")
    lines = [change_line(change, what=what)]
    if update.kind == "add" and update.reason:
        lines.append(f"Reason: {escape(update.reason)}")
    if update.kind == "rest" and change.delta == 0:
        if change.requested == 0:
            lines.append("Less than 3 full hours of rest recovers nothing.")
        else:
            lines.append(f"{update.reason.capitalize()}: there was nothing to recover.")
    if change.level_changed:
        lines.append(level_line(update.character, change))
    embed = discord.Embed(
        title=clip(f"{LEVEL_ICONS[change.level_after]} Penalty pool — {update.character}", 256),
        description="\n".join(lines),
        colour=LEVEL_COLOURS[change.level_after],
    )
    embed.set_footer(text="Drama in History · penalty dice join the Rd of every test")
    return fit_embed(embed)


def show_embed(view: PenaltyView) -> discord.Embed:
    embed = discord.Embed(
        title=clip(f"{LEVEL_ICONS[view.level]} Penalty pool — {view.character}", 256),
        description=f"**{dice_count(view.dice)}** · level **{view.level.label}**",
        colour=LEVEL_COLOURS[view.level],
    )
    if view.log:
        lines = []
        for line in view.log:
            when = discord.utils.format_dt(line.at, "R")
            # A drama entry's reason ("2 drama-die 1s") only repeats its label and numbers.
            shown = line.reason if line.kind != "drama" else ""
            reason = f" — {escape(clip(shown, 80))}" if shown else ""
            lines.append(
                f"{when} {KIND_LABELS.get(line.kind, line.kind)}: {line.before} → {line.after}"
                f" by <@{line.user_id}>{reason}"
            )
        embed.add_field(name="Recent changes", value=clip("\n".join(lines), FIELD_VALUE))
    else:
        embed.add_field(name="Recent changes", value="None yet.")
    embed.set_footer(text="Levels: 1–3 distracted · 4–6 shaken · 7–9 stressed · 10+ broken")
    return fit_embed(embed)
