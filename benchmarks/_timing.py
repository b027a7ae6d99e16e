"""Shared timing helpers for the benchmark scripts: one way to measure, one way to print."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence


def per_second(fn: Callable[[], object], *, min_seconds: float = 0.3, repeats: int = 3) -> float:
    """Best-of-``repeats`` calls per second of ``fn``, each run lasting at least ``min_seconds``."""
    # Calibrate the batch size so the timer's own cost is negligible.
    batch = 1
    while True:
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= 0.02:
            break
        batch *= 4
    runs = max(1, int(min_seconds / elapsed * batch))
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(runs):
            fn()
        elapsed = time.perf_counter() - start
        best = max(best, runs / elapsed)
    return best


def microseconds(fn: Callable[[], object], **kwargs: float) -> float:
    """Mean microseconds per call of ``fn`` (the inverse of :func:`per_second`)."""
    return 1e6 / per_second(fn, **kwargs)


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """Print rows as a plain aligned text table (the benchmarks' one output format)."""
    cells = [[str(h) for h in headers], *[[_fmt(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    for index, row in enumerate(cells):
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
        if index == 0:
            print("  ".join("-" * width for width in widths))


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.2f}" if abs(value) < 1000 else f"{value:,.0f}"
    return str(value)
