"""Charts: within Discord's limits, with safe file names. (Drawn in a worker process, cached
by their inputs: tests/bot/workers/test_pool.py.)"""

from __future__ import annotations

import struct

from bot.render import charts
from bot.render.charts import Chart, Panel, Series, file_name

#: Far below Discord's 10 MiB upload limit: a chart must load fast on a phone.
MAX_BYTES = 300_000
MAX_WIDTH, MAX_HEIGHT = 1200, 900
#: Seconds a test waits for what must happen before it gives up (never reached when it works).
FAILSAFE = 60.0


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def heavy_chart(tag: str) -> Chart:
    """Larger than any command draws: two panels of 100 bars, two series each."""
    labels = tuple(str(i) for i in range(1, 101))
    series = tuple(
        Series(f"{tag} {s}", tuple(float((i * 7 + s) % 13) for i in range(100))) for s in range(2)
    )
    panel = Panel("d100", labels, series, expected=6.0)
    return Chart(f"Heavy {tag}", (panel,) * charts.MAX_PANELS)


def test_charts_fit_the_limits() -> None:
    for chart in (
        heavy_chart("size"),
        Chart("Odds", (Panel("x", ("a", "b"), (Series("p", (0.25, 0.75)),), percent=True),)),
        Chart(
            "Stacked",
            (Panel("x", ("1", "2"), (Series("a", (1, 2)), Series("b", (2, 1))), stacked=True),),
        ),
    ):
        data = charts.draw(chart)
        width, height = png_size(data)
        assert width <= MAX_WIDTH and height <= MAX_HEIGHT
        assert len(data) <= MAX_BYTES


def test_file_names_are_safe() -> None:
    assert file_name(Chart("Odds: CODA +3 vs TN 7!", ())) == "odds-coda-3-vs-tn-7.png"
    assert file_name(Chart("💥", ())) == "chart.png"
