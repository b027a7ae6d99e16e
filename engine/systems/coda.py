"""CODA, as played in *Harry Potter: The Roleplaying Game* (RULES.md §1, seed 000).

A test is 2d6 + modifiers − penalties against a target number (TN); when every die shows
6 another d6 is rolled, and again while the last one shows 6 ("rolling 6s"). The margin
(result − TN) gives one of seven degrees, each with a time factor.

Order: a test draws its two dice, then each extra die of a rolling-6s run in turn; a
damage roll its N dice, then the extra dice; an opposed test side A then side B; a
combined test the helpers in the order given, then the leader. So a
:class:`~engine.dice.ScriptedDice` pins one result.

Chances are exact: the only infinite part is the rolling-6s run, a geometric series that
is summed term by term until the mass left over is below 1e-12 (and that rest is then
added to the highest results, where it belongs), once, at import. Every query is then a
lookup in a table of tail sums.

Where RULES.md is silent we decide: the rolling-1s rule caps a test's degree wherever the
test appears (an opposed test's winner is still the higher result, but its degree is
capped; an extended test's capped test adds nothing); it never touches damage.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from types import MappingProxyType

from engine.dice import Dice
from engine.errors import InputError
from engine.systems.coda_tables import MAX_CONDITIONS, AppliedCondition, tn_change

DIE_SIDES = 6
TEST_DICE = 2
MODIFIER_MIN, MODIFIER_MAX = -100, 100
TN_MIN, TN_MAX = 1, 100
PENALTY_MIN, PENALTY_MAX = 0, 100
DAMAGE_DICE_MIN, DAMAGE_DICE_MAX = 1, 50
# A fair die shows 6 a thousand times in a row with probability 6**-1000: a source that
# does is broken, and stopping keeps a bad source from hanging the bot.
MAX_EXTRA_DICE = 1000
# The explosion series is summed until the mass not yet summed is below this.
SERIES_REMAINDER = 1e-12

UNTRAINED_PENALTY = 2
SPECIALTY_BONUS = 2
AFFINITY_MAX = 10
REPEAT_PENALTY = 2
MAX_ATTEMPT = 20
ACTIONS_PER_ROUND = 2
EXTRA_ACTION_PENALTY = 5
MAX_ACTIONS = 10
SURPRISE_TN = 10
SURPRISE_SKILL = "Observe (Spot)"
COMBINED_HELPER_TN_SHIFT = 5
MAX_HELPERS = 20
MAX_STAGES = 20
MAX_INTERVAL = 10_000
MAX_EXTENDED_TESTS = 500
MAX_NAME_LENGTH = 100
MAX_UNIT_LENGTH = 20


class CodaError(InputError):
    """Inputs CODA cannot roll; the message is written to be shown to the user."""


class Ones(enum.Enum):
    """The optional rolling-1s rule (channel setting ``coda.ones``): what all 1s do to a test."""

    OFF = "off"
    FUMBLE = "fumble"
    FAILURE = "failure"
    COMPLETE_FAILURE = "complete-failure"

    @property
    def label(self) -> str:
        return self.value

    @property
    def cap(self) -> Degree | None:
        """The best degree a test whose dice all show 1 can have under this setting."""
        return _ONES_CAP.get(self)

    @classmethod
    def parse(cls, value: str | Ones) -> Ones:
        if value.__class__ is cls:
            return value  # type: ignore[return-value]
        found = _ONES_BY_TEXT.get(value)  # type: ignore[arg-type]
        if found is not None:
            return found
        try:
            return cls(str(value).strip().casefold())
        except ValueError:
            names = ", ".join(o.value for o in cls)
            raise CodaError(
                f"The rolling-1s setting must be one of: {names} (got {value!r})."
            ) from None


ONES_SETTINGS: tuple[str, ...] = tuple(o.value for o in Ones)
_ONES_BY_TEXT: dict[str, Ones] = {o.value: o for o in Ones}


class Degree(enum.IntEnum):
    """The seven degrees of success, ordered from worst to best (so they compare).

    Each member carries its row of the degree table, so the table is written once: the
    RULES.md name, the time factor, what a helper of a combined test with this degree adds
    to the leader, its margins (None where open-ended) and what it means at the table
    (table 9-5).
    """

    label: str
    time_factor: float
    contribution: int
    margins: tuple[int | None, int | None]
    meaning: str

    def __new__(
        cls,
        rank: int,
        label: str,
        time_factor: float,
        contribution: int,
        margins: tuple[int | None, int | None],
        meaning: str,
    ) -> Degree:
        member = int.__new__(cls, rank)
        member._value_ = rank
        member.label = label
        member.time_factor = time_factor
        member.contribution = contribution
        member.meaning = meaning
        member.margins = margins
        return member

    # fmt: off
    #                        rank  name                    time  helper  margins
    DISASTROUS_FAILURE    = (-3, "Disastrous Failure",    1.5,  -2, (None, -11),
                             "The attempt may make matters worse.")
    COMPLETE_FAILURE      = (-2, "Complete Failure",      1.0,  -1, (-10, -6),
                             "The attempt fails and may prevent future attempts.")
    FAILURE               = (-1, "Failure",               1.0,   0, (-5, -1),
                             "The attempt fails but may be tried again at a cumulative −2.")
    MARGINAL_SUCCESS      = (0,  "Marginal Success",      1.0,   1, (0, 0),
                             "The basic goal is achieved, possibly with minor setbacks.")
    COMPLETE_SUCCESS      = (1,  "Complete Success",      0.75,  1, (1, 5),
                             "The goal is achieved with no setbacks.")
    SUPERIOR_SUCCESS      = (2,  "Superior Success",      0.5,   2, (6, 10),
                             "Beyond expectation, possibly with a small advantage.")
    EXTRAORDINARY_SUCCESS = (3,  "Extraordinary Success", 0.25,  3, (11, None),
                             "Far beyond expectation, with an advantage.")
    # fmt: on

    @property
    def success(self) -> bool:
        return self >= Degree.MARGINAL_SUCCESS

    @classmethod
    def of(cls, margin: int) -> Degree:
        """The degree of a margin (result − TN): a lookup, as every test reads one."""
        if -11 <= margin <= 11:
            return _DEGREE_BY_MARGIN[margin + 11]
        return cls.DISASTROUS_FAILURE if margin < 0 else cls.EXTRAORDINARY_SUCCESS


_DEGREE_BY_MARGIN: tuple[Degree, ...] = tuple(
    next(d for d in Degree if d.margins[1] is None or m <= d.margins[1]) for m in range(-11, 12)
)

_ONES_CAP: dict[Ones, Degree] = {
    Ones.FAILURE: Degree.FAILURE,
    Ones.COMPLETE_FAILURE: Degree.COMPLETE_FAILURE,
}


class Difficulty(enum.Enum):
    """The named TNs (table 9-1, and 30 for an attempt let through as nearly impossible)."""

    ROUTINE = 5
    STANDARD = 10
    CHALLENGING = 15
    DIFFICULT = 20
    VIRTUALLY_IMPOSSIBLE = 25
    NEARLY_IMPOSSIBLE = 30

    @property
    def tn(self) -> int:
        return self.value

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").title()

    @classmethod
    def parse(cls, name: str | Difficulty) -> Difficulty:
        if isinstance(name, Difficulty):
            return name
        wanted = "_".join(str(name).replace("-", " ").split()).upper()
        try:
            return cls[wanted]
        except KeyError:
            names = ", ".join(f"{d.label} {d.tn}" for d in cls)
            raise CodaError(f"Unknown difficulty {name!r}; choose one of: {names}.") from None


# --------------------------------------------------------------------------- validation


def _int(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CodaError(f"{what} must be a whole number, not {value!r}.")
    if not low <= value <= high:
        raise CodaError(f"{what} must be between {low} and {high}, not {value}.")
    return value


def _check_test(modifier: int, tn: int, penalty: int) -> None:
    if (
        modifier.__class__ is int
        and tn.__class__ is int
        and penalty.__class__ is int
        and MODIFIER_MIN <= modifier <= MODIFIER_MAX
        and TN_MIN <= tn <= TN_MAX
        and PENALTY_MIN <= penalty <= PENALTY_MAX
    ):
        return  # the common case, checked at once
    _int(modifier, "The modifier", MODIFIER_MIN, MODIFIER_MAX)
    _int(tn, "The TN", TN_MIN, TN_MAX)
    _int(penalty, "The penalty", PENALTY_MIN, PENALTY_MAX)


def _check_conditions(conditions: Sequence[AppliedCondition]) -> int:
    if len(conditions) > MAX_CONDITIONS:
        raise CodaError(f"At most {MAX_CONDITIONS} conditions per test (got {len(conditions)}).")
    for condition in conditions:
        if not isinstance(condition, AppliedCondition):
            raise CodaError(f"{condition!r} is not a condition of tables 9-2 … 9-13.")
    return tn_change(conditions)


# --------------------------------------------------------------------------- rolling


def _roll(dice: Dice, count: int) -> tuple[int, ...]:
    """``count`` d6; if all show 6, one more d6 while the last one shows 6 (rolling 6s)."""
    roll = dice.roll
    if count == TEST_DICE:  # the hot path: every test
        a = roll(DIE_SIDES)
        b = roll(DIE_SIDES)
        if a != DIE_SIDES or b != DIE_SIDES:
            return (a, b)
        faces = [a, b]
    else:
        faces = [roll(DIE_SIDES) for _ in range(count)]
        if faces.count(DIE_SIDES) != count:
            return tuple(faces)
    extra = roll(DIE_SIDES)
    faces.append(extra)
    while extra == DIE_SIDES:
        if len(faces) - count >= MAX_EXTRA_DICE:
            raise CodaError(
                f"The dice showed {MAX_EXTRA_DICE} sixes in a row; the dice source is broken."
            )
        extra = roll(DIE_SIDES)
        faces.append(extra)
    return tuple(faces)


@dataclass(frozen=True, slots=True)
class TestResult:
    """One test: every die, the arithmetic, the degree and what it means.

    ``tn`` is the TN the result was read against (``base_tn`` plus the conditions'
    changes). ``natural_degree`` is the degree of the margin; ``degree`` is what stands
    after the rolling-1s rule (``capped`` says it lowered it). ``fumble`` flags all 1s
    for the Narrator's fumble table when the setting is ``fumble``.
    """

    __test__ = False  # not a pytest test class where it is imported

    faces: tuple[int, ...]
    modifier: int
    penalty: int
    tn: int
    degree: Degree
    ones: Ones
    base_tn: int
    conditions: tuple[AppliedCondition, ...] = ()

    # Derived values are properties, not fields: a frozen dataclass pays per field on
    # every construction, and a test roll must cost no more than a bare d20 roll.
    @property
    def total(self) -> int:
        """The result: every die + modifier − penalty."""
        return sum(self.faces) + self.modifier - self.penalty

    @property
    def margin(self) -> int:
        return sum(self.faces) + self.modifier - self.penalty - self.tn

    @property
    def natural_degree(self) -> Degree:
        """The degree of the margin, before the rolling-1s rule."""
        return Degree.of(self.margin)

    @property
    def all_ones(self) -> bool:
        return self.faces.count(1) == len(self.faces)

    @property
    def dice_total(self) -> int:
        return sum(self.faces)

    @property
    def base_faces(self) -> tuple[int, ...]:
        return self.faces[:TEST_DICE]

    @property
    def extra_faces(self) -> tuple[int, ...]:
        """The dice added by the rolling-6s rule, in the order rolled."""
        return self.faces[TEST_DICE:]

    @property
    def exploded(self) -> bool:
        return len(self.faces) > TEST_DICE

    @property
    def success(self) -> bool:
        return self.degree >= Degree.MARGINAL_SUCCESS

    @property
    def time_factor(self) -> float:
        return self.degree.time_factor

    @property
    def capped(self) -> bool:
        """The rolling-1s rule lowered the degree."""
        return self.degree is not self.natural_degree

    @property
    def fumble(self) -> bool:
        """All 1s under the ``fumble`` setting: roll on the Narrator's fumble table."""
        return self.ones is Ones.FUMBLE and self.all_ones

    @property
    def label(self) -> str:
        return self.degree.label


def _judge(
    faces: tuple[int, ...],
    modifier: int,
    penalty: int,
    tn: int,
    ones: Ones,
    base_tn: int | None = None,
    conditions: tuple[AppliedCondition, ...] = (),
) -> TestResult:
    """Read rolled faces as a test: the one place where margins become degrees."""
    degree = Degree.of(sum(faces) + modifier - penalty - tn)
    cap = _ONES_CAP.get(ones)
    if cap is not None and degree > cap and faces.count(1) == len(faces):
        degree = cap
    return TestResult(
        faces, modifier, penalty, tn, degree, ones, tn if base_tn is None else base_tn, conditions
    )


def test(
    dice: Dice,
    *,
    modifier: int = 0,
    tn: int,
    penalty: int = 0,
    ones: str | Ones = "off",
    conditions: Sequence[AppliedCondition] = (),
) -> TestResult:
    """A test: 2d6 (rolling 6s) + modifier − penalty against ``tn`` plus the conditions."""
    _check_test(modifier, tn, penalty)
    setting = Ones.parse(ones)
    shift = _check_conditions(conditions) if conditions else 0
    return _judge(
        _roll(dice, TEST_DICE),
        modifier,
        penalty,
        tn + shift,
        setting,
        tn,
        conditions if conditions.__class__ is tuple else tuple(conditions),
    )


test.__test__ = False  # type: ignore[attr-defined]  # not a pytest test when imported


@dataclass(frozen=True, slots=True)
class DamageResult:
    """A damage roll: the weapon's dice (rolling 6s when all show 6) + modifier."""

    faces: tuple[int, ...]
    count: int
    modifier: int
    total: int

    @property
    def exploded(self) -> bool:
        return len(self.faces) > self.count

    @property
    def base_faces(self) -> tuple[int, ...]:
        return self.faces[: self.count]

    @property
    def extra_faces(self) -> tuple[int, ...]:
        return self.faces[self.count :]


def damage(dice: Dice, *, count: int, modifier: int = 0) -> DamageResult:
    """Roll ``count``d6 + ``modifier`` damage; the rolling-1s rule does not apply."""
    _int(count, "The number of damage dice", DAMAGE_DICE_MIN, DAMAGE_DICE_MAX)
    _int(modifier, "The damage modifier", MODIFIER_MIN, MODIFIER_MAX)
    faces = _roll(dice, count)
    return DamageResult(faces=faces, count=count, modifier=modifier, total=sum(faces) + modifier)


# --------------------------------------------------------------------------- exact chances


def _dice_distribution() -> tuple[dict[int, float], float]:
    """The probability of every 2d6 total under rolling 6s, and the mass left unsummed.

    The 35 non-(6,6) outcomes are counted; (6,6) continues with extra dice: ``j`` more
    sixes then a 1..5, each with probability (1/36)(1/6)^(j+1). The series stops when the
    mass not yet summed (the chance of ``j + 1`` more sixes) is below SERIES_REMAINDER.
    """
    pmf: dict[int, float] = {}
    for a in range(1, DIE_SIDES + 1):
        for b in range(1, DIE_SIDES + 1):
            if a == b == DIE_SIDES:
                continue
            pmf[a + b] = pmf.get(a + b, 0.0) + 1 / 36
    remainder = 1 / 36  # the chance of reaching the next extra die
    base = 2 * DIE_SIDES
    while remainder >= SERIES_REMAINDER:
        each = remainder / DIE_SIDES
        for face in range(1, DIE_SIDES):
            pmf[base + face] = pmf.get(base + face, 0.0) + each
        base += DIE_SIDES
        remainder = each  # the chance that this extra die showed 6 as well
    return pmf, remainder


_PMF, _REMAINDER = _dice_distribution()
_MAX_SUM = max(_PMF)


def _build_tail() -> tuple[float, ...]:
    """P(dice total >= s) for 0 <= s <= _MAX_SUM + 1, the unsummed rest (all above
    _MAX_SUM) included."""
    tail = [0.0] * (_MAX_SUM + 2)
    running = _REMAINDER
    for s in range(_MAX_SUM + 1, -1, -1):
        running += _PMF.get(s, 0.0) if s <= _MAX_SUM else 0.0
        tail[s] = min(1.0, running)
    return tuple(tail)


_TAIL = _build_tail()
_ALL_ONES = 1 / 36
_ALL_ONES_SUM = 2


def _tail(need: int) -> float:
    """P(dice total >= need)."""
    if need <= 0:
        return 1.0
    if need > _MAX_SUM + 1:
        return 0.0  # below SERIES_REMAINDER
    return _TAIL[need]


@lru_cache(maxsize=4096)
def _degree_probabilities(need: int, ones: Ones) -> tuple[float, ...]:
    """P(each degree), worst first, when the dice must total ``need`` for margin 0."""
    probs = []
    for degree in Degree:
        low, high = degree.margins
        upper = 0.0 if high is None else _tail(need + high + 1)
        lower = 1.0 if low is None else _tail(need + low)
        probs.append(max(0.0, lower - upper))
    cap = ones.cap
    natural = Degree.of(_ALL_ONES_SUM - need)
    if cap is not None and natural > cap:
        probs[natural + 3] -= _ALL_ONES
        probs[cap + 3] += _ALL_ONES
    return tuple(probs)


@lru_cache(maxsize=4096)
def _success_probability(need: int, ones: Ones) -> float:
    p = _tail(need)
    cap = ones.cap
    if cap is not None and not cap.success and need <= _ALL_ONES_SUM:
        p -= _ALL_ONES
    return min(1.0, max(0.0, p))


def clear_caches() -> None:
    """Forget every cached chance (for benchmarks measuring the uncached cost)."""
    _degree_probabilities.cache_clear()
    _success_probability.cache_clear()
    _opposed_probabilities.cache_clear()


def _need(modifier: int, tn: int, penalty: int) -> int:
    """What the dice must total for margin 0: every chance is a function of this alone."""
    return tn - modifier + penalty


def _checked_need(
    modifier: int, tn: int, penalty: int, conditions: Sequence[AppliedCondition]
) -> int:
    _check_test(modifier, tn, penalty)
    return _need(modifier, tn + _check_conditions(conditions), penalty)


def chance(
    *,
    modifier: int = 0,
    tn: int,
    penalty: int = 0,
    ones: str | Ones = "off",
    conditions: Sequence[AppliedCondition] = (),
) -> float:
    """The exact chance that a test succeeds (result ≥ TN, and not capped by all 1s)."""
    return _success_probability(_checked_need(modifier, tn, penalty, conditions), Ones.parse(ones))


def degree_chances(
    *,
    modifier: int = 0,
    tn: int,
    penalty: int = 0,
    ones: str | Ones = "off",
    conditions: Sequence[AppliedCondition] = (),
) -> Mapping[Degree, float]:
    """The exact chance of each degree (read-only mapping, worst degree first)."""
    need = _checked_need(modifier, tn, penalty, conditions)
    probs = _degree_probabilities(need, Ones.parse(ones))
    return MappingProxyType(dict(zip(Degree, probs, strict=True)))


# --------------------------------------------------------------------------- building modifiers


@dataclass(frozen=True, slots=True)
class Part:
    """One named term of a test's arithmetic, so an embed can show where a number came from."""

    label: str
    value: int


def attribute_parts(*, attribute: int, misc: int = 0) -> tuple[Part, ...]:
    """Attribute test: 2d6 + attribute modifier + misc."""
    parts = [Part("attribute", _int(attribute, "The attribute modifier", -50, 50))]
    return _with_misc(parts, misc)


def reaction_parts(*, reaction: int, misc: int = 0) -> tuple[Part, ...]:
    """Reaction test: 2d6 + reaction score + misc."""
    parts = [Part("reaction", _int(reaction, "The reaction score", -50, 50))]
    return _with_misc(parts, misc)


def skill_parts(
    *,
    attribute: int,
    ranks: int | None,
    specialty: bool = False,
    affinity: int = 0,
    misc: int = 0,
) -> tuple[Part, ...]:
    """Skill test: attribute + ranks (+2 specialty, + affinity); untrained: attribute − 2.

    A skill without ranks (``None`` or 0) is an untrained attempt, which cannot use a
    specialty: the specialty belongs to the skill.
    """
    parts = [Part("attribute", _int(attribute, "The attribute modifier", -50, 50))]
    if ranks is None or _int(ranks, "The skill ranks", 0, 50) == 0:
        if specialty:
            raise CodaError("An untrained attempt has no specialty: the skill has no ranks.")
        parts.append(Part("untrained", -UNTRAINED_PENALTY))
    else:
        parts.append(Part("ranks", ranks))
        if specialty:
            parts.append(Part("specialty", SPECIALTY_BONUS))
    if _int(affinity, "The affinity bonus", 0, AFFINITY_MAX):
        parts.append(Part("affinity", affinity))
    return _with_misc(parts, misc)


def _with_misc(parts: list[Part], misc: int) -> tuple[Part, ...]:
    if _int(misc, "The modifier", MODIFIER_MIN, MODIFIER_MAX):
        parts.append(Part("modifier", misc))
    return tuple(parts)


def repeat_penalty(attempt: int) -> int:
    """The penalty of the ``attempt``-th try at a task: −2 per earlier failed attempt."""
    return REPEAT_PENALTY * (_int(attempt, "The attempt", 1, MAX_ATTEMPT) - 1)


def action_penalty(*, action: int, cost: int = 1, allowance: int = ACTIONS_PER_ROUND) -> int:
    """The penalty of an action that starts at the ``action``-th slot of the round.

    Actions beyond the allowance take −5 each, cumulative (3rd −5, 4th −10, …); an action
    costing several slots takes the largest penalty among the slots it spans (its last).
    """
    _int(action, "The action number", 1, MAX_ACTIONS)
    _int(cost, "The action cost", 1, MAX_ACTIONS)
    _int(allowance, "The action allowance", 0, MAX_ACTIONS)
    last = action + cost - 1
    return EXTRA_ACTION_PENALTY * max(0, last - allowance)


def extra_action_penalty(extra: int) -> int:
    """The penalty of the ``extra``-th action beyond the allowance (0 for none)."""
    _int(extra, "The number of extra actions", 0, MAX_ACTIONS)
    return EXTRA_ACTION_PENALTY * extra


def penalty_parts(
    *, penalty: int = 0, attempt: int = 1, extra_actions: int = 0
) -> tuple[Part, ...]:
    """The subtracted terms of a test, each named: a plain penalty, a repeated attempt's
    −2 per earlier failure and an extra action's −5 per action beyond the allowance.

    Values are positive (they are subtracted), so an embed can show "− 4 (3rd attempt)".
    """
    parts = []
    if _int(penalty, "The penalty", PENALTY_MIN, PENALTY_MAX):
        parts.append(Part("penalty", penalty))
    if repeat := repeat_penalty(attempt):
        parts.append(Part(f"attempt {attempt}", repeat))
    if extra := extra_action_penalty(extra_actions):
        parts.append(Part(f"action {ACTIONS_PER_ROUND + extra_actions}", extra))
    return tuple(parts)


def actions_in_round(
    *, round_number: int, surprised: bool = False, allowance: int = ACTIONS_PER_ROUND
) -> int:
    """Actions a character has in a round: a surprised one loses one in round 1."""
    _int(round_number, "The round", 1, 10_000)
    _int(allowance, "The action allowance", 0, MAX_ACTIONS)
    if surprised and round_number == 1:
        return max(0, allowance - 1)
    return allowance


def surprise_test(
    dice: Dice, *, modifier: int = 0, penalty: int = 0, ones: str | Ones = "off"
) -> TestResult:
    """The TN 10 Observe (Spot) test against surprise; failing it means surprised."""
    return test(dice, modifier=modifier, tn=SURPRISE_TN, penalty=penalty, ones=ones)


# --------------------------------------------------------------------------- opposed tests


@dataclass(frozen=True, slots=True)
class Side:
    """One roller of an opposed or combined test: their modifier and penalty."""

    modifier: int = 0
    penalty: int = 0

    def checked(self, who: str) -> Side:
        _int(self.modifier, f"{who}'s modifier", MODIFIER_MIN, MODIFIER_MAX)
        _int(self.penalty, f"{who}'s penalty", PENALTY_MIN, PENALTY_MAX)
        return self


def _side(value: int | Side, who: str) -> Side:
    if isinstance(value, Side):
        return value.checked(who)
    return Side(modifier=value).checked(who)


@dataclass(frozen=True, slots=True)
class OpposedResult:
    """Both sides' tests, each read against the other's result.

    ``winner`` is "a", "b" or None for a tie (equal results: the Narrator decides).
    ``degree`` is the winner's degree with the loser's result as TN (the rolling-1s rule
    still caps it), ``margin`` the difference of the results.
    """

    a: TestResult
    b: TestResult
    winner: str | None

    @property
    def tie(self) -> bool:
        return self.winner is None

    @property
    def winning(self) -> TestResult | None:
        return {"a": self.a, "b": self.b}.get(self.winner or "")

    @property
    def degree(self) -> Degree | None:
        winning = self.winning
        return None if winning is None else winning.degree

    @property
    def margin(self) -> int:
        return abs(self.a.total - self.b.total)


def opposed(
    dice: Dice,
    *,
    a_modifier: int = 0,
    a_penalty: int = 0,
    b_modifier: int = 0,
    b_penalty: int = 0,
    ones: str | Ones = "off",
) -> OpposedResult:
    """Each side tests; the higher result wins. Order: side A's dice, then side B's."""
    a = Side(a_modifier, a_penalty).checked("Side A")
    b = Side(b_modifier, b_penalty).checked("Side B")
    setting = Ones.parse(ones)
    a_faces = _roll(dice, TEST_DICE)
    b_faces = _roll(dice, TEST_DICE)
    a_total = sum(a_faces) + a.modifier - a.penalty
    b_total = sum(b_faces) + b.modifier - b.penalty
    a_result = _judge(a_faces, modifier=a.modifier, penalty=a.penalty, tn=b_total, ones=setting)
    b_result = _judge(b_faces, modifier=b.modifier, penalty=b.penalty, tn=a_total, ones=setting)
    winner = "a" if a_total > b_total else "b" if b_total > a_total else None
    return OpposedResult(a=a_result, b=b_result, winner=winner)


@lru_cache(maxsize=4096)
def _opposed_probabilities(offset: int) -> tuple[float, float, float]:
    """(P(A wins), P(B wins), P(tie)) when A's result = A's dice − B's dice + ``offset``…

    … i.e. ``offset`` = (A's modifier − penalty) − (B's modifier − penalty).
    """
    a_wins = b_wins = 0.0
    for s, p in _PMF.items():
        # A wins when its dice > s − offset; B wins when A's dice < s − offset.
        a_wins += p * _tail(s - offset + 1)
        b_wins += p * (1.0 - _tail(s - offset))
    # B's unsummed mass lies above every summed total: there B wins but for a vanishing tail.
    b_wins += _REMAINDER
    tie = max(0.0, 1.0 - a_wins - b_wins)
    return a_wins, b_wins, tie


def opposed_chances(
    *, a_modifier: int = 0, a_penalty: int = 0, b_modifier: int = 0, b_penalty: int = 0
) -> tuple[float, float, float]:
    """The exact chances (A wins, B wins, tie) of an opposed test."""
    a = Side(a_modifier, a_penalty).checked("Side A")
    b = Side(b_modifier, b_penalty).checked("Side B")
    return _opposed_probabilities((a.modifier - a.penalty) - (b.modifier - b.penalty))


# --------------------------------------------------------------------------- combined tests


@dataclass(frozen=True, slots=True)
class CombinedResult:
    """A combined test: each helper's test at TN − 5 and contribution, then the leader's."""

    helpers: tuple[TestResult, ...]
    leader: TestResult
    leader_modifier: int

    @property
    def contributions(self) -> tuple[int, ...]:
        return tuple(h.degree.contribution for h in self.helpers)

    @property
    def bonus(self) -> int:
        """The sum of the helpers' contributions, added to the leader's test."""
        return sum(self.contributions)

    @property
    def degree(self) -> Degree:
        return self.leader.degree

    @property
    def success(self) -> bool:
        return self.leader.success


def _check_combined(
    tn: int, leader: Side, helpers: Sequence[int | Side], conditions: Sequence[AppliedCondition]
) -> tuple[tuple[Side, ...], int]:
    _int(tn, "The TN", TN_MIN, TN_MAX)
    leader.checked("The leader")
    if not 1 <= len(helpers) <= MAX_HELPERS:
        raise CodaError(f"A combined test needs 1 to {MAX_HELPERS} helpers (got {len(helpers)}).")
    sides = tuple(_side(h, f"Helper {i}") for i, h in enumerate(helpers, start=1))
    return sides, _check_conditions(conditions)


def combined(
    dice: Dice,
    *,
    tn: int,
    helpers: Sequence[int | Side],
    leader_modifier: int = 0,
    leader_penalty: int = 0,
    ones: str | Ones = "off",
    conditions: Sequence[AppliedCondition] = (),
) -> CombinedResult:
    """Helpers test at TN − 5 in the order given; the leader then tests at TN with their sum.

    ``helpers`` are modifiers or :class:`Side` values. Conditions apply to every test.
    """
    leader = Side(leader_modifier, leader_penalty)
    sides, shift = _check_combined(tn, leader, helpers, conditions)
    setting = Ones.parse(ones)
    kept = tuple(conditions)
    helper_tn = tn - COMBINED_HELPER_TN_SHIFT
    results = tuple(
        _judge(
            _roll(dice, TEST_DICE),
            modifier=side.modifier,
            penalty=side.penalty,
            tn=helper_tn + shift,
            ones=setting,
            base_tn=helper_tn,
            conditions=kept,
        )
        for side in sides
    )
    bonus = sum(r.degree.contribution for r in results)
    leader_result = _judge(
        _roll(dice, TEST_DICE),
        modifier=leader.modifier + bonus,
        penalty=leader.penalty,
        tn=tn + shift,
        ones=setting,
        base_tn=tn,
        conditions=kept,
    )
    return CombinedResult(helpers=results, leader=leader_result, leader_modifier=leader.modifier)


def combined_chance(
    *,
    tn: int,
    helpers: Sequence[int | Side],
    leader_modifier: int = 0,
    leader_penalty: int = 0,
    ones: str | Ones = "off",
    conditions: Sequence[AppliedCondition] = (),
) -> float:
    """The exact chance, before any die is rolled, that the leader of a combined test succeeds.

    The helpers' contributions are independent, so their distribution is the convolution
    of each helper's degree chances at TN − 5.
    """
    leader = Side(leader_modifier, leader_penalty)
    sides, shift = _check_combined(tn, leader, helpers, conditions)
    setting = Ones.parse(ones)
    bonus_dist: dict[int, float] = {0: 1.0}
    for side in sides:
        need = _need(side.modifier, tn - COMBINED_HELPER_TN_SHIFT + shift, side.penalty)
        contributions: dict[int, float] = {}
        for degree, p in zip(Degree, _degree_probabilities(need, setting), strict=True):
            contributions[degree.contribution] = contributions.get(degree.contribution, 0.0) + p
        step: dict[int, float] = {}
        for total, p_total in bonus_dist.items():
            for add, p_add in contributions.items():
                step[total + add] = step.get(total + add, 0.0) + p_total * p_add
        bonus_dist = step
    need = _need(leader.modifier, tn + shift, leader.penalty)
    return min(
        1.0,
        sum(p * _success_probability(need - bonus, setting) for bonus, p in bonus_dist.items()),
    )


def helper_chances(
    *,
    tn: int,
    helpers: Sequence[int | Side],
    ones: str | Ones = "off",
    conditions: Sequence[AppliedCondition] = (),
) -> tuple[float, ...]:
    """The exact chance that each helper of a combined test succeeds at TN − 5."""
    sides, shift = _check_combined(tn, Side(), helpers, conditions)
    setting = Ones.parse(ones)
    helper_tn = tn - COMBINED_HELPER_TN_SHIFT + shift
    return tuple(
        _success_probability(_need(side.modifier, helper_tn, side.penalty), setting)
        for side in sides
    )


# --------------------------------------------------------------------------- extended tests


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
                f"Stage {raw!r} is not a TN; write stages like '15,15,20' or '15:Potions,20'."
            ) from None
        stages.append(Stage(tn=tn, skill=skill.strip() or None))
    return tuple(stages)


def extended_start(
    *, name: str, stages: Sequence[int | Stage], interval: int = 1, unit: str = ""
) -> ExtendedTask:
    """A new extended test with nothing done yet."""
    clean_name = " ".join(str(name).split())
    if not clean_name or len(clean_name) > MAX_NAME_LENGTH:
        raise CodaError(f"An extended test needs a name of 1 to {MAX_NAME_LENGTH} characters.")
    if not 1 <= len(stages) <= MAX_STAGES:
        raise CodaError(f"An extended test has 1 to {MAX_STAGES} stages (got {len(stages)}).")
    built = []
    for index, stage in enumerate(stages, start=1):
        s = stage if isinstance(stage, Stage) else Stage(tn=stage)
        _int(s.tn, f"The TN of stage {index}", TN_MIN, TN_MAX)
        if s.skill is not None and len(s.skill) > MAX_NAME_LENGTH:
            raise CodaError(f"Stage {index}'s skill name is too long.")
        built.append(s)
    _int(interval, "The interval", 1, MAX_INTERVAL)
    clean_unit = " ".join(str(unit).split())
    if len(clean_unit) > MAX_UNIT_LENGTH:
        raise CodaError(f"The interval's unit is at most {MAX_UNIT_LENGTH} characters.")
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
        raise CodaError(f"The extended test {task.name!r} is already complete.")
    if task.tests >= MAX_EXTENDED_TESTS:
        raise CodaError(
            f"The extended test {task.name!r} has had {MAX_EXTENDED_TESTS} tests; abandon it."
        )
    if result.base_tn != stage.tn:
        raise CodaError(
            f"That test was against TN {result.base_tn}, but stage {task.stage + 1} needs "
            f"TN {stage.tn}."
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


def extended_roll(
    dice: Dice,
    task: ExtendedTask,
    *,
    modifier: int = 0,
    penalty: int = 0,
    ones: str | Ones = "off",
    conditions: Sequence[AppliedCondition] = (),
) -> ExtendedRoll:
    """Roll the next test of an extended test against its current stage's TN and apply it."""
    stage = task.current
    if stage is None:
        raise CodaError(f"The extended test {task.name!r} is already complete.")
    result = test(
        dice, modifier=modifier, tn=stage.tn, penalty=penalty, ones=ones, conditions=conditions
    )
    return extended_apply(task, result)
