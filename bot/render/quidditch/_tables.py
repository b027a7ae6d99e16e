"""Quidditch's tables: the server's house points and the simulated odds of a match, with
numbers written the reader's way.

It exists because these are read from many matches, not from one match's state.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord
from babel.numbers import format_decimal

from bot.i18n import _, _n, current_language
from bot.render import colours
from bot.render.common import percent
from bot.render.limits import clip, fit_embed
from bot.render.quidditch._text import BROOM
from bot.services.quidditch import HouseRow, OddsOutcome
from bot.text import UserText


def houses_embed(rows: Sequence[HouseRow]) -> discord.Embed:
    embed = discord.Embed(title=_("🏠 House points"), colour=colours.INFO)
    if not rows:
        embed.description = _("No house has won a match in this server yet.")
    else:
        embed.description = "\n".join(
            f"{index}. **{row.house}** — "
            + _n(
                "{points} points ({count} win)",
                "{points} points ({count} wins)",
                row.wins,
                points=row.points,
                count=row.wins,
            )
            for index, row in enumerate(rows[:50], start=1)
        )
    return fit_embed(embed)


def odds_embed(outcome: OddsOutcome) -> discord.Embed:
    state, summary = outcome.view.state, outcome.summary
    start = (
        _(
            "from turn {turn}, {home}–{away}",
            turn=state.turn,
            home=state.home_score,
            away=state.away_score,
        )
        if state.started
        else _("from the first turn")
    )
    embed = discord.Embed(
        title=clip(
            _(
                "{broom} Odds — {home} vs {away}",
                broom=BROOM,
                home=UserText(state.home.name),
                away=UserText(state.away.name),
            ),
            256,
        ),
        description=_(
            "{count} simulated matches {start}, with the default beater targets and every "
            "foul given its penalty shot.",
            count=_thousands(summary.matches),
            start=start,
        ),
        colour=colours.INFO,
    )
    embed.add_field(
        name=_("{team} win", team=UserText(state.home.name)),
        value=percent(summary.home_win_rate),
        inline=True,
    )
    embed.add_field(
        name=_("{team} win", team=UserText(state.away.name)),
        value=percent(summary.away_win_rate),
        inline=True,
    )
    embed.add_field(name=_("Draws"), value=percent(summary.draw_rate), inline=True)
    embed.add_field(
        name=_("Mean final score"),
        value=f"{summary.mean_home_score:.0f} – {summary.mean_away_score:.0f}",
        inline=True,
    )
    embed.add_field(
        name=_("Mean length"),
        value=_(
            "{turns} turns (longest {longest})",
            turns=_fixed(summary.mean_turns, 1),
            longest=summary.longest,
        ),
        inline=True,
    )
    if summary.capped:
        embed.add_field(
            name=_("Unfinished"),
            value=_(
                "{count} stopped at {turns} turns (no seeker caught it)",
                count=summary.capped,
                turns=summary.max_turns,
            ),
            inline=True,
        )
    footer = _("Simulated in {seconds} s", seconds=_fixed(outcome.seconds, 2))
    if summary.matches < outcome.requested:
        footer += " " + _(
            "(stopped at the time limit, {count} were asked for)",
            count=_thousands(outcome.requested),
        )
    embed.set_footer(text=footer)
    return fit_embed(embed)


def _fixed(value: float, digits: int) -> str:
    """``value`` with exactly ``digits`` decimals, in the reader's way of writing them."""
    return format_decimal(value, format="0." + "0" * digits, locale=current_language())


def _thousands(value: int) -> str:
    """``10,000`` / ``10.000``: a count with the reader's grouping."""
    return format_decimal(value, format="#,##0", locale=current_language())
