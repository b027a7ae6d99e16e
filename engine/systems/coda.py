"""CODA, as played in *Harry Potter: The Roleplaying Game* (RULES.md §1, seed 000).

A test is 2d6 + modifiers − penalties against a target number (TN); when every die shows
6 another d6 is rolled, and again while the last one shows 6 ("rolling 6s"). The margin
(result − TN) gives one of seven degrees, each with a time factor.

Order: a test draws its two dice, then each extra die of a rolling-6s run in turn; a
damage roll its N dice, then the extra dice; an opposed test side A then side B; a
combined test the helpers in the order given, then the leader. So a
:class:`~engine.dice.ScriptedDice` pins one result.

Chances are exact: this module validates a query and hands what the dice must total to
:mod:`engine.systems.coda_odds`, where every chance is a lookup in tables built once at
import. The degree table, the rolling-1s settings and the input bounds live in
:mod:`engine.systems.coda_degrees`, an extended test's task state in
:mod:`engine.systems.coda_extended`; all are re-exported here, so ``coda.X`` is the API.

Where RULES.md is silent we decide: the rolling-1s rule caps a test's degree wherever the
test appears (an opposed test's winner is still the higher result, but its degree is
capped; an extended test's capped test adds nothing); it never touches damage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from engine.dice import Dice
from engine.errors import N_

# Re-exported (``X as X``): ``coda.Degree``, ``coda.chance`` … is the API the bot uses.
from engine.systems.coda_degrees import _ONES_CAP
from engine.systems.coda_degrees import DIE_SIDES as DIE_SIDES
from engine.systems.coda_degrees import MODIFIER_MAX as MODIFIER_MAX
from engine.systems.coda_degrees import MODIFIER_MIN as MODIFIER_MIN
from engine.systems.coda_degrees import ONES_SETTINGS as ONES_SETTINGS
from engine.systems.coda_degrees import PENALTY_MAX as PENALTY_MAX
from engine.systems.coda_degrees import PENALTY_MIN as PENALTY_MIN
from engine.systems.coda_degrees import TEST_DICE as TEST_DICE
from engine.systems.coda_degrees import TN_MAX as TN_MAX
from engine.systems.coda_degrees import TN_MIN as TN_MIN
from engine.systems.coda_degrees import CodaError as CodaError
from engine.systems.coda_degrees import Degree as Degree
from engine.systems.coda_degrees import Difficulty as Difficulty
from engine.systems.coda_degrees import Ones as Ones
from engine.systems.coda_degrees import whole as _int
from engine.systems.coda_extended import MAX_EXTENDED_TESTS as MAX_EXTENDED_TESTS
from engine.systems.coda_extended import MAX_INTERVAL as MAX_INTERVAL
from engine.systems.coda_extended import MAX_NAME_LENGTH as MAX_NAME_LENGTH
from engine.systems.coda_extended import MAX_STAGES as MAX_STAGES
from engine.systems.coda_extended import MAX_UNIT_LENGTH as MAX_UNIT_LENGTH
from engine.systems.coda_extended import ExtendedEntry as ExtendedEntry
from engine.systems.coda_extended import ExtendedRoll as ExtendedRoll
from engine.systems.coda_extended import ExtendedTask as ExtendedTask
from engine.systems.coda_extended import Stage as Stage
from engine.systems.coda_extended import extended_apply as extended_apply
from engine.systems.coda_extended import extended_start as extended_start
from engine.systems.coda_extended import parse_stages as parse_stages
from engine.systems.coda_odds import SERIES_REMAINDER as SERIES_REMAINDER
from engine.systems.coda_odds import clear_caches as clear_caches
from engine.systems.coda_odds import combined_probability, opposed_probabilities
from engine.systems.coda_odds import degree_probabilities as _degree_probabilities
from engine.systems.coda_odds import success_probability as _success_probability
from engine.systems.coda_result import TestResult as TestResult
from engine.systems.coda_tables import MAX_CONDITIONS, AppliedCondition, tn_change

DAMAGE_DICE_MIN, DAMAGE_DICE_MAX = 1, 50
# A fair die shows 6 a thousand times in a row with probability 6**-1000: a source that
# does is broken, and stopping keeps a bad source from hanging the bot.
MAX_EXTRA_DICE = 1000

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


# --------------------------------------------------------------------------- validation


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
    _int(modifier, N_("The modifier"), MODIFIER_MIN, MODIFIER_MAX)
    _int(tn, N_("The TN"), TN_MIN, TN_MAX)
    _int(penalty, N_("The penalty"), PENALTY_MIN, PENALTY_MAX)


def _check_conditions(conditions: Sequence[AppliedCondition]) -> int:
    if len(conditions) > MAX_CONDITIONS:
        raise CodaError(
            N_("At most {most} conditions per test (got {count})."),
            most=MAX_CONDITIONS,
            count=len(conditions),
        )
    for condition in conditions:
        if not isinstance(condition, AppliedCondition):
            raise CodaError(
                N_("{condition} is not a condition of tables 9-2 … 9-13."),
                condition=repr(condition),
            )
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
                N_("The dice showed {count} sixes in a row; the dice source is broken."),
                count=MAX_EXTRA_DICE,
            )
        extra = roll(DIE_SIDES)
        faces.append(extra)
    return tuple(faces)


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
    _int(count, N_("The number of damage dice"), DAMAGE_DICE_MIN, DAMAGE_DICE_MAX)
    _int(modifier, N_("The damage modifier"), MODIFIER_MIN, MODIFIER_MAX)
    faces = _roll(dice, count)
    return DamageResult(faces=faces, count=count, modifier=modifier, total=sum(faces) + modifier)


# --------------------------------------------------------------------------- exact chances


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
    parts = [Part("attribute", _int(attribute, N_("The attribute modifier"), -50, 50))]
    return _with_misc(parts, misc)


def reaction_parts(*, reaction: int, misc: int = 0) -> tuple[Part, ...]:
    """Reaction test: 2d6 + reaction score + misc."""
    parts = [Part("reaction", _int(reaction, N_("The reaction score"), -50, 50))]
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
    parts = [Part("attribute", _int(attribute, N_("The attribute modifier"), -50, 50))]
    if ranks is None or _int(ranks, N_("The skill ranks"), 0, 50) == 0:
        if specialty:
            raise CodaError(N_("An untrained attempt has no specialty: the skill has no ranks."))
        parts.append(Part("untrained", -UNTRAINED_PENALTY))
    else:
        parts.append(Part("ranks", ranks))
        if specialty:
            parts.append(Part("specialty", SPECIALTY_BONUS))
    if _int(affinity, N_("The affinity bonus"), 0, AFFINITY_MAX):
        parts.append(Part("affinity", affinity))
    return _with_misc(parts, misc)


def _with_misc(parts: list[Part], misc: int) -> tuple[Part, ...]:
    if _int(misc, N_("The modifier"), MODIFIER_MIN, MODIFIER_MAX):
        parts.append(Part("modifier", misc))
    return tuple(parts)


def repeat_penalty(attempt: int) -> int:
    """The penalty of the ``attempt``-th try at a task: −2 per earlier failed attempt."""
    return REPEAT_PENALTY * (_int(attempt, N_("The attempt"), 1, MAX_ATTEMPT) - 1)


def action_penalty(*, action: int, cost: int = 1, allowance: int = ACTIONS_PER_ROUND) -> int:
    """The penalty of an action that starts at the ``action``-th slot of the round.

    Actions beyond the allowance take −5 each, cumulative (3rd −5, 4th −10, …); an action
    costing several slots takes the largest penalty among the slots it spans (its last).
    """
    _int(action, N_("The action number"), 1, MAX_ACTIONS)
    _int(cost, N_("The action cost"), 1, MAX_ACTIONS)
    _int(allowance, N_("The action allowance"), 0, MAX_ACTIONS)
    last = action + cost - 1
    return EXTRA_ACTION_PENALTY * max(0, last - allowance)


def extra_action_penalty(extra: int) -> int:
    """The penalty of the ``extra``-th action beyond the allowance (0 for none)."""
    _int(extra, N_("The number of extra actions"), 0, MAX_ACTIONS)
    return EXTRA_ACTION_PENALTY * extra


def penalty_parts(
    *, penalty: int = 0, attempt: int = 1, extra_actions: int = 0
) -> tuple[Part, ...]:
    """The subtracted terms of a test, each named: a plain penalty, a repeated attempt's
    −2 per earlier failure and an extra action's −5 per action beyond the allowance.

    Values are positive (they are subtracted), so an embed can show "− 4 (3rd attempt)".
    """
    parts = []
    if _int(penalty, N_("The penalty"), PENALTY_MIN, PENALTY_MAX):
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
    _int(round_number, N_("The round"), 1, 10_000)
    _int(allowance, N_("The action allowance"), 0, MAX_ACTIONS)
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


def side_faces(dice: Dice) -> tuple[int, ...]:
    """One side's dice of an opposed test, drawn alone (2d6 with rolling 6s).

    :func:`opposed` draws side A's dice exactly so before side B's: replayed first (see
    :class:`engine.dice.ReplayDice`), they give the result of that side rolled earlier.
    """
    return _roll(dice, TEST_DICE)


def opposed_chances(
    *, a_modifier: int = 0, a_penalty: int = 0, b_modifier: int = 0, b_penalty: int = 0
) -> tuple[float, float, float]:
    """The exact chances (A wins, B wins, tie) of an opposed test."""
    a = Side(a_modifier, a_penalty).checked("Side A")
    b = Side(b_modifier, b_penalty).checked("Side B")
    return opposed_probabilities((a.modifier - a.penalty) - (b.modifier - b.penalty))


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
    _int(tn, N_("The TN"), TN_MIN, TN_MAX)
    leader.checked("The leader")
    if not 1 <= len(helpers) <= MAX_HELPERS:
        raise CodaError(
            N_("A combined test needs 1 to {most} helpers (got {count})."),
            most=MAX_HELPERS,
            count=len(helpers),
        )
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
    helper_tn = tn - COMBINED_HELPER_TN_SHIFT + shift
    return combined_probability(
        (_need(side.modifier, helper_tn, side.penalty) for side in sides),
        _need(leader.modifier, tn + shift, leader.penalty),
        Ones.parse(ones),
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
        raise CodaError(N_("The extended test {name} is already complete."), name=repr(task.name))
    result = test(
        dice, modifier=modifier, tn=stage.tn, penalty=penalty, ones=ones, conditions=conditions
    )
    return extended_apply(task, result)
