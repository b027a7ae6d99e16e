"""Infinity CodeOne: face-to-face rolls and their exact chances, cached and uncached.

Run from the project root: ``python -m benchmarks.infinity``. The uncached rows clear every
cache before each call, so they measure the counting itself (the issue asks for Burst 6
against Burst 6 in under 50 ms).
"""

from __future__ import annotations

from benchmarks._timing import microseconds, print_table
from engine.dice import SeededDice
from engine.systems import infinity


def _uncached(fn):
    def run() -> object:
        infinity.clear_caches()
        return fn()

    return run


def main() -> None:
    dice = SeededDice(2026)
    b3_vs_b1 = {"a_attribute": 12, "a_burst": 3, "b_attribute": 11, "b_burst": 1}
    b6_vs_b6 = {"a_attribute": 13, "a_burst": 6, "b_attribute": 12, "b_burst": 6}
    b10_vs_b10 = {"a_attribute": 23, "a_burst": 10, "b_attribute": 16, "b_burst": 10}

    cases = [
        ("normal roll B3, SV 12", lambda: infinity.normal(dice, attribute=12, burst=3)),
        ("face to face roll B3 vs B1", lambda: infinity.face_to_face(dice, **b3_vs_b1)),
        ("face to face roll B6 vs B6", lambda: infinity.face_to_face(dice, **b6_vs_b6)),
        ("chance normal B3 (cached)", lambda: infinity.chance(attribute=12, burst=3)),
        ("chance normal B3 (uncached)", _uncached(lambda: infinity.chance(attribute=12, burst=3))),
        ("ftf chance B3 vs B1 (cached)", lambda: infinity.ftf_chance(**b3_vs_b1)),
        ("ftf chance B3 vs B1 (uncached)", _uncached(lambda: infinity.ftf_chance(**b3_vs_b1))),
        ("ftf chance B6 vs B6 (uncached)", _uncached(lambda: infinity.ftf_chance(**b6_vs_b6))),
        ("ftf chance B10 vs B10 (uncached)", _uncached(lambda: infinity.ftf_odds(**b10_vs_b10))),
        ("save 3 hits", lambda: infinity.save(dice, damage=13, armor=3, cover=True, hits=3)),
        (
            "save odds 3 hits (uncached)",
            _uncached(lambda: infinity.save_odds(damage=13, armor=3, cover=True, hits=3)),
        ),
    ]
    rows = []
    for name, fn in cases:
        us = microseconds(fn, min_seconds=0.2)
        rows.append((name, us, 1e6 / us))
    print_table(["operation", "µs per call", "calls per second"], rows)

    odds = infinity.ftf_odds(**b3_vs_b1)
    print()
    print(
        "B3 SV 12 vs B1 SV 11: "
        f"A wins {odds.a_wins:.4f}, B wins {odds.b_wins:.4f}, neither {odds.neither:.4f}; "
        f"expected hits A {odds.a_expected_hits:.4f}, B {odds.b_expected_hits:.4f}"
    )


if __name__ == "__main__":
    main()
