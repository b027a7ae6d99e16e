"""Drama in History dice pools (RULES.md §5): Base, Resistance and Drama d6 pools.

Bd 5–6 count +1, Rd 1–2 count −1, Dd 4–6 count +1 and Dd 1s −1 (each also a penalty die
for the roller); every Dd 6 explodes into one more Dd. Net ≥ 2 succeeds, net 1 is
"Yes, but…", less fails. Dice are drawn all Bd, all Rd, the Dd asked for, then one extra
Dd per 6 in the order the 6s appeared, so a ScriptedDice pins one result.

Chances are exact distributions of the net: Bd and Rd are binomial, and the Dd pool is
split into its number of 6s K (negative binomial: every chain of explosions ends on one
non-6) and the sum T of the non-6 faces; the series over K is summed until what is left
is below 1e-12.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from math import comb
from typing import TypedDict, Unpack

from engine.dice import Dice
from engine.distributions import SERIES_REMAINDER, Pmf, add_shifted, convolve
from engine.errors import N_, InputError, whole_number

SIDES = 6
MAX_POOL = 60
SUCCESS_NET = 2
YES_BUT_NET = 1
# Paying the price of a "Yes, but…" costs this many penalty dice.
PRICE_PENALTY = 1
# Criticals need at least this many 6s among Bd and Dd together.
CRITICAL_SIXES = 3
MIN_ATTRIBUTE = -20
MAX_ATTRIBUTE = 60
MAX_BACKGROUNDS = 3
MAX_HELPERS = 10
MAX_PENALTY = 999
# The Rd a test may roll: what the player adds (≤ MAX_POOL) and every penalty die on top.
MAX_ROLLED_RESISTANCE = MAX_POOL + MAX_PENALTY
# A fair die ends an explosion chain within a few dice; this only stops a broken source.
MAX_EXPLOSIONS = 10_000
# Probabilities below this are dropped while summing many nets (see together_chances).
_NEGLIGIBLE = 1e-16


class DramaError(InputError):
    """Inputs a Drama test cannot roll; the message is written to be shown to the user."""


_int = partial(whole_number, error=DramaError)


class Outcome(enum.StrEnum):
    SUCCESS = "success"
    YES_BUT = "yes-but"
    FAILURE = "failure"

    @property
    def label(self) -> str:
        return _OUTCOME_LABELS[self]

    @classmethod
    def of(cls, net: int) -> Outcome:
        if net >= SUCCESS_NET:
            return cls.SUCCESS
        if net == YES_BUT_NET:
            return cls.YES_BUT
        return cls.FAILURE


_OUTCOME_LABELS = {
    Outcome.SUCCESS: N_("Success"),
    Outcome.YES_BUT: N_("Yes, but…"),
    Outcome.FAILURE: N_("Failure"),
}


def base_value(face: int) -> int:
    """What one Bd face counts: 5 and 6 are a success."""
    return 1 if face >= 5 else 0


def resistance_value(face: int) -> int:
    """What one Rd face counts: 1 and 2 cancel a success."""
    return -1 if face <= 2 else 0


def drama_value(face: int) -> int:
    """What one Dd face counts: 4–6 a success, 1 a loss (and a penalty die)."""
    if face >= 4:
        return 1
    return -1 if face == 1 else 0


@dataclass(frozen=True, slots=True)
class DramaDie:
    """One drama die; ``extra`` marks a die rolled because an earlier 6 exploded."""

    face: int
    extra: bool = False

    @property
    def value(self) -> int:
        return drama_value(self.face)

    @property
    def explodes(self) -> bool:
        return self.face == SIDES

    @property
    def penalty(self) -> bool:
        return self.face == 1


@dataclass(frozen=True, slots=True)
class DramaResult:
    """One Drama test: every face of the three pools, the counts, the net and the outcome."""

    base: int
    resistance: int
    drama: int
    criticals: bool
    base_faces: tuple[int, ...]
    resistance_faces: tuple[int, ...]
    drama_faces: tuple[DramaDie, ...]
    base_successes: int
    resistance_losses: int
    drama_net: int
    sixes: int
    critical_bonus: int
    net: int
    outcome: Outcome
    penalty_gained: int
    price_paid: bool = False

    @property
    def success(self) -> bool:
        return self.outcome is Outcome.SUCCESS

    @property
    def critical(self) -> bool:
        """The criticals rule applied to this roll (it was on and there were 3+ sixes)."""
        return self.criticals and self.sixes >= CRITICAL_SIXES

    @property
    def exploded(self) -> int:
        """How many extra drama dice the 6s added."""
        return sum(die.extra for die in self.drama_faces)

    @property
    def drama_face_values(self) -> tuple[int, ...]:
        return tuple(die.face for die in self.drama_faces)

    @property
    def penalty_total(self) -> int:
        """Penalty dice this roll costs its roller: drama 1s plus the price, if paid."""
        return self.penalty_gained + (PRICE_PENALTY if self.price_paid else 0)


def _pools(
    base: int,
    resistance: int,
    drama: int,
    *,
    resistance_cap: int = MAX_ROLLED_RESISTANCE,
    whose: str = "",
) -> tuple[int, int, int]:
    """Bounds-check pool sizes. What a player adds is at most ``MAX_POOL`` a pool (checked
    with the default cap lowered, by the pool builders); penalty dice come on top, so the
    Rd rolled may reach ``MAX_ROLLED_RESISTANCE``."""
    return (
        _int(base, N_("The Base dice (Bd)") + whose, 0, MAX_POOL),
        _int(resistance, N_("The Resistance dice (Rd)") + whose, 0, resistance_cap),
        _int(drama, N_("The Drama dice (Dd)") + whose, 0, MAX_POOL),
    )


def test(
    dice: Dice, *, base: int, resistance: int = 0, drama: int = 0, criticals: bool = False
) -> DramaResult:
    """Roll the three pools and read the net (RULES.md §5, Order and Criticals)."""
    base, resistance, drama = _pools(base, resistance, drama)
    base_faces = tuple(dice.roll(SIDES) for _ in range(base))
    resistance_faces = tuple(dice.roll(SIDES) for _ in range(resistance))
    drama_faces = [DramaDie(dice.roll(SIDES)) for _ in range(drama)]
    # Walking the list while appending rolls extras breadth-first: one per 6, in order,
    # and an extra's own 6 gets its extra after the 6s that came before it.
    index = 0
    while index < len(drama_faces):
        if drama_faces[index].explodes:
            if len(drama_faces) - drama >= MAX_EXPLOSIONS:
                raise DramaError(N_("The drama dice exploded too many times; the dice are broken."))
            drama_faces.append(DramaDie(dice.roll(SIDES), extra=True))
        index += 1
    return _read(base, resistance, drama, criticals, base_faces, resistance_faces, drama_faces)


# pytest would otherwise collect an imported ``test`` as a test function.
test.__test__ = False  # type: ignore[attr-defined]


def _read(
    base: int,
    resistance: int,
    drama: int,
    criticals: bool,
    base_faces: tuple[int, ...],
    resistance_faces: tuple[int, ...],
    drama_faces: Sequence[DramaDie],
) -> DramaResult:
    base_successes = sum(map(base_value, base_faces))
    resistance_losses = -sum(map(resistance_value, resistance_faces))
    drama_net = sum(die.value for die in drama_faces)
    sixes = base_faces.count(SIDES) + sum(die.explodes for die in drama_faces)
    critical_bonus = 0
    if criticals and sixes >= CRITICAL_SIXES:
        # Decision (RULES.md §5): Rd 1s cancel 6s only down to zero; the bonus never lowers a net.
        critical_bonus = max(0, sixes - resistance_faces.count(1))
    net = base_successes - resistance_losses + drama_net + critical_bonus
    return DramaResult(
        base=base,
        resistance=resistance,
        drama=drama,
        criticals=bool(criticals),
        base_faces=base_faces,
        resistance_faces=resistance_faces,
        drama_faces=tuple(drama_faces),
        base_successes=base_successes,
        resistance_losses=resistance_losses,
        drama_net=drama_net,
        sixes=sixes,
        critical_bonus=critical_bonus,
        net=net,
        outcome=Outcome.of(net),
        penalty_gained=sum(die.penalty for die in drama_faces),
    )


def pay_price(result: DramaResult) -> DramaResult:
    """Turn a "Yes, but…" into a success; the roller takes :data:`PRICE_PENALTY` more."""
    if result.price_paid:
        raise DramaError(N_("The price for this roll has already been paid."))
    if result.outcome is not Outcome.YES_BUT:
        raise DramaError(N_('Only a "Yes, but…" result can be turned into a success.'))
    return replace(result, outcome=Outcome.SUCCESS, price_paid=True)


# --- Exact chances --------------------------------------------------------------------


def _negated(pmf: Mapping[int, float]) -> Pmf:
    return {-value: p for value, p in pmf.items()}


@lru_cache(maxsize=256)
def _counted_with_sixes(dice: int) -> tuple[Pmf, ...]:
    """For a pool where 2 faces of 6 count, ``[s][c]`` = P(c counted and s of them special).

    A Bd counts on 5 or 6 and is a critical 6 on a 6; an Rd counts on 1 or 2 and is a
    critical-cancelling 1 on a 1. Both are the same shape: 1/6 special, 1/6 plain, 4/6 not.
    """
    table: list[Pmf] = []
    for special in range(dice + 1):
        row: Pmf = {}
        for counted in range(special, dice + 1):
            ways = comb(dice, special) * comb(dice - special, counted - special)
            row[counted] = ways * (1 / 6) ** counted * (4 / 6) ** (dice - counted)
        table.append(row)
    return tuple(table)


def _marginal(rows: Sequence[Mapping[int, float]], *, special_weight: int) -> Pmf:
    """P(counted + special_weight × special) over a ``_counted_with_sixes`` table."""
    result: Pmf = {}
    for special, row in enumerate(rows):
        add_shifted(result, row, shift=special_weight * special)
    return result


@lru_cache(maxsize=256)
def _drama_terminals(dice: int) -> Pmf:
    """Sum of the non-6 face ending each explosion chain: −1 (a 1) 1/5, 0 2/5, +1 2/5."""
    return convolve(*([{-1: 0.2, 0: 0.4, 1: 0.4}] * dice))


def _sixes_series(dice: int) -> list[float]:
    """P(K = k), K the number of Dd 6s, until the unlisted remainder is below 1e-12."""
    p = (5 / 6) ** dice
    series = [p]
    total = p
    k = 0
    while 1.0 - total >= SERIES_REMAINDER and dice > 0:
        p *= (dice + k) / (k + 1) / 6
        k += 1
        series.append(p)
        total += p
    return series


@lru_cache(maxsize=4096)
def _net_pmf(
    base: int, resistance: int, drama: int, criticals: bool
) -> tuple[tuple[int, float], ...]:
    base_rows = _counted_with_sixes(base)
    resistance_rows = _counted_with_sixes(resistance)
    sixes = _sixes_series(drama)
    terminals = _drama_terminals(drama)
    plain_against = _negated(_marginal(resistance_rows, special_weight=0))
    net: Pmf = {}
    if not criticals:
        plain = convolve(_marginal(base_rows, special_weight=0), plain_against, terminals)
        for k, pk in enumerate(sixes):
            add_shifted(net, plain, shift=k, weight=pk)
    else:
        net = _critical_net(base_rows, resistance_rows, sixes, plain_against, terminals)
    return tuple(sorted((value, p) for value, p in net.items() if p > 0.0))


def _critical_net(
    base_rows: Sequence[Mapping[int, float]],
    resistance_rows: Sequence[Mapping[int, float]],
    sixes: Sequence[float],
    plain_against: Mapping[int, float],
    terminals: Mapping[int, float],
) -> Pmf:
    """net = X + T − R + bonus, X = Bd successes + Dd 6s, m = Bd 6s + Dd 6s, O = Rd 1s and
    bonus = max(0, m − O) when m ≥ 3 (else 0).

    Once m reaches the most Rd 1s that can happen, O ≤ m and the bonus is m − O: all those
    m share one −(R + O), and their X + m is the whole X + m (a cheap convolution) less the
    few small m. Only m below that (and m < 3, no bonus) are gathered one by one, jointly
    with X (``joint[m]`` = P(m, X)), each with its own Rd distribution.
    """
    # Cells this improbable change no chance shown (all of them together stay below 1e-12):
    # dropping them keeps 60/60/60 from convolving thousands of ~0 terms.
    negated = [
        {v: p for v, p in _negated(row).items() if p >= _NEGLIGIBLE} for row in resistance_rows
    ]
    ones_seen = [ones for ones, row in enumerate(negated) if row]
    first_beyond = max(CRITICAL_SIXES, max(ones_seen, default=0))
    joint: dict[int, Pmf] = {}
    for base_sixes, full_row in enumerate(base_rows[:first_beyond]):
        row = {v: p for v, p in full_row.items() if p >= _NEGLIGIBLE}
        for k, pk in enumerate(sixes[: first_beyond - base_sixes]):
            add_shifted(joint.setdefault(base_sixes + k, {}), row, shift=k, weight=pk)
    # X + m over every m (B + S6 + 2K), less the m gathered one by one.
    beyond: Pmf = {}
    with_sixes = _marginal(base_rows, special_weight=1)
    for k, pk in enumerate(sixes):
        add_shifted(beyond, with_sixes, shift=2 * k, weight=pk)
    ordinary: Pmf = {}
    mixed: Pmf = {}
    for m, cells in joint.items():
        add_shifted(beyond, cells, shift=m, weight=-1.0)
        if m < CRITICAL_SIXES:
            add_shifted(ordinary, cells)
        else:
            against_m: Pmf = {}
            for ones in ones_seen:
                add_shifted(against_m, negated[ones], shift=max(0, m - ones))
            add_shifted(mixed, convolve(cells, against_m, floor=_NEGLIGIBLE))
    against_all = _negated(_marginal(resistance_rows, special_weight=1))
    add_shifted(mixed, convolve(ordinary, plain_against, floor=_NEGLIGIBLE))
    add_shifted(mixed, convolve(beyond, against_all, floor=_NEGLIGIBLE))
    return convolve(mixed, terminals, floor=_NEGLIGIBLE)


def net_distribution(
    *, base: int, resistance: int = 0, drama: int = 0, criticals: bool = False
) -> dict[int, float]:
    """Exact P(net = n) for every n (the unlisted tail of big nets is below 1e-12)."""
    base, resistance, drama = _pools(base, resistance, drama)
    return dict(_net_pmf(base, resistance, drama, bool(criticals)))


def chance(*, base: int, resistance: int = 0, drama: int = 0, criticals: bool = False) -> float:
    """Exact chance of net ≥ 2, explosions and (if on) the criticals rule included."""
    return outcome_chances(base=base, resistance=resistance, drama=drama, criticals=criticals)[
        Outcome.SUCCESS
    ]


def outcome_chances(
    *, base: int, resistance: int = 0, drama: int = 0, criticals: bool = False
) -> dict[Outcome, float]:
    """Exact chance of each outcome (before any price is paid)."""
    base, resistance, drama = _pools(base, resistance, drama)
    return dict(zip(Outcome, _outcomes(base, resistance, drama, bool(criticals)), strict=True))


@lru_cache(maxsize=4096)
def _outcomes(base: int, resistance: int, drama: int, criticals: bool) -> tuple[float, ...]:
    by_outcome = dict.fromkeys(Outcome, 0.0)
    for net, p in _net_pmf(base, resistance, drama, criticals):
        by_outcome[Outcome.of(net)] += p
    # The truncated tail (< 1e-12) is all large nets, i.e. successes.
    yes_but, failure = by_outcome[Outcome.YES_BUT], by_outcome[Outcome.FAILURE]
    return (min(1.0, max(0.0, 1.0 - yes_but - failure)), yes_but, failure)


def clear_caches() -> None:
    """Forget every cached distribution (for benchmarks that time the computation)."""
    for cached in (_outcomes, _net_pmf, _counted_with_sixes, _drama_terminals):
        cached.cache_clear()


# --- Building pools -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Difficulty:
    """A named difficulty: easy ones add Bd, hard ones add Rd."""

    name: str
    base: int = 0
    resistance: int = 0


DIFFICULTIES: tuple[Difficulty, ...] = (
    Difficulty(N_("Very Easy"), base=4),
    Difficulty(N_("Straightforward"), base=2),
    Difficulty(N_("Some Difficulty")),
    Difficulty(N_("Troublesome"), resistance=2),
    Difficulty(N_("Difficult"), resistance=4),
    Difficulty(N_("Very Challenging"), resistance=6),
    Difficulty(N_("Extremely Hard"), resistance=8),
    Difficulty(N_("Formidable"), resistance=10),
)
_DIFFICULTY_BY_KEY = {d.name.casefold(): d for d in DIFFICULTIES}


def difficulty(name: str) -> Difficulty:
    """Look a difficulty up by name, ignoring case."""
    found = _DIFFICULTY_BY_KEY.get(name.strip().casefold())
    if found is None:
        names = ", ".join(d.name for d in DIFFICULTIES)
        raise DramaError(
            N_("Unknown Drama difficulty {name}; choose one of: {names}."),
            name=repr(name),
            names=names,
        )
    return found


# The pool builders take a ``difficulty`` keyword, which hides the function inside them.
_find_difficulty = difficulty


@dataclass(frozen=True, slots=True)
class PoolPart:
    """One line of a pool's breakdown, so the embed can say where every die came from."""

    label: str
    base: int = 0
    resistance: int = 0
    drama: int = 0
    penalty: bool = False  # the actor's penalty dice: over the cap on what a player adds


@dataclass(frozen=True, slots=True)
class Pools:
    """The three pool sizes of one test and how they were built."""

    base: int
    resistance: int = 0
    drama: int = 0
    parts: tuple[PoolPart, ...] = ()

    def plus(self, part: PoolPart) -> Pools:
        """These pools with one more part (used to add penalty dice at roll time)."""
        return Pools(
            base=self.base + part.base,
            resistance=self.resistance + part.resistance,
            drama=self.drama + part.drama,
            parts=(*self.parts, part),
        )

    def validated(self) -> Pools:
        """The pools, or :class:`DramaError` naming where each die of a too-large pool came
        from. The cap (``MAX_POOL`` a pool) is on what the player adds; the actor's penalty
        dice always join on top, so a full penalty pool never locks a character out of a test.
        """
        added = [p for p in self.parts if not p.penalty] if self.parts else [self.as_part()]
        on_top = len(added) < len(self.parts)
        for what, field in (
            (N_("Base dice (Bd)"), "base"),
            (N_("Resistance dice (Rd)"), "resistance"),
            (N_("Drama dice (Dd)"), "drama"),
        ):
            total = sum(getattr(p, field) for p in added)
            if total > MAX_POOL:
                sources = " + ".join(
                    f"{getattr(p, field)} from {p.label}" for p in added if getattr(p, field)
                )
                raise DramaError(
                    N_(
                        "The {what} you add would be {total} ({sources}): at most {high} dice "
                        "(penalty dice come on top)."
                    )
                    if on_top
                    else N_(
                        "The {what} you add would be {total} ({sources}): at most {high} dice."
                    ),
                    what=what,
                    total=total,
                    sources=sources,
                    high=MAX_POOL,
                )
        _pools(self.base, self.resistance, self.drama)
        return self

    def as_part(self) -> PoolPart:
        return PoolPart(N_("pools"), self.base, self.resistance, self.drama)


class Situation(TypedDict, total=False):
    """What every kind of test adds to its pools (see :func:`_situation`)."""

    difficulty: str | None
    resistance: int
    target: int
    drama: int
    penalty: int
    risk: bool
    hands: Sequence[int]


class BackgroundFit(enum.StrEnum):
    DIRECT = "direct"
    INDIRECT = "indirect"


def given_pools(base: int, **situation: Unpack[Situation]) -> Pools:
    """A test whose Bd the player gives as a number (an NPC, or a pool built by hand)."""
    base = _int(base, N_("The Base dice (Bd)"), 0, MAX_POOL)
    return _situation((PoolPart(N_("Base dice"), base=base),), **situation)


def attribute_pools(
    attribute: int, *, name: str = "attribute", **situation: Unpack[Situation]
) -> Pools:
    """An attribute test: Bd = 2 × attribute (none if that is below 0).

    ``name`` (and the skill's) only label the breakdown, so the embed can say "2 × Physical 2".
    """
    attribute = _int(attribute, N_("The attribute"), MIN_ATTRIBUTE, MAX_ATTRIBUTE)
    part = PoolPart(f"2 × {name} {attribute}", base=max(0, 2 * attribute))
    return _situation((part,), **situation)


def _parent_attribute_resistance(
    attribute: int, skill: int, attribute_name: str, skill_name: str
) -> tuple[PoolPart, ...]:
    if attribute <= 0:
        return (PoolPart(f"{attribute_name} {attribute} ≤ 0", resistance=2),)
    if attribute < skill:
        label = f"{attribute_name} {attribute} < {skill_name} {skill}"
        return (PoolPart(label, resistance=1),)
    return ()


def skill_pools(
    attribute: int,
    skill: int,
    *,
    attribute_name: str = "attribute",
    skill_name: str = "skill",
    **situation: Unpack[Situation],
) -> Pools:
    """A skill test: Bd = attribute + skill; +1 Rd if 0 < attribute < skill; +2 if ≤ 0.

    Decision (RULES.md §5): seed 004's worked examples (Agility 2, Dancer 3: 1 Rd) and its
    summary say "lower than the skill", not its one "half or less".
    """
    attribute = _int(attribute, N_("The attribute"), MIN_ATTRIBUTE, MAX_ATTRIBUTE)
    skill = _int(skill, N_("The skill"), 0, MAX_POOL)
    parts = (
        PoolPart(
            f"{attribute_name} {attribute} + {skill_name} {skill}",
            base=max(0, attribute + skill),
        ),
        *_parent_attribute_resistance(attribute, skill, attribute_name, skill_name),
    )
    return _situation(parts, **situation)


def background_pools(
    attribute: int,
    backgrounds: int,
    *,
    fit: BackgroundFit | str = BackgroundFit.DIRECT,
    attribute_name: str = "attribute",
    **situation: Unpack[Situation],
) -> Pools:
    """Backgrounds standing in for a skill: +1 Bd each (at most 3); indirect ones +1 Rd each.

    Decision: since they stand in for the skill, the skill test's parent-attribute rule
    applies with the number of backgrounds counted as the skill: +1 Rd when it is higher
    than an attribute above 0, +2 Rd when the attribute is 0 or less.
    """
    attribute = _int(attribute, N_("The attribute"), MIN_ATTRIBUTE, MAX_ATTRIBUTE)
    backgrounds = _int(backgrounds, N_("The number of backgrounds"), 1, MAX_BACKGROUNDS)
    try:
        fit = BackgroundFit(fit)
    except ValueError:
        raise DramaError(N_("A background fits either 'direct' or 'indirect'.")) from None
    indirect = fit is BackgroundFit.INDIRECT
    parts = (
        PoolPart(
            f"{attribute_name} {attribute} + {backgrounds} {fit.value} background(s)",
            base=max(0, attribute + backgrounds),
            resistance=backgrounds if indirect else 0,
        ),
        *_parent_attribute_resistance(attribute, backgrounds, attribute_name, "backgrounds"),
    )
    return _situation(parts, **situation)


def _situation(
    parts: tuple[PoolPart, ...],
    *,
    difficulty: str | None = None,
    resistance: int = 0,
    target: int = 0,
    drama: int = 0,
    penalty: int = 0,
    risk: bool = False,
    hands: Sequence[int] = (),
) -> Pools:
    """Add what every kind of test shares: difficulty, situational Rd, the target's stat,
    drama dice, the actor's penalty dice and helpers lending a hand (their attributes).

    ``risk``: the GM turns the penalty dice into an advantage rolled as a risk, so for this
    test they are Dd instead of Rd (RULES.md §5, Penalty pool).
    """
    extra: list[PoolPart] = []
    if difficulty is not None:
        found = _find_difficulty(difficulty)
        if found.base or found.resistance:
            extra.append(PoolPart(found.name, base=found.base, resistance=found.resistance))
    if _int(resistance, N_("Situational resistance"), 0, MAX_POOL):
        extra.append(PoolPart(N_("situational resistance"), resistance=resistance))
    if _int(target, N_("The target's stat"), 0, MAX_POOL):
        extra.append(PoolPart(N_("target's stat"), resistance=target))
    if len(hands) > MAX_HELPERS:
        raise DramaError(N_("At most {high} helpers can lend a hand."), high=MAX_HELPERS)
    for hand in hands:
        value = _int(hand, N_("A helper's attribute"), MIN_ATTRIBUTE, MAX_ATTRIBUTE)
        if value > 0:
            extra.append(PoolPart(f"lending a hand {value}", base=value))
    if _int(drama, N_("The Drama dice (Dd)"), 0, MAX_POOL):
        extra.append(PoolPart(N_("drama"), drama=drama))
    if _int(penalty, N_("Penalty dice"), 0, MAX_PENALTY):
        if risk:
            extra.append(PoolPart(N_("penalty dice as a risk"), drama=penalty, penalty=True))
        else:
            extra.append(PoolPart(N_("penalty dice"), resistance=penalty, penalty=True))
    elif risk:
        raise DramaError(N_("There are no penalty dice to turn into a risk."))
    all_parts = (*parts, *extra)
    pools = Pools(
        base=sum(p.base for p in all_parts),
        resistance=sum(p.resistance for p in all_parts),
        drama=sum(p.drama for p in all_parts),
        parts=all_parts,
    )
    return pools.validated()


def roll_pools(dice: Dice, pools: Pools, *, criticals: bool = False) -> DramaResult:
    """Roll built pools."""
    return test(
        dice,
        base=pools.base,
        resistance=pools.resistance,
        drama=pools.drama,
        criticals=criticals,
    )


# --- Opposed tests and working together -----------------------------------------------


class OpposedOutcome(enum.StrEnum):
    WIN = "win"
    DRAW = "draw"
    BOTH_FAIL = "both fail"


@dataclass(frozen=True, slots=True)
class OpposedResult:
    """Two sides' tests. ``winner`` is "a", "b" or None; a draw goes to ``momentum`` if named."""

    a: DramaResult
    b: DramaResult
    outcome: OpposedOutcome
    winner: str | None
    level: int
    momentum: str | None

    @property
    def by_momentum(self) -> bool:
        return self.outcome is OpposedOutcome.DRAW and self.winner is not None


def read_opposed(a: DramaResult, b: DramaResult, *, momentum: str | None = None) -> OpposedResult:
    """A side needs net ≥ 2 and more than the other; the level is the difference."""
    if momentum not in (None, "a", "b"):
        raise DramaError(N_("Momentum goes to side 'a' or side 'b'."))
    if a.net < SUCCESS_NET and b.net < SUCCESS_NET:
        return OpposedResult(a, b, OpposedOutcome.BOTH_FAIL, None, 0, momentum)
    if a.net == b.net:
        return OpposedResult(a, b, OpposedOutcome.DRAW, momentum, 0, momentum)
    winner = "a" if a.net > b.net else "b"
    return OpposedResult(a, b, OpposedOutcome.WIN, winner, abs(a.net - b.net), momentum)


def opposed(
    dice: Dice,
    *,
    a: Pools,
    b: Pools,
    criticals: bool = False,
    momentum: str | None = None,
) -> OpposedResult:
    """Side a rolls all its pools, then side b (each in the test's own order)."""
    first = roll_pools(dice, a, criticals=criticals)
    second = roll_pools(dice, b, criticals=criticals)
    return read_opposed(first, second, momentum=momentum)


def _pools_pmf(pools: Pools, criticals: bool) -> Mapping[int, float]:
    return net_distribution(
        base=pools.base, resistance=pools.resistance, drama=pools.drama, criticals=criticals
    )


def opposed_chances(*, a: Pools, b: Pools, criticals: bool = False) -> dict[str, float]:
    """Exact chances of "a" winning, "b" winning, a "draw" and "both fail"."""
    pa, pb = _pools_pmf(a, criticals), _pools_pmf(b, criticals)
    result = {"a": 0.0, "b": 0.0, "draw": 0.0, "both fail": 0.0}
    for na, p in pa.items():
        for nb, q in pb.items():
            if na < SUCCESS_NET and nb < SUCCESS_NET:
                result["both fail"] += p * q
            elif na == nb:
                result["draw"] += p * q
            else:
                result["a" if na > nb else "b"] += p * q
    return result


@dataclass(frozen=True, slots=True)
class TogetherResult:
    """Helpers working together: each test in order; the nets add up."""

    tests: tuple[DramaResult, ...]
    net: int
    outcome: Outcome

    @property
    def success(self) -> bool:
        return self.outcome is Outcome.SUCCESS


# The actor and up to 10 helpers working together.
MAX_TOGETHER = 1 + MAX_HELPERS


def _together(pools: Sequence[Pools]) -> Sequence[Pools]:
    if not 1 <= len(pools) <= MAX_TOGETHER:
        raise DramaError(N_("Between 1 and {count} people can work together."), count=MAX_TOGETHER)
    return [p.validated() for p in pools]


def together(dice: Dice, *, pools: Sequence[Pools], criticals: bool = False) -> TogetherResult:
    """Each one rolls their own pools (with the full resistance), in the order given."""
    tests = tuple(roll_pools(dice, p, criticals=criticals) for p in _together(pools))
    net = sum(t.net for t in tests)
    return TogetherResult(tests=tests, net=net, outcome=Outcome.of(net))


def together_chances(*, pools: Sequence[Pools], criticals: bool = False) -> dict[Outcome, float]:
    """Exact chance of each outcome of the summed nets (within 1e-11).

    Sums that improbable are dropped along the way: 11 pools of 60 dice have a few thousand
    sums, most below 1e-30, and carrying them costs half a second for nothing.
    """
    pmfs = [_pools_pmf(p, criticals) for p in _together(pools)]
    combined = convolve(*pmfs, floor=_NEGLIGIBLE)
    yes_but = failure = 0.0
    for net, p in combined.items():
        if net == YES_BUT_NET:
            yes_but += p
        elif net < YES_BUT_NET:
            failure += p
    # What was dropped is at most (sums kept) × 1e-16 per step; give it to the success side.
    return {
        Outcome.SUCCESS: min(1.0, max(0.0, 1.0 - yes_but - failure)),
        Outcome.YES_BUT: yes_but,
        Outcome.FAILURE: failure,
    }


def together_chance(*, pools: Sequence[Pools], criticals: bool = False) -> float:
    """Exact chance that the summed nets reach 2."""
    return together_chances(pools=pools, criticals=criticals)[Outcome.SUCCESS]
