"""RPS stat checks (RULES.md §4): Base − 2d10, with resisted and sustained actions.

Every roll draws from the ``Dice`` it is given, die 1 then die 2 per check, so a
:class:`~engine.dice.ScriptedDice` pins one result. Chances are exact: a check has only
100 equally likely outcomes, so they are counted.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from itertools import combinations

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


_int = partial(whole_number, error=RpsError)


class _Named(enum.Enum):
    """An enum whose value is already the words RULES.md uses for it."""

    @property
    def label(self) -> str:
        return str(self.value)


class Reading(_Named):
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


class Special(_Named):
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
    total = _int(modifier, N_("The modifier"), MIN_MODIFIER, MAX_MODIFIER)
    if difficulty_name is not None:
        total += difficulty(difficulty_name).modifier
    return total


def modified_base(base: int, *, difficulty: str | None = None, modifier: int = 0) -> int:
    """A Base given as a number, with a difficulty and a situational modifier added."""
    return _base(_base(base) + _modifiers(difficulty, modifier))


def attribute_base(attribute: int, *, difficulty: str | None = None, modifier: int = 0) -> int:
    """Base of an attribute check: 2 × attribute + difficulty + situational modifier."""
    attribute = _int(attribute, N_("The attribute"), MIN_STAT, MAX_STAT)
    return _base(2 * attribute + _modifiers(difficulty, modifier))


def skill_base(
    skill: int, attribute: int, *, difficulty: str | None = None, modifier: int = 0
) -> int:
    """Base of a skill check: skill + parent attribute + difficulty + situational modifier."""
    skill = _int(skill, N_("The skill"), MIN_STAT, MAX_STAT)
    attribute = _int(attribute, N_("The parent attribute"), MIN_STAT, MAX_STAT)
    return _base(skill + attribute + _modifiers(difficulty, modifier))


def _base(base: int) -> int:
    return _int(base, N_("Base"), MIN_BASE, MAX_BASE)


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
    return _evaluate(base, first, second)


def _evaluate(base: int, first: int, second: int) -> CheckResult:
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
        _evaluate(base, first, second).success
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


def clear_caches() -> None:
    """Forget the cached counts (for benchmarks that time the counting)."""
    for cached in (success_count, success_levels, _top_sets, _resisted_wins):
        cached.cache_clear()


def check_forgo_allowed(base: int) -> None:
    """Raise the user-facing error when the roll may not be skipped at this Base."""
    if _base(base) <= FORGO_ABOVE:
        raise RpsError(
            N_("The roll can only be forgone when Base is above {above} (Base is {base})."),
            above=FORGO_ABOVE,
            base=base,
        )


# --- Resisted actions -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PartyCheck:
    """One party's check in one round of a resisted action."""

    name: str
    check: CheckResult


@dataclass(frozen=True, slots=True)
class ResistedResult:
    """A resisted action: every round rolled, the winner and the winner's new SL.

    ``winner`` is None when the parties still tied for highest after :data:`MAX_ROUNDS`;
    ``tied`` then names them. The new SL is the highest minus the second highest of the
    deciding round (a roll-off round counts only the parties who rolled in it).
    """

    parties: tuple[tuple[str, int], ...]
    rounds: tuple[tuple[PartyCheck, ...], ...]
    winner: str | None
    success_level: int | None
    tied: tuple[str, ...]

    @property
    def roll_offs(self) -> int:
        return len(self.rounds) - 1


def _parties(parties: Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    checked: list[tuple[str, int]] = []
    seen: set[str] = set()
    for name, base in parties:
        name = str(name).strip()
        if not name:
            raise RpsError(N_("Every party in a resisted action needs a name."))
        if len(name) > MAX_NAME_LENGTH:
            raise RpsError(N_("Party names are at most {high} characters."), high=MAX_NAME_LENGTH)
        if name.casefold() in seen:
            raise RpsError(N_("{name} is named twice; each party rolls once per round."), name=name)
        seen.add(name.casefold())
        checked.append((name, _int(base, f"{name}'s Base", MIN_BASE, MAX_BASE)))
    if not 2 <= len(checked) <= MAX_PARTIES:
        raise RpsError(
            N_("A resisted action needs 2 to {high} parties, not {count}."),
            high=MAX_PARTIES,
            count=len(checked),
        )
    return tuple(checked)


def check_parties(parties: Sequence[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    """The parties of a resisted action, checked as :func:`resisted` checks them (count,
    names, Bases), without a die: a roll waiting for some parties is refused up front."""
    return _parties(parties)


def resisted(dice: Dice, *, parties: Sequence[tuple[str, int]]) -> ResistedResult:
    """Every party checks in the order given; ties for highest roll off among themselves."""
    checked = _parties(parties)
    bases = dict(checked)
    rolling = [name for name, _ in checked]
    rounds: list[tuple[PartyCheck, ...]] = []
    while True:
        this_round = tuple(PartyCheck(name, check(dice, base=bases[name])) for name in rolling)
        rounds.append(this_round)
        levels = sorted((p.check.success_level for p in this_round), reverse=True)
        top = [p.name for p in this_round if p.check.success_level == levels[0]]
        if len(top) == 1:
            return ResistedResult(
                parties=checked,
                rounds=tuple(rounds),
                winner=top[0],
                success_level=levels[0] - levels[1],
                tied=(),
            )
        if len(rounds) >= MAX_ROUNDS:
            return ResistedResult(
                parties=checked,
                rounds=tuple(rounds),
                winner=None,
                success_level=None,
                tied=tuple(top),
            )
        rolling = top


# Exact resisted chances enumerate every set of parties that can tie for highest, which
# doubles with each party; beyond this many parties no chance is offered.
MAX_CHANCE_PARTIES = 5


@lru_cache(maxsize=512)
def success_levels(base: int) -> tuple[tuple[int, float], ...]:
    """P(SL = s) for every s one check at this Base can give (doubles included)."""
    counts: dict[int, int] = {}
    for first in range(1, DIE_SIDES + 1):
        for second in range(1, DIE_SIDES + 1):
            level = _evaluate(base, first, second).success_level
            counts[level] = counts.get(level, 0) + 1
    return tuple((level, n / DIE_SIDES**2) for level, n in sorted(counts.items()))


@dataclass(frozen=True, slots=True)
class ResistedChances:
    """Each party's exact chance to win (roll-offs included), and of a tie after 20 rounds."""

    wins: dict[str, float]
    tie: float


def resisted_chances(*, parties: Sequence[tuple[str, int]]) -> ResistedChances | None:
    """Exact chances of a resisted action, or None above :data:`MAX_CHANCE_PARTIES` parties."""
    checked = _parties(parties)
    if len(checked) > MAX_CHANCE_PARTIES:
        return None
    bases = tuple(base for _, base in checked)
    *wins, tie = _resisted_wins(bases, tuple(range(len(bases))), MAX_ROUNDS)
    return ResistedChances(wins={name: wins[i] for i, (name, _) in enumerate(checked)}, tie=tie)


@lru_cache(maxsize=4096)
def _top_sets(
    bases: tuple[int, ...], rolling: tuple[int, ...]
) -> tuple[tuple[tuple[int, ...], float], ...]:
    """P(exactly these parties share the highest SL) in one round of ``rolling``."""
    dists = {i: dict(success_levels(bases[i])) for i in rolling}
    levels = sorted({level for i in rolling for level in dists[i]})
    below = {i: 0.0 for i in rolling}  # P(SL_i < level), growing as levels rise
    result: dict[tuple[int, ...], float] = {}
    for level in levels:
        for size in range(1, len(rolling) + 1):
            for top in combinations(rolling, size):
                p = 1.0
                for i in rolling:
                    p *= dists[i].get(level, 0.0) if i in top else below[i]
                if p:
                    result[top] = result.get(top, 0.0) + p
        for i in rolling:
            below[i] += dists[i].get(level, 0.0)
    return tuple(result.items())


@lru_cache(maxsize=4096)
def _resisted_wins(
    bases: tuple[int, ...], rolling: tuple[int, ...], rounds: int
) -> tuple[float, ...]:
    """P(party i wins) when ``rolling`` roll with ``rounds`` rounds left (indexes into bases),
    and last P(still tied when the rounds run out)."""
    wins = [0.0] * (len(bases) + 1)
    for top, p in _top_sets(bases, rolling):
        if len(top) == 1:
            wins[top[0]] += p
        elif rounds > 1:
            for i, w in enumerate(_resisted_wins(bases, top, rounds - 1)):
                wins[i] += p * w
        else:
            wins[-1] += p
    return tuple(wins)


# --- Sustained actions ----------------------------------------------------------------


class TaskStatus(_Named):
    IN_PROGRESS = N_("in progress")
    COMPLETE = N_("complete")
    FAILED = N_("failed")


class FailureReason(_Named):
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
    return SustainedTask(goal=_int(goal, N_("The Goal Total"), 1, MAX_GOAL), no_loss=bool(no_loss))


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
