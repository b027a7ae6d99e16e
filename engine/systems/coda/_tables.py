"""CODA's named TN modifiers (seed 000, tables 9-2, 9-3, 9-4, 9-12 and 9-13) as data.

They are data, not code, so that the bot can offer them by name (autocomplete), the
docs can list them and a test can check each one against the seed. A modifier is a
change to the *TN*: positive makes a test harder.

How an entry is applied follows its printed value:

- a plain value (``+5 TN``, ``-10 TN``) or range (``+5 to +10 TN``) is used with its
  printed sign; for a range the user picks the value;
- a "±" value (``±2 TN``, ``±5 to ±10 TN``) depends on the test (RULES.md: "adds for the
  test it hinders and subtracts for the test it helps"), so the user says which by its
  sign: ``Darkness +5`` hinders (a Search), ``Darkness -5`` helps (a Stealth test);
  ``±0 to +15`` is just a range starting at 0;
- a scaled entry ("½ physical modifier", "1.5 x physical modifier, rounded up") takes a
  physical modifier of table 9-3 and scales it, rounding away from zero (the seed says
  "rounded up" for 1.5×; **Decision:** ½× rounds the same way, so no entry halves to 0).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypedDict

from engine.errors import N_, InputError

# How many conditions one test may name: keeps every sum and message bounded.
MAX_CONDITIONS = 20
# The physical modifiers a scaled entry may take (table 9-3 spans −10 … +15).
SCALED_MIN, SCALED_MAX = -15, 15


class ConditionError(InputError):
    """A condition name or value the tables do not have; the message is for the user."""


@dataclass(frozen=True, slots=True)
class Condition:
    """One row of a modifier table.

    ``low``/``high`` bound the value the user gives: the signed TN change for a plain
    entry, the *magnitude* for a "±" entry (``either_sign``), or the physical modifier
    that a scaled entry (``scale``) multiplies. ``step`` restricts the value to multiples
    (size differences are ±2 per level).
    """

    table: str
    category: str
    group: str
    name: str
    printed: str
    low: int
    high: int
    either_sign: bool = False
    step: int = 1
    scale: Fraction | None = None

    @property
    def fixed(self) -> bool:
        """True when the entry has one value and needs no number from the user."""
        return self.low == self.high and (not self.either_sign or self.low == 0)

    def values(self) -> tuple[int, ...]:
        """Every value the user may give, in table order (hindering before helping)."""
        span = range(self.low, self.high + 1, self.step)
        if self.scale is not None:
            return tuple(span)
        if self.either_sign:
            return tuple(v for m in span for v in ((m, -m) if m else (0,)))
        return tuple(span)

    def allows(self, value: int) -> bool:
        plain = self.scale is not None or not self.either_sign
        candidate = value if plain else abs(value)
        return self.low <= candidate <= self.high and (candidate - self.low) % self.step == 0

    def tn_change(self, value: int) -> int:
        """The TN change for the user's value (scaled entries round away from zero)."""
        if self.scale is None:
            return value
        scaled = self.scale * value
        magnitude = -(-abs(scaled.numerator) // scaled.denominator)
        return magnitude if scaled >= 0 else -magnitude

    def apply(self, value: int | None = None) -> AppliedCondition:
        """This condition with a value checked against the table."""
        if value is None:
            if not self.fixed:
                raise ConditionError(
                    N_("{name} needs a value: {hint}."), name=self.name, hint=self.hint()
                )
            value = self.low
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConditionError(N_("{name}: the value must be a whole number."), name=self.name)
        if not self.allows(value):
            raise ConditionError(
                N_("{name} cannot be {value}: {hint}."),
                name=self.name,
                value=f"{value:+d}",
                hint=self.hint(),
            )
        return AppliedCondition(condition=self, value=value, tn=self.tn_change(value))

    def hint(self) -> str:
        """What values the entry takes, in words, for error messages and help."""
        if self.scale is not None:
            return f"give the physical modifier it scales ({self.printed}), e.g. '{self.name} +5'"
        if self.either_sign:
            step = f" in steps of {self.step}" if self.step > 1 else ""
            example = self.high if self.low == 0 else self.low
            return (
                f"{self.printed}{step}: write '{self.name} +{example}' when it hinders this "
                f"test, '{self.name} -{example}' when it helps"
            )
        if self.low == self.high:
            return f"{self.printed}"
        return f"{self.printed}: a value from {self.low:+d} to {self.high:+d}"


@dataclass(frozen=True, slots=True)
class AppliedCondition:
    """A condition chosen for one test, with the value picked and the TN change it makes."""

    condition: Condition
    value: int
    tn: int

    @property
    def text(self) -> str:
        """The canonical spelling, which :func:`parse_conditions` reads back."""
        if self.condition.fixed:
            return self.condition.name
        return f"{self.condition.name} {self.value:+d}"

    @property
    def label(self) -> str:
        """For embeds: the name, the value and, for a scaled entry, what it became."""
        if self.condition.scale is not None:
            return f"{self.condition.name} ({self.condition.printed} {self.value:+d})"
        return self.condition.name


def _c(
    table: str,
    group: str,
    name: str,
    printed: str,
    low: int,
    high: int | None = None,
    *,
    either_sign: bool = False,
    step: int = 1,
    scale: Fraction | None = None,
) -> Condition:
    """One row, written as the book prints it: a fixed entry needs only its value."""
    return Condition(
        table=table,
        category=_CATEGORIES[table],
        group=group,
        name=name,
        printed=printed,
        low=low,
        high=low if high is None else high,
        either_sign=either_sign,
        step=step,
        scale=scale,
    )


_CATEGORIES = {
    "9-2": "Academic",
    "9-3": "Physical",
    "9-4": "Social",
    "9-12": "Melee combat",
    "9-13": "Ranged combat",
}
_HALF = Fraction(1, 2)
_ONE_AND_HALF = Fraction(3, 2)


class _Signed(TypedDict):
    either_sign: bool


_PM: _Signed = {"either_sign": True}

CONDITIONS: tuple[Condition, ...] = (
    # Table 9-2: Academic Test Modifiers
    _c("9-2", "", "Situated in comfortable surroundings", "±0 TN", 0),
    _c("9-2", "Memory Loss", "Suffers from mind-altering drug/toxin", "+5 to +10 TN", 5, 10),
    _c("9-2", "Memory Loss", "Suffers from selective amnesia", "+3 to +9 TN", 3, 9),
    _c("9-2", "Memory Loss", "Suffers from near total amnesia", "+10 to +15 TN", 10, 15),
    _c("9-2", "Distractions", "Engaged in a life-threatening situation", "+5 to +10 TN", 5, 10),
    _c("9-2", "Distractions", "Affected by loud noise/talking", "+3 to +6 TN", 3, 6),
    _c(
        "9-2",
        "Distractions",
        "Affected by environmental factors",
        "½ physical modifier",
        SCALED_MIN,
        SCALED_MAX,
        scale=_HALF,
    ),
    # Table 9-3: Physical Test Modifiers
    _c("9-3", "Visibility & Lighting", "Clear visibility/ideal lighting", "±0 TN", 0),
    _c("9-3", "Visibility & Lighting", "Dim lighting", "±2 TN", 2, **_PM),
    _c("9-3", "Visibility & Lighting", "Darkness", "±5 TN", 5, **_PM),
    _c("9-3", "Visibility & Lighting", "Light smoke/fog", "±2 TN", 2, **_PM),
    _c("9-3", "Visibility & Lighting", "Heavy smoke/fog", "±5 TN", 5, **_PM),
    _c("9-3", "Visibility & Lighting", "Light rain", "±1 TN", 1, **_PM),
    _c("9-3", "Visibility & Lighting", "Heavy rain", "±3 TN", 3, **_PM),
    _c("9-3", "Extreme Temperature", "Temperate", "±0 TN", 0),
    _c("9-3", "Extreme Temperature", "Uncomfortable heat/cold", "±2 TN", 2, **_PM),
    _c("9-3", "Extreme Temperature", "Extreme heat/cold", "±5 TN", 5, **_PM),
    _c("9-3", "Terrain", "Flat/unobstructed terrain", "±0 TN", 0),
    _c("9-3", "Terrain", "Uneven/lightly obstructed terrain", "±3 TN", 3, **_PM),
    _c("9-3", "Terrain", "Broken/heavily obstructed terrain", "±5 to ±10 TN", 5, 10, **_PM),
    _c("9-3", "Terrain", "On moving ship/boat", "+2 TN", 2),
    _c("9-3", "Terrain", "Slick surface/uncertain footing", "+3 TN", 3),
    _c("9-3", "Terrain", "Slippery surface/poor footing", "+7 TN", 7),
    _c("9-3", "Terrain", "Disadvantageous position", "+3 to +9 TN", 3, 9),
    _c("9-3", "Terrain", "Advantageous position", "-3 to -7 TN", -7, -3),
    _c("9-3", "Equipment Modifiers", "Adequately equipped", "±0 TN", 0),
    _c("9-3", "Equipment Modifiers", "Inadequately equipped", "+5 TN", 5),
    _c("9-3", "Equipment Modifiers", "Using jury-rigged/makeshift tools", "+10 TN", 10),
    _c("9-3", "Equipment Modifiers", "Totally unequipped", "+15 TN", 15),
    _c("9-3", "Equipment Modifiers", "Well-equipped/using superior tools", "-5 TN", -5),
    # Sizes run from Miniscule to Titanic: ten steps, so at most nine levels apart.
    _c(
        "9-3",
        "Other Modifiers",
        "Difference in opponent's Size",
        "±2 TN/level of difference",
        2,
        18,
        step=2,
        **_PM,
    ),
    _c("9-3", "Other Modifiers", "Using off-hand", "+8 TN", 8),
    # Table 9-4: Social Test Modifiers
    _c("9-4", "", "Target is loyal/devoted", "-10 TN", -10),
    _c("9-4", "", "Target is friendly/pacifistic", "-5 TN", -5),
    _c("9-4", "", "Target is indifferent", "±0 TN", 0),
    _c("9-4", "", "Target is aggressive/unfriendly", "+5 TN", 5),
    _c("9-4", "", "Target is hostile/violent", "+10 TN", 10),
    _c("9-4", "", "Target speaks a different native language", "±0 to +15 TN", 0, 15),
    _c("9-4", "", "Target is of the same country", "±0 to -5 TN", -5, 0),
    _c("9-4", "", "Target and character of different race", "+0 to +10 TN", 0, 10),
    _c(
        "9-4",
        "",
        "Environmental factors making communication difficult",
        "1.5 x physical modifier, rounded up",
        SCALED_MIN,
        SCALED_MAX,
        scale=_ONE_AND_HALF,
    ),
    _c("9-4", "", "Demonstrates evidence or sincerity", "-3 to -9 TN", -9, -3),
    # Table 9-12: Melee Combat Modifiers
    _c("9-12", "Situation", "Defender prone (melee)", "-5 TN", -5),
    _c("9-12", "Situation", "Attacker in advantageous position (melee)", "-1 to -3 TN", -3, -1),
    _c("9-12", "Situation", "Defender in advantageous position (melee)", "+1 to +3 TN", 1, 3),
    _c("9-12", "Situation", "Off-hand penalty", "+8 TN", 8),
    # Table 9-13: Ranged Combat Modifiers
    _c("9-13", "Range Category", "Point blank range", "-2 TN", -2),
    _c("9-13", "Range Category", "Short range", "±0 TN", 0),
    _c("9-13", "Range Category", "Medium range", "+2 TN", 2),
    _c("9-13", "Range Category", "Long range", "+4 TN", 4),
    _c("9-13", "Range Category", "Extended range", "+6 TN", 6),
    # 6 + 2X for X = 1 … 10.
    _c("9-13", "Range Category", "Extended +X range", "6+(X*2) TN", 8, 26, step=2),
    _c("9-13", "Situation", "Defender prone (ranged)", "+5 TN", 5),
    _c("9-13", "Situation", "Attacker in advantageous position (ranged)", "-1 to -5 TN", -5, -1),
    _c("9-13", "Situation", "Defender in advantageous position (ranged)", "+1 to +5 TN", 1, 5),
    _c("9-13", "Situation", "Attacker on horseback", "+4 TN", 4),
    _c("9-13", "Target Motion", "Pace is 3-6 yd/round", "+2 TN", 2),
    _c("9-13", "Target Motion", "Pace is 7-12 yd/round", "+4 TN", 4),
)

TABLES: dict[str, str] = dict(_CATEGORIES)

_BY_KEY: dict[str, Condition] = {}
for _condition in CONDITIONS:
    _key = _condition.name.casefold()
    if _key in _BY_KEY:  # pragma: no cover - guarded by a test as well
        raise RuntimeError(f"duplicate condition name {_condition.name!r}")
    _BY_KEY[_key] = _condition


def conditions_in(table: str) -> tuple[Condition, ...]:
    """The entries of one table ("9-2" …), in the seed's order."""
    if table not in _CATEGORIES:
        raise ConditionError(
            N_("There is no table {table}; tables: {tables}."),
            table=repr(table),
            tables=", ".join(_CATEGORIES),
        )
    return tuple(c for c in CONDITIONS if c.table == table)


def find_condition(name: str) -> Condition:
    """The entry called ``name``: exact (any case), else the one entry it starts or is in."""
    wanted = " ".join(name.split()).casefold()
    if not wanted:
        raise ConditionError(N_("A condition needs a name."))
    if wanted in _BY_KEY:
        return _BY_KEY[wanted]
    for test in (str.startswith, str.__contains__):
        matches = [c for key, c in _BY_KEY.items() if test(key, wanted)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            shown = ", ".join(c.name for c in matches[:5])
            raise ConditionError(
                N_("'{name}' could be several conditions: {shown}."), name=name, shown=shown
            )
    close = difflib.get_close_matches(wanted, list(_BY_KEY), n=3, cutoff=0.5)
    if close:
        raise ConditionError(
            N_("Unknown condition '{name}'. Did you mean {close}?"),
            name=name,
            close=", ".join(_BY_KEY[k].name for k in close),
        )
    raise ConditionError(N_("Unknown condition '{name}'."), name=name)


# A trailing signed whole number, optionally followed by "TN": the value of the entry.
_VALUE = re.compile(r"^(?P<name>.*?)\s*(?P<value>[+\-−±]?\s*\d+)\s*(?:TN)?$", re.IGNORECASE)
_EFFECT = re.compile(r"\s+(?P<effect>hinders?|helps?)$", re.IGNORECASE)
_REMARK = re.compile(r"\([^()]*\)\s*$")


def parse_condition(text: str) -> AppliedCondition:
    """Read one condition as written by a user or by :attr:`AppliedCondition.text`.

    Accepted: ``Darkness +5`` / ``Darkness -5`` (hinders / helps), ``Darkness hinders``,
    ``Darkness helps``, ``Totally unequipped`` (a single printed value). A trailing remark in
    parentheses is ignored unless it is part of the name (``Defender prone (melee)``).
    """
    try:
        return _parse_one(text)
    except ConditionError:
        stripped = _REMARK.sub("", text).strip()
        if stripped and stripped != text.strip():
            try:
                return _parse_one(stripped)
            except ConditionError:
                pass
        raise


def _parse_one(text: str) -> AppliedCondition:
    item = " ".join(text.split())
    effect: str | None = None
    match = _EFFECT.search(item)
    if match:
        effect = match.group("effect").casefold().rstrip("s")
        item = item[: match.start()]
    name, value = item, None
    match = _VALUE.match(item)
    if match and match.group("name"):
        raw = match.group("value").replace(" ", "").replace("−", "-")
        if raw.startswith("±"):
            raise ConditionError(
                N_("'{text}': say '+' when it hinders this test, '-' when it helps."), text=text
            )
        name, value = match.group("name"), int(raw)
    condition = find_condition(name)
    if effect is not None:
        if not condition.either_sign:
            raise ConditionError(
                N_("{name} is {printed} whatever the test; give no '{effect}'."),
                name=condition.name,
                printed=condition.printed,
                effect=effect,
            )
        if value is None:
            if condition.low != condition.high:
                raise ConditionError(
                    N_("{name} needs a value: {hint}."), name=condition.name, hint=condition.hint()
                )
            value = condition.low
        value = abs(value) if effect == "hinder" else -abs(value)
    elif value is not None and condition.either_sign and value > 0 and "+" not in text:
        # A bare "Darkness 5" is ambiguous for a "±" entry: the sign is the whole point.
        raise ConditionError(N_("{name}: {hint}."), name=condition.name, hint=condition.hint())
    return condition.apply(value)


def parse_conditions(text: str | None) -> tuple[AppliedCondition, ...]:
    """Read a list of conditions separated by commas, semicolons or new lines."""
    if not text or not text.strip():
        return ()
    items = [part.strip() for part in re.split(r"[,;\n]", text) if part.strip()]
    if len(items) > MAX_CONDITIONS:
        raise ConditionError(
            N_("At most {most} conditions per test (got {count})."),
            most=MAX_CONDITIONS,
            count=len(items),
        )
    return tuple(parse_condition(item) for item in items)


def condition_options() -> Iterator[str]:
    """Every canonical spelling a user can pick, in table order (for autocomplete)."""
    for condition in CONDITIONS:
        if condition.fixed:
            yield condition.name
        else:
            for value in condition.values():
                yield f"{condition.name} {value:+d}"


def tn_change(conditions: Sequence[AppliedCondition]) -> int:
    """The total TN change of the chosen conditions."""
    return sum(c.tn for c in conditions)
