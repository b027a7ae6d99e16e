"""Quidditch embeds: one per turn with every roll, the rosters, the status and the tables.

A turn embed lists the phases in RULES.md's order (scoring, blocking, penalty shots, the
snitch), each roll as ``[12] [3] +5 = 17 vs 11``. Names are at most 64 characters and a
team has 7 players, so a full turn stays far inside Discord's limits; fit_embed still
guards every embed.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.render import colours
from bot.render.common import percent, signed
from bot.render.hogwarts1990 import dice_text
from bot.render.limits import clip, fit_embed
from bot.services.quidditch import HouseRow, MatchView, OddsOutcome, TurnOutcome
from bot.services.quidditch_undo import UndoOutcome
from bot.text import escape
from engine import quidditch as q
from engine.systems.hogwarts1990 import Roll

BROOM = "🧹"


def _roll(roll: Roll) -> str:
    """``[12] [3] +5 = 17 vs 11`` (the kept die in bold), the dice shown as /h90 shows them."""
    text = f"{dice_text(roll)} {signed(roll.bonus)} = **{roll.total}**"
    if roll.difficulty is not None:
        text += f" vs {roll.difficulty}"
    return text


def _score_line(state: q.MatchState) -> str:
    home, away = escape(state.home.name), escape(state.away.name)
    return f"{home} **{state.home_score}** – **{state.away_score}** {away}"


def _team_label(state: q.MatchState, side: q.Side) -> str:
    team = state.team(side)
    house = f" ({team.house})" if team.house and team.house != team.name else ""
    return f"{escape(team.name)}{house}"


def _next_snitch(state: q.MatchState) -> str:
    turn = state.next_snitch_turn
    if turn is None:
        return "the snitch has been caught"
    if state.snitch_pending:
        return f"turn {turn}'s snitch phase waits for penalty shots"
    return f"next snitch phase: end of turn {turn}"


def turn_embed(outcome: TurnOutcome) -> discord.Embed:
    report, state = outcome.report, outcome.view.state
    heading = f"Turn {report.turn}'s snitch" if report.snitch_only else f"Turn {report.turn}"
    title = (
        f"{BROOM} {heading} — {state.home.name} {state.home_score} : "
        f"{state.away_score} {state.away.name}"
    )
    colour = colours.NEUTRAL
    if report.result is not None:
        colour = colours.GREAT_SUCCESS
    elif report.fouls:
        colour = colours.PARTIAL
    embed = discord.Embed(title=clip(title, 256), colour=colour)
    summary = []
    goals = report.goals
    if report.shots:
        if goals:
            summary.append(
                "🥅 Goals: " + ", ".join(f"{g.chaser} ({state.team(g.team).name})" for g in goals)
            )
        else:
            summary.append("No goals this turn.")
    elif not report.snitch_only and not report.penalties:
        summary.append("No chaser is left in play: nobody can score.")
    blocked = [s for s in report.shots if s.blocked_by]
    if blocked:
        summary.append("🛡️ Blocked: " + ", ".join(f"{s.chaser}" for s in blocked))
    if report.knocked_out:
        summary.append("💫 Knocked out: " + ", ".join(name for _, name in report.knocked_out))
    embed.description = "\n".join(summary) or None

    for side in q.SIDES:
        lines = [_shot_line(shot) for shot in report.shots if shot.team == side]
        if lines:
            embed.add_field(
                name=f"Scoring — {state.team(side).name}", value="\n".join(lines), inline=False
            )
    for side in q.SIDES:
        lines = [_block_line(block) for block in report.blocks if block.team == side]
        lines += [
            f"{name}: no scoring chaser to block, holds back"
            for s, name in report.held
            if s == side
        ]
        if lines:
            embed.add_field(
                name=f"Blocking — {state.team(side).name}", value="\n".join(lines), inline=False
            )
    if report.penalties:
        embed.add_field(
            name="Penalty shots",
            value="\n".join(_penalty_line(state, p) for p in report.penalties),
            inline=False,
        )
    open_fouls = [f for f in state.open_fouls if f.turn == report.turn]
    if report.fouls:
        lines = [
            f"⚠️ {f.beater} ({state.team(f.team).name}) on {f.target}"
            + (" — penalty shot open" if f in open_fouls else "")
            for f in report.fouls
        ]
        if open_fouls and not report.penalties:
            lines.append(
                "A GM may award each one with `/quidditch penalty team chaser` until the next "
                "`/quidditch turn` (then it lapses)."
            )
        embed.add_field(name="Fouls", value="\n".join(lines), inline=False)
    if outcome.lapsed:
        embed.add_field(name="⌛ Lapsed fouls", value=_lapsed_text(state, outcome), inline=False)
    if report.snitch is not None:
        embed.add_field(name="✨ Snitch", value=_snitch_text(state, report.snitch), inline=False)
    elif report.snitch_deferred:
        embed.add_field(
            name="✨ Snitch",
            value=(
                "Turn ends with the snitch phase, after the penalty shots: award them with "
                "`/quidditch penalty`, then `/quidditch turn` chases the snitch."
            ),
            inline=False,
        )
    if report.result is not None:
        embed.add_field(name="🏆 Final", value=_result_text(outcome), inline=False)
    points = report.points
    footer = f"This turn: +{points[0]} / +{points[1]} · {_next_snitch(state)}"
    embed.set_footer(text=footer)
    return fit_embed(embed)


def _lapsed_text(state: q.MatchState, outcome: TurnOutcome) -> str:
    lines = [
        f"{f.beater} ({state.team(f.team).name}) on {f.target}, turn {f.turn}: no penalty shot "
        f"for {state.team(f.victim).name}"
        for f in outcome.lapsed
    ]
    lines.append("No `/quidditch penalty` was awarded before this turn, so these lapsed.")
    return "\n".join(lines)


def turns_summary_embed(outcomes: Sequence[TurnOutcome]) -> discord.Embed:
    """``/quidditch turn until:snitch``: one line per turn played; the last turn follows in
    full in its own message (one embed each keeps both inside Discord's limits)."""
    last = outcomes[-1]
    state = last.view.state
    lines = [_summary_line(o) for o in outcomes]
    embed = discord.Embed(
        title=clip(f"{BROOM} {len(outcomes)} turns — {_score_line(state).replace('**', '')}", 256),
        description="\n".join(lines),
        colour=colours.NEUTRAL,
    )
    embed.set_footer(text=_stop_reason(last))
    return fit_embed(embed)


def _summary_line(outcome: TurnOutcome) -> str:
    report = outcome.report
    name = f"Turn {report.turn}'s snitch" if report.snitch_only else f"Turn {report.turn}"
    parts = []
    goals = report.goals
    if goals:
        parts.append("🥅 " + ", ".join(g.chaser for g in goals))
    elif report.shots:
        parts.append("no goals")
    if report.knocked_out:
        parts.append("💫 " + ", ".join(name for _, name in report.knocked_out) + " out")
    if report.fouls:
        count = len(report.fouls)
        parts.append(f"⚠️ {count} foul{'s' if count > 1 else ''}")
    if report.penalties:
        scored = sum(p.scored for p in report.penalties)
        parts.append(f"penalties {scored}/{len(report.penalties)}")
    if report.snitch is not None:
        parts.append("✨ snitch caught" if report.snitch.caught_by else "✨ snitch got away")
    score = f"{report.score[0]}–{report.score[1]}"
    return f"**{name}**: {' · '.join(parts) or 'nothing happened'} · {score}"


def _stop_reason(outcome: TurnOutcome) -> str:
    """Why ``until:snitch`` stopped where it did (the last turn is shown next)."""
    report, state = outcome.report, outcome.view.state
    if state.finished:
        return "Stopped: the snitch was caught and the match is over."
    if report.snitch_deferred or state.open_fouls:
        return (
            "Stopped early: a foul waits for the GM (/quidditch penalty, or /quidditch turn "
            "lets it lapse)."
        )
    return "Stopped after the snitch phase."


def undo_embed(outcome: UndoOutcome) -> discord.Embed:
    state = outcome.view.state
    what = (
        f"Turn {outcome.undone}'s snitch phase" if outcome.snitch_only else f"Turn {outcome.undone}"
    )
    text = (
        f"{what} is undone: the match is as it was before it ({_score_line(state)}, "
        f"after turn {state.turn}). Penalty shots and seeker choices made since are undone too."
    )
    if outcome.reopened is not None:
        house, points = outcome.reopened
        text += "\nThe match had ended with that turn: it is back in play"
        text += f", and {house} gives back its {points} house points." if house else "."
    more = outcome.view.undoable
    footer = (
        f"{more} more turn{'s' if more != 1 else ''} can be undone."
        if more
        else ("No earlier turn can be undone.")
    )
    embed = discord.Embed(title=f"{BROOM} ↩️ Undone", description=text, colour=colours.INFO)
    embed.set_footer(text=footer)
    return fit_embed(embed)


def _shot_line(shot: q.ShotReport) -> str:
    text = f"{shot.chaser}: {_roll(shot.roll)}"
    if shot.scored:
        return f"{text} 🥅 **goal** (margin {shot.margin})"
    if shot.blocked_by:
        return f"{text} 🛡️ blocked by {', '.join(shot.blocked_by)} (margin {shot.margin})"
    return f"{text} ✗ miss"


def _block_line(block: q.BeaterReport) -> str:
    chosen = "" if block.chosen_by_gm else " (default)"
    text = f"{block.beater} → {block.target}{chosen}: {_roll(block.roll)}"
    if not block.hit:
        text += " ✗ miss"
    else:
        text += f" 💥 hit (Health {block.target_health})"
        if block.knocked_out:
            text += " 💫 knocked out"
        if block.blocked:
            text += " 🛡️ **goal blocked**"
    if block.foul:
        text += " ⚠️ foul"
    elif block.target_position is q.Position.KEEPER:
        text += " (quaffle in the scoring zone: no foul)"
    return text


def _penalty_line(state: q.MatchState, shot: q.PenaltyReport) -> str:
    verdict = "🥅 **scores 10**" if shot.scored else "✗ miss"
    return f"{shot.chaser} ({state.team(shot.team).name}): {_roll(shot.roll)} {verdict}"


def _snitch_text(state: q.MatchState, snitch: q.SnitchReport) -> str:
    if not snitch.seekers:
        return "No seeker is in play: nobody can catch the snitch."
    lines = []
    for seeker in snitch.seekers:
        how = " interferes (2 × Dexterity, cannot catch)" if seeker.interfering else ""
        text = f"{seeker.seeker} ({state.team(seeker.team).name}){how}: {_roll(seeker.roll)}"
        if seeker.caught:
            text += " — ✨ **catches the snitch! +150**"
        lines.append(text)
    if len(snitch.seekers) == 1:
        lines.append("The other seeker is out: the snitch is caught on 10 or more.")
    if snitch.caught_by is None:
        lines.append("The snitch gets away (a catch needs 10 more than the other seeker).")
    return "\n".join(lines)


def _result_text(outcome: TurnOutcome) -> str:
    result, state = outcome.report.result, outcome.view.state
    assert result is not None
    lines = [f"{_score_line(state)} after {result.turns} turns."]
    if result.winner is None:
        lines.append("A draw: no house points.")
        return "\n".join(lines)
    winner = state.team(result.winner).name
    lines.append(f"**{winner}** win by {result.difference}.")
    if result.house and result.house_points:
        total = f" (now {outcome.house_total})" if outcome.house_total is not None else ""
        lines.append(f"🏠 {result.house} earns **{result.house_points}** house points{total}.")
    else:
        lines.append(f"{winner} play for no house: no house points.")
    return "\n".join(lines)


def penalty_embed(outcome: TurnOutcome) -> discord.Embed:
    (shot,) = outcome.report.penalties
    state = outcome.view.state
    title = f"{BROOM} Penalty shot — {_score_line(state).replace('**', '')}"
    embed = discord.Embed(
        title=clip(title, 256),
        description=_penalty_line(state, shot),
        colour=colours.SUCCESS if shot.scored else colours.FAILURE,
    )
    embed.add_field(
        name="For the foul",
        value=f"{shot.foul.beater} ({state.team(shot.foul.team).name}) on {shot.foul.target}, "
        f"turn {shot.foul.turn}",
        inline=False,
    )
    embed.set_footer(text=_next_snitch(state))
    return fit_embed(embed)


def _player_line(player: q.Player, *, health: bool) -> str:
    stats = f"S {player.strength} · D {player.dexterity} · T {player.toughness}"
    if health:
        state = "💫 out" if not player.active else f"❤️ {player.health}/{player.max_health}"
        return f"{player.position.label} **{escape(player.name)}** — {stats} · {state}"
    return f"{player.position.label} **{escape(player.name)}** — {stats} · Health {player.health}"


def _team_field(state: q.MatchState, side: q.Side, *, health: bool) -> tuple[str, str]:
    team = state.team(side)
    lines = [_player_line(p, health=health) for p in _ordered(team.players)]
    if state.interferes(side):
        lines.append("✨ The seeker will interfere in the next snitch phase.")
    lacking = team.missing()
    if lacking:
        lines.append("Missing: " + ", ".join(lacking))
    return f"{_team_label(state, side)} — {side}", "\n".join(lines) or "No players yet."


def _ordered(players: Sequence[q.Player]) -> list[q.Player]:
    order = list(q.Position)
    return sorted(players, key=lambda p: order.index(p.position))


def roster_embed(view: MatchView, *, changed: str | None = None) -> discord.Embed:
    state = view.state
    embed = discord.Embed(
        title=clip(f"{BROOM} {state.home.name} vs {state.away.name} — rosters", 256),
        description=changed,
        colour=colours.INFO,
    )
    for side in q.SIDES:
        name, value = _team_field(state, side, health=False)
        embed.add_field(name=name, value=value, inline=False)
    if view.missing:
        embed.set_footer(text="The match starts when both rosters are complete.")
    else:
        embed.set_footer(text="Both rosters are complete: a GM plays with /quidditch turn.")
    return fit_embed(embed)


def status_embed(view: MatchView) -> discord.Embed:
    state = view.state
    status = f"after turn {state.turn}" if state.started else "not started"
    embed = discord.Embed(
        title=clip(f"{BROOM} {_score_line(state).replace('**', '')}", 256),
        description=f"{_score_line(state)} — {status}.\n{_next_snitch(state).capitalize()}.",
        colour=colours.INFO,
    )
    for side in q.SIDES:
        name, value = _team_field(state, side, health=True)
        embed.add_field(name=name, value=value, inline=False)
    if state.open_fouls:
        embed.add_field(
            name="Open fouls",
            value="\n".join(
                f"{f.beater} on {f.target}: a penalty shot for {state.team(f.victim).name}"
                for f in state.open_fouls
            ),
            inline=False,
        )
    return fit_embed(embed)


def new_match_embed(view: MatchView) -> discord.Embed:
    state = view.state
    embed = discord.Embed(
        title=clip(f"{BROOM} {state.home.name} vs {state.away.name}", 256),
        description=(
            f"A new match: **{_team_label(state, q.HOME)}** (home) against "
            f"**{_team_label(state, q.AWAY)}** (away).\n"
            "A GM fills both rosters, a whole team at once with `/quidditch team` or one "
            "player with `/quidditch player` (3 chasers, 2 beaters, a keeper, a seeker each), "
            "then plays with `/quidditch turn`."
        ),
        colour=colours.INFO,
    )
    return fit_embed(embed)


def end_embed(view: MatchView) -> discord.Embed:
    state = view.state
    return fit_embed(
        discord.Embed(
            title=clip(f"{BROOM} Match abandoned — {_score_line(state).replace('**', '')}", 256),
            description="No winner and no house points. A GM can start another with "
            "`/quidditch new`.",
            colour=colours.FAILURE,
        )
    )


def interference_embed(view: MatchView, side: q.Side) -> discord.Embed:
    state = view.state
    team = state.team(side)
    seeker = team.seeker.name if team.seeker else "the seeker"
    if state.interferes(side):
        text = (
            f"{seeker} ({team.name}) will interfere in the next snitch phase: 2 × Dexterity, "
            "and no catch on that roll."
        )
    else:
        text = f"{seeker} ({team.name}) will chase the snitch in the next snitch phase."
    return fit_embed(discord.Embed(title=f"{BROOM} Snitch", description=text, colour=colours.INFO))


def houses_embed(rows: Sequence[HouseRow]) -> discord.Embed:
    embed = discord.Embed(title="🏠 House points", colour=colours.INFO)
    if not rows:
        embed.description = "No house has won a match in this server yet."
    else:
        embed.description = "\n".join(
            f"{index}. **{row.house}** — {row.points} points ({row.wins} "
            f"win{'s' if row.wins != 1 else ''})"
            for index, row in enumerate(rows[:50], start=1)
        )
    return fit_embed(embed)


def odds_embed(outcome: OddsOutcome) -> discord.Embed:
    state, summary = outcome.view.state, outcome.summary
    start = (
        f"from turn {state.turn}, {state.home_score}–{state.away_score}"
        if state.started
        else ("from the first turn")
    )
    embed = discord.Embed(
        title=clip(f"{BROOM} Odds — {state.home.name} vs {state.away.name}", 256),
        description=(
            f"{summary.matches:,} simulated matches {start}, with the default beater targets "
            "and every foul given its penalty shot."
        ),
        colour=colours.INFO,
    )
    embed.add_field(
        name=f"{state.home.name} win", value=percent(summary.home_win_rate), inline=True
    )
    embed.add_field(
        name=f"{state.away.name} win", value=percent(summary.away_win_rate), inline=True
    )
    embed.add_field(name="Draws", value=percent(summary.draw_rate), inline=True)
    embed.add_field(
        name="Mean final score",
        value=f"{summary.mean_home_score:.0f} – {summary.mean_away_score:.0f}",
        inline=True,
    )
    embed.add_field(
        name="Mean length",
        value=f"{summary.mean_turns:.1f} turns (longest {summary.longest})",
        inline=True,
    )
    if summary.capped:
        embed.add_field(
            name="Unfinished",
            value=f"{summary.capped} stopped at {summary.max_turns} turns (no seeker caught it)",
            inline=True,
        )
    footer = f"Simulated in {outcome.seconds:.2f} s"
    if summary.matches < outcome.requested:
        footer += f" (stopped at the time limit, {outcome.requested:,} were asked for)"
    embed.set_footer(text=footer)
    return fit_embed(embed)


__all__ = [
    "end_embed",
    "houses_embed",
    "interference_embed",
    "new_match_embed",
    "odds_embed",
    "penalty_embed",
    "roster_embed",
    "status_embed",
    "turn_embed",
    "turns_summary_embed",
    "undo_embed",
]
