"""Hogwarts 1990: rolls and their exact chances, cached and uncached.

Run from the project root: ``python -m benchmarks.hogwarts1990``. The uncached rows clear
every cache before each call, so they measure the enumeration itself (400 cases, or 8000
with advantage).
"""

from __future__ import annotations

from benchmarks._timing import microseconds, print_table
from engine.dice import SeededDice
from engine.systems import hogwarts1990 as h90


def _uncached(fn):
    def run() -> object:
        h90.clear_caches()
        return fn()

    return run


def main() -> None:
    dice = SeededDice(1990)
    cases = [
        ("roll standard +5 vs 15", lambda: h90.roll(dice, bonus=5, difficulty=15)),
        (
            "roll stress + advantage +5 vs 15",
            lambda: h90.roll(dice, bonus=5, difficulty=15, stress=True, advantage=True),
        ),
        ("opposed +5 vs +3", lambda: h90.opposed(dice, a_bonus=5, b_bonus=3)),
        ("chance standard (cached)", lambda: h90.chance(bonus=5, difficulty=15)),
        ("chance standard (uncached)", _uncached(lambda: h90.chance(bonus=5, difficulty=15))),
        (
            "chance advantage (uncached)",
            _uncached(lambda: h90.chance(bonus=5, difficulty=15, advantage=True)),
        ),
        ("opposed odds (cached)", lambda: h90.opposed_odds(a_bonus=5, b_bonus=3)),
        (
            "opposed odds, both advantage (uncached)",
            _uncached(lambda: h90.opposed_odds(a_bonus=5, a_advantage=True, b_advantage=True)),
        ),
    ]
    rows = []
    for name, fn in cases:
        us = microseconds(fn, min_seconds=0.2)
        rows.append((name, us, 1e6 / us))
    print_table(["operation", "µs per call", "calls per second"], rows)

    print()
    for stress, advantage in ((False, False), (True, False), (False, True), (True, True)):
        odds = h90.odds(bonus=5, difficulty=15, stress=stress, advantage=advantage)
        print(
            f"+5 vs 15, stress={stress!s:5} advantage={advantage!s:5}: "
            f"success {odds.success:.4f}, exceptional {odds.exceptional:.4f}, "
            f"critical failure {odds.critical_failure:.4f}"
        )


if __name__ == "__main__":
    main()
