"""RPS sustained actions: a task's Goal Total, each check added to it, and how the task
ends.

It exists to keep a task's state apart from a single check
(:mod:`engine.systems.rps._checks`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.dice import Dice
from engine.errors import N_
from engine.systems.rps._checks import (
    MAX_GOAL,
    CheckResult,
    Named,
    RpsError,
    Special,
    check,
    checked_int,
)

# --- Sustained actions ----------------------------------------------------------------


class TaskStatus(Named):
    IN_PROGRESS = N_("in progress")
    COMPLETE = N_("complete")
    FAILED = N_("failed")


class FailureReason(Named):
    CRITICAL_FAILURE = N_("critical failure")
    POOL_EXHAUSTED = N_("success pool fell below −goal")


@dataclass(frozen=True, slots=True)
class SustainedTask:
    """A sustained action's whole state, so storage can persist it and restore it as is."""

    goal: int
    pool: int = 0
    no_loss: bool = False
    checks: int = 0
    status: TaskStatus = TaskStatus.IN_PROGRESS
    reason: FailureReason | None = None

    @property
    def remaining(self) -> int:
        return max(0, self.goal - self.pool)


@dataclass(frozen=True, slots=True)
class SustainedRoll:
    """One check of a sustained action and the task before and after it."""

    check: CheckResult
    before: SustainedTask
    after: SustainedTask
    change: int


def start_sustained(*, goal: int, no_loss: bool = False) -> SustainedTask:
    """A new sustained action with an empty Success Pool."""
    return SustainedTask(
        goal=checked_int(goal, N_("The Goal Total"), 1, MAX_GOAL), no_loss=bool(no_loss)
    )


def apply_check(task: SustainedTask, result: CheckResult) -> SustainedRoll:
    """Add one check to a sustained action (pure: the old state is left as it was)."""
    _require_in_progress(task)
    if result.success_level >= 1:
        change = result.success_level
    elif task.no_loss:
        change = 0
    else:
        change = -1
    pool = task.pool + change
    status, reason = TaskStatus.IN_PROGRESS, None
    if result.special is Special.CRITICAL_FAILURE:
        status, reason = TaskStatus.FAILED, FailureReason.CRITICAL_FAILURE
    elif pool >= task.goal:
        status = TaskStatus.COMPLETE
    elif pool < -task.goal:
        status, reason = TaskStatus.FAILED, FailureReason.POOL_EXHAUSTED
    after = replace(task, pool=pool, checks=task.checks + 1, status=status, reason=reason)
    return SustainedRoll(check=result, before=task, after=after, change=change)


def sustained_check(
    dice: Dice, task: SustainedTask, *, base: int, forgo: bool = False
) -> SustainedRoll:
    """Roll the next check of a sustained action and apply it (a finished one rolls no dice)."""
    _require_in_progress(task)
    return apply_check(task, check(dice, base=base, forgo=forgo))


def _require_in_progress(task: SustainedTask) -> None:
    if task.status is not TaskStatus.IN_PROGRESS:
        raise RpsError(N_("This sustained action is already {status}."), status=task.status.label)
