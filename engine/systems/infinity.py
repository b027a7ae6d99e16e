"""Infinity CodeOne: Success Values, normal and face-to-face rolls with Burst, saving rolls.

RULES.md section 3. Dice are drawn in the order the rules give (a face to face draws all of
side A's dice, then all of side B's; a save draws one d20 per hit), so a ScriptedDice sequence
pins one exact result.

Chances are exact. A face to face is never enumerated die by die (20^(a+b) outcomes): whether a
side wins depends only on the opponent's *best* success and whether it rolled a Critical, so we
sum over the opponent's best non-critical value (at most 20 states) and treat each of our own
dice independently given that state. That answers Burst 10 against Burst 10 in well under a
millisecond, with :class:`fractions.Fraction` arithmetic so the floats returned are correctly
rounded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Generic, Protocol, TypeVar

from engine.dice import Dice
from engine.errors import N_, InputError

D20 = 20
MOD_CAP = 12
"""The sum of MODs on any roll is clamped to -12..+12 (seed 002, "Modificador Máximo")."""
COVER_MOD = -3
"""Partial cover lowers the attack damage of a saving roll by 3 (RULES.md, saving roll)."""

ATTRIBUTE_RANGE = (0, 40)
MODS_RANGE = (-50, 50)
BURST_RANGE = (1, 10)
HITS_RANGE = (1, 20)
DAMAGE_RANGE = (0, 40)
ARMOR_RANGE = (0, 40)


Translate = Callable[..., str]
"""A message's English template and its parameters in, the text to show out (the bot passes
its ``_`` so the arithmetic reads in the player's language; the engine cannot import it)."""


def plain(template: str, /, **params: object) -> str:
    """The English text: ``template`` filled with ``params`` (the default :data:`Translate`)."""
    return template.format_map(params) if params else template


class InfinityError(InputError):
    """An input the rules (or the bot's bounds) do not allow; the message is shown to users.

    Raised with an English template and its parameters (see :class:`InputError`) so the bot
    can show it in the player's language. ``field`` names the offending input (``"burst"``,
    ``"b_attribute"``…) so a front end can rephrase it in its own vocabulary.
    """

    def __init__(self, message: str, /, *, field: str, value: object, **params: object) -> None:
        super().__init__(message, **params)
        self.field = field
        self.value = value


_LABELS = {
    "attribute": N_("attribute"),
    "mods": N_("MODs"),
    "burst": N_("burst"),
    "hits": N_("hits"),
    "damage": N_("damage"),
    "armor": N_("armor"),
}


def _check(field: str, value: object, bounds: tuple[int, int], side: str = "") -> int:
    """Refuse anything but a whole number within ``bounds``: bounds keep every roll small."""
    low, high = bounds
    name = f"{side}{field}"
    what = _LABELS[field]
    if isinstance(value, bool) or not isinstance(value, int):
        if side:
            raise InfinityError(
                N_("side {side} {what} must be a whole number, not {got}"),
                field=name,
                value=value,
                side=side[0].upper(),
                what=what,
                got=repr(value),
            )
        raise InfinityError(
            N_("{what} must be a whole number, not {got}"),
            field=name,
            value=value,
            what=what,
            got=repr(value),
        )
    if not low <= value <= high:
        params = {"what": what, "low": low, "high": high, "got": value}
        if side:
            raise InfinityError(
                N_("side {side} {what} must be between {low} and {high} (got {got})"),
                field=name,
                value=value,
                side=side[0].upper(),
                **params,
            )
        raise InfinityError(
            N_("{what} must be between {low} and {high} (got {got})"),
            field=name,
            value=value,
            **params,
        )
    return value


def _fmt_signed(n: int) -> str:
    """Signed with a real minus sign, as the rulebook prints MODs (+3, −12)."""
    return f"+{n}" if n >= 0 else f"−{-n}"


def _fmt_int(n: int) -> str:
    return str(n) if n >= 0 else f"−{-n}"


# --------------------------------------------------------------------------- Success Value


def clamp_mods(mods: int) -> int:
    """The MOD sum that actually applies: anything beyond ±12 is ignored."""
    return max(-MOD_CAP, min(MOD_CAP, mods))


def success_value(*, attribute: int, mods: int = 0) -> int:
    """SV = attribute + clamped MODs; may be below 1 (automatic failure) or above 20."""
    return _sv(attribute, mods)


def _sv(attribute: int, mods: int, side: str = "") -> int:
    _check("attribute", attribute, ATTRIBUTE_RANGE, side)
    _check("mods", mods, MODS_RANGE, side)
    return attribute + clamp_mods(mods)


def _rolling_sv(attribute: int, mods: int, burst: int, side: str = "") -> int:
    """Check everything one side rolls with (``side`` "a_"/"b_" names it) and give its SV."""
    sv = _sv(attribute, mods, side)
    _check("burst", burst, BURST_RANGE, side)
    return sv


def describe_sv(attribute: int, mods: int, name: str = "", tr: Translate = plain) -> str:
    """The SV arithmetic as a player checks it, the MOD cap and the above-20 rule spelled out.

    ``BS 13 + MOD −15 (clamped to −12) = SV 1`` — the embed shows this so nobody has to ask
    why a −15 only cost 12. ``tr`` writes the words in the player's language.
    """
    applied = clamp_mods(mods)
    sv = attribute + applied
    shown_sv = tr(N_("SV {sv}"), sv=_fmt_int(sv))
    if name or mods:
        text = f"{name} {attribute}" if name else f"{attribute}"
        if mods:
            text += f" + MOD {_fmt_signed(mods)}"
            if applied != mods:
                text += " " + tr(N_("(clamped to {mods})"), mods=_fmt_signed(applied))
        text += f" = {shown_sv}"
    else:
        text = shown_sv  # a bare number: nothing to add up
    if sv < 1:
        text += " — " + tr(N_("automatic failure, no dice rolled"))
    elif sv > D20:
        text += " — " + tr(
            N_("SV 20, {excess} to every die, Critical on {face}+"),
            excess=_fmt_signed(sv - D20),
            face=crit_from(sv),
        )
    return text


def crit_from(sv: int) -> int | None:
    """The lowest face that is a Critical (None when SV < 1: nothing is rolled).

    At SV ≤ 20 only the face equal to SV; above 20, any face whose value (face + excess)
    reaches 20 — so CC 23 crits on 17+.
    """
    if sv < 1:
        return None
    if sv <= D20:
        return sv
    return max(1, D20 - (sv - D20))


# --------------------------------------------------------------------------- dice and results


class DieStatus(Enum):
    """What one die ended up as; CANCELLED only happens in a face to face."""

    CRITICAL = "critical"
    SUCCESS = "success"
    FAILURE = "failure"
    CANCELLED = "cancelled"

    @property
    def label(self) -> str:
        return self.value.capitalize()


@dataclass(frozen=True, slots=True)
class Die:
    """One d20: the face shown, the value compared (face + excess above SV 20), and its fate.

    ``critical`` and ``success`` judge the die on its own; ``status`` is its final fate, which
    in a face to face may be CANCELLED even though ``success`` is True.
    """

    face: int
    value: int
    critical: bool
    success: bool
    status: DieStatus

    @property
    def cancelled(self) -> bool:
        return self.status is DieStatus.CANCELLED

    @property
    def hit(self) -> bool:
        """A success still standing (every success in a normal roll; survivors in a FtF)."""
        return self.status in (DieStatus.CRITICAL, DieStatus.SUCCESS)


def _judge(face: int, sv: int) -> Die:
    if sv > D20:
        value = face + sv - D20
        critical = value >= D20
        return Die(face, value, critical, True, _status(critical, True))
    critical = face == sv
    success = face <= sv
    return Die(face, face, critical, success, _status(critical, success))


def _status(critical: bool, success: bool) -> DieStatus:
    if critical:
        return DieStatus.CRITICAL
    return DieStatus.SUCCESS if success else DieStatus.FAILURE


class _Face(Protocol):
    @property
    def face(self) -> int: ...


D = TypeVar("D", bound=_Face)


@dataclass(frozen=True, slots=True)
class _Rolled(Generic[D]):
    """What every Infinity roll keeps: the MODs asked for, what the ±12 cap let through, and
    its dice in draw order (a normal roll's judged dice, or a save's)."""

    mods: int
    applied_mods: int
    dice: tuple[D, ...]

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(d.face for d in self.dice)


@dataclass(frozen=True, slots=True)
class NormalResult(_Rolled[Die]):
    """A normal roll: every die judged on its own against the SV."""

    attribute: int
    sv: int
    burst: int

    @property
    def auto_fail(self) -> bool:
        """Below SV 1 the player does not roll at all (seed 002), so ``dice`` is empty."""
        return self.sv < 1

    @property
    def mods_clamped(self) -> bool:
        return self.mods != self.applied_mods

    @property
    def excess(self) -> int:
        """Added to every face when SV > 20."""
        return max(0, self.sv - D20)

    @property
    def crit_from(self) -> int | None:
        return crit_from(self.sv)

    @property
    def hits(self) -> tuple[Die, ...]:
        """Dice still standing (all successes in a normal roll, survivors in a face to face)."""
        return tuple(d for d in self.dice if d.hit)

    @property
    def successes(self) -> int:
        """Dice that succeeded on their own, criticals included."""
        return sum(d.success for d in self.dice)

    @property
    def criticals(self) -> int:
        return sum(d.critical for d in self.dice)

    @property
    def success(self) -> bool:
        return self.successes > 0

    @property
    def critical(self) -> bool:
        return self.criticals > 0

    @property
    def arithmetic(self) -> str:
        return self.describe()

    def describe(self, name: str = "", tr: Translate = plain) -> str:
        """The SV arithmetic with the attribute's name (``BS 12 + MOD −3 = SV 9``)."""
        return describe_sv(self.attribute, self.mods, name, tr)


def roll_side(dice: Dice, attribute: int, mods: int, burst: int) -> NormalResult:
    """Roll one side without checking its inputs (callers check them with :func:`check_side`)."""
    return _roll(dice, attribute, mods, burst)


def check_side(attribute: int, mods: int, burst: int, side: str = "") -> int:
    """Refuse a side the rules (or the bounds) do not allow; its Success Value otherwise."""
    return _rolling_sv(attribute, mods, burst, side)


def _roll(dice: Dice, attribute: int, mods: int, burst: int) -> NormalResult:
    applied = clamp_mods(mods)
    sv = attribute + applied
    # Seed 002: below 1 the player does not roll at all.
    rolled = () if sv < 1 else tuple(_judge(dice.roll(D20), sv) for _ in range(burst))
    return NormalResult(
        mods=mods,
        applied_mods=applied,
        dice=rolled,
        attribute=attribute,
        sv=sv,
        burst=burst,
    )


def normal(dice: Dice, *, attribute: int, mods: int = 0, burst: int = 1) -> NormalResult:
    """A normal roll of ``burst`` d20 against attribute + MODs."""
    _rolling_sv(attribute, mods, burst)
    return _roll(dice, attribute, mods, burst)


# --------------------------------------------------------------------------- face to face


class Decision(Enum):
    """Why a face to face ended as it did, so the embed can say it in words."""

    BOTH_FAILED = "both failed"
    BOTH_CRITICAL = "both rolled a Critical: every die is cancelled"
    TIE = "the best successes are equal and cancel each other"
    CRITICAL = "won with a Critical"
    HIGHER = "won with the higher success"
    UNOPPOSED = "won: the other side has no success"


@dataclass(frozen=True, slots=True)
class FaceToFaceResult:
    """Both sides' dice with their final status; the survivors are the hits.

    ``a`` and ``b`` are the two normal rolls, each die's ``status`` updated to CANCELLED where
    the other side cancelled it. At most one side has hits.
    """

    a: NormalResult
    b: NormalResult
    a_hits: tuple[Die, ...]
    b_hits: tuple[Die, ...]
    winner: str | None
    decision: Decision

    @property
    def dice(self) -> tuple[Die, ...]:
        """Every die in draw order (A's, then B's)."""
        return self.a.dice + self.b.dice

    @property
    def hits(self) -> tuple[Die, ...]:
        """The winner's hits (none when nobody wins): at most one side ever has any."""
        return self.a_hits or self.b_hits


def _cancel(mine: tuple[Die, ...], theirs: tuple[Die, ...]) -> tuple[Die, ...]:
    """Mark my successes the other side cancels (RULES.md section 3, face to face)."""
    their_crit = any(d.critical for d in theirs)
    their_best = max((d.value for d in theirs if d.success), default=0)

    def survives(d: Die) -> bool:
        # A Critical survives unless they also crit; a plain success must beat every success
        # of theirs (equal values cancel each other).
        return not their_crit and (d.critical or d.value > their_best)

    return tuple(
        d if not d.success or survives(d) else replace(d, status=DieStatus.CANCELLED) for d in mine
    )


def _decision(a: NormalResult, b: NormalResult, winner: str | None) -> Decision:
    if winner is None:
        if a.critical and b.critical:
            return Decision.BOTH_CRITICAL
        return Decision.TIE if a.success and b.success else Decision.BOTH_FAILED
    won, lost = (a, b) if winner == "a" else (b, a)
    if not lost.success:
        return Decision.UNOPPOSED
    return Decision.CRITICAL if won.critical else Decision.HIGHER


def face_to_face(
    dice: Dice,
    *,
    a_attribute: int,
    a_mods: int = 0,
    a_burst: int = 1,
    b_attribute: int,
    b_mods: int = 0,
    b_burst: int = 1,
) -> FaceToFaceResult:
    """A face to face roll: side A (usually the active trooper) against side B (the ARO)."""
    _rolling_sv(a_attribute, a_mods, a_burst, "a_")
    _rolling_sv(b_attribute, b_mods, b_burst, "b_")
    a = _roll(dice, a_attribute, a_mods, a_burst)
    b = _roll(dice, b_attribute, b_mods, b_burst)
    return resolve(a, b)


def resolve(a: NormalResult, b: NormalResult) -> FaceToFaceResult:
    """Judge two rolled sides against each other (a burst split judges each target's share)."""
    a_dice = _cancel(a.dice, b.dice)
    b_dice = _cancel(b.dice, a.dice)
    a = replace(a, dice=a_dice)
    b = replace(b, dice=b_dice)
    a_hits = a.hits
    b_hits = b.hits
    winner = "a" if a_hits else "b" if b_hits else None
    return FaceToFaceResult(a, b, a_hits, b_hits, winner, _decision(a, b, winner))


# --------------------------------------------------------------------------- chances


@dataclass(frozen=True, slots=True)
class NormalOdds:
    """Exact odds of a normal roll (floats within 1e-15 of the true fractions)."""

    success: float
    """P(at least one success)."""
    critical: float
    """P(at least one Critical)."""
    expected_successes: float
    expected_criticals: float


@lru_cache(maxsize=64)
def _die_counts(sv: int) -> tuple[int, tuple[int, ...], int]:
    """How many of the 20 faces give: a failure, a plain success of each value 0..19, a crit.

    Plain successes always have values below 20 (20 or more is a Critical), so 20 slots do.
    """
    plain = [0] * D20
    fail = crit = 0
    if sv < 1:
        return D20, tuple(plain), 0
    for face in range(1, D20 + 1):
        d = _judge(face, sv)
        if d.critical:
            crit += 1
        elif d.success:
            plain[d.value] += 1
        else:
            fail += 1
    return fail, tuple(plain), crit


@lru_cache(maxsize=4096)
def _normal_exact(sv: int, burst: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    fail, _, crit = _die_counts(sv)
    p_fail = Fraction(fail, D20)
    p_crit = Fraction(crit, D20)
    return (
        1 - p_fail**burst,
        1 - (1 - p_crit) ** burst,
        burst * (1 - p_fail),
        burst * p_crit,
    )


def normal_odds(*, attribute: int, mods: int = 0, burst: int = 1) -> NormalOdds:
    """Exact odds of a normal roll: success, Critical, expected successes and Criticals."""
    sv = _rolling_sv(attribute, mods, burst)
    exact = _normal_exact(sv, burst)
    return NormalOdds(*(float(x) for x in exact))


def chance(*, attribute: int, mods: int = 0, burst: int = 1) -> float:
    """P(at least one success) in a normal roll."""
    return normal_odds(attribute=attribute, mods=mods, burst=burst).success


@dataclass(frozen=True, slots=True)
class FaceToFaceOdds:
    """Exact odds of a face to face: who wins, and how many hits each side lands on average."""

    a_wins: float
    b_wins: float
    neither: float
    a_expected_hits: float
    b_expected_hits: float


def _side_odds(
    mine: tuple[int, tuple[int, ...], int], n: int, theirs: tuple[int, tuple[int, ...], int], k: int
) -> tuple[Fraction, Fraction]:
    """P(my side wins) and E[my hits], summed over the other side's crit-free best value.

    If they roll any Critical I land nothing. Otherwise let m be their best plain success
    (0 = none): each of my dice independently survives iff it is a Critical or a plain success
    above m, so P(I win | m) = 1 - (1 - q(m))^n and E[hits | m] = n q(m).
    """
    _, my_plain, my_crit = mine
    their_fail, their_plain, _ = theirs
    total_k = D20**k
    win = Fraction(0)
    hits = Fraction(0)
    below = their_fail  # faces of theirs that are a failure or a plain success <= m
    previous = 0  # P(their best <= m-1 and no crit) * 20^k
    survive = my_crit + sum(my_plain)  # my faces that beat m (crit or value > m), times 20
    for m in range(D20):
        below += their_plain[m]
        survive -= my_plain[m]
        cumulative = below**k
        weight = cumulative - previous  # their state: no crit, best plain value exactly m
        previous = cumulative
        if weight:
            q = Fraction(survive, D20)
            win += weight * (1 - (1 - q) ** n)
            hits += weight * n * q
    return win / total_k, hits / total_k


@lru_cache(maxsize=8192)
def _ftf_exact(sv_a: int, burst_a: int, sv_b: int, burst_b: int) -> tuple[Fraction, ...]:
    da, db = _die_counts(sv_a), _die_counts(sv_b)
    a_win, a_hits = _side_odds(da, burst_a, db, burst_b)
    b_win, b_hits = _side_odds(db, burst_b, da, burst_a)
    return a_win, b_win, 1 - a_win - b_win, a_hits, b_hits


def ftf_odds(
    *,
    a_attribute: int,
    a_mods: int = 0,
    a_burst: int = 1,
    b_attribute: int,
    b_mods: int = 0,
    b_burst: int = 1,
) -> FaceToFaceOdds:
    """Exact odds of a face to face: P(A wins), P(B wins), P(neither), expected hits."""
    sv_a = _rolling_sv(a_attribute, a_mods, a_burst, "a_")
    sv_b = _rolling_sv(b_attribute, b_mods, b_burst, "b_")
    exact = _ftf_exact(sv_a, a_burst, sv_b, b_burst)
    return FaceToFaceOdds(*(float(x) for x in exact))


def ftf_chance(
    *,
    a_attribute: int,
    a_mods: int = 0,
    a_burst: int = 1,
    b_attribute: int,
    b_mods: int = 0,
    b_burst: int = 1,
) -> tuple[float, float]:
    """``(P(A wins), P(B wins))``; the rest is "nobody wins". See :func:`ftf_odds` for hits."""
    odds = ftf_odds(
        a_attribute=a_attribute,
        a_mods=a_mods,
        a_burst=a_burst,
        b_attribute=b_attribute,
        b_mods=b_mods,
        b_burst=b_burst,
    )
    return odds.a_wins, odds.b_wins


def clear_caches() -> None:
    """Forget every cached chance (benchmarks measure the uncached cost with this)."""
    _die_counts.cache_clear()
    _normal_exact.cache_clear()
    _ftf_exact.cache_clear()
    _save_exact.cache_clear()


# --------------------------------------------------------------------------- saving rolls


@dataclass(frozen=True, slots=True)
class SaveDie:
    """One saving d20: a face at or below the attack damage fails and costs a Wound."""

    face: int
    saved: bool


@dataclass(frozen=True, slots=True)
class SaveResult(_Rolled[SaveDie]):
    """A saving roll: one d20 per hit against the attack damage.

    ``applied_mods`` is the cover and the other MODs together, after the ±12 cap.
    """

    damage: int
    armor: int
    cover: bool
    hits: int
    attack_damage: int
    wounds: int

    @property
    def saved(self) -> int:
        return self.hits - self.wounds

    @property
    def mods_clamped(self) -> bool:
        return self.mods + (COVER_MOD if self.cover else 0) != self.applied_mods

    @property
    def arithmetic(self) -> str:
        """``13 − ARM 3 −3 (cover) = 7``, the MOD cap spelled out when it bit."""
        return self.describe()

    def describe(self, armor_name: str = "ARM", tr: Translate = plain) -> str:
        """The attack damage arithmetic, naming the armor as rolled against (ARM or BTS)."""
        text = f"{self.damage} − {armor_name} {self.armor}"
        if self.cover:
            text += f" {_fmt_signed(COVER_MOD)} " + tr(N_("(cover: +3 to the save)"))
        if self.mods:
            text += f" {_fmt_signed(self.mods)}"
        if self.mods_clamped:
            text += " " + tr(N_("(MODs clamped to {mods})"), mods=_fmt_signed(self.applied_mods))
        return text + f" = {_fmt_int(self.attack_damage)}"


def attack_damage(*, damage: int, armor: int, cover: bool = False, mods: int = 0) -> int:
    """Damage − ARM − 3 in partial cover ± MODs; saves fail on a face at or below it.

    **Decision:** the cover −3 is a MOD, so like every roll's MODs the sum of cover and
    ``mods`` is held to ±12 (seed 002: "the total of MODs applicable to a roll").
    """
    _check("damage", damage, DAMAGE_RANGE)
    _check("armor", armor, ARMOR_RANGE)
    _check("mods", mods, MODS_RANGE)
    return damage - armor + _save_mods(cover, mods)


def _save_mods(cover: bool, mods: int) -> int:
    return clamp_mods(mods + (COVER_MOD if cover else 0))


def _save_target(damage: int, armor: int, cover: bool, mods: int, hits: int) -> int:
    """Check a saving roll's inputs and give the attack damage its faces must beat."""
    target = attack_damage(damage=damage, armor=armor, cover=cover, mods=mods)
    _check("hits", hits, HITS_RANGE)
    return target


def _fail_fraction(target: int) -> Fraction:
    """P(one save fails): the faces 1..target of a d20."""
    return Fraction(max(0, min(D20, target)), D20)


def save(
    dice: Dice, *, damage: int, armor: int, cover: bool = False, mods: int = 0, hits: int = 1
) -> SaveResult:
    """Saving rolls against ``hits`` hits (one d20 each, in order); each failure is a Wound."""
    target = _save_target(damage, armor, cover, mods, hits)
    rolled = tuple(SaveDie(f, f > target) for f in (dice.roll(D20) for _ in range(hits)))
    wounds = sum(not d.saved for d in rolled)
    return SaveResult(
        mods=mods,
        applied_mods=_save_mods(cover, mods),
        dice=rolled,
        damage=damage,
        armor=armor,
        cover=cover,
        hits=hits,
        attack_damage=target,
        wounds=wounds,
    )


@dataclass(frozen=True, slots=True)
class SaveOdds:
    """Exact odds of a saving roll."""

    fail_chance: float
    """P(one save fails) = clamp(attack damage, 0, 20) / 20."""
    no_wounds: float
    """P(every save passes)."""
    expected_wounds: float
    wounds: tuple[float, ...]
    """``wounds[w]`` = P(exactly w Wounds), w = 0..hits."""


@lru_cache(maxsize=1024)
def _save_exact(target: int, hits: int) -> tuple[Fraction, ...]:
    p = _fail_fraction(target)
    return tuple(comb(hits, w) * p**w * (1 - p) ** (hits - w) for w in range(hits + 1))


def save_odds(
    *, damage: int, armor: int, cover: bool = False, mods: int = 0, hits: int = 1
) -> SaveOdds:
    """Exact distribution of Wounds from a saving roll."""
    target = _save_target(damage, armor, cover, mods, hits)
    distribution = _save_exact(target, hits)
    p = _fail_fraction(target)
    return SaveOdds(
        fail_chance=float(p),
        no_wounds=float(distribution[0]),
        expected_wounds=float(hits * p),
        wounds=tuple(float(x) for x in distribution),
    )


def save_chance(
    *, damage: int, armor: int, cover: bool = False, mods: int = 0, hits: int = 1
) -> float:
    """P(every save passes, no Wound) — the defender's chance of success."""
    return save_odds(damage=damage, armor=armor, cover=cover, mods=mods, hits=hits).no_wounds
