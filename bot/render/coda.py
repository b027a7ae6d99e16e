"""CODA embeds: every die (rolling-6s dice marked), the arithmetic, the degree in words with
its colour, the time factor and the chance of success before the roll."""

from __future__ import annotations

import discord

from bot.render import colours
from bot.render.common import faces, number, percent, roll_footer, signed, term, titled
from bot.render.limits import DESCRIPTION, clip, fit_embed
from bot.services.coda import (
    CombinedOutcome,
    DamageOutcome,
    ExtendedOutcome,
    Roller,
    TaskView,
    TestOutcome,
)
from bot.services.coda_opposed import OpposedOutcome
from bot.text import escape
from engine.systems import coda
from engine.systems.coda import Degree, Part

EXPLOSION = "💥"
DAMAGE_ICON = "🩸"

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


def _terms(parts: tuple[Part, ...], sign: int = 1) -> str:
    """`` + 3 (Wits) − 2 (untrained)``; ``sign`` −1 for terms that are subtracted."""
    return "".join(f" {term(sign * p.value)} ({escape(p.label)})" for p in parts if p.value)


def _sum(result: coda.TestResult, parts: tuple[Part, ...], penalties: tuple[Part, ...]) -> str:
    """``2d6 (9) + 3 (Wits) − 2 (attempt 2) = **10**``; whatever the parts do not name (a
    combined test's helper bonus, a bare penalty) is shown under its own name."""
    terms = _terms(parts)
    if extra := result.modifier - sum(p.value for p in parts):
        terms += f" {term(extra)} (helpers)"
    terms += _terms(penalties, -1)
    if unnamed := result.penalty - sum(p.value for p in penalties):
        terms += f" − {unnamed} (penalty)"
    return f"2d6 ({result.dice_total}){terms} = **{number(result.total)}**"


def arithmetic(
    result: coda.TestResult, parts: tuple[Part, ...], penalties: tuple[Part, ...] = ()
) -> str:
    """``2d6 (9) + 3 (Wits) − 2 (attempt 2) = **10** vs TN 15 + 5 (Darkness) = **20**``."""
    text = f"{_sum(result, parts, penalties)} vs TN {result.base_tn}"
    if result.conditions:
        text += "".join(f" {term(c.tn)} ({c.label})" for c in result.conditions if c.tn)
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


def result_lines(
    result: coda.TestResult,
    parts: tuple[Part, ...],
    penalties: tuple[Part, ...],
    chance: float,
    *notes: str,
    chance_label: str = "Chance",
) -> str:
    """A whole test: dice, arithmetic, degree and time, the rolling-1s note, ``notes``, and
    the chance of success it had before its dice were rolled (``chance_label`` says when)."""
    lines = [
        f"**Dice:** {dice_text(result.faces, coda.TEST_DICE)}",
        arithmetic(result, parts, penalties),
        degree_line(result),
    ]
    if note := ones_note(result):
        lines.append(note)
    lines += [*notes, f"{chance_label}: {percent(chance)}"]
    return "\n".join(lines)


def _footer(embed: discord.Embed, who: str, secret: bool, kind: str) -> None:
    roll_footer(embed, who, f"CODA {kind}", secret=secret)


def _character_field(embed: discord.Embed, roller: Roller) -> None:
    if roller.character:
        embed.add_field(name="Character", value=clip(escape(roller.name), 1024))


def coda_test_embed(outcome: TestOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    title = titled(
        f"{DEGREE_ICONS[result.degree]} {result.degree.label}",
        outcome.label or outcome.roller.subject,
    )
    notes = [f"*{result.degree.meaning}*"]
    if outcome.turn is not None and (turn := outcome.turn.note):
        notes.append(escape(turn))
    description = result_lines(
        result, outcome.roller.parts, outcome.penalties, outcome.chance, *notes
    )
    embed = discord.Embed(
        title=title, description=description, colour=DEGREE_COLOURS[result.degree]
    )
    if outcome.difficulty:
        embed.add_field(name="Difficulty", value=f"{outcome.difficulty} ({result.base_tn})")
    _character_field(embed, outcome.roller)
    _footer(embed, roller, outcome.secrecy.secret, outcome.kind)
    return fit_embed(embed)


def damage_lines(result: coda.DamageResult) -> list[str]:
    """A damage roll's dice (rolling-6s dice marked) and its sum."""
    modifier = f" {term(result.modifier)}" if result.modifier else ""
    extra = len(result.extra_faces)
    rolled = f"{result.count}d6" + (f" + {extra} extra d6" if extra else "")
    lines = [
        f"**Dice:** {dice_text(result.faces, result.count)}",
        f"{rolled} ({sum(result.faces)}){modifier} = **{number(result.total)}**",
    ]
    if result.exploded:
        added = "one extra die" if extra == 1 else f"{extra} extra dice"
        lines.append(f"{EXPLOSION} Every die showed 6: rolling 6s added {added}.")
    return lines


def damage_embed(outcome: DamageOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    # 💥 marks the extra dice of rolling 6s, so only a roll that has some shows it.
    icon = EXPLOSION if result.exploded else DAMAGE_ICON
    title = titled(f"{icon} {number(result.total)} damage", outcome.label)
    lines = damage_lines(result)
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colours.NEUTRAL)
    _footer(embed, roller, outcome.secrecy.secret, "damage")
    return fit_embed(embed)


def opposed_embed(outcome: OpposedOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    names = {"a": f"A ({escape(outcome.a.name)})", "b": f"B ({escape(outcome.b.name)})"}
    winning = result.winning
    if result.winner is None or winning is None:
        title = titled("⚖️ Tie", outcome.label)
        summary = f"Both results are {result.a.total}: a tie, which the Narrator decides."
        colour = colours.PARTIAL
    else:
        degree = winning.degree
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
    for key, side, test in (("a", outcome.a, result.a), ("b", outcome.b, result.b)):
        dice = dice_text(test.faces, coda.TEST_DICE)
        embed.add_field(
            name=clip(f"Side {names[key]}", 256),
            value=f"**Dice:** {dice}\n{_sum(test, side.parts, ())}",
        )
    _footer(embed, outcome.rollers or roller, outcome.secrecy.secret, "opposed test")
    return fit_embed(embed)


def _helper_lines(outcome: CombinedOutcome, *, named_terms: bool) -> list[str]:
    lines = []
    helpers = zip(outcome.helpers, outcome.result.helpers, outcome.helper_chances, strict=True)
    for index, (helper, test, chance) in enumerate(helpers, 1):
        parts = helper.parts if named_terms else (Part("modifier", helper.modifier),)
        lines.append(
            f"**{index}. {escape(clip(helper.name, 80))}** "
            f"{dice_text(test.faces, coda.TEST_DICE)} · "
            f"{arithmetic(test, parts)}: {DEGREE_ICONS[test.degree]} {test.degree.label} → "
            f"**{signed(test.degree.contribution)}** (chance {percent(chance)})"
        )
    return lines


def combined_embed(outcome: CombinedOutcome, roller: str) -> discord.Embed:
    result = outcome.result
    leader = result.leader
    title = titled(
        f"{DEGREE_ICONS[leader.degree]} {leader.degree.label}", outcome.label or "Combined test"
    )
    head = (
        f"Helpers test at TN {leader.base_tn - coda.COMBINED_HELPER_TN_SHIFT}; "
        f"their sum is **{signed(result.bonus)}**. "
        f"Chance before anyone rolled: {percent(outcome.chance)}."
    )
    description = "\n".join([head, *_helper_lines(outcome, named_terms=True)])
    if len(description) > DESCRIPTION:  # many long names: keep every helper, drop the names
        description = "\n".join([head, *_helper_lines(outcome, named_terms=False)])
    embed = discord.Embed(
        title=title, description=description, colour=DEGREE_COLOURS[leader.degree]
    )
    embed.add_field(
        name=clip(f"Leader: {escape(outcome.leader.name)}", 256),
        value=clip(
            result_lines(
                leader,
                outcome.leader.parts,
                (),
                outcome.leader_chance,
                chance_label=f"Chance with the helpers' {signed(result.bonus)}",
            ),
            1024,
        ),
        inline=False,
    )
    if outcome.difficulty:
        embed.add_field(name="Difficulty", value=f"{outcome.difficulty} ({leader.base_tn})")
    _footer(embed, outcome.rollers or roller, outcome.secrecy.secret, "combined test")
    return fit_embed(embed)


def _time(amount: int, unit: str) -> str:
    """``1 day``, ``4 days``, ``0 units``: the units offered are plurals; none given is "units"."""
    unit = unit or "units"
    return f"{amount} {unit.removesuffix('s') if amount == 1 else unit}"


def _progress(task: coda.ExtendedTask, *, abandoned: bool = False) -> str:
    """Total, tests and stages; an abandoned task shows where it stopped, not a next stage."""
    current = task.current
    tests = f"**Tests made:** {task.tests}"
    # Game time needs a unit or an interval: with neither, "0 units (each test 1 unit)" says
    # nothing, so only the tests are counted.
    if task.unit or task.interval != 1:
        tests += (
            f" · **Elapsed:** {_time(task.elapsed, task.unit)} "
            f"(each test {_time(task.interval, task.unit)})"
        )
    lines = [f"**Total:** {task.total} / {task.aggregate_tn} (aggregate TN)", tests]
    here = "⏹️" if abandoned else "▶️"
    stages = " · ".join(
        f"{'✅' if i < task.stage or task.complete else here if i == task.stage else '▫️'} "
        f"TN {s.tn}{f' ({s.skill})' if s.skill else ''}"
        for i, s in enumerate(task.stages)
    )
    lines.append(f"**Stages:** {stages}")
    if abandoned:
        lines.append(f"**Abandoned** at stage {task.stage + 1} of {len(task.stages)}.")
    elif current is not None:
        skill = f" ({current.skill})" if current.skill else ""
        lines.append(f"**Next:** stage {task.stage + 1}, TN {current.tn}{skill}")
    return "\n".join(lines)


def extended_roll_embed(outcome: ExtendedOutcome, roller: str) -> discord.Embed:
    step = outcome.step
    result = step.test
    before = step.before
    if step.completed:
        title = titled(f"🏁 {escape(before.name)}: complete", outcome.label)
        colour = colours.GREAT_SUCCESS
    else:
        title = titled(
            f"{DEGREE_ICONS[result.degree]} {escape(before.name)}: stage {before.stage + 1}/"
            f"{len(before.stages)}",
            outcome.label,
        )
        colour = DEGREE_COLOURS[result.degree]
    counted = (
        f"➕ {step.added} added to the total."
        if step.passed
        else "➖ Below the stage's TN: nothing added, but the interval is spent."
    )
    description = result_lines(
        result, outcome.roller.parts, outcome.penalties, outcome.chance, counted
    )
    embed = discord.Embed(title=title, description=description, colour=colour)
    embed.add_field(name="Progress", value=clip(_progress(step.after), 1024), inline=False)
    _character_field(embed, outcome.roller)
    _footer(embed, roller, outcome.secrecy.secret, "extended test")
    return fit_embed(embed)


def task_embed(view: TaskView, *, title: str) -> discord.Embed:
    embed = discord.Embed(
        title=clip(f"{title}: {escape(view.task.name)}", 256),
        description=_progress(view.task, abandoned=view.abandoned),
        colour=colours.NEUTRAL if view.abandoned else colours.INFO,
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
