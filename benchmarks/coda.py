"""CODA: test and damage rolls against a bare d20 roll, and the exact chances.

Run from the project root: ``python -m benchmarks.coda``. The issue's goals: a test roll
costs no more than ``d20.roll("2d6+3")``; a cached ``chance`` is under 20 µs and an uncached
one under 2 ms. The uncached rows clear every cache before each call, so they measure the
lookup in the tail table itself; the table (the rolling-6s series summed until the rest is
below 1e-12) is built once at import, and its row shows what that costs.
"""

from __future__ import annotations

import d20

from benchmarks._timing import microseconds, print_table
from engine.dice import SecureDice, SeededDice
from engine.systems import coda
from engine.systems.coda import parse_conditions


def _uncached(fn):
    def run() -> object:
        coda.clear_caches()
        return fn()

    return run


def _build_tables() -> object:
    coda.dice_distribution()
    return coda.build_tail()


def main() -> None:
    seeded = SeededDice(2026)
    secure = SecureDice()
    darkness = parse_conditions("Darkness +5, Heavy rain -3")
    helpers = [2, 1, 0, -1]
    cases = [
        ("d20.roll('2d6+3') (the yardstick)", lambda: d20.roll("2d6+3"), "—"),
        ("test, SecureDice", lambda: coda.test(secure, modifier=3, tn=15), "≤ d20"),
        ("test, SeededDice", lambda: coda.test(seeded, modifier=3, tn=15), "≤ d20"),
        (
            "test with 2 conditions, ones=failure",
            lambda: coda.test(seeded, modifier=3, tn=15, ones="failure", conditions=darkness),
            "≤ d20",
        ),
        ("damage 3d6+2", lambda: coda.damage(seeded, count=3, modifier=2), "≤ d20"),
        ("opposed test", lambda: coda.opposed(seeded, a_modifier=3, b_modifier=4), ""),
        ("combined test, 4 helpers", lambda: coda.combined(seeded, tn=15, helpers=helpers), ""),
        ("chance (cached)", lambda: coda.chance(modifier=3, tn=15, penalty=1), "< 20 µs"),
        (
            "chance (uncached)",
            _uncached(lambda: coda.chance(modifier=3, tn=15, penalty=1)),
            "< 2000 µs",
        ),
        ("degree_chances (cached)", lambda: coda.degree_chances(modifier=3, tn=15), "< 20 µs"),
        (
            "degree_chances (uncached)",
            _uncached(lambda: coda.degree_chances(modifier=3, tn=15, ones="failure")),
            "< 2000 µs",
        ),
        (
            "opposed_chances (uncached)",
            _uncached(lambda: coda.opposed_chances(a_modifier=3, b_modifier=4)),
            "< 2000 µs",
        ),
        (
            "combined_chance, 4 helpers (uncached)",
            _uncached(lambda: coda.combined_chance(tn=15, helpers=helpers)),
            "< 2000 µs",
        ),
        ("build the tail table (once, at import)", _build_tables, ""),
    ]
    rows = []
    for name, fn, goal in cases:
        us = microseconds(fn, min_seconds=0.2)
        rows.append((name, us, 1e6 / us, goal))
    print_table(["operation", "µs per call", "calls per second", "goal"], rows)


if __name__ == "__main__":
    main()
