"""A ``/roll`` command as read and rolled: its rolls (``;``), their repeats, success counts.

The reading layer (``_reading``) turns what was typed into d20 notation; each roll is checked
by d20 (``_roll.check``) and the whole command is measured against one work budget before any
die is drawn, repeats and every roll of the command included.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from d20 import diceast

from engine.dice import Dice
from engine.errors import N_, InputError
from engine.notation._budget import BUDGET
from engine.notation._reading import Part, Reading, read_command
from engine.notation._roll import MAX_EXPRESSION_LENGTH, NotationRoll, RollError, check, roll_tree
from engine.notation._scanner import Pool


@dataclass(frozen=True, slots=True)
class PoolCount:
    """A pool's dice counted: the result is successes − failures."""

    successes: int
    failures: int
    botches: int

    @property
    def net(self) -> int:
        return self.successes - self.failures

    @property
    def botch(self) -> bool:
        """No success, and at least one failure or botch face (World of Darkness' botch)."""
        return self.successes == 0 and (self.failures > 0 or self.botches > 0)


def count_pool(pool: Pool, faces: tuple[int, ...]) -> PoolCount:
    """Count ``faces`` (the kept dice) against ``pool``."""
    if pool.at_least is not None:
        successes = sum(1 for face in faces if face >= pool.at_least)
    else:
        successes = sum(1 for face in faces if pool.at_most is not None and face <= pool.at_most)
    failures = sum(1 for face in faces if face <= pool.failures) if pool.failures is not None else 0
    botches = sum(1 for face in faces if face <= pool.botches) if pool.botches is not None else 0
    return PoolCount(successes, failures, botches)


@dataclass(frozen=True, slots=True)
class PartRoll:
    """One roll of a command, rolled ``part.repeat`` times."""

    part: Part
    rolls: tuple[NotationRoll, ...]
    counts: tuple[PoolCount, ...] = ()  # one per roll when the part counts successes

    @property
    def results(self) -> tuple[int, ...]:
        """Each roll's result: its total, or successes − failures for a pool."""
        if self.counts:
            return tuple([count.net for count in self.counts])
        return tuple([roll.total for roll in self.rolls])


@dataclass(frozen=True, slots=True)
class CommandRoll:
    """Everything a ``/roll`` command rolled, and how it was read."""

    reading: Reading
    parts: tuple[PartRoll, ...]

    @property
    def expression(self) -> str:
        """The canonical form of the whole command (what the roll log keeps)."""
        return self.reading.canonical

    @property
    def rewritten(self) -> bool:
        """The reading differs from what was typed: the reply names it."""
        return self.reading.rewritten

    @property
    def comment(self) -> str | None:
        comments = [part.part.comment for part in self.parts if part.part.comment]
        return " · ".join(comments) if comments else None

    @property
    def faces(self) -> tuple[int, ...]:
        faces: list[int] = []
        for part in self.parts:
            for roll in part.rolls:
                faces.extend(roll.faces)
        return tuple(faces)

    @property
    def results(self) -> tuple[int, ...]:
        results: list[int] = []
        for part in self.parts:
            results.extend(part.results)
        return tuple(results)


@dataclass(frozen=True, slots=True)
class _Checked:
    reading: Reading
    trees: tuple[diceast.Expression, ...]
    steps: float


@lru_cache(maxsize=1024)
def _read(expression: str) -> _Checked:
    """Read, check and measure a command once; the cached result is rolled as often as asked."""
    if len(expression.strip()) > MAX_EXPRESSION_LENGTH:
        raise RollError(
            N_("The expression has {length} characters; at most {most} are allowed."),
            length=len(expression.strip()),
            most=MAX_EXPRESSION_LENGTH,
        )
    try:
        reading = read_command(expression)
    except RollError:
        raise
    except InputError as error:
        raise RollError(error.template, **error.params) from None
    trees, steps = [], 0.0
    for part in reading.parts:
        tree, part_steps = check(part.notation)
        trees.append(tree)
        steps += part_steps * part.repeat
    if steps > BUDGET:
        raise RollError(
            N_(
                "`{expression}` is too much work for one command (about {steps} steps; the "
                "limit is {limit}). Roll fewer times, or fewer dice."
            ),
            expression=_clip(reading.canonical),
            steps=f"{int(steps):,}",
            limit=f"{BUDGET:,}",
        )
    return _Checked(reading, tuple(trees), steps)


def roll_command(dice: Dice, expression: str) -> CommandRoll:
    """Roll every roll of a command with ``dice``, in order, or raise :class:`RollError`."""
    checked = _read(expression)
    parts = []
    for part, tree in zip(checked.reading.parts, checked.trees, strict=True):
        rolls = tuple(
            [roll_tree(dice, part.notation, tree, part.comment) for _ in range(part.repeat)]
        )
        counts = (
            tuple(count_pool(part.pool, roll.kept_faces) for roll in rolls) if part.pool else ()
        )
        parts.append(PartRoll(part, rolls, counts))
    return CommandRoll(checked.reading, tuple(parts))


def roll_expression(dice: Dice, expression: str) -> NotationRoll:
    """Roll an expression that has one total (initiative, macros), or raise :class:`RollError`."""
    _, tree = read(expression)
    part = _read(expression).reading.parts[0]
    return roll_tree(dice, part.notation, tree, part.comment)


def read(expression: str) -> tuple[str, diceast.Expression]:
    """The canonical form of a one-total expression and its checked tree."""
    checked = _read(expression)
    part = checked.reading.parts[0]
    if len(checked.reading.parts) > 1 or part.repeat > 1 or part.pool is not None:
        raise RollError(
            N_(
                "`{expression}` gives several results; one total is needed here (no `;`, "
                "repeats or success counting)."
            ),
            expression=_clip(checked.reading.canonical),
        )
    return part.notation, checked.trees[0]


def parse(expression: str) -> diceast.Expression:
    """Read and bound-check a one-total expression."""
    return read(expression)[1]


def cost(expression: str) -> float:
    """The estimated steps of one roll of ``expression`` (all its rolls and repeats)."""
    return _read(expression).steps


def _clip(text: str, limit: int = 60) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"
