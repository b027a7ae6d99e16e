"""CODA embeds: every die (rolling-6s dice marked), the arithmetic, the degree in words with
its colour, the time factor and the chance of success before the roll."""

from __future__ import annotations

import discord

from bot.render import colours
from bot.render.common import faces, percent, signed, titled
from bot.render.limits import clip, fit_embed
from bot.services.coda import (
    CombinedOutcome,
    DamageOutcome,
    ExtendedOutcome,
    OpposedOutcome,
    Roller,
    TaskView,
    TestOutcome,
)
from engine.systems import coda
from engine.systems.coda import Degree, Part

EXPLOSION = "💥"

DEGREE_COLOURS: dict[Degree, discord.Colour] = {
    Degree.DISASTROUS_FAILURE: colours.DISASTER,
    Degree.COMPLETE_FAILURE: colours.FAILURE,
    Degree.FAILURE: colours.FAILURE,
    Degree.MARGINAL_SUCCESS: colours.PARTIAL,
    Degree.COMPLETE_SUCCESS: colours.SUCCESS,
    Degree.SUPERIOR_SUCCESS: colours.GREAT_SUCCESS,
    Degree.EXTRAORDINARY_SUCCESS: colours.GREAT_SUCCESS,
}
DEGREE_ICONS: dict[Degree, str] = {
    Degree.DISASTROUS_FAILURE: "💀",
    Degree.COMPLETE_FAILURE: "❌",
    Degree.FAILURE: "✖️",
    Degree.MARGINAL_SUCCESS: "➖",
    Degree.COMPLETE_SUCCESS: "✅",
    Degree.SUPERIOR_SUCCESS: "🌟",
    Degree.EXTRAORDINARY_SUCCESS: "✨",
}


def dice_text(rolled: tuple[int, ...], base: int) -> str:
    """``[6] [6] 💥[6] 💥[3]``: the dice a rolling-6s run added are marked."""
    shown = faces(rolled[:base])
    if len(rolled) > base:
        shown += " " + " ".join(f"{EXPLOSION}[{face}]" for face in rolled[base:])
    return shown


def _terms(parts: tuple[Part, ...], penalties: tuple[Part, ...]) -> str:
    added = "".join(f" {_op(p.value)} {abs(p.value)} ({p.label})" for p in parts if p.value)
    taken = "".join(f" − {p.value} ({p.label})" for p in penalties if p.value)
    return added + taken


def _op(value: int) -> str:
    return "+" if value >= 0 else "−"


def arithmetic(
    result: coda.TestResult, parts: tuple[Part, ...], penalties: tuple[Part, ...] = ()
) -> str:
    """``2d6 (9) + 3 (attribute) − 2 (attempt 2) = 10 vs TN 15 + 5 (Darkness) = 20``."""
    known = sum(p.value for p in parts)
    extra = result.modifier - known  # e.g. a combined test's helper bonus
    terms = _terms(parts, ())
    if extra:
        terms += f" {_op(extra)} {abs(extra)} (helpers)"
    terms += _terms((), penalties)
    unnamed_penalty = result.penalty - sum(p.value for p in penalties)
    if unnamed_penalty:
        terms += f" − {unnamed_penalty} (penalty)"
    text = f"2d6 ({result.dice_total}){terms} = **{result.total}** vs TN {result.base_tn}"
    if result.conditions:
        text += "".join(f" {_op(c.tn)} {abs(c.tn)} ({c.label})" for c in result.conditions if c.tn)
        text += f" = **{result.tn}**"
    return text


def degree_line(result: coda.TestResult) -> str:
    degree = result.degree
    return (
        f"{DEGREE_ICONS[degree]} **{degree.label}** (margin {signed(result.margin)}) · "
        f"time ×{degree.time_factor:g}"
    )


def ones_note(result: coda.TestResult) -> str | None:
    """What the rolling-1s rule did, if anything."""
    if result.fumble:
        return "🎭 All 1s: a **fumble** (the Narrator rolls on the fumble table)."
    if result.capped:
        return (
            f"🎭 All 1s: the rolling-1s rule (`coda.ones` = {result.ones.label}) makes this "
            f"at most **{result.degree.label}** (the margin alone gave "
            f"{result.natural_degree.label})."
        )
    return None


def _footer(embed: discord.Embed, who: str, secret: bool, extra: str = "") -> None:
    text = f"{who}{extra}"
    if secret:
        text += " · secret roll"
    embed.set_footer(text=clip(text, 2000))


def coda_test_embed(outcome: TestOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    title = titled(
        f"{DEGREE_ICONS[result.degree]} {result.degree.label}",
        outcome.label or outcome.roller.subject,
    )
    lines = [
        f"**Dice:** {dice_text(result.faces, coda.TEST_DICE)}",
        arithmetic(result, outcome.roller.parts, outcome.penalties),
        degree_line(result),
        f"*{result.degree.meaning}*",
    ]
    if note := ones_note(result):
        lines.append(note)
    lines.append(f"Chance: {percent(outcome.chance)}")
    embed = discord.Embed(
        title=title, description="\n".join(lines), colour=DEGREE_COLOURS[result.degree]
    )
    if outcome.difficulty:
        embed.add_field(name="Difficulty", value=f"{outcome.difficulty} ({result.base_tn})")
    if outcome.roller.character:
        embed.add_field(name="Character", value=clip(outcome.roller.name, 1024))
    _footer(embed, roller, outcome.secrecy.secret, f" · CODA {outcome.kind}")
    return fit_embed(embed)


def damage_embed(outcome: DamageOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    title = titled(f"💥 {result.total} damage", outcome.label)
    modifier = f" {_op(result.modifier)} {abs(result.modifier)}" if result.modifier else ""
    lines = [
        f"**Dice:** {dice_text(result.faces, result.count)}",
        f"{result.count}d6 ({sum(result.faces)}){modifier} = **{result.total}**",
    ]
    if result.exploded:
        lines.append(f"{EXPLOSION} Every die showed 6: rolling 6s added {len(result.extra_faces)}.")
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colours.NEUTRAL)
    _footer(embed, roller, outcome.secrecy.secret, " · CODA damage")
    return fit_embed(embed)


def _side_text(side: Roller, result: coda.TestResult) -> str:
    return (
        f"**Dice:** {dice_text(result.faces, coda.TEST_DICE)}\n"
        f"2d6 ({result.dice_total}){_terms(side.parts, ())} = **{result.total}**"
    )


def opposed_embed(outcome: OpposedOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    names = {"a": f"A ({outcome.a.name})", "b": f"B ({outcome.b.name})"}
    if result.winner is None or result.degree is None:
        title = titled("⚖️ Tie", outcome.label)
        summary = f"Both results are {result.a.total}: a tie (RULES.md: the Narrator decides)."
        colour = colours.PARTIAL
    else:
        degree = result.degree
        winning = result.winning
        assert winning is not None
        title = titled(f"{DEGREE_ICONS[degree]} {names[result.winner]} wins", outcome.label)
        summary = (
            f"{names[result.winner]} wins by {result.margin}: **{degree.label}** "
            f"(read against the loser's result {winning.tn}) · time ×{degree.time_factor:g}"
        )
        if note := ones_note(winning):
            summary += "\n" + note
        colour = DEGREE_COLOURS[degree]
    a_win, b_win, tie = outcome.chances
    summary += f"\nChance: A wins {percent(a_win)} · B wins {percent(b_win)} · tie {percent(tie)}"
    embed = discord.Embed(title=title, description=summary, colour=colour)
    embed.add_field(name=clip(f"Side {names['a']}", 256), value=_side_text(outcome.a, result.a))
    embed.add_field(name=clip(f"Side {names['b']}", 256), value=_side_text(outcome.b, result.b))
    _footer(embed, roller, outcome.secrecy.secret, " · CODA opposed test")
    return fit_embed(embed)


def combined_embed(outcome: CombinedOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    leader = result.leader
    title = titled(
        f"{DEGREE_ICONS[leader.degree]} {leader.degree.label}", outcome.label or "Combined test"
    )
    helper_tn = leader.base_tn - coda.COMBINED_HELPER_TN_SHIFT
    lines = []
    for index, (helper, test) in enumerate(zip(outcome.helpers, result.helpers, strict=True), 1):
        lines.append(
            f"**{index}. {clip(helper.name, 80)}** {dice_text(test.faces, coda.TEST_DICE)} → "
            f"{test.total} vs {test.tn}: {test.degree.label} → "
            f"**{signed(test.degree.contribution)}**"
        )
    embed = discord.Embed(
        title=title,
        description="\n".join(
            [
                f"Helpers test at TN {helper_tn}; their sum is **{signed(result.bonus)}**.",
                *lines,
            ]
        ),
        colour=DEGREE_COLOURS[leader.degree],
    )
    leader_lines = [
        f"**Dice:** {dice_text(leader.faces, coda.TEST_DICE)}",
        arithmetic(leader, outcome.leader.parts),
        degree_line(leader),
    ]
    if note := ones_note(leader):
        leader_lines.append(note)
    leader_lines.append(f"Chance: {percent(outcome.chance)}")
    embed.add_field(
        name=clip(f"Leader: {outcome.leader.name}", 256),
        value=clip("\n".join(leader_lines), 1024),
        inline=False,
    )
    if outcome.difficulty:
        embed.add_field(name="Difficulty", value=f"{outcome.difficulty} ({leader.base_tn})")
    _footer(embed, roller, outcome.secrecy.secret, " · CODA combined test")
    return fit_embed(embed)


def _progress(task: coda.ExtendedTask) -> str:
    current = task.current
    interval = f"{task.interval} {task.unit}".strip()
    lines = [
        f"**Total:** {task.total} / {task.aggregate_tn} (aggregate TN)",
        f"**Tests made:** {task.tests} · **Elapsed:** {task.elapsed_text} (interval {interval})",
    ]
    stages = " · ".join(
        f"{'✅' if i < task.stage or task.complete else '▶️' if i == task.stage else '▫️'} "
        f"TN {s.tn}{f' ({s.skill})' if s.skill else ''}"
        for i, s in enumerate(task.stages)
    )
    lines.append(f"**Stages:** {stages}")
    if current is not None:
        skill = f" ({current.skill})" if current.skill else ""
        lines.append(f"**Next:** stage {task.stage + 1}, TN {current.tn}{skill}")
    return "\n".join(lines)


def extended_roll_embed(outcome: ExtendedOutcome, roller: str) -> discord.Embed:
    step = outcome.step
    result = step.test
    before = step.before
    if step.completed:
        title = titled(f"🏁 {before.name}: complete", outcome.label)
        colour = colours.GREAT_SUCCESS
    else:
        title = titled(
            f"{DEGREE_ICONS[result.degree]} {before.name}: stage {before.stage + 1}/"
            f"{len(before.stages)}",
            outcome.label,
        )
        colour = DEGREE_COLOURS[result.degree]
    counted = (
        f"➕ {step.added} added to the total."
        if step.passed
        else "➖ Below the stage's TN: nothing added, but the interval is spent."
    )
    lines = [
        f"**Dice:** {dice_text(result.faces, coda.TEST_DICE)}",
        arithmetic(result, outcome.roller.parts, outcome.penalties),
        degree_line(result),
    ]
    if note := ones_note(result):
        lines.append(note)
    lines += [counted, f"Chance: {percent(outcome.chance)}"]
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colour)
    embed.add_field(name="Progress", value=clip(_progress(step.after), 1024), inline=False)
    if outcome.roller.character:
        embed.add_field(name="Character", value=clip(outcome.roller.name, 1024))
    _footer(embed, roller, outcome.secrecy.secret, " · CODA extended test")
    return fit_embed(embed)


def task_embed(view: TaskView, *, title: str) -> discord.Embed:
    embed = discord.Embed(
        title=clip(f"{title}: {view.task.name}", 256),
        description=_progress(view.task),
        colour=colours.INFO,
    )
    embed.add_field(name="Started by", value=f"<@{view.started_by}>")
    return fit_embed(embed)


def status_embed(views: list[TaskView]) -> discord.Embed:
    if not views:
        return discord.Embed(
            title="Extended tests",
            description="None in progress here. Start one with `/coda extended start`.",
            colour=colours.INFO,
        )
    if len(views) == 1:
        return task_embed(views[0], title="Extended test")
    embed = discord.Embed(title="Extended tests in progress", colour=colours.INFO)
    for view in views:
        embed.add_field(
            name=clip(view.task.name, 256),
            value=clip(f"{_progress(view.task)}\nStarted by <@{view.started_by}>", 1024),
            inline=False,
        )
    return fit_embed(embed)
