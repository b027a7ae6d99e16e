"""``/dice stats`` and ``/dice test``: face counts against fair dice, as text and as a chart."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import N_, _, _n
from bot.render import colours
from bot.render.charts import Chart, Panel, Series
from bot.render.common import fixed
from bot.render.limits import FIELD_VALUE, clip, fit_embed
from bot.services.dice_stats import DiceStats
from bot.text import UserText
from engine.fairness import FaceTest, verdict_parts

#: ``/dice stats since:`` as the embed says it.
SINCE_WORDS = {
    "1h": N_("in the last hour"),
    "24h": N_("in the last 24 hours"),
    "7d": N_("in the last 7 days"),
    "30d": N_("in the last 30 days"),
}

#: Die sizes drawn in one chart (the embed's text lists every size).
CHART_PANELS = 2


def face_text(test: FaceTest) -> str:
    """The counts, the expectation and the verdict: the chart's text fallback."""
    counts = " · ".join(f"{face}: {count}" for face, count in enumerate(test.counts, start=1))
    template, params = verdict_parts(test)
    verdict_line = _(
        "χ² = {statistic} with {dof} degrees of freedom — {verdict}",
        statistic=fixed(test.statistic, "0.00"),
        dof=test.dof,
        verdict=_(template, **params),
    )
    head = _("Fair dice: {expected} of each face.", expected=fixed(test.expected, "0.0")) + "\n"
    room = FIELD_VALUE - len(head) - len(verdict_line) - 1
    return f"{head}{clip(counts, room)}\n{verdict_line}"


def p_value(test: FaceTest) -> str:
    """The p-value alone, short enough for a chart's panel title."""
    if not test.enough:
        return _("too few to judge")
    return "p < 0.001" if test.p_value < 0.001 else f"p = {test.p_value:.3f}"


def _worst(tests: Sequence[FaceTest]) -> discord.Colour:
    judged = [t for t in tests if t.enough]
    if not judged:
        return colours.INFO
    return colours.DISASTER if min(t.p_value for t in judged) < 0.01 else colours.SUCCESS


def stats_embed(stats: DiceStats, who: UserText) -> discord.Embed:
    scope = _("{system} rolls", system=stats.system) if stats.system else _("rolls")
    since = " " + _(SINCE_WORDS[stats.since]) if stats.since in SINCE_WORDS else ""
    embed = discord.Embed(
        title=clip(_("🎲 Dice of {who}", who=who), 256),
        description=_(
            "Faces of {who}'s public {scope}{since}, against fair dice.",
            who=who,
            scope=scope,
            since=since,
        ),
        colour=_worst(stats.tests),
    )
    if not stats.tests:
        embed.description = _(
            "No public {scope} of {who}{since} to count yet.", scope=scope, who=who, since=since
        )
    for test in stats.tests:
        embed.add_field(
            name=_n(
                "d{sides} · {count} die", "d{sides} · {count} dice", test.rolls,
                sides=test.sides, count=test.rolls,
            ),
            value=face_text(test),
            inline=False,
        )  # fmt: skip
    notes = [_n("{count} roll read", "{count} rolls read", stats.rows, count=stats.rows)]
    if stats.capped:
        notes.append(_("only the newest {count}", count=stats.limit))
    if stats.uncounted:
        notes.append(_("{count} with mixed or unknown dice left out", count=stats.uncounted))
    if len(stats.tests) > 1:
        notes.append(_("each die size tested on its own"))
    embed.set_footer(text=" · ".join(notes))
    return fit_embed(embed)


def stats_chart(stats: DiceStats, who: str) -> Chart | None:
    if not stats.tests:
        return None
    busiest = sorted(stats.tests, key=lambda t: t.rolls, reverse=True)[:CHART_PANELS]
    return Chart(
        title=_("Dice of {who}", who=who),
        panels=tuple(_panel(t) for t in sorted(busiest, key=lambda t: t.sides)),
    )


def _panel(test: FaceTest) -> Panel:
    return Panel(
        title=f"d{test.sides} · {p_value(test)}",
        labels=tuple(str(face) for face in range(1, test.sides + 1)),
        series=(Series(_("rolled"), tuple(float(c) for c in test.counts)),),
        expected=test.expected,
        expected_label=_("fair dice"),
    )


def source_embed(test: FaceTest) -> discord.Embed:
    embed = discord.Embed(
        title=_(
            "🎲 {count} d{sides} from the bot's dice",
            count=fixed(test.rolls, "#,##0"),
            sides=test.sides,
        ),
        description=(
            _("Rolled just now from the same source as every roll, against fair dice.")
            + "\n"
            + face_text(test)
        ),
        colour=_worst([test]),
    )
    return fit_embed(embed)


def source_chart(test: FaceTest) -> Chart:
    title = _(
        "{count} d{sides} from the bot's dice", count=fixed(test.rolls, "#,##0"), sides=test.sides
    )
    return Chart(title=title, panels=(_panel(test),))
