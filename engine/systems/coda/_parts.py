"""Building a CODA test's modifier and penalty (RULES.md §1): the parts of an attribute,
reaction or skill test, repeat and extra-action penalties, actions in a round, and the
surprise test.

It exists to keep the bookkeeping of what goes into a roll apart from rolling it
(:mod:`engine.systems.coda._single`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.dice import Dice
from engine.errors import N_
from engine.systems.coda._degrees import (
    MODIFIER_MAX,
    MODIFIER_MIN,
    PENALTY_MAX,
    PENALTY_MIN,
    CodaError,
    Ones,
)
from engine.systems.coda._degrees import whole as _int
from engine.systems.coda._result import TestResult
from engine.systems.coda._single import (
    test,
)

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
