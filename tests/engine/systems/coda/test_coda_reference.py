"""Seed 000's reference tables (9-1, 9-5 … 9-13): word for word, and what they compute."""

from __future__ import annotations

import re

import pytest

from engine.systems import coda
from engine.systems.coda import ReferenceError, burdens, conditions_in, find_table, titanic_walk
from tests.engine.systems.coda.test_coda_tables import SEED


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def seed() -> str:
    if SEED is None:  # pragma: no cover - the seeds live beside the project, not in it
        pytest.skip("seed text not available")
    return _flat(SEED.read_text(encoding="utf-8"))


def test_the_tables_asked_for_and_only_those() -> None:
    numbers = [t.number for t in coda.REFERENCE_TABLES]
    assert numbers == ["9-1", *(f"9-{n}" for n in range(5, 14))]


@pytest.mark.parametrize("table", coda.REFERENCE_TABLES, ids=lambda t: t.number)
def test_every_table_is_the_seeds_text(seed: str, table) -> None:
    assert f"Table {table.number}: {table.title}" in seed
    assert " ".join(table.columns) in seed
    for section in table.sections:
        if section.heading:
            assert section.heading in seed
        for row in section.rows:
            assert " ".join(row) in seed, row
    for note in table.notes:
        assert note in seed


def test_table_9_1_is_the_difficulties_the_tests_use() -> None:
    rows = find_table("9-1").rows
    named = [(d.label, str(d.tn)) for d in coda.Difficulty if d.tn <= 25]
    assert list(rows) == named


def test_tables_9_12_and_9_13_agree_with_the_modifiers_a_test_applies() -> None:
    for number in ("9-12", "9-13"):
        shown = {name.casefold(): printed for name, printed in find_table(number).rows}
        applied = {
            re.sub(r" \((melee|ranged)\)$", "", c.name).casefold(): c.printed
            for c in conditions_in(number)
        }
        assert shown == applied


@pytest.mark.parametrize(
    ("name", "number"),
    [
        ("9-7", "9-7"),
        ("Table 9-13", "9-13"),
        ("table 9-13: Ranged Combat Modifiers", "9-13"),
        ("  encumbrance ", "9-8"),
        ("Opposed", "9-6"),
        ("9-1", "9-1"),
    ],
)
def test_find_a_table(name: str, number: str) -> None:
    assert find_table(name).number == number


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("9-2", "no reference table `9-2`; tables: 9-1, 9-5"),
        ("dragons", "no reference table `dragons`"),
        ("combat", "Several tables match `combat`"),
        ("", "no reference table"),
    ],
)
def test_unknown_or_ambiguous_tables_are_explained(name: str, message: str) -> None:
    with pytest.raises(ReferenceError, match=message):
        find_table(name)


def test_titanic_plus_x() -> None:
    assert titanic_walk(0) == (180, 200)  # plain Titanic
    assert titanic_walk(2) == (540, 600)  # 180 + 2 × 180, 200 + 2 × 200
    for bad in (-1, coda.MAX_TITANIC_X + 1, 1.5, True):
        with pytest.raises(ReferenceError, match="Titanic"):
            titanic_walk(bad)  # type: ignore[arg-type]


def test_encumbrance_for_a_strength() -> None:
    rows = burdens(3)
    assert [(b.above, b.up_to) for b in rows] == [
        (None, 15),
        (15, 30),  # ×10 is Moderate: the rows overlap at ×10 and the first one takes it
        (30, 60),
        (60, 90),
        (90, None),
    ]
    assert rows[2].penalty == "½ normal pace, rounded down; cannot Run"
    with pytest.raises(ReferenceError, match="Strength"):
        burdens(0)
