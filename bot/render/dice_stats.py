"""``/dice stats`` and ``/dice test``: face counts against fair dice, as text and as a chart."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.render import colours
from bot.render.charts import Chart, Panel, Series
from bot.render.limits import FIELD_VALUE, clip, fit_embed
from bot.services.dice_stats import DiceStats
from engine.fairness import FaceTest, verdict

#: Die sizes drawn in one chart (the embed's text lists every size).
CHART_PANELS = 2


def face_text(test: FaceTest) -> str:
    """The counts, the expectation and the verdict: the chart's text fallback."""
    counts = " · ".join(f"{face}: {count}" for face, count in enumerate(test.counts, start=1))
    verdict_line = f"χ² = {test.statistic:.2f} with {test.dof} degrees of freedom — {verdict(test)}"
    head = f"Fair dice: {test.expected:.1f} of each face.\n"
    room = FIELD_VALUE - len(head) - len(verdict_line) - 1
    return f"{head}{clip(counts, room)}\n{verdict_line}"


def p_value(test: FaceTest) -> str:
    """The p-value alone, short enough for a chart's panel title."""
    if not test.enough:
        return "too few to judge"
    return "p < 0.001" if test.p_value < 0.001 else f"p = {test.p_value:.3f}"


def _worst(tests: Sequence[FaceTest]) -> discord.Colour:
    judged = [t for t in tests if t.enough]
    if not judged:
        return colours.INFO
    return colours.DISASTER if min(t.p_value for t in judged) < 0.01 else colours.SUCCESS


def stats_embed(stats: DiceStats, who: str) -> discord.Embed:
    scope = f"{stats.system} rolls" if stats.system else "rolls"
    since = f" in the last {stats.since}" if stats.since else ""
    embed = discord.Embed(
        title=clip(f"🎲 Dice of {who}", 256),
        description=f"Faces of {who}'s public {scope}{since}, against fair dice.",
        colour=_worst(stats.tests),
    )
    if not stats.tests:
        embed.description = f"No public {scope} of {who}{since} to count yet."
    for test in stats.tests:
        embed.add_field(
            name=f"d{test.sides} · {test.rolls} dice", value=face_text(test), inline=False
        )
    notes = [f"{stats.rows} rolls read"]
    if stats.capped:
        notes.append(f"only the newest {stats.limit}")
    if stats.uncounted:
        notes.append(f"{stats.uncounted} with mixed or unknown dice left out")
    if len(stats.tests) > 1:
        notes.append("each die size tested on its own")
    embed.set_footer(text=" · ".join(notes))
    return fit_embed(embed)


def stats_chart(stats: DiceStats, who: str) -> Chart | None:
    if not stats.tests:
        return None
    busiest = sorted(stats.tests, key=lambda t: t.rolls, reverse=True)[:CHART_PANELS]
    return Chart(
        title=f"Dice of {who}",
        panels=tuple(_panel(t) for t in sorted(busiest, key=lambda t: t.sides)),
    )


def _panel(test: FaceTest) -> Panel:
    return Panel(
        title=f"d{test.sides} · {p_value(test)}",
        labels=tuple(str(face) for face in range(1, test.sides + 1)),
        series=(Series("rolled", tuple(float(c) for c in test.counts)),),
        expected=test.expected,
    )


def source_embed(test: FaceTest) -> discord.Embed:
    embed = discord.Embed(
        title=f"🎲 {test.rolls:,} d{test.sides} from the bot's dice",
        description=(
            "Rolled just now from the same source as every roll, against fair dice.\n"
            + face_text(test)
        ),
        colour=_worst([test]),
    )
    return fit_embed(embed)


def source_chart(test: FaceTest) -> Chart:
    return Chart(title=f"{test.rolls:,} d{test.sides} from the bot's dice", panels=(_panel(test),))
