"""Quidditch matches per channel: one use case per ``/quidditch`` subcommand.

The match lives in one row as ``engine.quidditch.MatchState.to_dict()``; every command
reads it locked, asks the engine for the next state, writes it back and logs the dice in
the same transaction, so a reply only ever reports a turn that is on disk. Whoever starts
a match is a GM of the channel for as long as it is played.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot import workers
from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import N_, _
from bot.services import offload, sheets
from bot.services.permissions import gm_changed, register_gm_source, require_gm
from bot.storage import Database
from bot.storage.models import QuidditchMatch
from bot.storage.repositories import quidditch as matches
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText
from engine import quidditch as q
from engine.dice import Dice, SeededDice

ODDS_MATCHES = 2_000
ODDS_BUDGET = 1.5
"""Seconds of simulation before /quidditch odds answers with the matches played so far."""
ODDS_BATCH = 100
BATCH_SECONDS = 5.0
"""A batch's budget in its worker process (100 matches take ~0.1 s); past it, "too heavy"."""
NO_MATCH = N_(
    "No quidditch match is being played in this channel. A GM starts one with /quidditch new."
)


@dataclass(frozen=True, slots=True)
class MatchView:
    """A match as a command shows it."""

    state: q.MatchState
    started_by: int
    status: str = "active"
    undoable: int = 0
    """How many turns ``/quidditch undo`` can take back."""

    @property
    def missing(self) -> list[str]:
        return q.missing(self.state)


@dataclass(frozen=True, slots=True)
class TurnOutcome:
    """What one command played: the report, the match after it, and any house points won."""

    view: MatchView
    report: q.TurnReport
    house_total: int | None = None
    """The winning house's total in the guild's table after this match, if it earned points."""
    lapsed: tuple[q.Foul, ...] = ()
    """Open fouls no penalty shot was awarded for before this turn: they lapse with it."""


@dataclass(frozen=True, slots=True)
class HouseRow:
    house: str
    points: int
    wins: int


@dataclass(frozen=True, slots=True)
class OddsOutcome:
    view: MatchView
    summary: q.SimulationSummary
    seconds: float
    requested: int
    """Matches asked for; ``summary.matches`` is fewer when the time budget ran out."""


@register_gm_source
async def match_starter(session: AsyncSession, channel_id: int) -> int | None:
    """DESIGN.md: whoever started the channel's current match is one of its GMs."""
    match = await matches.active(session, channel_id)
    return match.started_by if match is not None else None


def match_view(match: QuidditchMatch, state: q.MatchState | None = None) -> MatchView:
    return MatchView(
        state=state or q.MatchState.from_dict(match.state),
        started_by=match.started_by,
        status=match.status,
        undoable=len(match.undo_states or ()),
    )


async def _require_match(session: AsyncSession, actor: Actor, *, lock: bool) -> QuidditchMatch:
    match = await matches.active(session, actor.channel_id, for_update=lock)
    if match is None:
        raise UserError(_(NO_MATCH))
    return match


async def gm_match(
    session: AsyncSession, actor: Actor, doing: str, *, lock: bool = True
) -> tuple[QuidditchMatch, q.MatchState]:
    """The match a GM is about to change, locked (unless ``lock`` is False, to show a form
    of it), with its state (what every GM command starts with)."""
    await require_gm(session, actor, doing)
    match = await _require_match(session, actor, lock=lock)
    return match, q.MatchState.from_dict(match.state)


def resolve_side(state: q.MatchState, team: str) -> q.Side:
    """``home``/``away``, or a team's name (what autocomplete and players type)."""
    wanted = " ".join(team.split()).casefold()
    for side in q.SIDES:
        if wanted in (side, state.team(side).name.casefold()):
            return side
    raise UserError(
        _(
            "There is no team {team} in this match: name {home} (home) or {away} (away).",
            team=UserText(repr(team)),
            home=UserText(state.home.name),
            away=UserText(state.away.name),
        )
    )


async def new_match(
    db: Database,
    actor: Actor,
    *,
    home: str,
    away: str,
    home_house: str | None = None,
    away_house: str | None = None,
) -> MatchView:
    state = q.new_match(home, away, home_house=home_house, away_house=away_house)
    async with db.unit_of_work() as session:
        await require_gm(session, actor, _("start a quidditch match"))
        current = await matches.active(session, actor.channel_id, for_update=True)
        if current is not None:
            playing = q.MatchState.from_dict(current.state)
            raise UserError(
                _(
                    "A match is already being played here ({home} vs {away}). A GM can abandon "
                    "it with /quidditch end.",
                    home=UserText(playing.home.name),
                    away=UserText(playing.away.name),
                )
            )
        match = matches.start(
            session,
            guild_id=actor.guild_id,
            channel_id=actor.channel_id,
            started_by=actor.user_id,
            state=state.to_dict(),
        )
        try:
            await session.flush()
        except IntegrityError:
            # Another GM's /quidditch new won the race for this channel's one active match.
            raise UserError(
                _("A match was just started in this channel by someone else.")
            ) from None
        view = match_view(match, state)
    gm_changed(db)  # committed: its starter is a GM of the channel now
    return view


STATS = ("strength", "dexterity", "toughness", "health")


@dataclass(frozen=True, slots=True)
class PlayerOutcome:
    """A roster change: the match after it, and the player it added, updated or removed (their
    name as the GM typed it, shown only escaped)."""

    view: MatchView
    name: UserText
    updated: bool = False
    """True when the player was already on that team (their given numbers were changed)."""


async def set_player(
    db: Database,
    actor: Actor,
    *,
    team: str,
    position: str,
    name: str | None = None,
    character: str | None = None,
    strength: int | None = None,
    dexterity: int | None = None,
    toughness: int | None = None,
    health: int | None = None,
) -> PlayerOutcome:
    """Add a player to a roster, or update the one of that name, before the first turn.

    With ``character``, the name and any stat not given come from that Hogwarts 1990 sheet:
    the Strength, Dexterity and Toughness attributes and the Health resource (its current
    value). Updating a player already on the team keeps every stat not given, so a GM can
    change one number without typing the others again.
    """
    given = {"strength": strength, "dexterity": dexterity, "toughness": toughness}
    given["health"] = health
    async with db.unit_of_work() as session:
        match, state = await gm_match(session, actor, _("change the quidditch match"))
        side = resolve_side(state, team)
        if character is not None:
            sheet = await sheets.character_by_name(session, actor, character, system="h90")
            name = name or sheet.name
            for stat in ("strength", "dexterity", "toughness"):
                if given[stat] is None:
                    given[stat] = sheet.attribute(stat.capitalize())
            if given["health"] is None:
                given["health"] = sheet.resource("Health").current
        existing = state.team(side).find(name) if name else None
        if existing is not None:
            for stat in STATS:
                if given[stat] is None:
                    given[stat] = getattr(existing, stat)
        missing_stats = [stat for stat in STATS if given[stat] is None]
        if name is None or missing_stats:
            lacking = ([] if name else ["name"]) + missing_stats
            raise UserError(
                _(
                    "A new player needs {lacking}: give them, or take them from a "
                    "Hogwarts 1990 sheet with `character`.",
                    lacking=", ".join(lacking),
                )
            )
        player = q.make_player(
            name,
            position,
            strength=given["strength"],  # type: ignore[arg-type]
            dexterity=given["dexterity"],  # type: ignore[arg-type]
            toughness=given["toughness"],  # type: ignore[arg-type]
            health=given["health"],  # type: ignore[arg-type]
        )
        state = q.add_player(state, side, player)
        match.state = state.to_dict()
        return PlayerOutcome(
            match_view(match, state), UserText(player.name), updated=existing is not None
        )


async def remove_player(db: Database, actor: Actor, *, team: str, name: str) -> PlayerOutcome:
    """Take a player off a roster before the first turn (to free a full position)."""
    async with db.unit_of_work() as session:
        match, state = await gm_match(session, actor, _("change the quidditch match"))
        side = resolve_side(state, team)
        player = state.team(side).find(name)
        state = q.remove_player(state, side, name)
        match.state = state.to_dict()
        return PlayerOutcome(match_view(match, state), UserText(player.name if player else name))


async def show(db: Database, actor: Actor) -> MatchView:
    """The channel's match (for /quidditch roster and status; anyone may look)."""
    async with db.unit_of_work(read_only=True) as session:
        return match_view(await _require_match(session, actor, lock=False))


async def peek(db: Database, channel_id: int) -> q.MatchState | None:
    """The channel's match state, or None (for autocomplete, which must never raise)."""
    async with db.unit_of_work(read_only=True) as session:
        match = await matches.active(session, channel_id)
        return None if match is None else q.MatchState.from_dict(match.state)


def _faces(report: q.TurnReport) -> list[int]:
    """Every die the report drew, in the order they were drawn."""
    rolls = [
        *(s.roll for s in report.shots),
        *(b.roll for b in report.blocks),
        *(p.roll for p in report.penalties),
        *(s.roll for s in (report.snitch.seekers if report.snitch else ())),
    ]
    return [face for roll in rolls for face in roll.faces]


def score_text(state: q.MatchState) -> str:
    return f"{state.home.name} {state.home_score} – {state.away_score} {state.away.name}"


async def _finish(
    session: AsyncSession, actor: Actor, match: QuidditchMatch, report: q.TurnReport
) -> int | None:
    """Close a match the snitch ended and add the winner's house points to the guild table."""
    result = report.result
    if result is None:
        return None
    matches.close(match, "finished")
    if result.house and result.house_points > 0:
        row = await matches.award(session, actor.guild_id or 0, result.house, result.house_points)
        return row.points
    return None


MAX_UNDO = 10
"""Turns /quidditch undo can take back, newest first."""


async def play_turn(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    targets: str | None = None,
    penalties: q.Penalties = "ask",
    scoring_zone: str | None = None,
) -> TurnOutcome:
    """One turn (or the snitch phase a turn deferred); ``scoring_zone`` names the team at
    whose hoops the quaffle is (the GM's word), whose keeper may then be hit without a foul."""
    (outcome,) = await play_turns(
        db, dice, actor, targets=targets, penalties=penalties, scoring_zone=scoring_zone
    )
    return outcome


async def play_turns(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    targets: str | None = None,
    penalties: q.Penalties = "ask",
    until_snitch: bool = False,
    scoring_zone: str | None = None,
) -> list[TurnOutcome]:
    """Play one turn, or (``until_snitch``) turns up to and including the next snitch phase.

    The run stops early when the GM has something to decide: a foul whose penalty shot is
    open (``penalties="ask"``). ``targets`` and ``scoring_zone`` apply to the first turn only
    (the beaters' choice and the quaffle's place change turn by turn); later turns use the
    defaults. Every turn is logged and can be undone, and all of them are one transaction:
    the reply reports what is on disk.
    """
    parsed = q.parse_targets(targets)
    outcomes: list[TurnOutcome] = []
    async with db.unit_of_work() as session:
        match, state = await gm_match(session, actor, _("play the quidditch match"))
        zone = resolve_side(state, scoring_zone) if scoring_zone else None
        while True:
            lapsed = state.open_fouls
            turn = q.play_turn(dice, state, targets=parsed, penalties=penalties, scoring_zone=zone)
            _remember_for_undo(match, state)
            parsed, zone = {}, None
            match.state = turn.state.to_dict()
            total = await _finish(session, actor, match, turn.report)
            _log_turn(session, actor, turn, targets if not outcomes else None)
            state = turn.state
            outcomes.append(TurnOutcome(match_view(match, state), turn.report, total, lapsed))
            report = turn.report
            if (
                not until_snitch
                or state.finished
                or report.snitch is not None
                or report.snitch_deferred
                or state.open_fouls
            ):
                return outcomes


def _remember_for_undo(match: QuidditchMatch, state: q.MatchState) -> None:
    """Keep the state before a turn (a new list, so SQLAlchemy sees the change)."""
    kept = list(match.undo_states or ())[-(MAX_UNDO - 1) :]
    match.undo_states = [*kept, state.to_dict()]


def _log_turn(session: AsyncSession, actor: Actor, turn: q.Turn, targets: str | None) -> None:
    phase = "snitch" if turn.report.snitch_only else "turn"
    roll_log.add(
        session,
        actor,
        system="quidditch",
        input=f"{phase} {turn.report.turn}" + (f" targets {targets}" if targets else ""),
        faces=_faces(turn.report),
        outcome=score_text(turn.state) + (" · snitch caught" if turn.state.finished else ""),
    )


async def penalty(db: Database, dice: Dice, actor: Actor, *, team: str, chaser: str) -> TurnOutcome:
    async with db.unit_of_work() as session:
        match, state = await gm_match(session, actor, _("award a penalty shot"))
        side = resolve_side(state, team)
        shot = q.penalty_shot(dice, state, team=side, chaser=chaser)
        match.state = shot.state.to_dict()
        (taken,) = shot.report.penalties
        roll_log.add(
            session,
            actor,
            system="quidditch",
            input=f"penalty {shot.state.team(side).name} {taken.chaser}",
            faces=list(taken.roll.faces),
            outcome=("scored · " if taken.scored else "missed · ") + score_text(shot.state),
        )
        return TurnOutcome(match_view(match, shot.state), shot.report)


async def set_interference(
    db: Database, actor: Actor, *, team: str, interfere: bool
) -> tuple[MatchView, q.Side]:
    """A seeker interferes (or not) in the next snitch phase; the side ``team`` named is
    returned for the reply, which names that seeker."""
    async with db.unit_of_work() as session:
        match, state = await gm_match(session, actor, _("direct the seekers"))
        side = resolve_side(state, team)
        seeker = state.team(side).seeker
        if interfere and (seeker is None or not seeker.active):
            raise UserError(
                _(
                    "{team} has no seeker in play to interfere.",
                    team=UserText(state.team(side).name),
                )
            )
        state = q.set_interference(state, side, interfere)
        match.state = state.to_dict()
        return match_view(match, state), side


async def end(db: Database, actor: Actor) -> MatchView:
    """Abandon the channel's match: no winner, no house points."""
    async with db.unit_of_work() as session:
        await require_gm(session, actor, _("end the quidditch match"))
        match = await _require_match(session, actor, lock=True)
        matches.close(match, "abandoned")
        return match_view(match)


async def houses(db: Database, actor: Actor) -> list[HouseRow]:
    async with db.unit_of_work(read_only=True) as session:
        rows = await matches.table(session, actor.guild_id or 0)
        return [HouseRow(r.house, r.points, r.wins) for r in rows]


async def odds(
    db: Database,
    actor: Actor,
    *,
    count: int = ODDS_MATCHES,
    ready: Callable[[], Awaitable[object]] | None = None,
) -> OddsOutcome:
    """Simulate the rest of the channel's match ``count`` times with the default decisions.

    ``ready`` is awaited once every check has passed and before the simulation runs, so a
    refusal can still be answered privately while a long answer is announced (the cog defers
    there). The seed comes from the match and its turn, so asking twice gives the same
    answer; the simulation runs in a worker process so the bot keeps answering meanwhile.
    """
    async with db.unit_of_work(read_only=True) as session:
        # A GM's tool (it weighs a roster), and 2,000 matches of CPU are not for every player.
        await require_gm(session, actor, _("simulate the quidditch match"))
        view = match_view(await _require_match(session, actor, lock=False))
    q.check_simulable(view.state)
    if ready is not None:
        await ready()
    seed = f"{actor.channel_id}:{view.state.turn}:{view.state.home_score}:{view.state.away_score}"
    dice: Dice = SeededDice(seed)
    results: list[q.SimulatedMatch] = []
    start = time.perf_counter()  # wall time: what the GM waits (the loop's clock may be virtual)
    # Batches in a worker process (docs/decisions/worker-processes.md) keep the bot answering
    # meanwhile, under the GM's and the channel's queues; the budget bounds the wait for
    # rosters whose matches run long (the answer then says how many were played).
    while len(results) < count and (not results or time.perf_counter() - start < ODDS_BUDGET):
        batch = min(ODDS_BATCH, count - len(results))
        try:
            played, dice = await workers.run(
                q.simulate_batch,
                {"dice": dice, "state": view.state, "matches": batch},
                budget=BATCH_SECONDS,
                user=actor.user_id,
                channel=actor.channel_id,
                what=offload.ODDS,
            )
        except workers.Busy as error:
            if results:
                break  # the channel filled up meanwhile: answer with what was played
            raise offload.OddsBusy(error) from None
        except (workers.OverBudget, workers.WorkerDied):
            raise offload.TooHeavy() from None
        results += played
    return OddsOutcome(view, q.summarise(results), time.perf_counter() - start, count)
