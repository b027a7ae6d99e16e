"""Quidditch embeds for what a turn did: one turn in full with every roll (in RULES.md's
order: scoring, blocking, penalty shots, the snitch), a run of turns summed up, a penalty
shot, and an undone turn.

It exists because these read a turn's report; the match's own state is shown by
:mod:`bot.render.quidditch._match`. Names are at most 64 characters and a team has 7
players, so a full turn stays far inside Discord's limits; fit_embed still guards every
embed.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import _, _n
from bot.render import colours
from bot.render.limits import clip, fit_embed
from bot.render.quidditch._text import (
    BROOM,
    next_snitch,
    roll_text,
    score_line,
)
from bot.services.quidditch import TurnOutcome, UndoOutcome
from bot.text import UserText, listed
from engine import quidditch as q


def turn_embed(outcome: TurnOutcome) -> discord.Embed:
    report, state = outcome.report, outcome.view.state
    heading = _turn_name(report)
    title = (
        f"{BROOM} {heading} — {UserText(state.home.name)} {state.home_score} : "
        f"{state.away_score} {UserText(state.away.name)}"
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
                _(
                    "🥅 Goals: {goals}",
                    goals=", ".join(
                        f"{UserText(g.chaser)} ({UserText(state.team(g.team).name)})" for g in goals
                    ),
                )
            )
        else:
            summary.append(_("No goals this turn."))
    elif not report.snitch_only and not report.penalties:
        summary.append(_("No chaser is left in play: nobody can score."))
    blocked = [s for s in report.shots if s.blocked_by]
    if blocked:
        summary.append(_("🛡️ Blocked: {chasers}", chasers=listed(s.chaser for s in blocked)))
    if report.knocked_out:
        summary.append(
            _(
                "💫 Knocked out: {players}",
                players=listed(name for _side, name in report.knocked_out),
            )
        )
    embed.description = "\n".join(summary) or None

    for side in q.SIDES:
        lines = [_shot_line(shot) for shot in report.shots if shot.team == side]
        if lines:
            embed.add_field(
                name=_("Scoring — {team}", team=UserText(state.team(side).name)),
                value="\n".join(lines),
                inline=False,
            )
    for side in q.SIDES:
        lines = [_block_line(block) for block in report.blocks if block.team == side]
        lines += [
            _("{name}: no scoring chaser to block, holds back", name=UserText(name))
            for s, name in report.held
            if s == side
        ]
        if lines:
            embed.add_field(
                name=_("Blocking — {team}", team=UserText(state.team(side).name)),
                value="\n".join(lines),
                inline=False,
            )
    if report.penalties:
        embed.add_field(
            name=_("Penalty shots"),
            value="\n".join(_penalty_line(state, p) for p in report.penalties),
            inline=False,
        )
    open_fouls = [f for f in state.open_fouls if f.turn == report.turn]
    if report.fouls:
        lines = [
            _(
                "⚠️ {beater} ({team}) on {target}",
                beater=UserText(f.beater),
                team=UserText(state.team(f.team).name),
                target=UserText(f.target),
            )
            + (_(" — penalty shot open") if f in open_fouls else "")
            for f in report.fouls
        ]
        if open_fouls and not report.penalties:
            lines.append(
                _(
                    "A GM may award each one with `/quidditch penalty team chaser` until the "
                    "next `/quidditch turn` (then it lapses)."
                )
            )
        embed.add_field(name=_("Fouls"), value="\n".join(lines), inline=False)
    if outcome.lapsed:
        embed.add_field(name=_("⌛ Lapsed fouls"), value=_lapsed_text(state, outcome), inline=False)
    if report.snitch is not None:
        embed.add_field(name=_("✨ Snitch"), value=_snitch_text(state, report.snitch), inline=False)
    elif report.snitch_deferred:
        embed.add_field(
            name=_("✨ Snitch"),
            value=_(
                "Turn ends with the snitch phase, after the penalty shots: award them with "
                "`/quidditch penalty`, then `/quidditch turn` chases the snitch."
            ),
            inline=False,
        )
    if report.result is not None:
        embed.add_field(name=_("🏆 Final"), value=_result_text(outcome), inline=False)
    points = report.points
    footer = _(
        "This turn: +{home} / +{away} · {snitch}",
        home=points[0],
        away=points[1],
        snitch=next_snitch(state),
    )
    embed.set_footer(text=footer)
    return fit_embed(embed)


def _lapsed_text(state: q.MatchState, outcome: TurnOutcome) -> str:
    lines = [
        _(
            "{beater} ({team}) on {target}, turn {turn}: no penalty shot for {victim}",
            beater=UserText(f.beater),
            team=UserText(state.team(f.team).name),
            target=UserText(f.target),
            turn=f.turn,
            victim=UserText(state.team(f.victim).name),
        )
        for f in outcome.lapsed
    ]
    lines.append(_("No `/quidditch penalty` was awarded before this turn, so these lapsed."))
    return "\n".join(lines)


def turns_summary_embed(outcomes: Sequence[TurnOutcome]) -> discord.Embed:
    """``/quidditch turn until:snitch``: one line per turn played; the last turn follows in
    full in its own message (one embed each keeps both inside Discord's limits)."""
    last = outcomes[-1]
    state = last.view.state
    lines = [_summary_line(o) for o in outcomes]
    embed = discord.Embed(
        title=clip(
            _(
                "{broom} {count} turns — {score}",
                broom=BROOM,
                count=len(outcomes),
                score=score_line(state).replace("**", ""),
            ),
            256,
        ),
        description="\n".join(lines),
        colour=colours.NEUTRAL,
    )
    embed.set_footer(text=_stop_reason(last))
    return fit_embed(embed)


def _turn_name(report: q.TurnReport) -> str:
    if report.snitch_only:
        return _("Turn {turn}'s snitch", turn=report.turn)
    return _("Turn {turn}", turn=report.turn)


def _summary_line(outcome: TurnOutcome) -> str:
    report = outcome.report
    name = _turn_name(report)
    parts = []
    goals = report.goals
    if goals:
        parts.append("🥅 " + listed(g.chaser for g in goals))
    elif report.shots:
        parts.append(_("no goals"))
    if report.knocked_out:
        parts.append(
            _(
                "💫 {players} out",
                players=listed(name for _side, name in report.knocked_out),
            )
        )
    if report.fouls:
        count = len(report.fouls)
        parts.append(_n("⚠️ {count} foul", "⚠️ {count} fouls", count, count=count))
    if report.penalties:
        scored = sum(p.scored for p in report.penalties)
        parts.append(_("penalties {scored}/{count}", scored=scored, count=len(report.penalties)))
    if report.snitch is not None:
        parts.append(_("✨ snitch caught") if report.snitch.caught_by else _("✨ snitch got away"))
    score = f"{report.score[0]}–{report.score[1]}"
    return f"**{name}**: {' · '.join(parts) or _('nothing happened')} · {score}"


def _stop_reason(outcome: TurnOutcome) -> str:
    """Why ``until:snitch`` stopped where it did (the last turn is shown next)."""
    report, state = outcome.report, outcome.view.state
    if state.finished:
        return _("Stopped: the snitch was caught and the match is over.")
    if report.snitch_deferred or state.open_fouls:
        return _(
            "Stopped early: a foul waits for the GM (/quidditch penalty, or /quidditch turn "
            "lets it lapse)."
        )
    return _("Stopped after the snitch phase.")


def undo_embed(outcome: UndoOutcome) -> discord.Embed:
    state = outcome.view.state
    if outcome.snitch_only:
        what = _("Turn {turn}'s snitch phase", turn=outcome.undone)
    else:
        what = _("Turn {turn}", turn=outcome.undone)
    text = _(
        "{what} is undone: the match is as it was before it ({score}, after turn {turn}). "
        "Penalty shots and seeker choices made since are undone too.",
        what=what,
        score=score_line(state),
        turn=state.turn,
    )
    if outcome.reopened is not None:
        house, points = outcome.reopened
        if house:
            text += "\n" + _(
                "The match had ended with that turn: it is back in play, and {house} gives "
                "back its {points} house points.",
                house=house,
                points=points,
            )
        else:
            text += "\n" + _("The match had ended with that turn: it is back in play.")
    more = outcome.view.undoable
    footer = (
        _n(
            "{count} more turn can be undone.",
            "{count} more turns can be undone.",
            more,
            count=more,
        )
        if more
        else _("No earlier turn can be undone.")
    )
    embed = discord.Embed(
        title=_("{broom} ↩️ Undone", broom=BROOM), description=text, colour=colours.INFO
    )
    embed.set_footer(text=footer)
    return fit_embed(embed)


def _shot_line(shot: q.ShotReport) -> str:
    text = f"{UserText(shot.chaser)}: {roll_text(shot.roll)}"
    if shot.scored:
        return f"{text} " + _("🥅 **goal** (margin {margin})", margin=shot.margin)
    if shot.blocked_by:
        return f"{text} " + _(
            "🛡️ blocked by {beaters} (margin {margin})",
            beaters=listed(shot.blocked_by),
            margin=shot.margin,
        )
    return f"{text} " + _("✗ miss")


def _block_line(block: q.BeaterReport) -> str:
    chosen = "" if block.chosen_by_gm else " " + _("(default)")
    text = f"{UserText(block.beater)} → {UserText(block.target)}{chosen}: {roll_text(block.roll)}"
    if not block.hit:
        text += " " + _("✗ miss")
    else:
        text += " " + _("💥 hit (Health {health})", health=block.target_health)
        if block.knocked_out:
            text += " " + _("💫 knocked out")
        if block.blocked:
            text += " " + _("🛡️ **goal blocked**")
    if block.foul:
        text += " " + _("⚠️ foul")
    elif block.target_position is q.Position.KEEPER:
        text += " " + _("(quaffle in the scoring zone: no foul)")
    return text


def _penalty_line(state: q.MatchState, shot: q.PenaltyReport) -> str:
    verdict = _("🥅 **scores 10**") if shot.scored else _("✗ miss")
    chaser, team = UserText(shot.chaser), UserText(state.team(shot.team).name)
    return f"{chaser} ({team}): {roll_text(shot.roll)} {verdict}"


def _snitch_text(state: q.MatchState, snitch: q.SnitchReport) -> str:
    if not snitch.seekers:
        return _("No seeker is in play: nobody can catch the snitch.")
    lines = []
    for seeker in snitch.seekers:
        how = " " + _("interferes (2 × Dexterity, cannot catch)") if seeker.interfering else ""
        who, team = UserText(seeker.seeker), UserText(state.team(seeker.team).name)
        text = f"{who} ({team}){how}: {roll_text(seeker.roll)}"
        if seeker.caught:
            text += " — " + _("✨ **catches the snitch! +150**")
        lines.append(text)
    if len(snitch.seekers) == 1:
        lines.append(_("The other seeker is out: the snitch is caught on 10 or more."))
    if snitch.caught_by is None:
        lines.append(_("The snitch gets away (a catch needs 10 more than the other seeker)."))
    return "\n".join(lines)


def _result_text(outcome: TurnOutcome) -> str:
    result, state = outcome.report.result, outcome.view.state
    assert result is not None
    lines = [_("{score} after {turns} turns.", score=score_line(state), turns=result.turns)]
    if result.winner is None:
        lines.append(_("A draw: no house points."))
        return "\n".join(lines)
    winner = UserText(state.team(result.winner).name)
    lines.append(
        _("**{winner}** win by {difference}.", winner=winner, difference=result.difference)
    )
    if result.house and result.house_points:
        if outcome.house_total is not None:
            lines.append(
                _(
                    "🏠 {house} earns **{points}** house points (now {total}).",
                    house=result.house,
                    points=result.house_points,
                    total=outcome.house_total,
                )
            )
        else:
            lines.append(
                _(
                    "🏠 {house} earns **{points}** house points.",
                    house=result.house,
                    points=result.house_points,
                )
            )
    else:
        lines.append(_("{winner} play for no house: no house points.", winner=winner))
    return "\n".join(lines)


def penalty_embed(outcome: TurnOutcome) -> discord.Embed:
    (shot,) = outcome.report.penalties
    state = outcome.view.state
    title = _(
        "{broom} Penalty shot — {score}", broom=BROOM, score=score_line(state).replace("**", "")
    )
    embed = discord.Embed(
        title=clip(title, 256),
        description=_penalty_line(state, shot),
        colour=colours.SUCCESS if shot.scored else colours.FAILURE,
    )
    embed.add_field(
        name=_("For the foul"),
        value=_(
            "{beater} ({team}) on {target}, turn {turn}",
            beater=UserText(shot.foul.beater),
            team=UserText(state.team(shot.foul.team).name),
            target=UserText(shot.foul.target),
            turn=shot.foul.turn,
        ),
        inline=False,
    )
    embed.set_footer(text=next_snitch(state))
    return fit_embed(embed)
