"""Embeds and lines for penalty pools: a change, a level change, and a pool with its log."""

from __future__ import annotations

import discord

from bot.i18n import N_, _, _n
from bot.render import colours
from bot.render.limits import FIELD_VALUE, clip, fit_embed
from bot.services.penalty import KIND_LABELS, PenaltyUpdate, PenaltyView
from bot.text import UserText
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
    return _n("{count} penalty die", "{count} penalty dice", abs(count), count=count)


def level_name(level: PenaltyLevel) -> str:
    return _(level.label)


def change_line(change: PenaltyChange, *, what: str = "") -> str:
    """E.g. "+1 penalty die from drama-die 1s: 3 → 4 (shaken)"."""
    if change.delta == 0:
        return _(
            "No change: the pool stays at **{dice}** ({level})",
            dice=change.after,
            level=level_name(change.level_after),
        )
    sign = "+" if change.delta > 0 else "−"
    text = f"{sign}{dice_count(abs(change.delta))}"
    if what:
        text += f" {what}"
    text += f": {change.before} → **{change.after}** ({level_name(change.level_after)})"
    if change.requested < 0 and change.delta != change.requested:
        text += " — " + _("the pool stops at 0")
    return text


def level_line(character: UserText, change: PenaltyChange) -> str:
    """The announcement of a level change."""
    level = change.level_after
    if level is PenaltyLevel.NONE:
        return _(
            "{icon} **{character}** is free of penalty dice.",
            icon=LEVEL_ICONS[level],
            character=character,
        )
    template = (
        N_("{icon} **{character}** is now **{level}** and cannot act effectively (was {before}).")
        if level is PenaltyLevel.BROKEN
        else N_("{icon} **{character}** is now **{level}** (was {before}).")
    )
    return _(
        template,
        icon=LEVEL_ICONS[level],
        character=character,
        level=level_name(level),
        before=level_name(change.level_before),
    )


def update_embed(update: PenaltyUpdate) -> discord.Embed:
    change = update.change
    what = {
        "add": _("added"),
        "recover": _("recovered"),
        "rest": _("recovered by {reason}", reason=update.reason),
    }.get(update.kind, "")
    lines = [change_line(change, what=what)]
    if update.kind == "add" and update.reason:
        lines.append(_("Reason: {reason}", reason=UserText(update.reason)))
    if update.kind == "rest" and change.delta == 0:
        if change.requested == 0:
            lines.append(_("Less than 3 full hours of rest recovers nothing."))
        else:
            lines.append(
                _(
                    "{reason}: there was nothing to recover.",
                    reason=update.reason.capitalize(),
                )
            )
    if change.level_changed:
        lines.append(level_line(update.character, change))
    embed = discord.Embed(
        title=clip(
            _(
                "{icon} Penalty pool — {character}",
                icon=LEVEL_ICONS[change.level_after],
                character=update.character,
            ),
            256,
        ),
        description="\n".join(lines),
        colour=LEVEL_COLOURS[change.level_after],
    )
    embed.set_footer(text=_("Drama in History · penalty dice join the Rd of every test"))
    return fit_embed(embed)


def show_embed(view: PenaltyView) -> discord.Embed:
    embed = discord.Embed(
        title=clip(
            _(
                "{icon} Penalty pool — {character}",
                icon=LEVEL_ICONS[view.level],
                character=view.character,
            ),
            256,
        ),
        description=_(
            "**{dice}** · level **{level}**",
            dice=dice_count(view.dice),
            level=level_name(view.level),
        ),
        colour=LEVEL_COLOURS[view.level],
    )
    if view.log:
        lines = []
        for line in view.log:
            when = discord.utils.format_dt(line.at, "R")
            # A drama entry's reason ("2 drama-die 1s") only repeats its label and numbers.
            shown = line.reason if line.kind != "drama" else ""
            reason = f" — {UserText(clip(shown, 80))}" if shown else ""
            kind = _(KIND_LABELS.get(line.kind, line.kind))
            by = _("by {user}", user=f"<@{line.user_id}>")
            lines.append(f"{when} {kind}: {line.before} → {line.after} {by}{reason}")
        embed.add_field(name=_("Recent changes"), value=clip("\n".join(lines), FIELD_VALUE))
    else:
        embed.add_field(name=_("Recent changes"), value=_("None yet."))
    embed.set_footer(text=_("Levels: 1–3 distracted · 4–6 shaken · 7–9 stressed · 10+ broken"))
    return fit_embed(embed)
