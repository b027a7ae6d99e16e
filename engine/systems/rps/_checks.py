"""One RPS check (RULES.md): the bounds, readings and difficulties, the Base built from an
attribute or skill, the d10 pair rolled and read, and its exact chance.

It exists as the bottom of the RPS modules: resisted and sustained actions are made of
these checks.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from functools import lru_cache, partial

from engine.dice import Dice
from engine.errors import N_, InputError, whole_number

DIE_SIDES = 10
MIN_BASE = -100
MAX_BASE = 200
# The roll may be skipped only when Base is *above* this (RULES.md: "When Base > 15").
FORGO_ABOVE = 15
# Double 1s are an Automatic Success up to this Base, a Critical Success above it.
AUTOMATIC_SUCCESS_MAX_BASE = 2
CRITICAL_SUCCESS_BONUS = 5
MIN_STAT = -50
MAX_STAT = 100
MIN_MODIFIER = -100
MAX_MODIFIER = 100
MAX_PARTIES = 25
# Roll-offs among tied parties stop after this many rounds in all (the first round counts),
# so a resisted action always ends; the parties still tied are reported as a tie.
MAX_ROUNDS = 20
MAX_GOAL = 1000
MAX_NAME_LENGTH = 100


class RpsError(InputError):
    """Inputs RPS cannot roll; the message is written to be shown to the user."""


checked_int = partial(whole_number, error=RpsError)


class Named(enum.Enum):
    """An enum whose value is already the words RULES.md uses for it."""

    @property
    def label(self) -> str:
        return str(self.value)


class Reading(Named):
    """How good a Success Level is, in the words of RULES.md ("Reading SL")."""

    FAILURE = N_("failure")
    BARE_FAILURE = N_("bare failure")
    ACCEPTABLE = N_("acceptable")
    GOOD = N_("good")
    IMPRESSIVE = N_("impressive")
    SPECTACULAR = N_("spectacular")
    MIRACULOUS = N_("miraculous")

    @classmethod
    def of(cls, success_level: int) -> Reading:
        if success_level < 0:
            return cls.FAILURE
        if success_level == 0:
            return cls.BARE_FAILURE
        if success_level <= 4:
            return cls.ACCEPTABLE
        if success_level <= 9:
            return cls.GOOD
        if success_level <= 14:
            return cls.IMPRESSIVE
        if success_level == 15:
            return cls.SPECTACULAR
        return cls.MIRACULOUS


class Special(Named):
    """The four named results of double 1s and double 10s."""

    AUTOMATIC_SUCCESS = N_("automatic success")
    CRITICAL_SUCCESS = N_("critical success")
    AUTOMATIC_FAILURE = N_("automatic failure")
    CRITICAL_FAILURE = N_("critical failure")


@dataclass(frozen=True, slots=True)
class Difficulty:
    """A named difficulty modifier from the RPS table."""

    name: str
    modifier: int


DIFFICULTIES: tuple[Difficulty, ...] = (
    Difficulty(N_("No way to fail"), 20),
    Difficulty(N_("Nearly impossible to screw up"), 18),
    Difficulty(N_("Only an idiot could blow it"), 15),
    Difficulty(N_("Very simple"), 12),
    Difficulty(N_("Simple"), 10),
    Difficulty(N_("Fairly easy"), 8),
    Difficulty(N_("Moderately easy"), 6),
    Difficulty(N_("Somewhat difficult"), 4),
    Difficulty(N_("Moderately hard"), 2),
    Difficulty(N_("Difficult"), 0),
    Difficulty(N_("Tricky"), -2),
    Difficulty(N_("Rather tricky"), -4),
    Difficulty(N_("Very difficult"), -6),
    Difficulty(N_("Exceedingly hard"), -8),
    Difficulty(N_("Frighteningly difficult"), -10),
    Difficulty(N_("Nearly impossible"), -15),
    Difficulty(N_("Impossible"), -18),
    Difficulty(N_("Beyond impossible"), -20),
)
_DIFFICULTY_BY_KEY = {d.name.casefold(): d for d in DIFFICULTIES}


def difficulty(name: str) -> Difficulty:
    """Look a difficulty up by name, ignoring case, so typed and chosen names both work."""
    found = _DIFFICULTY_BY_KEY.get(name.strip().casefold())
    if found is None:
        names = ", ".join(d.name for d in DIFFICULTIES)
        raise RpsError(
            N_("Unknown RPS difficulty {name}; choose one of: {names}."),
            name=repr(name),
            names=names,
        )
    return found


def _modifiers(difficulty_name: str | None, modifier: int) -> int:
    total = checked_int(modifier, N_("The modifier"), MIN_MODIFIER, MAX_MODIFIER)
    if difficulty_name is not None:
        total += difficulty(difficulty_name).modifier
    return total


def modified_base(base: int, *, difficulty: str | None = None, modifier: int = 0) -> int:
    """A Base given as a number, with a difficulty and a situational modifier added."""
    return _base(_base(base) + _modifiers(difficulty, modifier))


def attribute_base(attribute: int, *, difficulty: str | None = None, modifier: int = 0) -> int:
    """Base of an attribute check: 2 × attribute + difficulty + situational modifier."""
    attribute = checked_int(attribute, N_("The attribute"), MIN_STAT, MAX_STAT)
    return _base(2 * attribute + _modifiers(difficulty, modifier))


def skill_base(
    skill: int, attribute: int, *, difficulty: str | None = None, modifier: int = 0
) -> int:
    """Base of a skill check: skill + parent attribute + difficulty + situational modifier."""
    skill = checked_int(skill, N_("The skill"), MIN_STAT, MAX_STAT)
    attribute = checked_int(attribute, N_("The parent attribute"), MIN_STAT, MAX_STAT)
    return _base(skill + attribute + _modifiers(difficulty, modifier))


def _base(base: int) -> int:
    return checked_int(base, N_("Base"), MIN_BASE, MAX_BASE)


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One stat check: the faces (empty when the roll was forgone) and what they mean."""

    base: int
    faces: tuple[int, ...]
    success_level: int
    success: bool
    automatic: bool
    critical: bool
    forgone: bool
    special: Special | None
    reading: Reading
    # The SL reading in words ("acceptable", "good", …, "bare failure").
    label: str
    granted: bool = False
    """The GM judged there was no reasonable chance of failure: no roll, SL 1."""

    @property
    def roll(self) -> int:
        """The 2d10 total subtracted from Base (0 when forgone)."""
        return sum(self.faces)

    @property
    def fumble(self) -> bool:
        return self.special is Special.CRITICAL_FAILURE


def check(dice: Dice, *, base: int, forgo: bool = False, automatic: bool = False) -> CheckResult:
    """Roll a stat check: SL = Base − 2d10, then double 1s and double 10s (RULES.md §4).

    ``automatic``: the GM's automatic success (no reasonable chance of failure), SL 1 with
    no roll; ``forgo``: the player skips the roll at Base above 15, also SL 1.
    """
    base = _base(base)
    if automatic:
        if forgo:
            raise RpsError(
                N_("An automatic success needs no roll to forgo: choose one of the two.")
            )
        return replace(_result(base, (), 1, None), granted=True)
    if forgo:
        check_forgo_allowed(base)
        # An assumed success is only SL 1 and can be neither automatic nor critical.
        return _result(base, (), 1, None, forgone=True)
    first = dice.roll(DIE_SIDES)
    second = dice.roll(DIE_SIDES)
    return evaluate(base, first, second)


def evaluate(base: int, first: int, second: int) -> CheckResult:
    success_level = base - first - second
    special: Special | None = None
    if first == second == 1:
        if base <= AUTOMATIC_SUCCESS_MAX_BASE:
            special, success_level = Special.AUTOMATIC_SUCCESS, 1
        else:
            special = Special.CRITICAL_SUCCESS
            success_level += CRITICAL_SUCCESS_BONUS
    elif first == second == DIE_SIDES:
        if success_level >= 1:
            special, success_level = Special.AUTOMATIC_FAILURE, 0
        else:
            special = Special.CRITICAL_FAILURE
    return _result(base, (first, second), success_level, special)


def _result(
    base: int,
    faces: tuple[int, ...],
    success_level: int,
    special: Special | None,
    *,
    forgone: bool = False,
) -> CheckResult:
    reading = Reading.of(success_level)
    return CheckResult(
        base=base,
        faces=faces,
        success_level=success_level,
        success=success_level >= 1,
        automatic=special in (Special.AUTOMATIC_SUCCESS, Special.AUTOMATIC_FAILURE),
        critical=special in (Special.CRITICAL_SUCCESS, Special.CRITICAL_FAILURE),
        forgone=forgone,
        special=special,
        reading=reading,
        label=reading.label,
    )


@lru_cache(maxsize=512)
def success_count(base: int) -> int:
    """How many of the 100 equally likely face pairs give SL ≥ 1 at this Base."""
    base = _base(base)
    return sum(
        evaluate(base, first, second).success
        for first in range(1, DIE_SIDES + 1)
        for second in range(1, DIE_SIDES + 1)
    )


def chance(*, base: int, forgo: bool = False, automatic: bool = False) -> float:
    """Exact chance of SL ≥ 1 (a forgone roll, or an automatic success, always succeeds)."""
    if automatic:
        _base(base)
        return 1.0
    if forgo:
        check_forgo_allowed(base)
        return 1.0
    return success_count(base) / (DIE_SIDES * DIE_SIDES)


def check_forgo_allowed(base: int) -> None:
    """Raise the user-facing error when the roll may not be skipped at this Base."""
    if _base(base) <= FORGO_ABOVE:
        raise RpsError(
            N_("The roll can only be forgone when Base is above {above} (Base is {base})."),
            above=FORGO_ABOVE,
            base=base,
        )
