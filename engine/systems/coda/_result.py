"""The result of one CODA test (RULES.md §1), in a module of its own so that both the rolls
(:mod:`engine.systems.coda`) and the extended tests that fold them in
(:mod:`engine.systems.coda._extended`) can name it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.systems.coda._degrees import TEST_DICE, Degree, Ones
from engine.systems.coda._tables import AppliedCondition


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
