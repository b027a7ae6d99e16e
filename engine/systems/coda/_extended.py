"""CODA extended tests (RULES.md §1): a task of several stages, worked at test by test.

The task is pure data that the bot stores between commands, so it lives apart from the
rolls: each test is made by :func:`engine.systems.coda.extended_roll` (or any
:func:`~engine.systems.coda.test` against the current stage's TN) and folded in here by
:func:`extended_apply`, which returns a new task and leaves the old one as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.errors import N_
from engine.systems.coda._degrees import TN_MAX, TN_MIN, CodaError, Degree
from engine.systems.coda._degrees import whole as _int
from engine.systems.coda._result import TestResult

MAX_STAGES = 20
MAX_INTERVAL = 10_000
MAX_EXTENDED_TESTS = 500
MAX_NAME_LENGTH = 100
MAX_UNIT_LENGTH = 20


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage of an extended test: its TN and, optionally, the skill it asks for."""

    tn: int
    skill: str | None = None


@dataclass(frozen=True, slots=True)
class ExtendedEntry:
    """One test made during an extended test, as the task's log keeps it."""

    stage: int
    tn: int
    result: int
    added: int
    degree: Degree


@dataclass(frozen=True, slots=True)
class ExtendedTask:
    """The state of an extended test: pure data, replaced (never changed) by each test.

    ``stage`` is the index of the stage being worked on; a test that meets its TN adds its
    result to ``total`` and moves on, one that does not adds nothing but still costs an
    interval. The task completes when ``total`` reaches the aggregate TN.
    """

    name: str
    stages: tuple[Stage, ...]
    interval: int = 1
    unit: str = ""
    total: int = 0
    stage: int = 0
    tests: int = 0
    log: tuple[ExtendedEntry, ...] = ()

    @property
    def aggregate_tn(self) -> int:
        return sum(s.tn for s in self.stages)

    @property
    def complete(self) -> bool:
        return self.total >= self.aggregate_tn

    @property
    def current(self) -> Stage | None:
        """The stage the next test is for (None once the task is complete)."""
        if self.complete:
            return None
        return self.stages[min(self.stage, len(self.stages) - 1)]

    @property
    def remaining(self) -> int:
        return max(0, self.aggregate_tn - self.total)

    @property
    def elapsed(self) -> int:
        """Game time spent so far: tests made × interval (in ``unit``)."""
        return self.tests * self.interval


def parse_stages(text: str) -> tuple[Stage, ...]:
    """Read stages written as TNs separated by commas, each optionally ``TN:skill``.

    ``"15,15,20"`` or ``"15:Potions, 20:Herbology"``.
    """
    stages = []
    for raw in (part.strip() for part in text.replace(";", ",").split(",")):
        if not raw:
            continue
        tn_text, _, skill = raw.partition(":")
        try:
            tn = int(tn_text.strip())
        except ValueError:
            raise CodaError(
                N_("Stage {stage} is not a TN; write stages like '15,15,20' or '15:Potions,20'."),
                stage=repr(raw),
            ) from None
        stages.append(Stage(tn=tn, skill=skill.strip() or None))
    return tuple(stages)


def extended_start(
    *, name: str, stages: Sequence[int | Stage], interval: int = 1, unit: str = ""
) -> ExtendedTask:
    """A new extended test with nothing done yet."""
    clean_name = " ".join(str(name).split())
    if not clean_name or len(clean_name) > MAX_NAME_LENGTH:
        raise CodaError(
            N_("An extended test needs a name of 1 to {most} characters."), most=MAX_NAME_LENGTH
        )
    if not 1 <= len(stages) <= MAX_STAGES:
        raise CodaError(
            N_("An extended test has 1 to {most} stages (got {count})."),
            most=MAX_STAGES,
            count=len(stages),
        )
    built = []
    for index, stage in enumerate(stages, start=1):
        s = stage if isinstance(stage, Stage) else Stage(tn=stage)
        _int(s.tn, f"The TN of stage {index}", TN_MIN, TN_MAX)
        if s.skill is not None and len(s.skill) > MAX_NAME_LENGTH:
            raise CodaError(N_("Stage {index}'s skill name is too long."), index=index)
        built.append(s)
    _int(interval, N_("The interval"), 1, MAX_INTERVAL)
    clean_unit = " ".join(str(unit).split())
    if len(clean_unit) > MAX_UNIT_LENGTH:
        raise CodaError(
            N_("The interval's unit is at most {most} characters."), most=MAX_UNIT_LENGTH
        )
    return ExtendedTask(name=clean_name, stages=tuple(built), interval=interval, unit=clean_unit)


@dataclass(frozen=True, slots=True)
class ExtendedRoll:
    """One test of an extended test and the task before and after it."""

    test: TestResult
    before: ExtendedTask
    after: ExtendedTask
    added: int

    @property
    def passed(self) -> bool:
        """The test met its stage's TN (so its result counted)."""
        return self.test.success

    @property
    def completed(self) -> bool:
        return self.after.complete


def extended_apply(task: ExtendedTask, result: TestResult) -> ExtendedRoll:
    """Add one test to an extended test (pure: the old state is left as it was).

    The test must have been read against the current stage's TN; a success adds its result
    and moves to the next stage, anything else adds nothing.
    """
    stage = task.current
    if stage is None:
        raise CodaError(N_("The extended test {name} is already complete."), name=repr(task.name))
    if task.tests >= MAX_EXTENDED_TESTS:
        raise CodaError(
            N_("The extended test {name} has had {count} tests; abandon it."),
            name=repr(task.name),
            count=MAX_EXTENDED_TESTS,
        )
    if result.base_tn != stage.tn:
        raise CodaError(
            N_("That test was against TN {tn}, but stage {stage} needs TN {needed}."),
            tn=result.base_tn,
            stage=task.stage + 1,
            needed=stage.tn,
        )
    added = max(0, result.total) if result.success else 0
    # Past the last stage (possible only when helping conditions let a result under the
    # stage's printed TN count) the last stage is tested again until the total is reached.
    next_stage = min(task.stage + 1, len(task.stages) - 1) if result.success else task.stage
    entry = ExtendedEntry(
        stage=task.stage, tn=result.tn, result=result.total, added=added, degree=result.degree
    )
    after = replace(
        task,
        total=task.total + added,
        stage=next_stage,
        tests=task.tests + 1,
        log=(*task.log, entry),
    )
    return ExtendedRoll(test=result, before=task, after=after, added=added)
