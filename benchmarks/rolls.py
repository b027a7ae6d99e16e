"""``/roll``'s engine path against bare ``d20.roll`` on the same expressions, in the same run.

Goal: our path costs at most 1.3× bare d20. Run: ``python -m benchmarks.rolls``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import d20
import d20.expression

from benchmarks._timing import per_second, print_table
from engine.dice import SecureDice, SeededDice
from engine.notation import roll_expression

EXPRESSIONS = ("1d20", "2d6+3", "4d6kh3", "10d6e6")


@contextmanager
def plain_d20() -> Iterator[None]:
    """Bare d20 exactly as shipped: its own ``random`` module, not our router."""
    router = d20.expression.random
    d20.expression.random = random
    try:
        yield
    finally:
        d20.expression.random = router


def main() -> None:
    seeded, secure = SeededDice(1), SecureDice()
    rows = []
    for expression in EXPRESSIONS:
        with plain_d20():
            # .total: d20 evaluates lazily, and every caller needs at least the total.
            bare = per_second(lambda e=expression: d20.roll(e).total)
        ours_seeded = per_second(lambda e=expression: roll_expression(seeded, e))
        ours_secure = per_second(lambda e=expression: roll_expression(secure, e))
        rows.append(
            (
                expression,
                bare,
                ours_seeded,
                ours_secure,
                f"{bare / ours_seeded:.2f}×",
                f"{bare / ours_secure:.2f}×",
            )
        )
    print_table(
        (
            "expression",
            "bare d20 rolls/s",
            "ours (Seeded) rolls/s",
            "ours (Secure) rolls/s",
            "cost vs d20 (Seeded)",
            "cost vs d20 (Secure)",
        ),
        rows,
    )
    print("\nGoal: cost ≤ 1.30× bare d20.")


if __name__ == "__main__":
    main()
