"""The end of an encounter: the question ``/init end`` asks, and the summary it posts (rounds
fought, who acted how often; hidden combatants left out).
"""

from __future__ import annotations

import discord

from bot.i18n import _, _n
from bot.render import colours
from bot.render.initiative._tracker import SWORDS
from bot.render.limits import clip, fit_embed
from bot.services.initiative import EncounterView, InitOutcome
from bot.text import UserText


def confirm_end_embed(view: EncounterView) -> discord.Embed:
    state = view.state
    when = _("Round {round}", round=state.round) if state.started else _("Before round 1")
    count = len(state.combatants)
    embed = discord.Embed(
        title=f"{SWORDS} " + _("End this encounter?"),
        description=_(
            "{when}, {count} combatant(s). Ending it posts a summary and frees the channel for "
            "a new encounter; it cannot be undone.",
            when=when,
            count=count,
        ),
        colour=colours.FAILURE,
    )
    return fit_embed(embed)


def summary_embed(outcome: InitOutcome) -> discord.Embed:
    """Rounds fought and who acted how often (hidden combatants left out)."""
    summary = outcome.summary
    assert summary is not None
    shown = [c for c in summary.combatants if not c.hidden]
    lines = [
        _n(
            "**{name}** — {count} turn",
            "**{name}** — {count} turns",
            c.turns,
            name=UserText(c.name),
            count=c.turns,
        )
        if c.turns
        else _("{name} — did not act", name=UserText(c.name))
        for c in shown
    ]
    rounds = summary.rounds
    title = (
        _n(
            "Encounter over after {count} round",
            "Encounter over after {count} rounds",
            rounds,
            count=rounds,
        )
        if rounds
        else _("Encounter over before round 1")
    )
    embed = discord.Embed(
        title=f"{SWORDS} {title}",
        description=clip("\n".join(lines) or "*" + _("Nobody took part.") + "*", 4096),
        colour=colours.NEUTRAL,
    )
    acted = [c for c in shown if c.turns]
    embed.set_footer(
        text=_("{acted} of {count} combatant(s) acted", acted=len(acted), count=len(shown))
    )
    return fit_embed(embed)
