"""CODA extended tests' embeds: a stage's roll, a task's progress and the channel's tasks.

Apart from the single tests' embeds (``_rolls``) because a task is its own concept: stages,
time spent, participants.
"""

from __future__ import annotations

import discord

from bot.i18n import N_, _, _n
from bot.render import colours
from bot.render.coda._rolls import (
    DEGREE_COLOURS,
    DEGREE_ICONS,
    character_field,
    footer,
    result_lines,
)
from bot.render.common import titled
from bot.render.limits import clip, fit_embed
from bot.services.coda import (
    ExtendedOutcome,
    TaskView,
)
from bot.text import UserText
from engine.systems import coda


def _time(amount: int, unit: str) -> str:
    """``1 day``, ``4 days``, ``0 units``: the units offered are plurals; none given is "units"."""
    n = amount
    if unit == "rounds":
        return _n("{count} round", "{count} rounds", n, count=n)
    if unit == "minutes":
        return _n("{count} minute", "{count} minutes", n, count=n)
    if unit == "hours":
        return _n("{count} hour", "{count} hours", n, count=n)
    if unit == "days":
        return _n("{count} day", "{count} days", n, count=n)
    if unit == "weeks":
        return _n("{count} week", "{count} weeks", n, count=n)
    if unit == "months":
        return _n("{count} month", "{count} months", n, count=n)
    if not unit:
        return _n("{count} unit", "{count} units", n, count=n)
    return f"{amount} {unit.removesuffix('s') if amount == 1 else unit}"


def _progress(task: coda.ExtendedTask, *, abandoned: bool = False) -> str:
    """Total, tests and stages; an abandoned task shows where it stopped, not a next stage."""
    current = task.current
    tests = _("**Tests made:** {count}", count=task.tests)
    # Game time needs a unit or an interval: with neither, "0 units (each test 1 unit)" says
    # nothing, so only the tests are counted.
    if task.unit or task.interval != 1:
        tests += " · " + _(
            "**Elapsed:** {elapsed} (each test {interval})",
            elapsed=_time(task.elapsed, task.unit),
            interval=_time(task.interval, task.unit),
        )
    lines = [
        _(
            "**Total:** {total} / {aggregate} (aggregate TN)",
            total=task.total,
            aggregate=task.aggregate_tn,
        ),
        tests,
    ]
    here = "⏹️" if abandoned else "▶️"
    stages = " · ".join(
        f"{'✅' if i < task.stage or task.complete else here if i == task.stage else '▫️'} "
        + _("TN {tn}", tn=s.tn)
        + (f" ({s.skill})" if s.skill else "")
        for i, s in enumerate(task.stages)
    )
    lines.append(_("**Stages:** {stages}", stages=stages))
    if abandoned:
        lines.append(
            _(
                "**Abandoned** at stage {stage} of {count}.",
                stage=task.stage + 1,
                count=len(task.stages),
            )
        )
    elif current is not None:
        skill = f" ({current.skill})" if current.skill else ""
        lines.append(
            _("**Next:** stage {stage}, TN {tn}", stage=task.stage + 1, tn=current.tn) + skill
        )
    return "\n".join(lines)


def extended_roll_embed(outcome: ExtendedOutcome, roller: str) -> discord.Embed:
    step = outcome.step
    result = step.test
    before = step.before
    if step.completed:
        title = titled(_("🏁 {name}: complete", name=UserText(before.name)), outcome.label)
        colour = colours.GREAT_SUCCESS
    else:
        title = titled(
            _(
                "{icon} {name}: stage {stage}/{count}",
                icon=DEGREE_ICONS[result.degree],
                name=UserText(before.name),
                stage=before.stage + 1,
                count=len(before.stages),
            ),
            outcome.label,
        )
        colour = DEGREE_COLOURS[result.degree]
    counted = (
        _("➕ {added} added to the total.", added=step.added)
        if step.passed
        else _("➖ Below the stage's TN: nothing added, but the interval is spent.")
    )
    notes = [counted]
    if outcome.turn is not None and (turn := outcome.turn.note):
        notes.append(str(turn))
    description = result_lines(
        result, outcome.roller.parts, outcome.penalties, outcome.chance, *notes
    )
    embed = discord.Embed(title=title, description=description, colour=colour)
    embed.add_field(name=_("Progress"), value=clip(_progress(step.after), 1024), inline=False)
    character_field(embed, outcome.roller)
    footer(embed, roller, outcome.secrecy.secret, "extended test")
    return fit_embed(embed)


def task_embed(view: TaskView, *, title: str) -> discord.Embed:
    """``title`` is an English message id (``N_``), translated here."""
    embed = discord.Embed(
        title=clip(f"{_(title)}: {UserText(view.task.name)}", 256),
        description=_progress(view.task, abandoned=view.abandoned),
        colour=colours.NEUTRAL if view.abandoned else colours.INFO,
    )
    embed.add_field(name=_("Started by"), value=f"<@{view.started_by}>")
    if view.participants:
        embed.add_field(name=_("Participants"), value=clip(_mentions(view.participants), 1024))
    return fit_embed(embed)


def _mentions(user_ids: tuple[int, ...]) -> str:
    return ", ".join(f"<@{user_id}>" for user_id in user_ids)


def status_embed(views: list[TaskView]) -> discord.Embed:
    if not views:
        return discord.Embed(
            title=_("Extended tests"),
            description=_("None in progress here. Start one with `/coda extended start`."),
            colour=colours.INFO,
        )
    if len(views) == 1:
        return task_embed(views[0], title=N_("Extended test"))
    embed = discord.Embed(title=_("Extended tests in progress"), colour=colours.INFO)
    for view in views:
        embed.add_field(
            name=clip(view.task.name, 256),
            value=clip(
                f"{_progress(view.task)}\n"
                + _("Started by {who}", who=f"<@{view.started_by}>")
                + (
                    "\n" + _("Participants: {who}", who=_mentions(view.participants))
                    if view.participants
                    else ""
                ),
                1024,
            ),
            inline=False,
        )
    return fit_embed(embed)
