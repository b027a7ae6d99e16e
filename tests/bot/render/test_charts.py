"""Charts: within Discord's limits, with safe file names. (Drawn in a worker process, cached
by their inputs: tests/bot/workers/test_pool.py.)"""

from __future__ import annotations

import itertools
import struct
from pathlib import Path

import pytest

from bot.actor import Actor
from bot.render import charts
from bot.render.charts import Chart, Panel, Series, file_name

ACTOR = Actor(user_id=1, channel_id=10, guild_id=100, gm_role=True)

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


def _label_boxes(figure: object) -> list[list[object]]:
    """Each panel's visible x tick labels' boxes, left to right (as drawn)."""
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    return [
        sorted(
            (
                t.get_window_extent(renderer)
                for t in axes.get_xticklabels()
                if t.get_visible() and t.get_text()
            ),
            key=lambda box: box.x0,
        )
        for axes in figure.axes  # type: ignore[attr-defined]
    ]


@pytest.mark.parametrize("language", ["en", "es"])
async def test_odds_tick_labels_never_overlap(language: str, tmp_path: Path) -> None:
    """/odds coda's seven degrees and /odds rps's levels: saved, and no two label boxes meet."""
    from bot.i18n import _, use_language
    from bot.render.odds import odds_chart
    from bot.services import odds
    from engine.systems import coda

    degrees = coda.degree_chances(modifier=3, tn=15)  # what /odds coda charts, by degree
    with use_language(language):
        tables = [
            odds.OddsTable(
                "coda",
                "CODA 2d6 +3 vs TN 15",
                tuple(_(degree.label) for degree in degrees),
                (odds.Series("chance", tuple(degrees.values())),),
            ),
            await odds.rps_odds(base=12),
            await odds.rps_odds(base=60),
            await odds.drama_odds(ACTOR, base=6, resistance=2, drama_dice=1),
        ]
    for index, table in enumerate(tables):
        figure = charts._figure(odds_chart(table))
        figure.savefig(tmp_path / f"{language}-{index}.png")  # the test's output, to look at
        for boxes in _label_boxes(figure):
            assert len(boxes) >= 2, table.title
            for left, right in itertools.pairwise(boxes):
                assert left.x1 <= right.x0, (table.title, left, right)  # type: ignore[attr-defined]


async def test_odds_rps_keeps_the_distance_between_levels() -> None:
    from bot.services import odds

    table = await odds.rps_odds(base=12)
    assert table.categories[-7:] == tuple(f"SL {level}" for level in range(9, 16))
    assert table.series[0].values[-6:-1] == (0.0,) * 5  # SL 10 to 14: no roll gives them
