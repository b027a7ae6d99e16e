"""CODA's shared vocabulary: the dice, input bounds, error, degree table and its settings.

Both the rolls (:mod:`engine.systems.coda`) and their exact chances
(:mod:`engine.systems.coda._odds`) read margins as degrees the same way, so the table
lives once, below both; :mod:`engine.systems.coda` re-exports every name here.
"""

from __future__ import annotations

import enum

from engine.errors import N_, InputError, whole_number

DIE_SIDES = 6
TEST_DICE = 2
# What a test accepts: bounds keep every roll and every chance table small.
MODIFIER_MIN, MODIFIER_MAX = -100, 100
TN_MIN, TN_MAX = 1, 100
PENALTY_MIN, PENALTY_MAX = 0, 100


class CodaError(InputError):
    """Inputs CODA cannot roll; the message is written to be shown to the user."""


def whole(value: object, what: str, low: int, high: int) -> int:
    """:func:`engine.errors.whole_number` raising :class:`CodaError`.

    A def, not ``functools.partial``: a partial with a keyword merges dicts on every call,
    and every roll checks its inputs.
    """
    return whole_number(value, what, low, high, error=CodaError)


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
        return ONES_CAP.get(self)

    @classmethod
    def parse(cls, value: str | Ones) -> Ones:
        if value.__class__ is cls:
            return value
        found = _ONES_BY_TEXT.get(value)  # type: ignore[arg-type]
        if found is not None:
            return found
        try:
            return cls(str(value).strip().casefold())
        except ValueError:
            names = ", ".join(o.value for o in cls)
            raise CodaError(
                N_("The rolling-1s setting must be one of: {names} (got {value})."),
                names=names,
                value=repr(value),
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
    DISASTROUS_FAILURE    = (-3, N_("Disastrous Failure"),    1.5,  -2, (None, -11),
                             N_("The attempt may make matters worse."))
    COMPLETE_FAILURE      = (-2, N_("Complete Failure"),      1.0,  -1, (-10, -6),
                             N_("The attempt fails and may prevent future attempts."))
    FAILURE               = (-1, N_("Failure"),               1.0,   0, (-5, -1),
                             N_("The attempt fails but may be tried again at a cumulative −2."))
    MARGINAL_SUCCESS      = (0,  N_("Marginal Success"),      1.0,   1, (0, 0),
                             N_("The basic goal is achieved, possibly with minor setbacks."))
    COMPLETE_SUCCESS      = (1,  N_("Complete Success"),      0.75,  1, (1, 5),
                             N_("The goal is achieved with no setbacks."))
    SUPERIOR_SUCCESS      = (2,  N_("Superior Success"),      0.5,   2, (6, 10),
                             N_("Beyond expectation, possibly with a small advantage."))
    EXTRAORDINARY_SUCCESS = (3,  N_("Extraordinary Success"), 0.25,  3, (11, None),
                             N_("Far beyond expectation, with an advantage."))
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

ONES_CAP: dict[Ones, Degree] = {
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
            raise CodaError(
                N_("Unknown difficulty {name}; choose one of: {names}."),
                name=repr(name),
                names=names,
            ) from None
