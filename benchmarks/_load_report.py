"""What ``benchmarks/e2e_load.py`` prints: each target's runs, their spread, Narrator against
the floors of the same run, and the goals of issue 31 as PASS or FAIL.

The goals are ratios against the bare floor measured minutes apart on the same machine,
because absolute milliseconds move 2-3x from one machine (or one neighbour's load) to the
next; the p99 and 3-second goals are Narrator's own, at rates set by its own served maximum.
"""

from __future__ import annotations

import math
import statistics

from benchmarks._load_run import HALF, OVERLOAD, RATE, RateResult, served_maximum
from benchmarks._timing import print_table

NARRATOR, BARE, STORAGE = "narrator", "bare floor", "storage floor"
CPU_RATIO_GOAL = 2.0  # Narrator's CPU per command <= 2x the bare floor's
SERVED_SHARE_GOAL = 0.5  # Narrator's served maximum >= 50% of the bare floor's
P99_GOAL_MS = 50.0  # at half of Narrator's served maximum

HEADERS = [
    "rate/s",
    "phase",
    "run",
    "sent",
    "served/s",
    "p50 ms",
    "p99 ms",
    "max ms",
    "bot CPU ms/cmd",
    "load CPU ms/cmd",
    "errors",
    "very busy",
    ">3s",
    "peak RSS MiB",
]


def print_runs(rows: list[RateResult]) -> None:
    print_table(
        HEADERS,
        [
            (
                r.rate,
                r.phase,
                r.run,
                r.sent,
                r.served_per_s,
                r.p50_ms,
                r.p99_ms,
                r.max_ms,
                r.cpu_ms,
                r.load_cpu_ms,
                r.errors,
                r.busy,
                r.late,
                r.peak_rss_mib,
            )
            for r in rows
        ],
    )


def spread(values: list[float]) -> str:
    """min / median / max, or the one value."""
    if len(values) == 1:
        return f"{values[0]:,.1f}"
    return " / ".join(f"{v:,.1f}" for v in (min(values), statistics.median(values), max(values)))


def print_spread(rows: list[RateResult]) -> None:
    groups = sorted({(r.phase != RATE, r.rate, r.phase) for r in rows})
    table = []
    for _, rate, phase in groups:
        group = [r for r in rows if r.rate == rate and r.phase == phase]
        table.append(
            (
                rate,
                phase,
                len(group),
                spread([r.served_per_s for r in group]),
                spread([r.p99_ms for r in group]),
                spread([r.cpu_ms for r in group]),
                spread([r.load_cpu_ms for r in group]),
                sum(r.busy for r in group),
                sum(r.late for r in group),
            )
        )
    print_table(
        [
            "rate/s",
            "phase",
            "runs",
            "served/s min/med/max",
            "p99 ms min/med/max",
            "bot CPU ms/cmd",
            "load CPU ms/cmd",
            "very busy",
            ">3s",
        ],
        table,
    )


def comparison_rate(targets: dict[str, list[RateResult]]) -> int | None:
    """The plan's rate the CPU per command is compared at: the highest that Narrator served
    in full (no "very busy", >= 95% of the offered rate), else its lowest."""
    rows = [r for r in targets.get(NARRATOR, []) if r.phase == RATE]
    rates = sorted({r.rate for r in rows})
    full = [
        rate
        for rate in rates
        if all(r.busy == 0 and r.served_per_s >= 0.95 * rate for r in rows if r.rate == rate)
    ]
    if full:
        return full[-1]
    return rates[0] if rates else None


def cpu_at(rows: list[RateResult], rate: int | None) -> float:
    values = [r.cpu_ms for r in rows if r.phase == RATE and r.rate == rate]
    return statistics.median(values) if values else math.nan


def p99_at(rows: list[RateResult], rate: int | None) -> float:
    values = [r.p99_ms for r in rows if r.phase == RATE and r.rate == rate]
    return statistics.median(values) if values else math.nan


def print_comparison(targets: dict[str, list[RateResult]]) -> None:
    """Narrator beside each floor: CPU per command and p99 at the comparison rate, served
    maximum; and Narrator's ratio to each."""
    rate = comparison_rate(targets)
    narrator = targets.get(NARRATOR, [])
    table = []
    for label, rows in targets.items():
        cpu, served, p99 = cpu_at(rows, rate), served_maximum(rows), p99_at(rows, rate)
        table.append(
            (
                label,
                cpu,
                _ratio(cpu_at(narrator, rate), cpu) if label != NARRATOR else "",
                served,
                _ratio(served_maximum(narrator), served) if label != NARRATOR else "",
                p99,
                _ratio(p99_at(narrator, rate), p99) if label != NARRATOR else "",
            )
        )
    print(f"Narrator against the floors (CPU and p99 at {rate}/s, medians of its runs):")
    print_table(
        [
            "target",
            "CPU ms/cmd",
            "Narrator ÷",
            "served max/s",
            "Narrator ÷",
            "p99 ms",
            "Narrator ÷",
        ],
        table,
    )


def _ratio(numerator: float, denominator: float) -> str:
    if not denominator or math.isnan(numerator) or math.isnan(denominator):
        return "n/a"
    return f"{numerator / denominator:.2f}x"


def goals(targets: dict[str, list[RateResult]]) -> list[tuple[str, bool | None, str]]:
    """Issue 31's goals, judged from this run: (goal, met or None when not measured, why)."""
    narrator, bare = targets.get(NARRATOR, []), targets.get(BARE, [])
    verdicts: list[tuple[str, bool | None, str]] = []
    rate = comparison_rate(targets)
    cpu, floor_cpu = cpu_at(narrator, rate), cpu_at(bare, rate)
    goal = f"CPU per command <= {CPU_RATIO_GOAL:g}x the bare floor's"
    if math.isnan(cpu) or math.isnan(floor_cpu):
        verdicts.append((goal, None, "not measured"))
    else:
        verdicts.append(
            (
                goal,
                cpu <= CPU_RATIO_GOAL * floor_cpu,
                f"{cpu:.2f} vs {floor_cpu:.2f} ms at {rate}/s: {cpu / floor_cpu:.2f}x",
            )
        )
    served, floor_served = served_maximum(narrator), served_maximum(bare)
    goal = f"served maximum >= {SERVED_SHARE_GOAL:.0%} of the bare floor's"
    if math.isnan(served) or math.isnan(floor_served):
        verdicts.append((goal, None, "not measured"))
    else:
        verdicts.append(
            (
                goal,
                served >= SERVED_SHARE_GOAL * floor_served,
                f"{served:,.0f} vs {floor_served:,.0f}/s: {served / floor_served:.1%}",
            )
        )
    half = [r for r in narrator if r.phase == HALF]
    goal = f"p99 <= {P99_GOAL_MS:g} ms at half the served maximum"
    if half:
        worst = max(r.p99_ms for r in half)
        late = sum(r.late for r in half)
        verdicts.append(
            (
                goal,
                worst <= P99_GOAL_MS and late == 0,
                f"{half[0].rate}/s: worst p99 {worst:,.1f} ms of {len(half)} run(s), {late} >3s",
            )
        )
    else:
        verdicts.append((goal, None, "not run (--no-overload)"))
    overload = [r for r in narrator if r.phase == OVERLOAD]
    goal = "0 past 3 s at 2x the served maximum"
    if overload:
        late = sum(r.late for r in overload)
        busy = sum(r.busy for r in overload)
        verdicts.append(
            (goal, late == 0, f"{overload[0].rate}/s: {late} past 3 s, {busy} told 'very busy'")
        )
    else:
        verdicts.append((goal, None, "not run (--no-overload)"))
    return verdicts


def print_goals(backend: str, targets: dict[str, list[RateResult]]) -> None:
    print(f"\n{backend}: goals")
    for goal, met, why in goals(targets):
        mark = "PASS" if met else ("n/a " if met is None else "FAIL")
        print(f"  {mark}  {goal}: {why}")
