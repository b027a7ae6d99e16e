"""The channel's tasks in progress, for its campaign page: CODA extended tests, the RPS
sustained action and the quidditch match's score, each read through its own system's
service (the same rows and rules as ``/coda extended status``, ``/rps sustained status`` and
``/quidditch status``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.actor import Actor
from bot.errors import UserError
from bot.services import coda, quidditch, rps
from bot.storage import Database


@dataclass(frozen=True, slots=True)
class Extended:
    """A CODA extended test: its total against the stages' aggregate TN."""

    name: str
    total: int
    target: int
    stage: int
    stages: int
    tests: int
    elapsed: int
    unit: str
    complete: bool
    started_by: int


@dataclass(frozen=True, slots=True)
class Sustained:
    """The RPS sustained action: the pool against the goal."""

    label: str | None
    pool: int
    goal: int
    checks: int
    status: str
    started_by: int


@dataclass(frozen=True, slots=True)
class Score:
    """The quidditch match: both teams and their scores after ``turn`` turns."""

    home: str
    away: str
    home_score: int
    away_score: int
    turn: int
    finished: bool


@dataclass(frozen=True, slots=True)
class Tasks:
    extended: tuple[Extended, ...]
    sustained: Sustained | None
    score: Score | None

    @property
    def any(self) -> bool:
        return bool(self.extended or self.sustained or self.score)


async def tasks(db: Database, actor: Actor) -> Tasks:
    """Everything in progress in ``actor``'s channel that the table sees (all public)."""
    extended = tuple(
        Extended(
            name=view.task.name,
            total=view.task.total,
            target=view.task.aggregate_tn,
            stage=min(view.task.stage + 1, len(view.task.stages)),
            stages=len(view.task.stages),
            tests=view.task.tests,
            elapsed=view.task.elapsed,
            unit=view.task.unit,
            complete=view.task.complete,
            started_by=view.started_by,
        )
        for view in await coda.extended_status(db, actor)
    )
    try:
        found = await rps.sustained_status(db, actor)
    except UserError:  # "no sustained action in this channel"
        sustained = None
    else:
        sustained = Sustained(
            label=found.label.raw if found.label else None,
            pool=found.task.pool,
            goal=found.task.goal,
            checks=found.task.checks,
            status=found.task.status.value,
            started_by=found.started_by,
        )
    match = await quidditch.peek(db, actor.channel_id)
    score = (
        None
        if match is None
        else Score(
            home=match.home.name,
            away=match.away.name,
            home_score=match.home_score,
            away_score=match.away_score,
            turn=match.turn,
            finished=match.finished,
        )
    )
    return Tasks(extended=extended, sustained=sustained, score=score)
