"""``/odds``: a distribution as an embed (the text stands in for the chart) and a chart."""

from __future__ import annotations

import discord

from bot.i18n import _
from bot.render import colours
from bot.render.charts import Chart, Panel, Series
from bot.render.common import fixed, percent
from bot.render.limits import DESCRIPTION, clip, fit_embed
from bot.services.odds import OddsTable


def odds_embed(table: OddsTable) -> discord.Embed:
    lines = []
    single = len(table.series) == 1
    for index, category in enumerate(table.categories):
        if table.gaps and not any(s.values[index] for s in table.series):
            continue  # a gap the chart keeps to space its bars: nothing to read
        values = " · ".join(
            percent(s.values[index]) if single else f"{s.name} {percent(s.values[index])}"
            for s in table.series
        )
        lines.append(f"**{category}**: {values}")
    if table.notes:
        lines.append("")
        lines.extend(
            f"{note.label}: **{percent(note.value) if note.chance else fixed(note.value, '0.00')}**"
            for note in table.notes
        )
    embed = discord.Embed(
        title=f"📊 {table.title}",
        description=clip("\n".join(lines), DESCRIPTION),
        colour=colours.INFO,
    )
    embed.set_footer(text=_("Exact chances from the rules engine, before any roll is made"))
    return fit_embed(embed)


def odds_chart(table: OddsTable) -> Chart:
    return Chart(
        title=table.title,
        panels=(
            Panel(
                title="",
                labels=table.categories,
                series=tuple(Series(s.name, s.values) for s in table.series),
                percent=True,
                stacked=table.stacked,
            ),
        ),
    )
