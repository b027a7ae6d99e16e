"""A quidditch match's state and its roster: who plays where, with what stats.

Pure data the bot stores as plain dicts; every change returns a new state, and every
input is checked here so a turn never meets a player it cannot roll for.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine.errors import N_, InputError, whole_number

Side = Literal["home", "away"]
HOME: Side = "home"
AWAY: Side = "away"
SIDES: tuple[Side, Side] = (HOME, AWAY)
Penalties = Literal["ask", "all", "none"]

GOAL_POINTS = 10
PENALTY_POINTS = 10
SNITCH_POINTS = 150
CATCH_MARGIN = 10
LONE_SEEKER_DIFFICULTY = 10  # "against 10 + 0"
FIRST_SNITCH_TURN = 10
SNITCH_EVERY = 5
STAT_MAX = 50  # keeps 2 x Dexterity and Toughness + Dexterity within the roll's bounds
HEALTH_MAX = 100
NAME_MAX = 64
DEFAULT_MAX_TURNS = 500
STATE_VERSION = 1


class QuidditchError(InputError):
    """A match was asked to do something the rules or its state do not allow (shown to users)."""


class Position(enum.StrEnum):
    CHASER = "chaser"
    BEATER = "beater"
    KEEPER = "keeper"
    SEEKER = "seeker"

    @property
    def label(self) -> str:
        return self.value.capitalize()

    @property
    def slots(self) -> int:
        return _SLOTS[self]


_SLOTS = {Position.CHASER: 3, Position.BEATER: 2, Position.KEEPER: 1, Position.SEEKER: 1}
#: A full position's refusal, one message per position (its count and noun differ).
_FULL = {
    Position.CHASER: N_("{team} already has 3 chasers ({names}); remove one first."),
    Position.BEATER: N_("{team} already has 2 beaters ({names}); remove one first."),
    Position.KEEPER: N_("{team} already has 1 keeper ({names}); remove one first."),
    Position.SEEKER: N_("{team} already has 1 seeker ({names}); remove one first."),
}


def other(side: Side) -> Side:
    return AWAY if side == HOME else HOME


def _capital(text: str) -> str:
    """The start of a sentence: "a player's name" → "A player's name" (the rest untouched)."""
    return text[:1].upper() + text[1:]


def check_side(side: str) -> Side:
    if side not in SIDES:
        raise QuidditchError(N_("The team must be 'home' or 'away' (got {side})."), side=repr(side))
    return side


def _check_name(name: str, what: str) -> str:
    if not isinstance(name, str):
        raise QuidditchError(N_("{what} must be text."), what=what)
    name = " ".join(name.split())
    if not 1 <= len(name) <= NAME_MAX:
        raise QuidditchError(N_("{what} must be 1 to {most} characters."), what=what, most=NAME_MAX)
    if any(c in name for c in ",:"):
        raise QuidditchError(
            N_("{what} may not contain ',' or ':' (they separate targets)."), what=what
        )
    return name


def check_stat(value: int, name: str, low: int, high: int) -> int:
    return whole_number(value, _capital(name), low, high, error=QuidditchError)


# --- roster -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    position: Position
    strength: int
    dexterity: int
    toughness: int
    health: int
    max_health: int

    @property
    def active(self) -> bool:
        """A player at 0 Health is knocked out and takes no further part."""
        return self.health > 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "position": self.position.value,
            "strength": self.strength,
            "dexterity": self.dexterity,
            "toughness": self.toughness,
            "health": self.health,
            "max_health": self.max_health,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Player:
        return cls(
            name=str(data["name"]),
            position=Position(data["position"]),
            strength=int(data["strength"]),
            dexterity=int(data["dexterity"]),
            toughness=int(data["toughness"]),
            health=int(data["health"]),
            max_health=int(data.get("max_health", data["health"])),
        )


def make_player(
    name: str,
    position: Position | str,
    *,
    strength: int,
    dexterity: int,
    toughness: int,
    health: int,
) -> Player:
    """A validated player (Health 0 fields a player who is already out, e.g. a missing seeker)."""
    try:
        position = Position(position)
    except ValueError:
        raise QuidditchError(
            N_("The position must be one of {positions} (got {position})."),
            positions=", ".join(p.value for p in Position),
            position=repr(position),
        ) from None
    return Player(
        name=_check_name(name, N_("A player's name")),
        position=position,
        strength=check_stat(strength, N_("Strength"), 0, STAT_MAX),
        dexterity=check_stat(dexterity, N_("Dexterity"), 0, STAT_MAX),
        toughness=check_stat(toughness, N_("Toughness"), 0, STAT_MAX),
        health=check_stat(health, N_("Health"), 0, HEALTH_MAX),
        max_health=health,
    )


@dataclass(frozen=True, slots=True)
class Team:
    name: str
    house: str | None = None
    players: tuple[Player, ...] = ()

    def at(self, position: Position) -> tuple[Player, ...]:
        """The players in one position, in roster order (the order chasers roll in)."""
        return tuple(p for p in self.players if p.position is position)

    @property
    def chasers(self) -> tuple[Player, ...]:
        return self.at(Position.CHASER)

    @property
    def beaters(self) -> tuple[Player, ...]:
        return self.at(Position.BEATER)

    @property
    def keeper(self) -> Player | None:
        found = self.at(Position.KEEPER)
        return found[0] if found else None

    @property
    def seeker(self) -> Player | None:
        found = self.at(Position.SEEKER)
        return found[0] if found else None

    def find(self, name: str) -> Player | None:
        wanted = " ".join(name.split()).casefold()
        for player in self.players:
            if player.name.casefold() == wanted:
                return player
        return None

    def missing(self) -> list[str]:
        """What the roster still lacks, e.g. ``["2 chasers", "a keeper"]``."""
        lacking = []
        for position in Position:
            short = position.slots - len(self.at(position))
            if short > 0:
                if position.slots == 1:
                    lacking.append(f"a {position.value}")
                else:
                    lacking.append(f"{short} {position.value}{'s' if short > 1 else ''}")
        return lacking

    def with_player(self, player: Player) -> Team:
        players = list(self.players)
        for index, existing in enumerate(players):
            if existing.name.casefold() == player.name.casefold():
                players[index] = player
                break
        else:
            players.append(player)
        return replace(self, players=tuple(players))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "house": self.house,
            "players": [p.to_dict() for p in self.players],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Team:
        return cls(
            name=str(data["name"]),
            house=data.get("house"),
            players=tuple(Player.from_dict(p) for p in data.get("players", ())),
        )


@dataclass(frozen=True, slots=True)
class Foul:
    """A beater hit a chaser who had not scored, or went for the keeper."""

    turn: int
    team: Side
    """The offending beater's team."""
    beater: str
    target: str
    target_position: Position
    taken: bool = False
    """A penalty shot has been taken for it."""

    @property
    def victim(self) -> Side:
        """The team that may be awarded the penalty shot."""
        return other(self.team)

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "team": self.team,
            "beater": self.beater,
            "target": self.target,
            "target_position": self.target_position.value,
            "taken": self.taken,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Foul:
        return cls(
            turn=int(data["turn"]),
            team=check_side(data["team"]),
            beater=str(data["beater"]),
            target=str(data["target"]),
            target_position=Position(data["target_position"]),
            taken=bool(data.get("taken", False)),
        )


@dataclass(frozen=True, slots=True)
class MatchState:
    home: Team
    away: Team
    turn: int = 0
    """The last turn played (0 before the first)."""
    home_score: int = 0
    away_score: int = 0
    home_interferes: bool = False
    away_interferes: bool = False
    fouls: tuple[Foul, ...] = ()
    """Fouls of the last turn (open ones may still be given a penalty shot)."""
    snitch_pending: bool = False
    """The last turn's snitch phase waits for penalty shots; the next play_turn plays it."""
    finished: bool = False
    caught_by: Side | None = None

    def team(self, side: Side) -> Team:
        return self.home if side == HOME else self.away

    def score(self, side: Side) -> int:
        return self.home_score if side == HOME else self.away_score

    def interferes(self, side: Side) -> bool:
        return self.home_interferes if side == HOME else self.away_interferes

    @property
    def started(self) -> bool:
        return self.turn > 0

    @property
    def open_fouls(self) -> tuple[Foul, ...]:
        return tuple(f for f in self.fouls if not f.taken)

    @property
    def next_snitch_turn(self) -> int | None:
        """The turn whose end brings the next snitch phase (None once the match is over)."""
        if self.finished:
            return None
        if self.snitch_pending:
            return self.turn
        return next_snitch_turn(self.turn + 1)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict (what the database stores); :meth:`from_dict` reverses it."""
        return {
            "version": STATE_VERSION,
            "home": self.home.to_dict(),
            "away": self.away.to_dict(),
            "turn": self.turn,
            "score": {HOME: self.home_score, AWAY: self.away_score},
            "interferes": {HOME: self.home_interferes, AWAY: self.away_interferes},
            "fouls": [f.to_dict() for f in self.fouls],
            "snitch_pending": self.snitch_pending,
            "finished": self.finished,
            "caught_by": self.caught_by,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchState:
        if data.get("version") != STATE_VERSION:
            raise QuidditchError(
                N_("Unknown match state version {version}."), version=repr(data.get("version"))
            )
        caught_by = data.get("caught_by")
        return cls(
            home=Team.from_dict(data["home"]),
            away=Team.from_dict(data["away"]),
            turn=int(data["turn"]),
            home_score=int(data["score"][HOME]),
            away_score=int(data["score"][AWAY]),
            home_interferes=bool(data["interferes"][HOME]),
            away_interferes=bool(data["interferes"][AWAY]),
            fouls=tuple(Foul.from_dict(f) for f in data.get("fouls", ())),
            snitch_pending=bool(data.get("snitch_pending", False)),
            finished=bool(data.get("finished", False)),
            caught_by=None if caught_by is None else check_side(caught_by),
        )


def with_team(state: MatchState, side: Side, team: Team) -> MatchState:
    return replace(state, home=team) if side == HOME else replace(state, away=team)


def with_points(state: MatchState, side: Side, points: int) -> MatchState:
    if side == HOME:
        return replace(state, home_score=state.home_score + points)
    return replace(state, away_score=state.away_score + points)


def is_snitch_turn(turn: int) -> bool:
    """The snitch phase ends turn 10 and every 5th turn after (15, 20, ...)."""
    return turn >= FIRST_SNITCH_TURN and (turn - FIRST_SNITCH_TURN) % SNITCH_EVERY == 0


def next_snitch_turn(turn: int) -> int:
    """The first snitch turn at or after ``turn``."""
    if turn <= FIRST_SNITCH_TURN:
        return FIRST_SNITCH_TURN
    return turn + (-(turn - FIRST_SNITCH_TURN)) % SNITCH_EVERY


def new_match(
    home: str, away: str, *, home_house: str | None = None, away_house: str | None = None
) -> MatchState:
    """Two named teams, each optionally playing for a house, with empty rosters."""
    home = _check_name(home, N_("The home team's name"))
    away = _check_name(away, N_("The away team's name"))
    if home.casefold() == away.casefold():
        raise QuidditchError(N_("The two teams need different names."))
    houses = [None if not h else _check_name(h, N_("A house")) for h in (home_house, away_house)]
    return MatchState(home=Team(home, houses[0]), away=Team(away, houses[1]))


def _roster_editable(state: MatchState) -> None:
    if state.finished:
        raise QuidditchError(N_("The match is over."))
    if state.started:
        raise QuidditchError(N_("Rosters are fixed once the first turn is played."))


def add_player(state: MatchState, side: Side, player: Player) -> MatchState:
    """Add a player, or replace the one of the same name; refuses a full position."""
    check_side(side)
    _roster_editable(state)
    team = state.team(side)
    rival = state.team(other(side)).find(player.name)
    existing = team.find(player.name)
    if rival is not None:
        raise QuidditchError(
            N_("{name} already plays for {team}."),
            name=rival.name,
            team=state.team(other(side)).name,
        )
    taken = [p for p in team.at(player.position) if existing is None or p is not existing]
    if len(taken) >= player.position.slots:
        names = ", ".join(p.name for p in taken)
        raise QuidditchError(_FULL[player.position], team=team.name, names=names)
    return with_team(state, side, team.with_player(player))


def add_players(
    state: MatchState, side: Side, rows: Iterable[tuple[str, Position | str, int, int, int, int]]
) -> MatchState:
    """Add players written as ``(name, position, Strength, Dexterity, Toughness, Health)`` rows,
    the compact roster the benchmark and the tests keep."""
    for name, position, strength, dexterity, toughness, health in rows:
        player = make_player(
            name,
            position,
            strength=strength,
            dexterity=dexterity,
            toughness=toughness,
            health=health,
        )
        state = add_player(state, side, player)
    return state


def remove_player(state: MatchState, side: Side, name: str) -> MatchState:
    check_side(side)
    _roster_editable(state)
    team = state.team(side)
    player = team.find(name)
    if player is None:
        raise QuidditchError(
            N_("{team} has no player named {name}."), team=team.name, name=repr(name)
        )
    return with_team(
        state, side, replace(team, players=tuple(p for p in team.players if p is not player))
    )


def set_health(state: MatchState, side: Side, name: str, health: int) -> MatchState:
    """The GM's correction of a player's Health at any time (0 takes the player out)."""
    check_side(side)
    if state.finished:
        raise QuidditchError(N_("The match is over."))
    team = state.team(side)
    player = team.find(name)
    if player is None:
        raise QuidditchError(
            N_("{team} has no player named {name}."), team=team.name, name=repr(name)
        )
    health = check_stat(health, N_("Health"), 0, HEALTH_MAX)
    updated = replace(player, health=health, max_health=max(player.max_health, health))
    return with_team(state, side, team.with_player(updated))


def missing(state: MatchState) -> list[str]:
    """One line per incomplete team, e.g. ``"Gryffindor needs 2 chasers, a keeper"``."""
    lines = []
    for side in SIDES:
        lacking = state.team(side).missing()
        if lacking:
            lines.append(f"{state.team(side).name} needs {', '.join(lacking)}")
    return lines


def set_interference(state: MatchState, side: Side, interfere: bool = True) -> MatchState:
    """Make a team's seeker interfere (double Dexterity, no catch) in the next snitch phase."""
    check_side(side)
    if state.finished:
        raise QuidditchError(N_("The match is over."))
    if side == HOME:
        return replace(state, home_interferes=interfere)
    return replace(state, away_interferes=interfere)
