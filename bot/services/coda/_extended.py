"""``/coda extended``: an extended test's stored task (start, roll, status, abandon) and
its mapping to and from the engine's :class:`~engine.systems.coda.ExtendedTask`.

It exists because this is the one CODA use case with state kept between rolls: the
channel's tasks, their limit and who may give one up.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import _
from bot.services import participants as who_rolls
from bot.services import secrecy
from bot.services.coda._roller import SYSTEM, Roller, on_turn, ones_rule, plain_roller, roll_and_log
from bot.services.coda._sheets import load_sheet, skill_roller
from bot.services.coda._turn import TurnSpend
from bot.services.permissions import is_gm
from bot.services.sheets import plays_system
from bot.storage import Database
from bot.storage.models import CodaExtendedTask
from bot.storage.repositories import coda as tasks_repo
from bot.text import UserText
from engine.dice import Dice
from engine.systems import coda
from engine.systems.coda import Degree, Part, parse_conditions

MAX_TASKS_PER_CHANNEL = 25


@dataclass(frozen=True, slots=True)
class TaskView:
    """An extended test as stored: the engine state and who started it."""

    task: coda.ExtendedTask
    started_by: int
    #: The players the starter named, who may roll it too (user ids).
    participants: tuple[int, ...] = ()
    # Given up with /coda extended abandon: there is no next stage to show.
    abandoned: bool = False


@dataclass(frozen=True, slots=True)
class ExtendedOutcome:
    step: coda.ExtendedRoll
    chance: float
    roller: Roller
    penalties: tuple[Part, ...]
    started_by: int
    label: UserText | None
    secrecy: secrecy.Secrecy
    #: The action this test spent on the roller's own turn (RULES.md §1), if any.
    turn: TurnSpend | None = None


def task_of(row: CodaExtendedTask) -> coda.ExtendedTask:
    """The engine state of a stored task."""
    return coda.ExtendedTask(
        name=row.name,
        stages=tuple(coda.Stage(tn=int(s["tn"]), skill=s.get("skill")) for s in row.stages),
        interval=row.interval,
        unit=row.unit,
        total=row.total,
        stage=row.stage,
        tests=row.tests,
        log=tuple(
            coda.ExtendedEntry(
                stage=int(e["stage"]),
                tn=int(e["tn"]),
                result=int(e["result"]),
                added=int(e["added"]),
                degree=Degree[e["degree"]],
            )
            for e in row.log
        ),
    )


def _store(row: CodaExtendedTask, task: coda.ExtendedTask) -> None:
    # New lists, not in-place edits, so the ORM sees the JSON columns change.
    row.stages = [{"tn": s.tn, "skill": s.skill} for s in task.stages]
    row.interval = task.interval
    row.unit = task.unit
    row.total = task.total
    row.stage = task.stage
    row.tests = task.tests
    row.log = [
        {
            "stage": e.stage,
            "tn": e.tn,
            "result": e.result,
            "added": e.added,
            "degree": e.degree.name,
        }
        for e in task.log
    ]


def _pick(rows: list[CodaExtendedTask], name: str | None) -> CodaExtendedTask:
    if not rows:
        raise UserError(
            _(
                "No extended test is in progress in this channel; start one with "
                "`/coda extended start`."
            )
        )
    if name and name.strip():
        key = tasks_repo.name_key(name)
        for row in rows:
            if row.name_key == key:
                return row
        listing = ", ".join(f"`{UserText(r.name):code}`" for r in rows)
        raise UserError(
            _(
                "No extended test called `{name}` here. In progress: {listing}.",
                name=UserText(name),
                listing=listing,
            )
        )
    if len(rows) > 1:
        listing = ", ".join(f"`{UserText(r.name):code}`" for r in rows)
        raise UserError(
            _("Several extended tests are in progress here ({listing}); name one.", listing=listing)
        )
    return rows[0]


def _view(row: CodaExtendedTask, *, abandoned: bool = False) -> TaskView:
    return TaskView(
        task=task_of(row),
        started_by=row.started_by,
        participants=tuple(row.participants),
        abandoned=abandoned,
    )


async def start_extended(
    db: Database,
    actor: Actor,
    *,
    name: str,
    stages: str,
    interval: int = 1,
    unit: str = "",
    participants: str | None = None,
) -> TaskView:
    """Start an extended test in this channel (its name must be new here); ``participants``
    (mentions) may roll it besides its starter and the GM."""
    task = coda.extended_start(
        name=name, stages=coda.parse_stages(stages), interval=interval, unit=unit
    )
    named = who_rolls.parse_participants(participants, starter=actor.user_id)
    async with db.unit_of_work() as session:
        # Locking the existing rows would not stop a concurrent start (there is no row to
        # wait on), so the channel is locked first: the name check and the limit stay exact.
        await tasks_repo.lock_channel(session, actor.channel_id)
        rows = await tasks_repo.in_channel(session, actor.channel_id, for_update=True)
        key = tasks_repo.name_key(task.name)
        if any(r.name_key == key for r in rows):
            raise UserError(
                _(
                    "An extended test called `{name}` is already in progress here.",
                    name=UserText(task.name),
                )
            )
        if len(rows) >= MAX_TASKS_PER_CHANNEL:
            raise UserError(
                _(
                    "This channel already has {count} extended tests in progress; "
                    "finish or abandon one first.",
                    count=MAX_TASKS_PER_CHANNEL,
                )
            )
        row = CodaExtendedTask(
            guild_id=actor.guild_id,
            channel_id=actor.channel_id,
            started_by=actor.user_id,
            participants=named,
            name=task.name,
            name_key=key,
        )
        _store(row, task)
        tasks_repo.add(session, row)
        await session.flush()
    return TaskView(task=task, started_by=actor.user_id, participants=tuple(named))


async def roll_extended(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    task: str | None = None,
    modifier: int | None = None,
    skill: str | None = None,
    attribute: str | None = None,
    character: str | None = None,
    penalty: int = 0,
    conditions: str | None = None,
    label: str | None = None,
    secret: bool = False,
) -> ExtendedOutcome:
    """The next test of an extended test, against its current stage's TN.

    The roller is a plain modifier, or a character's skill (``skill``, or the skill the
    stage names when no modifier is given) from the named (else active) character; a
    character lacking that skill rolls it untrained with ``attribute`` (− 2).

    Only its starter, its participants and the GM may roll it; a player with a CODA
    character rolls from the sheet, never a bare ``modifier`` (a GM may: an NPC's part).
    """
    penalties = coda.penalty_parts(penalty=penalty)
    chosen = parse_conditions(conditions)
    if modifier is not None and (skill or character or attribute):
        raise UserError(_("Give either a modifier or a character's skill, not both."))
    async with db.unit_of_work() as session:
        rows = await tasks_repo.in_channel(session, actor.channel_id, for_update=True)
        row = _pick(rows, task)
        gm = await who_rolls.may_roll(
            session, actor, started_by=row.started_by, participants=row.participants
        )
        if modifier is not None and not gm and await plays_system(session, actor, SYSTEM):
            raise PermissionDenied(
                _(
                    "You have a CODA character: roll `{name}` from its sheet (`skill:`, or the "
                    "stage's own), not with a `modifier`.",
                    name=UserText(row.name),
                )
            )
        state = task_of(row)
        stage = state.current
        assert stage is not None  # complete tasks are deleted
        wanted_skill = skill or (stage.skill if modifier is None else None)
        if not wanted_skill and (character or attribute or modifier is None):
            # A stage without a skill never rolls a bare 2d6 by default: ask what is rolled.
            who = UserText(character.strip()) if character else _("your character")
            raise UserError(
                _(
                    "Stage {stage} of `{name}` names no skill: say which `skill` {who} rolls, "
                    "or give a `modifier` (`modifier:0` for a bare 2d6).",
                    stage=state.stage + 1,
                    name=UserText(state.name),
                    who=who,
                )
            )
        if wanted_skill:
            try:
                sheet = await load_sheet(session, actor, character)
                roller = skill_roller(sheet, wanted_skill, attribute=attribute)
            except UserError as error:
                if skill:
                    raise
                raise UserError(
                    _(
                        "Stage {stage} of `{name}` is a {skill} test. {error} "
                        "Or roll with a plain `modifier`.",
                        stage=state.stage + 1,
                        name=UserText(state.name),
                        skill=UserText(wanted_skill),
                        error=error,
                    )
                ) from error
        else:
            roller = plain_roller(modifier or 0)
        roller, turn = await on_turn(session, actor, roller)
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        result, chance = roll_and_log(
            session,
            dice,
            actor,
            roller=roller,
            tn=stage.tn,
            penalties=penalties,
            conditions=chosen,
            visibility=visibility,
            label=label or state.name,
            what=f"extended '{state.name}' stage {state.stage + 1}",
            ones=await ones_rule(session, actor.channel_id),
        )
        step = coda.extended_apply(state, result)
        if step.completed:
            await tasks_repo.delete(session, row)
        else:
            _store(row, step.after)
        started_by = row.started_by
    return ExtendedOutcome(
        step=step,
        chance=chance,
        roller=roller,
        penalties=penalties,
        started_by=started_by,
        label=UserText.of(label),
        secrecy=visibility,
        turn=turn,
    )


async def extended_status(db: Database, actor: Actor, *, task: str | None = None) -> list[TaskView]:
    """One task (named), or every task in progress in the channel."""
    async with db.unit_of_work(read_only=True) as session:
        rows = await tasks_repo.in_channel(session, actor.channel_id)
        if task and task.strip():
            rows = [_pick(rows, task)]
        return [_view(r) for r in rows]


async def abandon_extended(db: Database, actor: Actor, *, task: str | None = None) -> TaskView:
    """Give up an extended test: whoever started it, or a GM."""
    async with db.unit_of_work() as session:
        rows = await tasks_repo.in_channel(session, actor.channel_id, for_update=True)
        row = _pick(rows, task)
        if row.started_by != actor.user_id and not await is_gm(session, actor):
            raise PermissionDenied(
                _(
                    "Only whoever started `{name}` ({who}) or the channel's GM can abandon it.",
                    name=UserText(row.name),
                    who=f"<@{row.started_by}>",
                )
            )
        view = _view(row, abandoned=True)
        await tasks_repo.delete(session, row)
    return view


async def extended_names(db: Database, channel_id: int) -> list[str]:
    """For autocomplete: the names of the channel's tasks."""
    async with db.unit_of_work(read_only=True) as session:
        return await tasks_repo.names(session, channel_id)
