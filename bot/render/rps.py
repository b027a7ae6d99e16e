"""Embeds for RPS checks, resisted actions and sustained actions."""

from __future__ import annotations

import re

import discord

from bot.i18n import N_, _
from bot.render import colours
from bot.render.common import percent, roll_footer, titled
from bot.render.limits import FIELD_VALUE, clip, fit_embed
from bot.services.rps import (
    Base,
    CheckOutcome,
    ResistedOutcome,
    SustainedOutcome,
    SustainedView,
)
from bot.text import UserText, escape_party, number, signed
from engine.systems import rps
from engine.systems.rps import CheckResult, Special, TaskStatus

SPECIAL_LINES = {
    Special.AUTOMATIC_SUCCESS: N_("Double 1s at Base 2 or less: **automatic success**, SL 1."),
    Special.CRITICAL_SUCCESS: N_("Double 1s: **critical success**, SL +5."),
    Special.AUTOMATIC_FAILURE: N_("Double 10s: **automatic failure**, SL 0."),
    Special.CRITICAL_FAILURE: N_("Double 10s: **critical failure** (a fumble)."),
}
_BASE_PART = re.compile(r"Base (?P<value>-?\d+)")
_MODIFIER_PART = re.compile(r"modifier (?P<value>[+−-]?\d+)")
_DIFFICULTY_PART = re.compile(r"(?P<name>.+) (?P<value>[+−-]?\d+)")


def part_text(part: str) -> str:
    """One part of a Base's breakdown in the current language (the service writes them in
    English, as the roll log keeps them); the rest names the player's attribute or skill
    ("Stealth 10"), so it is shown escaped."""
    if match := _BASE_PART.fullmatch(part):
        return _("Base {value}", value=match["value"])
    if match := _MODIFIER_PART.fullmatch(part):
        return _("modifier {value}", value=match["value"])
    match = _DIFFICULTY_PART.fullmatch(part)
    if match and any(match["name"] == d.name for d in rps.DIFFICULTIES):
        return f"{_(match['name'])} {match['value']}"
    return str(UserText(part))


def parts_text(text: str) -> str:
    """A `` + ``-joined breakdown, each part in the current language."""
    return " + ".join(part_text(p) for p in text.split(" + "))


def colour_of(result: CheckResult) -> discord.Colour:
    if result.special is Special.CRITICAL_SUCCESS:
        return colours.GREAT_SUCCESS
    if result.special is Special.CRITICAL_FAILURE:
        return colours.DISASTER
    return colours.SUCCESS if result.success else colours.FAILURE


def base_line(base: Base) -> str:
    head = "**" + _("Base {value}", value=number(base.value)) + "**"
    if base.parts == (f"Base {base.value}",):
        return head
    return f"{head} = {' + '.join(part_text(p) for p in base.parts)}"


def chance_line(chance: float) -> str:
    return _("Chance: {chance} of SL ≥ 1", chance=percent(chance))


def check_lines(result: CheckResult) -> list[str]:
    """How the SL came about: the dice, the subtraction and any double."""
    if result.granted:
        return [
            _("Automatic success (the GM sees no reasonable chance of failure): **SL 1**, no roll.")
        ]
    if result.forgone:
        return [_("Roll forgone (Base above 15): **SL 1**, and no critical either way.")]
    first, second = result.faces
    raw = result.base - first - second
    sl = _(
        "SL = {base} − {dice} = {raw}",
        base=number(result.base),
        dice=first + second,
        raw=number(raw),
    )
    lines = [f"2d10: [{first}] [{second}] → {sl}"]
    if result.special is not None:
        lines.append(_(SPECIAL_LINES[result.special]))
    lines.append(
        _("**SL {sl}** — {verdict}.", sl=number(result.success_level), verdict=_verdict(result))
    )
    return lines


def _verdict(result: CheckResult) -> str:
    if result.success:
        return _("success, {reading}", reading=_(result.label))
    if result.success_level == 0:
        return _("failure, but barely (a retry is usually allowed)")
    return _("failure")


def _footer(embed: discord.Embed, roller: str, character: str | None, secret: bool) -> None:
    roll_footer(embed, roller, "RPS", secret=secret, character=UserText.of(character))


def check_embed(outcome: CheckOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    embed = discord.Embed(
        title=titled(
            "🎲 "
            + _("SL {sl} — {reading}", sl=number(result.success_level), reading=_(result.label)),
            outcome.label,
        ),
        description="\n".join(
            [base_line(outcome.base), *check_lines(result), chance_line(outcome.chance)]
        ),
        colour=colour_of(result),
    )
    _footer(embed, roller, outcome.base.character, outcome.secrecy.secret)
    return fit_embed(embed)


def _party(name: str, result: CheckResult) -> str:
    faces = " ".join(f"[{f}]" for f in result.faces) or _("forgone")
    special = f" ({_(result.special.label)})" if result.special else ""
    return _(
        "{name}: Base {base}, {faces} → **SL {sl}**{special}",
        name=escape_party(name),
        base=result.base,
        faces=faces,
        sl=number(result.success_level),
        special=special,
    )


def resisted_embed(outcome: ResistedOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    if result.winner is not None:
        winner, sl = escape_party(result.winner), number(result.success_level)  # type: ignore[arg-type]
        title = "⚔️ " + _("{winner} wins — SL {sl}", winner=winner, sl=sl)
        colour = colours.SUCCESS
        summary = _(
            "**{winner}** has the highest SL; their new SL is the highest minus the second "
            "highest: **{sl}**.",
            winner=winner,
            sl=sl,
        )
    else:
        rounds = len(result.rounds)
        title = "⚔️ " + _("Tie after {count} rounds", count=rounds)
        colour = colours.PARTIAL
        tied = ", ".join(escape_party(name) for name in result.tied)
        summary = _("Still tied after {count} rounds: {tied}.", count=rounds, tied=tied)
    summary += "\n" + _resisted_chance_line(outcome)
    embed = discord.Embed(title=titled(title, outcome.label), description=summary, colour=colour)
    for index, round_ in enumerate(result.rounds, start=1):
        name = _("Round 1") if index == 1 else _("Roll-off {count}", count=index - 1)
        value = "\n".join(_party(p.name, p.check) for p in round_)
        embed.add_field(name=name, value=clip(value, FIELD_VALUE), inline=False)
    sources = "\n".join(
        f"{escape_party(name)}: {parts_text(source)}" for name, source in outcome.sources.items()
    )
    embed.add_field(name=_("Bases"), value=clip(sources, FIELD_VALUE), inline=False)
    _footer(embed, outcome.rollers or roller, None, outcome.secrecy.secret)
    return fit_embed(embed)


def _resisted_chance_line(outcome: ResistedOutcome) -> str:
    chances = outcome.chances
    if chances is None:
        return _("Chance: shown for up to {count} parties.", count=rps.MAX_CHANCE_PARTIES)
    shown = [
        _("{name} wins {chance}", name=escape_party(clip(name, 40)), chance=percent(p))
        for name, p in chances.wins.items()
    ]
    if chances.tie >= 0.001:
        shown.append(_("tie {chance}", chance=percent(chances.tie)))
    return clip(_("Chance: {chances}", chances=" · ".join(shown)), 1500)


STATUS_ICONS = {TaskStatus.IN_PROGRESS: "⏳", TaskStatus.COMPLETE: "✅", TaskStatus.FAILED: "💥"}
ABANDONED_ICON = "⏹️"


def _task_lines(view: SustainedView) -> list[str]:
    task = view.task
    lines = [
        _(
            "Success Pool **{pool}** / Goal **{goal}** after {checks} checks.",
            pool=task.pool,
            goal=task.goal,
            checks=task.checks,
        )
    ]
    if task.no_loss:
        lines.append(_("No loss: a failed check leaves the pool as it is."))
    else:
        lines.append(
            _(
                "A failed check costs 1; it fails if the pool falls below −{goal} or on a "
                "critical failure.",
                goal=task.goal,
            )
        )
    state = _("abandoned") if view.abandoned else _(task.status.label)
    status = f"{_icon(view)} **{state}**"
    if task.reason is not None:
        status += f": {_(task.reason.label)}"
    lines.append(status)
    return lines


def _icon(view: SustainedView) -> str:
    return ABANDONED_ICON if view.abandoned else STATUS_ICONS[view.task.status]


def _status_colour(view: SustainedView) -> discord.Colour:
    if view.abandoned:
        return colours.NEUTRAL
    return {
        TaskStatus.IN_PROGRESS: colours.INFO,
        TaskStatus.COMPLETE: colours.GREAT_SUCCESS,
        TaskStatus.FAILED: colours.DISASTER,
    }[view.task.status]


def sustained_embed(view: SustainedView, *, heading: str | None = None) -> discord.Embed:
    heading = _("Sustained action") if heading is None else heading
    started = _("Started by {player}.", player=f"<@{view.started_by}>")
    if view.participants:
        who = ", ".join(f"<@{user_id}>" for user_id in view.participants)
        started += "\n" + _("Participants: {who}", who=who)
    embed = discord.Embed(
        title=titled(f"{_icon(view)} {heading}", view.label),
        description="\n".join([*_task_lines(view), started]),
        colour=_status_colour(view),
    )
    if view.log:
        lines = [
            _(
                "{name}: Base {base} → SL {sl} ({change}, pool {pool})",
                name=entry["name"],
                base=entry["base"],
                sl=number(entry["sl"]),
                change=signed(entry["change"]),
                pool=entry["pool"],
            )
            for entry in view.log[-10:]
        ]
        embed.add_field(name=_("Latest checks"), value=clip("\n".join(lines), FIELD_VALUE))
    embed.set_footer(
        text=_("RPS sustained action")
        + " · "
        + (
            _("/rps sustained roll adds a check")
            if view.task.status is TaskStatus.IN_PROGRESS and not view.abandoned
            else _("/rps sustained start begins another")
        )
    )
    return fit_embed(embed)


def sustained_roll_embed(outcome: SustainedOutcome, roller: str) -> discord.Embed:
    step = outcome.roll
    view = outcome.view
    embed = discord.Embed(
        title=titled(
            f"{STATUS_ICONS[view.task.status]} "
            + _(
                "SL {sl} — pool {pool}/{goal}",
                sl=number(step.check.success_level),
                pool=view.task.pool,
                goal=view.task.goal,
            ),
            outcome.label,
        ),
        description="\n".join(
            [base_line(outcome.base), *check_lines(step.check), chance_line(outcome.chance)]
        ),
        colour=_status_colour(view)
        if view.task.status is not TaskStatus.IN_PROGRESS
        else colour_of(step.check),
    )
    embed.add_field(
        name=_("Success Pool"),
        value=f"{number(step.before.pool)} {signed(step.change)} → **{number(view.task.pool)}** "
        f"/ {view.task.goal}",
    )
    embed.add_field(name=_("Status"), value=_task_lines(view)[-1])
    _footer(embed, roller, outcome.base.character, outcome.secrecy.secret)
    return fit_embed(embed)
