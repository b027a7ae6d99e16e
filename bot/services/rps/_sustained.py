"""``/rps sustained start|roll|status|abandon``: the channel's sustained action (RULES.md §4).

Only its starter, the participants named at the start and the GM may roll it; a player with
an RPS character rolls an attribute or skill of it (never a bare ``base``) and adds at most
:data:`PLAYER_MODIFIER` either way, as a second try may (docs/rules.md, "Shared tasks").
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import _
from bot.services import participants as who_rolls
from bot.services import secrecy
from bot.services.permissions import is_gm
from bot.services.rps._rolls import (
    SYSTEM,
    Base,
    BaseRequest,
    base_text,
    outcome_text,
    resolve_base,
)
from bot.services.sheets import plays_system
from bot.storage import Database
from bot.storage.models import RpsSustainedTask
from bot.storage.repositories import rolls as roll_log
from bot.storage.repositories import rps as repo
from bot.text import UserText
from engine.dice import Dice
from engine.systems import rps
from engine.systems.rps import FailureReason, SustainedRoll, SustainedTask, TaskStatus

SUSTAINED_LOG = 20
#: The largest modifier (either way) a player adds to a check of a shared action: the
#: GM's −5 … +5 of a second try (RULES.md §4). A GM may add any.
PLAYER_MODIFIER = 5


@dataclass(frozen=True, slots=True)
class SustainedView:
    task: SustainedTask
    label: UserText | None
    started_by: int
    log: tuple[dict, ...]
    #: The players the starter named, who may roll it too (user ids).
    participants: tuple[int, ...] = ()
    # Ended with /rps sustained abandon: its engine status still says "in progress".
    abandoned: bool = False


@dataclass(frozen=True, slots=True)
class SustainedOutcome:
    roll: SustainedRoll
    base: Base
    view: SustainedView
    chance: float
    label: UserText | None
    secrecy: secrecy.Secrecy


def _task(row: RpsSustainedTask) -> SustainedTask:
    return SustainedTask(
        goal=row.goal,
        pool=row.pool,
        no_loss=row.no_loss,
        checks=row.checks,
        status=TaskStatus(row.status),
        reason=FailureReason[row.reason] if row.reason else None,
    )


def _store(row: RpsSustainedTask, task: SustainedTask) -> None:
    row.goal, row.pool, row.no_loss, row.checks = task.goal, task.pool, task.no_loss, task.checks
    row.status = task.status.value
    row.reason = task.reason.name if task.reason else None


def _view(row: RpsSustainedTask) -> SustainedView:
    return SustainedView(
        _task(row), UserText.of(row.label), row.started_by, tuple(row.log), tuple(row.participants)
    )


async def sustained_start(
    db: Database,
    actor: Actor,
    *,
    goal: int,
    no_loss: bool = False,
    label: str | None = None,
    participants: str | None = None,
) -> SustainedView:
    """Start the channel's sustained action (one at a time; a finished one is replaced);
    ``participants`` (mentions) may roll it besides its starter and the GM."""
    task = rps.start_sustained(goal=goal, no_loss=no_loss)
    named = who_rolls.parse_participants(participants, starter=actor.user_id)
    async with db.unit_of_work() as session:
        row = await repo.get_or_create_for_update(
            session, actor.channel_id, guild_id=actor.guild_id, started_by=actor.user_id
        )
        if row.status == TaskStatus.IN_PROGRESS.value:
            raise UserError(
                _(
                    "A sustained action is already in progress here (pool {pool}/{goal}): "
                    "roll it with `/rps sustained roll`, or end it with `/rps sustained abandon`.",
                    pool=row.pool,
                    goal=row.goal,
                )
            )
        row.guild_id, row.started_by, row.label, row.log = (
            actor.guild_id,
            actor.user_id,
            label,
            [],
        )
        row.participants = named
        _store(row, task)
        await session.flush()
        return _view(row)


async def sustained_roll(
    db: Database,
    dice: Dice,
    actor: Actor,
    request: BaseRequest,
    *,
    forgo: bool = False,
    secret: bool = False,
) -> SustainedOutcome:
    """Roll the next check of the channel's sustained action and keep the new state."""
    async with db.unit_of_work() as session:
        row = await repo.get(session, actor.channel_id, for_update=True)
        if row is None or row.status != TaskStatus.IN_PROGRESS.value:
            raise UserError(
                _(
                    "No sustained action is in progress here: start one with "
                    "`/rps sustained start goal:…`."
                )
            )
        gm = await who_rolls.may_roll(
            session, actor, started_by=row.started_by, participants=row.participants
        )
        if not gm:
            await _check_player_request(session, actor, request)
        base = await resolve_base(session, actor, request)
        step = rps.sustained_check(dice, _task(row), base=base.value, forgo=forgo)
        _store(row, step.after)
        entry = {
            "user_id": actor.user_id,
            "name": base.character or actor.display_name,
            "base": base.value,
            "faces": list(step.check.faces),
            "sl": step.check.success_level,
            "change": step.change,
            "pool": step.after.pool,
        }
        row.log = [*row.log, entry][-SUSTAINED_LOG:]
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        roll_log.add(
            session,
            actor,
            system=SYSTEM,
            input=f"sustained check {base_text(base)}",
            faces=list(step.check.faces),
            outcome=f"{outcome_text(step.check)}; pool {step.after.pool}/{step.after.goal} "
            f"{step.after.status.label}",
            secret=visibility.secret,
            label=row.label,
        )
        await session.flush()
        view = _view(row)
    return SustainedOutcome(
        roll=step,
        base=base,
        view=view,
        chance=rps.chance(base=base.value, forgo=forgo),
        label=UserText.of(row.label),
        secrecy=visibility,
    )


async def _check_player_request(session: AsyncSession, actor: Actor, request: BaseRequest) -> None:
    """A player rolls from their RPS character if they have one, with a second try's modifier."""
    if request.base is not None and await plays_system(session, actor, SYSTEM):
        raise PermissionDenied(
            _(
                "You have an RPS character: roll the sustained action with its `attribute` or "
                "`skill`, not a `base`."
            )
        )
    if abs(request.modifier) > PLAYER_MODIFIER:
        raise PermissionDenied(
            _(
                "On a shared sustained action a player's `modifier` is −{most} … +{most} "
                "(a second try's); the difficulty goes in `difficulty`, the rest is the GM's.",
                most=PLAYER_MODIFIER,
            )
        )


async def sustained_status(db: Database, actor: Actor) -> SustainedView:
    async with db.unit_of_work(read_only=True) as session:
        row = await repo.get(session, actor.channel_id)
        if row is None:
            raise UserError(
                _(
                    "There is no sustained action in this channel: start one with "
                    "`/rps sustained start goal:…`."
                )
            )
        return _view(row)


async def sustained_abandon(db: Database, actor: Actor) -> SustainedView:
    """End the channel's sustained action (whoever started it, or the GM)."""
    async with db.unit_of_work() as session:
        row = await repo.get(session, actor.channel_id, for_update=True)
        if row is None:
            raise UserError(_("There is no sustained action in this channel to abandon."))
        if row.status != TaskStatus.IN_PROGRESS.value:
            # A finished action is kept for /rps sustained status until the next start.
            raise UserError(
                _(
                    "This sustained action is already {status}: there is nothing to abandon. "
                    "Start a new one with `/rps sustained start`.",
                    status=_(TaskStatus(row.status).label),
                )
            )
        if row.started_by != actor.user_id and not await is_gm(session, actor):
            raise PermissionDenied(
                _(
                    "Only whoever started this sustained action, or the channel's GM, can "
                    "abandon it."
                )
            )
        view = replace(_view(row), abandoned=True)
        await repo.delete(session, row)
    return view
