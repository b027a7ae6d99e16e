"""Quidditch under the Hogwarts 1990 optional rules (RULES.md §2) as a pure state machine.

A :class:`MatchState` goes in with the GM's decisions and a dice source; a new state and a
report of everything rolled come out. Nothing here does I/O: the bot stores the state as
the plain dict of :meth:`MatchState.to_dict` and renders the reports.

Dice are drawn in the order RULES.md gives: home chasers in roster order, away chasers,
home beaters, away beaters, penalty shots, then the snitch (home seeker first). The home
team is RULES.md's "team A".

Decisions beyond RULES.md, all taken so the machine never stalls or guesses:

* A knocked-out keeper defends with Toughness and Dexterity 0, as a missing seeker is
  chased "against 10 + 0".
* Beater targets are fixed at the start of the blocking phase (so both beaters of a team
  may hit the same chaser, as the source allows). With no active opposing chaser, a beater
  without a GM target holds back and does not roll, rather than commit a foul by default.
* Penalty shots ("the GM may award"): with ``penalties="ask"`` fouls stay open until the
  next turn for :func:`penalty_shot`; on a snitch turn the snitch phase then waits, so the
  shots come before the snitch as the Order says, and the next :func:`play_turn` plays it.
  ``"all"`` takes one shot per foul at once (by the fouled chaser, or the first active
  chaser of the fouled team), ``"none"`` waives them all.
* A seeker's interference is set before a snitch phase and applies to that phase only.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from engine.dice import Dice
from engine.errors import InputError
from engine.systems import hogwarts1990 as h90
from engine.systems.hogwarts1990 import Roll

__all__ = [
    "AWAY",
    "HOME",
    "SIDES",
    "BeaterReport",
    "Foul",
    "MatchResult",
    "MatchState",
    "PenaltyReport",
    "Player",
    "Position",
    "QuidditchError",
    "SeekerReport",
    "ShotReport",
    "SimulatedMatch",
    "SimulationSummary",
    "SnitchReport",
    "Team",
    "Turn",
    "TurnReport",
    "add_player",
    "add_players",
    "check_simulable",
    "is_snitch_turn",
    "make_player",
    "match_result",
    "missing",
    "new_match",
    "next_snitch_turn",
    "parse_targets",
    "penalty_shot",
    "play_turn",
    "remove_player",
    "set_health",
    "set_interference",
    "simulate",
    "simulate_many",
    "summarise",
]

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


def other(side: Side) -> Side:
    return AWAY if side == HOME else HOME


def _capital(text: str) -> str:
    """The start of a sentence: "a player's name" → "A player's name" (the rest untouched)."""
    return text[:1].upper() + text[1:]


def _check_side(side: str) -> Side:
    if side not in SIDES:
        raise QuidditchError(f"The team must be 'home' or 'away' (got {side!r}).")
    return side  # type: ignore[return-value]


def _check_name(name: str, what: str) -> str:
    if not isinstance(name, str):
        raise QuidditchError(f"{_capital(what)} must be text.")
    name = " ".join(name.split())
    if not 1 <= len(name) <= NAME_MAX:
        raise QuidditchError(f"{_capital(what)} must be 1 to {NAME_MAX} characters.")
    if any(c in name for c in ",:"):
        raise QuidditchError(
            f"{_capital(what)} may not contain ',' or ':' (they separate targets)."
        )
    return name


def _check_stat(value: int, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise QuidditchError(f"{_capital(name)} must be a whole number (got {value!r}).")
    if not low <= value <= high:
        raise QuidditchError(f"{_capital(name)} must be between {low} and {high} (got {value}).")
    return value


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
            f"The position must be one of {', '.join(p.value for p in Position)} "
            f"(got {position!r})."
        ) from None
    return Player(
        name=_check_name(name, "a player's name"),
        position=position,
        strength=_check_stat(strength, "Strength", 0, STAT_MAX),
        dexterity=_check_stat(dexterity, "Dexterity", 0, STAT_MAX),
        toughness=_check_stat(toughness, "Toughness", 0, STAT_MAX),
        health=_check_stat(health, "Health", 0, HEALTH_MAX),
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
            team=_check_side(data["team"]),
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
            raise QuidditchError(f"Unknown match state version {data.get('version')!r}.")
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
            caught_by=None if caught_by is None else _check_side(caught_by),
        )


def _with_team(state: MatchState, side: Side, team: Team) -> MatchState:
    return replace(state, home=team) if side == HOME else replace(state, away=team)


def _with_points(state: MatchState, side: Side, points: int) -> MatchState:
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
    home = _check_name(home, "the home team's name")
    away = _check_name(away, "the away team's name")
    if home.casefold() == away.casefold():
        raise QuidditchError("The two teams need different names.")
    houses = [None if not h else _check_name(h, "a house") for h in (home_house, away_house)]
    return MatchState(home=Team(home, houses[0]), away=Team(away, houses[1]))


def _roster_editable(state: MatchState) -> None:
    if state.finished:
        raise QuidditchError("The match is over.")
    if state.started:
        raise QuidditchError("Rosters are fixed once the first turn is played.")


def add_player(state: MatchState, side: Side, player: Player) -> MatchState:
    """Add a player, or replace the one of the same name; refuses a full position."""
    _check_side(side)
    _roster_editable(state)
    team = state.team(side)
    rival = state.team(other(side)).find(player.name)
    existing = team.find(player.name)
    if rival is not None:
        raise QuidditchError(f"{rival.name} already plays for {state.team(other(side)).name}.")
    taken = [p for p in team.at(player.position) if existing is None or p is not existing]
    if len(taken) >= player.position.slots:
        names = ", ".join(p.name for p in taken)
        count = player.position.slots
        plural = "s" if count > 1 else ""
        raise QuidditchError(
            f"{team.name} already has {count} {player.position.value}{plural} ({names}); "
            f"remove one first."
        )
    return _with_team(state, side, team.with_player(player))


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
    _check_side(side)
    _roster_editable(state)
    team = state.team(side)
    player = team.find(name)
    if player is None:
        raise QuidditchError(f"{team.name} has no player named {name!r}.")
    return _with_team(
        state, side, replace(team, players=tuple(p for p in team.players if p is not player))
    )


def set_health(state: MatchState, side: Side, name: str, health: int) -> MatchState:
    """The GM's correction of a player's Health at any time (0 takes the player out)."""
    _check_side(side)
    if state.finished:
        raise QuidditchError("The match is over.")
    team = state.team(side)
    player = team.find(name)
    if player is None:
        raise QuidditchError(f"{team.name} has no player named {name!r}.")
    health = _check_stat(health, "Health", 0, HEALTH_MAX)
    updated = replace(player, health=health, max_health=max(player.max_health, health))
    return _with_team(state, side, team.with_player(updated))


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
    _check_side(side)
    if state.finished:
        raise QuidditchError("The match is over.")
    if side == HOME:
        return replace(state, home_interferes=interfere)
    return replace(state, away_interferes=interfere)


# --- reports ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShotReport:
    """A chaser's scoring roll (Strength vs the opposing keeper's Toughness + Dexterity)."""

    team: Side
    chaser: str
    roll: Roll
    blocked_by: tuple[str, ...] = ()

    @property
    def margin(self) -> int | None:
        """Total − difficulty on a success, else None."""
        return self.roll.margin if self.roll.success else None

    @property
    def scored(self) -> bool:
        """An unblocked goal."""
        return bool(self.roll.success) and not self.blocked_by


@dataclass(frozen=True, slots=True)
class BeaterReport:
    """A beater's bludger (Strength vs the opposing keeper's Toughness)."""

    team: Side
    beater: str
    target: str
    target_position: Position
    chosen_by_gm: bool
    roll: Roll
    blocked: bool
    """This hit blocked the target's goal (margin > the chaser's scoring margin)."""
    foul: bool
    target_health: int
    """The target's Health after this roll."""
    knocked_out: bool = False
    """This hit took the target's last Health point."""

    @property
    def hit(self) -> bool:
        return bool(self.roll.success)


@dataclass(frozen=True, slots=True)
class PenaltyReport:
    team: Side
    chaser: str
    foul: Foul
    roll: Roll

    @property
    def scored(self) -> bool:
        return bool(self.roll.success)


@dataclass(frozen=True, slots=True)
class SeekerReport:
    team: Side
    seeker: str
    interfering: bool
    roll: Roll
    caught: bool


@dataclass(frozen=True, slots=True)
class SnitchReport:
    seekers: tuple[SeekerReport, ...]
    """The seekers who rolled, home first (an out seeker does not roll)."""
    caught_by: Side | None


@dataclass(frozen=True, slots=True)
class MatchResult:
    home_score: int
    away_score: int
    winner: Side | None
    """None on a draw."""
    difference: int
    house: str | None
    """The winning team's house, which earns the difference in house points."""
    house_points: int
    caught_by: Side | None
    turns: int


@dataclass(frozen=True, slots=True)
class TurnReport:
    turn: int
    shots: tuple[ShotReport, ...] = ()
    blocks: tuple[BeaterReport, ...] = ()
    held: tuple[tuple[Side, str], ...] = ()
    """Beaters who had no one to target and did not roll."""
    penalties: tuple[PenaltyReport, ...] = ()
    fouls: tuple[Foul, ...] = ()
    snitch: SnitchReport | None = None
    snitch_deferred: bool = False
    """A snitch turn with open fouls: penalty shots first, the next play_turn chases."""
    snitch_only: bool = False
    """This report is only the snitch phase a previous turn deferred."""
    points: tuple[int, int] = (0, 0)
    """Points this report added (home, away)."""
    score: tuple[int, int] = (0, 0)
    """The score after it (home, away)."""
    knocked_out: tuple[tuple[Side, str], ...] = ()
    result: MatchResult | None = None
    """Set when the snitch was caught and the match ended."""

    @property
    def goals(self) -> tuple[ShotReport, ...]:
        return tuple(s for s in self.shots if s.scored)


@dataclass(frozen=True, slots=True)
class Turn:
    state: MatchState
    report: TurnReport


# --- targets ----------------------------------------------------------------------------------


def parse_targets(text: str | None) -> dict[str, str]:
    """``"home1:Weasley, home2:keeper"`` -> ``{"home1": "Weasley", "home2": "keeper"}``."""
    targets: dict[str, str] = {}
    if not text:
        return targets
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        beater, sep, target = part.partition(":")
        if not sep or not beater.strip() or not target.strip():
            raise QuidditchError(
                f"Targets are 'beater:target' pairs such as 'home1:Weasley, away2:keeper' "
                f"(got {part!r})."
            )
        key = beater.strip()
        if key.casefold() in (k.casefold() for k in targets):
            raise QuidditchError(f"Beater {key!r} is given two targets.")
        targets[key] = target.strip()
    return targets


def _find_beater(state: MatchState, key: str) -> tuple[Side, int]:
    folded = key.strip().casefold()
    for side in SIDES:
        beaters = state.team(side).beaters
        for index in range(len(beaters)):
            if folded == f"{side}{index + 1}":
                return side, index
    found = [
        (side, index)
        for side in SIDES
        for index, beater in enumerate(state.team(side).beaters)
        if beater.name.casefold() == folded
    ]
    if len(found) > 1:
        raise QuidditchError(f"Both teams have a beater named {key!r}: use home1/away1 instead.")
    if not found:
        raise QuidditchError(
            f"{key!r} is not a beater (name one, or use home1, home2, away1, away2)."
        )
    return found[0]


def _resolve_targets(
    state: MatchState, targets: Mapping[str, str] | None
) -> dict[tuple[Side, int], str]:
    """GM targets as {(beater side, beater index): target name}, checked against the rules."""
    resolved: dict[tuple[Side, int], str] = {}
    for key, target in (targets or {}).items():
        side, index = _find_beater(state, key)
        beater = state.team(side).beaters[index]
        if (side, index) in resolved:
            raise QuidditchError(f"{beater.name} is given two targets.")
        if not beater.active:
            raise QuidditchError(f"{beater.name} is knocked out and cannot play.")
        opponents = state.team(other(side))
        if target.strip().casefold() == "keeper":
            victim = opponents.keeper
        else:
            victim = opponents.find(target)
        if victim is None:
            raise QuidditchError(f"{opponents.name} has no player named {target!r}.")
        if victim.position not in (Position.CHASER, Position.KEEPER):
            raise QuidditchError(
                f"A beater targets an opposing chaser or the keeper, not the "
                f"{victim.position.value} {victim.name}."
            )
        if not victim.active:
            raise QuidditchError(f"{victim.name} is knocked out and takes no further part.")
        resolved[(side, index)] = victim.name
    return resolved


def _default_target(shots: Iterable[ShotReport], opponents: Team) -> str | None:
    """RULES.md's Decision: the opposing chaser with the largest scoring margin (ties: first
    listed), or, if none scored, the first listed (active) opposing chaser."""
    best: ShotReport | None = None
    for shot in shots:
        margin = shot.margin
        if margin is not None and (best is None or margin > best.margin):  # type: ignore[operator]
            best = shot
    if best is not None:
        return best.chaser
    for chaser in opponents.chasers:
        if chaser.active:
            return chaser.name
    return None


# --- playing ----------------------------------------------------------------------------------


def _require_playable(state: MatchState) -> None:
    if state.finished:
        raise QuidditchError("The match is over.")
    lacking = missing(state)
    if lacking:
        raise QuidditchError("The rosters are incomplete: " + "; ".join(lacking) + ".")


def _keeper_stats(team: Team) -> tuple[int, int]:
    """(Toughness, Dexterity) of a team's keeper; an absent or knocked-out one counts 0."""
    keeper = team.keeper
    if keeper is None or not keeper.active:
        return 0, 0
    return keeper.toughness, keeper.dexterity


def _chaser_roll(dice: Dice, chaser: Player, defenders: Team) -> Roll:
    toughness, dexterity = _keeper_stats(defenders)
    return h90.roll(dice, bonus=chaser.strength, difficulty=toughness + dexterity)


def play_turn(
    dice: Dice,
    state: MatchState,
    /,
    *,
    targets: Mapping[str, str] | None = None,
    penalties: Penalties = "ask",
) -> Turn:
    """Play one turn (or, if one waits, the last turn's snitch phase) and report every roll."""
    _require_playable(state)
    if penalties not in ("ask", "all", "none"):
        raise QuidditchError(f"Penalties must be ask, all or none (got {penalties!r}).")
    if state.snitch_pending:
        if targets:
            raise QuidditchError(
                f"Turn {state.turn}'s snitch phase comes first; give targets with the next turn."
            )
        report = TurnReport(state.turn, snitch_only=True)
        return _finish_turn(dice, replace(state, snitch_pending=False), report)
    resolved = _resolve_targets(state, targets)
    number = state.turn + 1
    state = replace(state, turn=number, fouls=())

    # 1. Scoring: every active chaser, home first, in roster order.
    shots: list[ShotReport] = []
    for side in SIDES:
        defenders = state.team(other(side))
        for chaser in state.team(side).chasers:
            if chaser.active:
                shots.append(ShotReport(side, chaser.name, _chaser_roll(dice, chaser, defenders)))

    # 2. Blocking: targets are fixed before any bludger flies.
    plan: list[tuple[Side, Player, str, bool]] = []
    held: list[tuple[Side, str]] = []
    for side in SIDES:
        opponents = state.team(other(side))
        their_shots = [s for s in shots if s.team != side]
        for index, beater in enumerate(state.team(side).beaters):
            if not beater.active:
                continue
            chosen = resolved.get((side, index))
            target = chosen if chosen is not None else _default_target(their_shots, opponents)
            if target is None:
                held.append((side, beater.name))
            else:
                plan.append((side, beater, target, chosen is not None))

    blocked: dict[tuple[Side, str], list[str]] = {}
    blocks: list[BeaterReport] = []
    fouls: list[Foul] = []
    knocked_out: list[tuple[Side, str]] = []
    for side, beater, target_name, by_gm in plan:
        victim_side = other(side)
        opponents = state.team(victim_side)
        target = opponents.find(target_name)
        assert target is not None
        toughness, _ = _keeper_stats(opponents)
        bludger = h90.roll(dice, bonus=beater.strength, difficulty=toughness)
        hit = bool(bludger.success)
        shot = next((s for s in shots if s.team == victim_side and s.chaser == target.name), None)
        scored = shot is not None and shot.margin is not None
        stops_goal = (
            hit and scored and bludger.margin > shot.margin  # type: ignore[operator,union-attr]
        )
        if stops_goal:
            blocked.setdefault((victim_side, target.name), []).append(beater.name)
        foul = target.position is Position.KEEPER or (hit and not scored)
        if foul:
            fouls.append(Foul(number, side, beater.name, target.name, target.position))
        health = target.health
        out = False
        if hit and health > 0:
            health -= 1
            updated = opponents.with_player(replace(target, health=health))
            state = _with_team(state, victim_side, updated)
            if health == 0:
                out = True
                knocked_out.append((victim_side, target.name))
        blocks.append(
            BeaterReport(
                team=side,
                beater=beater.name,
                target=target.name,
                target_position=target.position,
                chosen_by_gm=by_gm,
                roll=bludger,
                blocked=stops_goal,
                foul=foul,
                target_health=health,
                knocked_out=out,
            )
        )

    # 3. Unblocked goals score.
    shots = [
        replace(s, blocked_by=tuple(blocked[(s.team, s.chaser)]))
        if (s.team, s.chaser) in blocked
        else s
        for s in shots
    ]
    points = {HOME: 0, AWAY: 0}
    for shot in shots:
        if shot.scored:
            points[shot.team] += GOAL_POINTS
    state = replace(
        state,
        home_score=state.home_score + points[HOME],
        away_score=state.away_score + points[AWAY],
        fouls=tuple(fouls),
    )

    # Penalty shots, when awarded at once.
    penalty_reports: list[PenaltyReport] = []
    if fouls and penalties != "ask":
        if penalties == "all":
            for foul in fouls:
                shooter = _default_shooter(state, foul)
                if shooter is not None:
                    state, report = _take_penalty(dice, state, foul.victim, shooter, foul)
                    penalty_reports.append(report)
        state = replace(state, fouls=tuple(replace(f, taken=True) for f in state.fouls))

    report = TurnReport(
        turn=number,
        shots=tuple(shots),
        blocks=tuple(blocks),
        held=tuple(held),
        penalties=tuple(penalty_reports),
        fouls=tuple(fouls),
        knocked_out=tuple(knocked_out),
    )
    if not is_snitch_turn(number):
        return Turn(state, _close(report, state, start=_start_score(state, report)))
    if state.open_fouls:
        state = replace(state, snitch_pending=True)
        report = replace(report, snitch_deferred=True)
        return Turn(state, _close(report, state, start=_start_score(state, report)))
    return _finish_turn(dice, state, report)


def _start_score(state: MatchState, report: TurnReport) -> tuple[int, int]:
    """The score before ``report``'s points (goals and penalty shots)."""
    home = sum(GOAL_POINTS for s in report.goals if s.team == HOME) + sum(
        PENALTY_POINTS for p in report.penalties if p.scored and p.team == HOME
    )
    away = sum(GOAL_POINTS for s in report.goals if s.team == AWAY) + sum(
        PENALTY_POINTS for p in report.penalties if p.scored and p.team == AWAY
    )
    return state.home_score - home, state.away_score - away


def _close(report: TurnReport, state: MatchState, *, start: tuple[int, int]) -> TurnReport:
    return replace(
        report,
        points=(state.home_score - start[0], state.away_score - start[1]),
        score=(state.home_score, state.away_score),
        result=match_result(state) if state.finished else None,
    )


def _finish_turn(dice: Dice, state: MatchState, report: TurnReport) -> Turn:
    """The snitch phase, then the turn's report closes."""
    start = _start_score(state, report)
    seekers: list[SeekerReport] = []
    rolls: dict[Side, tuple[Player, bool, Roll]] = {}
    for side in SIDES:
        seeker = state.team(side).seeker
        if seeker is not None and seeker.active:
            interfering = state.interferes(side)
            bonus = seeker.dexterity * (2 if interfering else 1)
            rolls[side] = (seeker, interfering, h90.roll(dice, bonus=bonus))
    caught_by: Side | None = None
    for side, (seeker, interfering, roll) in rolls.items():
        rival = rolls.get(other(side))
        needed = LONE_SEEKER_DIFFICULTY if rival is None else rival[2].total + CATCH_MARGIN
        caught = not interfering and roll.total >= needed
        if caught:
            caught_by = side
        seekers.append(SeekerReport(side, seeker.name, interfering, roll, caught))
    state = replace(
        state,
        home_interferes=False,
        away_interferes=False,
        fouls=tuple(replace(f, taken=True) for f in state.fouls),
    )
    if caught_by is not None:
        state = replace(
            _with_points(state, caught_by, SNITCH_POINTS), finished=True, caught_by=caught_by
        )
    report = replace(report, snitch=SnitchReport(tuple(seekers), caught_by))
    return Turn(state, _close(report, state, start=start))


def _default_shooter(state: MatchState, foul: Foul) -> str | None:
    """The fouled chaser if still active, else the fouled team's first active chaser."""
    team = state.team(foul.victim)
    fouled = team.find(foul.target)
    if fouled is not None and fouled.position is Position.CHASER and fouled.active:
        return fouled.name
    return next((c.name for c in team.chasers if c.active), None)


def _take_penalty(
    dice: Dice, state: MatchState, side: Side, chaser_name: str, foul: Foul | None = None
) -> tuple[MatchState, PenaltyReport]:
    team = state.team(side)
    chaser = team.find(chaser_name)
    if chaser is None or chaser.position is not Position.CHASER:
        raise QuidditchError(f"{team.name} has no chaser named {chaser_name!r}.")
    if not chaser.active:
        raise QuidditchError(f"{chaser.name} is knocked out and takes no further part.")
    if foul is None:
        foul = next((f for f in state.fouls if not f.taken and f.victim == side), None)
    if foul is None:
        if not state.open_fouls:
            raise QuidditchError(
                "There is no open foul to award a penalty shot for (a foul's shot is taken "
                "before the next turn is played)."
            )
        fouled = state.team(other(side)).name
        raise QuidditchError(
            f"There is no open foul against {team.name}: the open foul is against {fouled}, "
            f"whose chaser shoots."
        )
    roll = _chaser_roll(dice, chaser, state.team(other(side)))
    fouls = tuple(replace(f, taken=True) if f is foul else f for f in state.fouls)
    state = replace(state, fouls=fouls)
    if roll.success:
        state = _with_points(state, side, PENALTY_POINTS)
    return state, PenaltyReport(side, chaser.name, foul, roll)


def penalty_shot(dice: Dice, state: MatchState, /, *, team: Side, chaser: str) -> Turn:
    """The GM awards a penalty shot for one of the last turn's fouls against ``team``.

    The report carries only the shot (and, if it was the last open foul on a snitch turn,
    the score is what the snitch phase will start from).
    """
    _check_side(team)
    _require_playable(state)
    state, shot = _take_penalty(dice, state, team, chaser)
    report = TurnReport(
        turn=state.turn,
        penalties=(shot,),
        points=(
            PENALTY_POINTS if shot.scored and team == HOME else 0,
            PENALTY_POINTS if shot.scored and team == AWAY else 0,
        ),
        score=(state.home_score, state.away_score),
        snitch_deferred=state.snitch_pending,
    )
    return Turn(state, report)


def match_result(state: MatchState) -> MatchResult:
    """Final score, winner and the house points the winner's house earns (the difference)."""
    difference = abs(state.home_score - state.away_score)
    winner: Side | None = None
    if state.home_score != state.away_score:
        winner = HOME if state.home_score > state.away_score else AWAY
    house = state.team(winner).house if winner is not None else None
    return MatchResult(
        home_score=state.home_score,
        away_score=state.away_score,
        winner=winner,
        difference=difference,
        house=house,
        house_points=difference if house else 0,
        caught_by=state.caught_by,
        turns=state.turn,
    )


# --- simulation -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SimulatedMatch:
    home_score: int
    away_score: int
    winner: Side | None
    turns: int
    capped: bool
    """The turn cap ended the match before the snitch was caught (no winner is declared)."""


@dataclass(frozen=True, slots=True)
class SimulationSummary:
    matches: int
    home_wins: int
    away_wins: int
    draws: int
    capped: int
    mean_home_score: float
    mean_away_score: float
    mean_turns: float
    longest: int
    max_turns: int
    outcomes: tuple[SimulatedMatch, ...] = field(default=(), repr=False)

    @property
    def home_win_rate(self) -> float:
        return self.home_wins / self.matches

    @property
    def away_win_rate(self) -> float:
        return self.away_wins / self.matches

    @property
    def draw_rate(self) -> float:
        return self.draws / self.matches


def simulate(
    dice: Dice,
    state: MatchState,
    /,
    *,
    max_turns: int = DEFAULT_MAX_TURNS,
    penalties: Literal["all", "none"] = "all",
) -> SimulatedMatch:
    """Play a match out from ``state`` with the default decisions (no GM targets).

    Interference already set applies to the next snitch phase, as in play. This is a lean
    replay of :func:`play_turn` on plain integers (the GM's ``/quidditch odds`` plays 2,000
    matches at once); it draws the same dice in the same order, which the tests check match
    for match against :func:`_play_out`, the same loop over :func:`play_turn`.
    """
    _require_playable(state)
    _check_stat(max_turns, "max_turns", 1, 10_000)
    if penalties not in ("all", "none"):
        raise QuidditchError(f"A simulation takes penalties all or none (got {penalties!r}).")
    if state.snitch_pending:
        state = play_turn(dice, state).state
    roll = dice.roll
    award = penalties == "all"
    teams = (state.home, state.away)
    ch_str = [[c.strength for c in t.chasers] for t in teams]
    ch_hp = [[c.health for c in t.chasers] for t in teams]
    be_str = [[b.strength for b in t.beaters if b.active] for t in teams]
    keepers = [t.keeper for t in teams]
    kp_tough = [k.toughness if k else 0 for k in keepers]
    kp_def = [k.toughness + k.dexterity if k else 0 for k in keepers]
    kp_up = [bool(k and k.active) for k in keepers]
    seekers = [t.seeker for t in teams]
    sk_dex = [s.dexterity if s and s.active else None for s in seekers]
    interfere = [state.home_interferes, state.away_interferes]
    score = [state.home_score, state.away_score]
    turn = state.turn
    caught = False
    while not caught and turn < max_turns:
        turn += 1
        # Scoring: margins[side][chaser] is the margin of a successful shot, else None.
        margins: list[list[int | None]] = [[], []]
        for side in (0, 1):
            difficulty = kp_def[1 - side] if kp_up[1 - side] else 0
            row = margins[side]
            for strength, health in zip(ch_str[side], ch_hp[side], strict=True):
                if health > 0:
                    a = roll(20)
                    b = roll(20)
                    total = (a if a > b else b) + strength
                    row.append(total - difficulty if total >= difficulty else None)
                else:
                    row.append(None)
        # Default targets, fixed before any bludger: best margin, else first active chaser.
        targets: list[int | None] = [None, None]
        for side in (0, 1):
            opp = margins[1 - side]
            best = None
            for index, margin in enumerate(opp):
                if margin is not None and (best is None or margin > opp[best]):  # type: ignore[operator]
                    best = index
            if best is None:
                best = next((i for i, hp in enumerate(ch_hp[1 - side]) if hp > 0), None)
            targets[side] = best
        blocked = [[False] * len(ch_str[0]), [False] * len(ch_str[1])]
        fouls: list[tuple[int, int]] = []
        for side in (0, 1):
            target = targets[side]
            if target is None:
                continue
            victim = 1 - side
            difficulty = kp_tough[victim] if kp_up[victim] else 0
            scored = margins[victim][target]
            for strength in be_str[side]:
                a = roll(20)
                b = roll(20)
                total = (a if a > b else b) + strength
                if total >= difficulty:
                    if scored is None:
                        fouls.append((victim, target))
                    elif total - difficulty > scored:
                        blocked[victim][target] = True
                    if ch_hp[victim][target] > 0:
                        ch_hp[victim][target] -= 1
        for side in (0, 1):
            for margin, stopped in zip(margins[side], blocked[side], strict=True):
                if margin is not None and not stopped:
                    score[side] += GOAL_POINTS
        if award:
            for victim, fouled in fouls:
                hp = ch_hp[victim]
                shooter = (
                    fouled if hp[fouled] > 0 else next((i for i, h in enumerate(hp) if h > 0), None)
                )
                if shooter is None:
                    continue
                difficulty = kp_def[1 - victim] if kp_up[1 - victim] else 0
                a = roll(20)
                b = roll(20)
                if (a if a > b else b) + ch_str[victim][shooter] >= difficulty:
                    score[victim] += PENALTY_POINTS
        if is_snitch_turn(turn):
            totals: list[int | None] = [None, None]
            for side in (0, 1):
                dexterity = sk_dex[side]
                if dexterity is not None:
                    a = roll(20)
                    b = roll(20)
                    totals[side] = (a if a > b else b) + dexterity * (2 if interfere[side] else 1)
            for side in (0, 1):
                mine, theirs = totals[side], totals[1 - side]
                if mine is None or interfere[side]:
                    continue
                needed = LONE_SEEKER_DIFFICULTY if theirs is None else theirs + CATCH_MARGIN
                if mine >= needed:
                    score[side] += SNITCH_POINTS
                    caught = True
            interfere = [False, False]
    winner: Side | None = None
    if caught and score[0] != score[1]:
        winner = HOME if score[0] > score[1] else AWAY
    return SimulatedMatch(score[0], score[1], winner, turn, capped=not caught)


def _play_out(
    dice: Dice,
    state: MatchState,
    /,
    *,
    max_turns: int = DEFAULT_MAX_TURNS,
    penalties: Literal["all", "none"] = "all",
) -> SimulatedMatch:
    """The reference for :func:`simulate`: the same match, one :func:`play_turn` at a time."""
    _require_playable(state)
    if state.snitch_pending:
        state = play_turn(dice, state).state
    while not state.finished and state.turn < max_turns:
        state = play_turn(dice, state, penalties=penalties).state
    winner: Side | None = None
    if state.finished and state.home_score != state.away_score:
        winner = HOME if state.home_score > state.away_score else AWAY
    return SimulatedMatch(
        state.home_score, state.away_score, winner, state.turn, capped=not state.finished
    )


def check_simulable(state: MatchState) -> None:
    """Refuse a match that cannot be simulated: incomplete, over, or with no seeker in play
    (no match could ever end, and playing each to the turn cap would only burn time)."""
    _require_playable(state)
    if not any(s is not None and s.active for s in (state.home.seeker, state.away.seeker)):
        raise QuidditchError(
            "Neither seeker is in play, so the snitch can never be caught and the match cannot end."
        )


def simulate_many(
    dice: Dice,
    state: MatchState,
    /,
    *,
    matches: int,
    max_turns: int = DEFAULT_MAX_TURNS,
    penalties: Literal["all", "none"] = "all",
    keep_outcomes: bool = False,
) -> SimulationSummary:
    """Play ``matches`` matches from ``state`` and summarise them (the GM's roster odds).

    Refuses what :func:`check_simulable` refuses.
    """
    _check_stat(matches, "matches", 1, 1_000_000)
    check_simulable(state)
    results = [
        simulate(dice, state, max_turns=max_turns, penalties=penalties) for _ in range(matches)
    ]
    return summarise(results, max_turns=max_turns, keep_outcomes=keep_outcomes)


def summarise(
    results: Sequence[SimulatedMatch],
    *,
    max_turns: int = DEFAULT_MAX_TURNS,
    keep_outcomes: bool = False,
) -> SimulationSummary:
    """Win rates, mean scores and lengths of simulated matches (played in one go or in
    batches, as the bot does to answer within its time budget)."""
    matches = len(results)
    if not matches:
        raise QuidditchError("No match was simulated.")
    return SimulationSummary(
        matches=matches,
        home_wins=sum(r.winner == HOME for r in results),
        away_wins=sum(r.winner == AWAY for r in results),
        draws=sum(r.winner is None and not r.capped for r in results),
        capped=sum(r.capped for r in results),
        mean_home_score=sum(r.home_score for r in results) / matches,
        mean_away_score=sum(r.away_score for r in results) / matches,
        mean_turns=sum(r.turns for r in results) / matches,
        longest=max(r.turns for r in results),
        max_turns=max_turns,
        outcomes=tuple(results) if keep_outcomes else (),
    )
