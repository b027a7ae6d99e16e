"""Quidditch embeds for a match's state: the rosters, the status with each player's health
and the open fouls, a new match, an abandoned one, and a seeker's choice to interfere.

It exists because these show the match as it stands, not what a turn did
(:mod:`bot.render.quidditch._turns`).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import _
from bot.render import colours
from bot.render.limits import clip, fit_embed
from bot.render.quidditch._text import (
    BROOM,
    SIDE_NAMES,
    missing,
    next_snitch,
    position_name,
    score_line,
    team_label,
)
from bot.services.quidditch import MatchView
from bot.text import UserText
from engine import quidditch as q

#: The most characters a player's (escaped) name takes in a roster line.
_PLAYER_NAME = 64


def _player_line(player: q.Player, *, health: bool) -> str:
    stats = _(
        "S {strength} · D {dexterity} · T {toughness}",
        strength=player.strength,
        dexterity=player.dexterity,
        toughness=player.toughness,
    )
    position = position_name(player.position)
    # Escaped, a 64-character name can double: cut to 64 so that seven lines fit in a field
    # (1,024) and no cut in the middle of the field leaves a "**" open.
    name = UserText(player.name).shown(_PLAYER_NAME)
    if health:
        state = _("💫 out") if not player.active else f"❤️ {player.health}/{player.max_health}"
        return f"{position} **{name}** — {stats} · {state}"
    return f"{position} **{name}** — {stats} · " + _("Health {health}", health=player.health)


def _team_field(state: q.MatchState, side: q.Side, *, health: bool) -> tuple[str, str]:
    team = state.team(side)
    lines = [_player_line(p, health=health) for p in _ordered(team.players)]
    if state.interferes(side):
        lines.append(_("✨ The seeker will interfere in the next snitch phase."))
    lacking = missing(team)
    if lacking:
        lines.append(_("Missing: {lacking}", lacking=", ".join(lacking)))
    name = f"{team_label(state, side)} — {_(SIDE_NAMES[side])}"
    return name, "\n".join(lines) or _("No players yet.")


def _ordered(players: Sequence[q.Player]) -> list[q.Player]:
    order = list(q.Position)
    return sorted(players, key=lambda p: order.index(p.position))


def roster_embed(view: MatchView, *, changed: str | None = None) -> discord.Embed:
    state = view.state
    embed = discord.Embed(
        title=clip(
            _(
                "{broom} {home} vs {away} — rosters",
                broom=BROOM,
                home=UserText(state.home.name),
                away=UserText(state.away.name),
            ),
            256,
        ),
        description=changed,
        colour=colours.INFO,
    )
    for side in q.SIDES:
        name, value = _team_field(state, side, health=False)
        embed.add_field(name=name, value=value, inline=False)
    if view.missing:
        embed.set_footer(text=_("The match starts when both rosters are complete."))
    else:
        embed.set_footer(text=_("Both rosters are complete: a GM plays with /quidditch turn."))
    return fit_embed(embed)


def status_embed(view: MatchView) -> discord.Embed:
    state = view.state
    status = _("after turn {turn}", turn=state.turn) if state.started else _("not started")
    snitch = next_snitch(state)
    embed = discord.Embed(
        title=clip(f"{BROOM} {score_line(state).replace('**', '')}", 256),
        description=f"{score_line(state)} — {status}.\n{snitch[:1].upper()}{snitch[1:]}.",
        colour=colours.INFO,
    )
    for side in q.SIDES:
        name, value = _team_field(state, side, health=True)
        embed.add_field(name=name, value=value, inline=False)
    if state.open_fouls:
        embed.add_field(
            name=_("Open fouls"),
            value="\n".join(
                _(
                    "{beater} on {target}: a penalty shot for {team}",
                    beater=UserText(f.beater),
                    target=UserText(f.target),
                    team=UserText(state.team(f.victim).name),
                )
                for f in state.open_fouls
            ),
            inline=False,
        )
    return fit_embed(embed)


def new_match_embed(view: MatchView) -> discord.Embed:
    state = view.state
    embed = discord.Embed(
        title=clip(f"{BROOM} {UserText(state.home.name)} vs {UserText(state.away.name)}", 256),
        description=_(
            "A new match: **{home}** (home) against **{away}** (away).\n"
            "A GM fills both rosters, a whole team at once with `/quidditch team` or one "
            "player with `/quidditch player` (3 chasers, 2 beaters, a keeper, a seeker each), "
            "then plays with `/quidditch turn`.",
            home=team_label(state, q.HOME),
            away=team_label(state, q.AWAY),
        ),
        colour=colours.INFO,
    )
    return fit_embed(embed)


def end_embed(view: MatchView) -> discord.Embed:
    state = view.state
    return fit_embed(
        discord.Embed(
            title=clip(
                _(
                    "{broom} Match abandoned — {score}",
                    broom=BROOM,
                    score=score_line(state).replace("**", ""),
                ),
                256,
            ),
            description=_(
                "No winner and no house points. A GM can start another with `/quidditch new`."
            ),
            colour=colours.FAILURE,
        )
    )


def interference_embed(view: MatchView, side: q.Side) -> discord.Embed:
    state = view.state
    team = state.team(side)
    seeker = UserText(team.seeker.name) if team.seeker else _("the seeker")
    if state.interferes(side):
        text = _(
            "{seeker} ({team}) will interfere in the next snitch phase: 2 × Dexterity, "
            "and no catch on that roll.",
            seeker=seeker,
            team=UserText(team.name),
        )
    else:
        text = _(
            "{seeker} ({team}) will chase the snitch in the next snitch phase.",
            seeker=seeker,
            team=UserText(team.name),
        )
    return fit_embed(
        discord.Embed(title=_("{broom} Snitch", broom=BROOM), description=text, colour=colours.INFO)
    )
