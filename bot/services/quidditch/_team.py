"""A whole quidditch team at once, and the roster message that shows both teams.

``/quidditch team`` is a form with one field per position, one player per line as
``Name Strength Dexterity Toughness Health`` (the compact roster the tests and benchmarks
keep). A submitted form replaces that team's roster; a line that cannot be read is named,
and nothing is saved.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import N_, _, translate_error
from bot.services.quidditch._match import MatchView, gm_match, match_view, resolve_side
from bot.storage import Database
from bot.storage.repositories import quidditch as matches
from bot.text import UserText
from engine import quidditch as q

#: The form's fields: (custom id = position, label).
_FIELD_LABELS = {
    q.Position.CHASER: N_("Chasers (3)"),
    q.Position.BEATER: N_("Beaters (2)"),
    q.Position.KEEPER: N_("Keeper"),
    q.Position.SEEKER: N_("Seeker"),
}
#: The form's fields: (custom id = position, label as an English message id).
TEAM_FIELDS: tuple[tuple[q.Position, str], ...] = tuple((p, _FIELD_LABELS[p]) for p in q.Position)
LINE_HINT = N_("Name Strength Dexterity Toughness Health")
_TOO_MANY = {
    q.Position.CHASER: N_("{label}: a team has 3 chasers (the form gives {count})."),
    q.Position.BEATER: N_("{label}: a team has 2 beaters (the form gives {count})."),
    q.Position.KEEPER: N_("{label}: a team has 1 keeper (the form gives {count})."),
    q.Position.SEEKER: N_("{label}: a team has 1 seeker (the form gives {count})."),
}


@dataclass(frozen=True, slots=True)
class TeamForm:
    """What the ``/quidditch team`` modal shows: the team and its roster, a field per position."""

    side: q.Side
    team: str
    fields: tuple[tuple[str, str, str], ...]
    """(custom id, label, prefilled lines)."""


def _player_line(player: q.Player) -> str:
    return (
        f"{player.name} {player.strength} {player.dexterity} {player.toughness} {player.max_health}"
    )


async def team_form(db: Database, actor: Actor, team: str) -> TeamForm:
    """The form for one team of the channel's match (a GM's, before the first turn)."""
    async with db.unit_of_work(read_only=True) as session:
        _match, state = await gm_match(session, actor, _("change the quidditch match"), lock=False)
        side = resolve_side(state, team)
        if state.started:
            raise UserError(_("Rosters are fixed once the first turn is played."))
        roster = state.team(side)
        fields = tuple(
            (position.value, label, "\n".join(_player_line(p) for p in roster.at(position)))
            for position, label in TEAM_FIELDS
        )
        return TeamForm(side, roster.name, fields)


async def set_team(db: Database, actor: Actor, side: q.Side, lines: Mapping[str, str]) -> MatchView:
    """Replace one team's roster with the form's players (checked line by line)."""
    async with db.unit_of_work() as session:
        match, state = await gm_match(session, actor, _("change the quidditch match"))
        roster = state.team(side)
        for player in roster.players:
            state = q.remove_player(state, side, player.name)
        for position, label in TEAM_FIELDS:
            numbered = [
                (n, line.strip())
                for n, line in enumerate(lines.get(position.value, "").splitlines(), start=1)
                if line.strip()
            ]
            if len(numbered) > position.slots:
                raise UserError(_(_TOO_MANY[position], label=_(label), count=len(numbered)))
            for number, line in numbered:
                try:
                    player = _read_player(line, position)
                    if state.team(side).find(player.name) is not None:
                        raise UserError(
                            _("{name} is on this form twice.", name=UserText(player.name))
                        )
                    state = q.add_player(state, side, player)
                except (UserError, q.QuidditchError) as error:
                    shown = UserText(line[:60])
                    raise UserError(
                        _(
                            "{label}, line {number} (`{shown}`): {error}",
                            label=_(label),
                            number=number,
                            shown=shown,
                            error=translate_error(error),
                        )
                    ) from None
        match.state = state.to_dict()
        return match_view(match, state)


def _read_player(line: str, position: q.Position) -> q.Player:
    words = line.split()
    if len(words) < 5 or not all(_is_int(w) for w in words[-4:]):
        raise UserError(_("write {hint}, e.g. Wood 3 4 5 6.", hint=_(LINE_HINT)))
    strength, dexterity, toughness, health = (int(w) for w in words[-4:])
    return q.make_player(
        " ".join(words[:-4]),
        position,
        strength=strength,
        dexterity=dexterity,
        toughness=toughness,
        health=health,
    )


def _is_int(word: str) -> bool:
    return re.fullmatch(r"[+-]?[0-9]{1,6}", word) is not None


async def set_roster_message(db: Database, channel_id: int, message_id: int) -> None:
    """Remember the channel's roster message (after the old one could not be edited)."""
    async with db.unit_of_work() as session:
        match = await matches.active(session, channel_id, for_update=True)
        if match is not None:
            match.roster_message_id = message_id


async def roster_message_id(db: Database, channel_id: int) -> int | None:
    """The channel's roster message as stored now (None: none posted yet, or no match)."""
    async with db.unit_of_work(read_only=True) as session:
        match = await matches.active(session, channel_id)
        return None if match is None else match.roster_message_id
