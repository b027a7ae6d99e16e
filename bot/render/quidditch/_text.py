"""Quidditch's words and short texts shared by every quidditch embed: positions and sides in
the reader's language, a roll as ``[12] [3] +5 = 17 vs 11``, the score line, a team's
label, what a roster lacks and when the snitch phase comes.

It exists so the turn embeds (:mod:`bot.render.quidditch._turns`), the match embeds
(:mod:`bot.render.quidditch._match`) and the cogs word these the same way.
"""

from __future__ import annotations

from bot.i18n import N_, _, _n
from bot.render.hogwarts1990 import dice_text
from bot.text import UserText, signed
from engine import quidditch as q
from engine.systems.hogwarts1990 import Roll

BROOM = "🧹"
#: The positions as the reader's language names them.
POSITION_NAMES = {
    q.Position.CHASER: N_("Chaser"),
    q.Position.BEATER: N_("Beater"),
    q.Position.KEEPER: N_("Keeper"),
    q.Position.SEEKER: N_("Seeker"),
}
SIDE_NAMES = {q.HOME: N_("home"), q.AWAY: N_("away")}


#: The positions in running text ("joins as chaser").
POSITION_WORDS = {
    q.Position.CHASER: N_("chaser"),
    q.Position.BEATER: N_("beater"),
    q.Position.KEEPER: N_("keeper"),
    q.Position.SEEKER: N_("seeker"),
}


def position_name(position: q.Position) -> str:
    """``Chaser``: a roster line's heading word, in the reader's language."""
    return _(POSITION_NAMES[position])


def position_word(position: q.Position) -> str:
    """``chaser``: the position inside a sentence, in the reader's language."""
    return _(POSITION_WORDS[position])


def missing(team: q.Team) -> list[str]:
    """What a roster still lacks (``2 chasers``, ``a keeper``) in the reader's language."""
    lacking = []
    for position in q.Position:
        short = position.slots - len(team.at(position))
        if short <= 0:
            continue
        if position is q.Position.CHASER:
            lacking.append(_n("{count} chaser", "{count} chasers", short, count=short))
        elif position is q.Position.BEATER:
            lacking.append(_n("{count} beater", "{count} beaters", short, count=short))
        elif position is q.Position.KEEPER:
            lacking.append(_("a keeper"))
        else:
            lacking.append(_("a seeker"))
    return lacking


def roll_text(roll: Roll) -> str:
    """``[12] [3] +5 = 17 vs 11`` (the kept die in bold), the dice shown as /h90 shows them."""
    text = f"{dice_text(roll)} {signed(roll.bonus)} = **{roll.total}**"
    if roll.difficulty is not None:
        text += " " + _("vs {difficulty}", difficulty=roll.difficulty)
    return text


def score_line(state: q.MatchState) -> str:
    home, away = UserText(state.home.name), UserText(state.away.name)
    return f"{home} **{state.home_score}** – **{state.away_score}** {away}"


def team_label(state: q.MatchState, side: q.Side) -> str:
    team = state.team(side)
    house = f" ({team.house})" if team.house and team.house != team.name else ""
    return f"{UserText(team.name)}{house}"


def next_snitch(state: q.MatchState) -> str:
    turn = state.next_snitch_turn
    if turn is None:
        return _("the snitch has been caught")
    if state.snitch_pending:
        return _("turn {turn}'s snitch phase waits for penalty shots", turn=turn)
    return _("next snitch phase: end of turn {turn}", turn=turn)
