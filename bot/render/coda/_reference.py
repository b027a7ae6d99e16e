"""``/coda table``: one of seed 000's reference tables as the seed prints it.

Discord embeds have no tables, so each row is a line: the first column in bold, the other
columns after it separated by " · ", under a header line naming the columns.
"""

from __future__ import annotations

import discord

from bot.i18n import N_, _
from bot.render import colours
from bot.render.limits import DESCRIPTION, clip, fit_embed
from engine.systems.coda import ReferenceTable, burdens, titanic_walk

FOOTER = N_("CODA · seed 000 (Harry Potter RPG, chapter 9)")


def escape(text: str) -> str:
    """The seed's "*" and "**" footnote marks shown as printed, not as Markdown."""
    return discord.utils.escape_markdown(text)


def _row(row: tuple[str, ...]) -> str:
    first, *rest = (escape(cell) for cell in row)
    return f"**{first}**" + (" — " + " · ".join(rest) if rest else "")


def _lbs(value: int | None) -> str:
    return _("{count} lbs", count=f"{value:,}")


def table_embed(
    table: ReferenceTable, *, strength: int | None = None, titanic: int | None = None
) -> discord.Embed:
    """The table, then (9-7, 9-8) what it gives for the ``titanic`` X or ``strength`` asked."""
    lines = ["*" + escape(" · ".join(table.columns)) + "*"]
    for section in table.sections:
        if section.heading:
            lines.append(f"__{escape(section.heading)}__")
        lines += [_row(row) for row in section.rows]
    lines += [escape(note) for note in table.notes]
    if titanic is not None and table.number == "9-7":
        yards, miles = titanic_walk(titanic)
        lines.append(
            "\n"
            + _(
                "**Titanic +{x}**: walk {yards} yards per action, {miles} miles per hour.",
                x=titanic,
                yards=f"{yards:,}",
                miles=f"{miles:,}",
            )
        )
    if strength is not None and table.number == "9-8":
        lines.append("\n" + _("**With Strength {strength}:**", strength=strength))
        for burden in burdens(strength):
            if burden.above is None:
                load = _("up to {load}", load=_lbs(burden.up_to))
            elif burden.up_to is None:
                load = _("over {load}", load=_lbs(burden.above))
            else:
                load = _("over {low} up to {high}", low=_lbs(burden.above), high=_lbs(burden.up_to))
            lines.append(f"{burden.name}: {load} — {burden.penalty}")
    embed = discord.Embed(
        title=table.name,
        description=clip("\n".join(lines), DESCRIPTION),
        colour=colours.INFO,
    )
    embed.set_footer(text=_(FOOTER))
    return fit_embed(embed)
