"""RPS checks and Drama in History pools: rolls and exact chances, cached and uncached.

Run from the project root: ``python -m benchmarks.rps_drama``. The uncached rows clear every
cache before each call, so they measure the counting / the series itself.
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks._timing import microseconds, print_table
from engine.dice import SeededDice
from engine.systems import drama, rps


def _uncached(clear: Callable[[], None], fn: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        clear()
        return fn()

    return run


def main() -> None:
    dice = SeededDice(2026)
    parties = [("Johnny", 12), ("Franky", 9), ("Richard", 11), ("Sam", 12)]
    task = rps.start_sustained(goal=1000)
    small = {"base": 5, "resistance": 2, "drama": 1}
    large = {"base": 20, "resistance": 15, "drama": 10}
    largest = {"base": 60, "resistance": 60, "drama": 60}
    cases: list[tuple[str, Callable[[], object]]] = [
        ("rps check Base 12", lambda: rps.check(dice, base=12)),
        ("rps resisted, 4 parties", lambda: rps.resisted(dice, parties=parties)),
        ("rps sustained check", lambda: rps.sustained_check(dice, task, base=12)),
        ("rps chance (cached)", lambda: rps.chance(base=12)),
        ("rps chance (uncached)", _uncached(rps.clear_caches, lambda: rps.chance(base=12))),
        (
            "rps resisted chances, 4 parties (uncached)",
            _uncached(rps.clear_caches, lambda: rps.resisted_chances(parties=parties)),
        ),
        (
            "rps resisted chances, 5 parties (uncached)",
            _uncached(
                rps.clear_caches,
                lambda: rps.resisted_chances(parties=[*parties, ("Joe", 15)]),
            ),
        ),
        ("drama test 5Bd 2Rd 1Dd", lambda: drama.test(dice, **small)),
        ("drama test 20Bd 15Rd 10Dd", lambda: drama.test(dice, **large)),
        ("drama test 60/60/60 criticals", lambda: drama.test(dice, **largest, criticals=True)),
        (
            "drama skill pools + penalty",
            lambda: drama.skill_pools(3, 2, difficulty="Difficult", penalty=2),
        ),
        ("drama chance 5/2/1 (cached)", lambda: drama.chance(**small)),
        (
            "drama chance 5/2/1 (uncached)",
            _uncached(drama.clear_caches, lambda: drama.chance(**small)),
        ),
        (
            "drama chance 5/2/1 crit (uncached)",
            _uncached(drama.clear_caches, lambda: drama.chance(**small, criticals=True)),
        ),
        (
            "drama chance 20/15/10 (uncached)",
            _uncached(drama.clear_caches, lambda: drama.chance(**large)),
        ),
        (
            "drama chance 20/15/10 crit (uncached)",
            _uncached(drama.clear_caches, lambda: drama.chance(**large, criticals=True)),
        ),
        (
            "drama chance 60/60/60 crit (uncached)",
            _uncached(drama.clear_caches, lambda: drama.chance(**largest, criticals=True)),
        ),
        (
            "drama opposed chances 6/2/1 vs 5/1/2",
            _uncached(
                drama.clear_caches,
                lambda: drama.opposed_chances(a=drama.Pools(6, 2, 1), b=drama.Pools(5, 1, 2)),
            ),
        ),
        (
            "drama together chances 6/2/1 + 2 × 4/2",
            _uncached(
                drama.clear_caches,
                lambda: drama.together_chances(
                    pools=[drama.Pools(6, 2, 1), drama.Pools(4, 2), drama.Pools(4, 2)]
                ),
            ),
        ),
        (
            "drama together chances 11 × 60 dice crit",
            _uncached(
                drama.clear_caches,
                lambda: drama.together_chances(
                    pools=[drama.Pools(60, 60, 60)] + [drama.Pools(60, 60)] * 10, criticals=True
                ),
            ),
        ),
    ]
    rows = []
    for name, fn in cases:
        us = microseconds(fn, min_seconds=0.2)
        rows.append((name, us, 1e6 / us))
    print_table(["operation", "µs per call", "calls per second"], rows)


if __name__ == "__main__":
    main()
