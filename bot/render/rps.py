"""Embeds for RPS checks, resisted actions and sustained actions."""

from __future__ import annotations

import discord

from bot.render import colours
from bot.render.common import number, percent, roll_footer, signed, titled
from bot.render.limits import FIELD_VALUE, clip, fit_embed
from bot.services.rps import (
    Base,
    CheckOutcome,
    SustainedOutcome,
    SustainedView,
)
from bot.services.rps_resisted import ResistedOutcome
from bot.text import escape, escape_party
from engine.systems import rps
from engine.systems.rps import CheckResult, Special, TaskStatus

SPECIAL_LINES = {
    Special.AUTOMATIC_SUCCESS: "Double 1s at Base 2 or less: **automatic success**, SL 1.",
    Special.CRITICAL_SUCCESS: "Double 1s: **critical success**, SL +5.",
    Special.AUTOMATIC_FAILURE: "Double 10s: **automatic failure**, SL 0.",
    Special.CRITICAL_FAILURE: "Double 10s: **critical failure** (a fumble).",
}


def colour_of(result: CheckResult) -> discord.Colour:
    if result.special is Special.CRITICAL_SUCCESS:
        return colours.GREAT_SUCCESS
    if result.special is Special.CRITICAL_FAILURE:
        return colours.DISASTER
    return colours.SUCCESS if result.success else colours.FAILURE


def base_line(base: Base) -> str:
    if base.parts == (f"Base {base.value}",):
        return f"**Base {number(base.value)}**"
    return f"**Base {number(base.value)}** = {' + '.join(base.parts)}"


def chance_line(chance: float) -> str:
    return f"Chance: {percent(chance)} of SL ≥ 1"


def check_lines(result: CheckResult) -> list[str]:
    """How the SL came about: the dice, the subtraction and any double."""
    if result.granted:
        return [
            "Automatic success (the GM sees no reasonable chance of failure): **SL 1**, no roll."
        ]
    if result.forgone:
        return ["Roll forgone (Base above 15): **SL 1**, and no critical either way."]
    first, second = result.faces
    raw = result.base - first - second
    sl = f"SL = {number(result.base)} − {first + second} = {number(raw)}"
    lines = [f"2d10: [{first}] [{second}] → {sl}"]
    if result.special is not None:
        lines.append(SPECIAL_LINES[result.special])
    lines.append(f"**SL {number(result.success_level)}** — {_verdict(result)}.")
    return lines


def _verdict(result: CheckResult) -> str:
    if result.success:
        return f"success, {result.label}"
    if result.success_level == 0:
        return "failure, but barely (a retry is usually allowed)"
    return "failure"


def _footer(embed: discord.Embed, roller: str, character: str | None, secret: bool) -> None:
    roll_footer(embed, roller, "RPS", secret=secret, character=character)


def check_embed(outcome: CheckOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    embed = discord.Embed(
        title=titled(f"🎲 SL {number(result.success_level)} — {result.label}", outcome.label),
        description="\n".join(
            [base_line(outcome.base), *check_lines(result), chance_line(outcome.chance)]
        ),
        colour=colour_of(result),
    )
    _footer(embed, roller, outcome.base.character, outcome.secrecy.secret)
    return fit_embed(embed)


def _party(name: str, result: CheckResult) -> str:
    faces = " ".join(f"[{f}]" for f in result.faces) or "forgone"
    special = f" ({result.special.label})" if result.special else ""
    return (
        f"{escape_party(name)}: Base {result.base}, {faces} → "
        f"**SL {number(result.success_level)}**{special}"
    )


def resisted_embed(outcome: ResistedOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    if result.winner is not None:
        title = f"⚔️ {escape_party(result.winner)} wins — SL {number(result.success_level)}"
        colour = colours.SUCCESS
        summary = (
            f"**{escape_party(result.winner)}** has the highest SL; their new SL is the highest "
            f"minus the second highest: **{number(result.success_level)}**."
        )
    else:
        title = f"⚔️ Tie after {len(result.rounds)} rounds"
        colour = colours.PARTIAL
        tied = ", ".join(escape_party(name) for name in result.tied)
        summary = f"Still tied after {len(result.rounds)} rounds: {tied}."
    summary += "\n" + _resisted_chance_line(outcome)
    embed = discord.Embed(title=titled(title, outcome.label), description=summary, colour=colour)
    for index, round_ in enumerate(result.rounds, start=1):
        name = "Round 1" if index == 1 else f"Roll-off {index - 1}"
        value = "\n".join(_party(p.name, p.check) for p in round_)
        embed.add_field(name=name, value=clip(value, FIELD_VALUE), inline=False)
    sources = "\n".join(
        f"{escape_party(name)}: {escape(source)}" for name, source in outcome.sources.items()
    )
    embed.add_field(name="Bases", value=clip(sources, FIELD_VALUE), inline=False)
    _footer(embed, outcome.rollers or roller, None, outcome.secrecy.secret)
    return fit_embed(embed)


def _resisted_chance_line(outcome: ResistedOutcome) -> str:
    chances = outcome.chances
    if chances is None:
        return f"Chance: shown for up to {rps.MAX_CHANCE_PARTIES} parties."
    shown = [f"{clip(name, 40)} wins {percent(p)}" for name, p in chances.wins.items()]
    if chances.tie >= 0.001:
        shown.append(f"tie {percent(chances.tie)}")
    return clip("Chance: " + " · ".join(shown), 1500)


STATUS_ICONS = {TaskStatus.IN_PROGRESS: "⏳", TaskStatus.COMPLETE: "✅", TaskStatus.FAILED: "💥"}
ABANDONED_ICON = "⏹️"


def _task_lines(view: SustainedView) -> list[str]:
    task = view.task
    lines = [f"Success Pool **{task.pool}** / Goal **{task.goal}** after {task.checks} checks."]
    if task.no_loss:
        lines.append("No loss: a failed check leaves the pool as it is.")
    else:
        lines.append(
            f"A failed check costs 1; it fails if the pool falls below −{task.goal} "
            "or on a critical failure."
        )
    status = f"{_icon(view)} **{'abandoned' if view.abandoned else task.status.label}**"
    if task.reason is not None:
        status += f": {task.reason.label}"
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


def sustained_embed(view: SustainedView, *, heading: str = "Sustained action") -> discord.Embed:
    embed = discord.Embed(
        title=titled(f"{_icon(view)} {heading}", view.label),
        description="\n".join([*_task_lines(view), f"Started by <@{view.started_by}>."]),
        colour=_status_colour(view),
    )
    if view.log:
        lines = [
            f"{entry['name']}: Base {entry['base']} → SL {number(entry['sl'])} "
            f"({signed(entry['change'])}, pool {entry['pool']})"
            for entry in view.log[-10:]
        ]
        embed.add_field(name="Latest checks", value=clip("\n".join(lines), FIELD_VALUE))
    embed.set_footer(
        text="RPS sustained action · "
        + (
            "/rps sustained roll adds a check"
            if view.task.status is TaskStatus.IN_PROGRESS and not view.abandoned
            else "/rps sustained start begins another"
        )
    )
    return fit_embed(embed)


def sustained_roll_embed(outcome: SustainedOutcome, roller: str) -> discord.Embed:
    step = outcome.roll
    view = outcome.view
    embed = discord.Embed(
        title=titled(
            f"{STATUS_ICONS[view.task.status]} SL {number(step.check.success_level)} — "
            f"pool {view.task.pool}/{view.task.goal}",
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
        name="Success Pool",
        value=f"{number(step.before.pool)} {signed(step.change)} → **{number(view.task.pool)}** "
        f"/ {view.task.goal}",
    )
    embed.add_field(name="Status", value=_task_lines(view)[-1])
    _footer(embed, roller, outcome.base.character, outcome.secrecy.secret)
    return fit_embed(embed)
