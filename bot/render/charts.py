"""Bar charts as PNG images for embeds: dice statistics and odds, drawn for Discord's dark
theme and a phone's width.

A chart is described by frozen, picklable data (:class:`Chart`): the bot sends it to a
worker process, which calls :func:`draw` (``bot/cogs/_charts.py``); equal descriptions are
drawn once (the pool keeps recent answers). matplotlib is imported on first use (it takes
a moment) and used through its object API with the Agg backend only: no pyplot, no GUI, no
global figure state. One drawing at a time per process (a lock).
"""

from __future__ import annotations

import io
import itertools
import math
import re
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.text import Text

#: Discord's dark theme: the chat background, its text, and colours that read on both.
BACKGROUND = "#313338"
TEXT = "#dbdee1"
GRID = "#4e5058"
PALETTE = ("#5865f2", "#57f287", "#fee75c", "#ed4245", "#eb459e", "#ffffff")
EXPECTED = "#fee75c"
#: 800 × 450 pixels: Discord shows it whole on a phone, and its text stays legible there.
WIDTH_IN, HEIGHT_IN, DPI = 8.0, 4.5, 100
MAX_PANELS = 2

_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    values: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Panel:
    """One set of axes: bars per label, one group (or one stack) per series."""

    title: str
    labels: tuple[str, ...]
    series: tuple[Series, ...]
    expected: float | None = None  # a dashed line: what fair dice would give
    expected_label: str = "fair dice"  # its legend (translated by whoever builds the panel)
    percent: bool = False  # values are chances in [0, 1], shown as %
    stacked: bool = False


@dataclass(frozen=True, slots=True)
class Chart:
    title: str
    panels: tuple[Panel, ...]


def file_name(chart: Chart) -> str:
    """A file name from the chart's title: ``odds-coda-mod-3-vs-tn-7.png``."""
    slug = re.sub(r"[^a-z0-9]+", "-", chart.title.casefold()).strip("-")
    return f"{slug[:60] or 'chart'}.png"


def draw(chart: Chart) -> bytes:
    """The chart as PNG bytes, drawn here and now (the bot calls it in a worker process)."""
    with _lock:
        return _draw(chart)


def _draw(chart: Chart) -> bytes:
    figure = _figure(chart)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", facecolor=BACKGROUND)
    return buffer.getvalue()


def _figure(chart: Chart) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    panels = chart.panels[:MAX_PANELS]
    figure = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI, facecolor=BACKGROUND)
    FigureCanvasAgg(figure)
    figure.suptitle(chart.title, color=TEXT, fontsize=15, fontweight="bold")
    axes_list = figure.subplots(1, len(panels), squeeze=False)[0]
    for axes, panel in zip(axes_list, panels, strict=True):
        _draw_panel(axes, panel, max_labels=max(4, 14 // len(panels)))
    handles, labels = axes_list[0].get_legend_handles_labels()
    legend_room = 0.0
    if len(labels) > 1:  # one legend for the figure, under the bars: it never hides one
        figure.legend(
            handles,
            labels,
            loc="lower center",
            ncol=min(len(labels), 4),
            facecolor=BACKGROUND,
            edgecolor=GRID,
            labelcolor=TEXT,
            fontsize=12,
        )
        legend_room = 0.1
    figure.tight_layout(rect=(0, legend_room, 1, 1))
    if any(_fit_tick_labels(figure, axes) for axes in axes_list):
        figure.tight_layout(rect=(0, legend_room, 1, 1))  # wrapped labels are taller
        for axes in axes_list:
            _fit_tick_labels(figure, axes)
    return figure


#: Space kept between two tick labels, in pixels.
LABEL_GAP = 4
SMALLEST_LABEL = 9


def _overlap(labels: list[Text], figure: Figure) -> bool:
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    boxes = sorted(
        (t.get_window_extent(renderer) for t in labels if t.get_visible() and t.get_text()),
        key=lambda box: box.x0,
    )
    return any(a.x1 + LABEL_GAP > b.x0 for a, b in itertools.pairwise(boxes))


def _fit_tick_labels(figure: Figure, ax: Axes) -> bool:
    """Tick labels that would overlap are wrapped at spaces, then made smaller, then
    thinned (every other one shown); True when anything changed."""
    if not _overlap(ax.get_xticklabels(), figure):
        return False
    positions = list(ax.get_xticks())
    texts = [t.get_text() for t in ax.get_xticklabels()]
    if any(" " in text for text in texts):
        ax.set_xticks(positions, [text.replace(" ", "\n") for text in texts])
    size = float(ax.get_xticklabels()[0].get_fontsize()) if texts else SMALLEST_LABEL
    while _overlap(ax.get_xticklabels(), figure) and size > SMALLEST_LABEL:
        size -= 1
        ax.tick_params(axis="x", labelsize=size)
    step = 1
    while _overlap(ax.get_xticklabels(), figure) and step < len(positions):
        step *= 2
        for index, label in enumerate(ax.get_xticklabels()):
            label.set_visible(index % step == 0)
    return True


def _draw_panel(ax: Axes, panel: Panel, *, max_labels: int) -> None:
    from matplotlib.ticker import PercentFormatter

    ax.set_facecolor(BACKGROUND)
    count = len(panel.labels)
    positions = list(range(count))
    many = len(panel.series)
    width = 0.8 if panel.stacked or many == 1 else 0.8 / many
    bottoms = [0.0] * count
    for index, series in enumerate(panel.series):
        colour = PALETTE[index % len(PALETTE)]
        if panel.stacked:
            ax.bar(positions, series.values, width, bottom=bottoms, color=colour, label=series.name)
            bottoms = [b + v for b, v in zip(bottoms, series.values, strict=True)]
        else:
            offset = (index - (many - 1) / 2) * width
            ax.bar(
                [p + offset for p in positions],
                series.values,
                width,
                color=colour,
                label=series.name,
            )
    if panel.expected is not None:
        ax.axhline(
            panel.expected,
            color=EXPECTED,
            linestyle="--",
            linewidth=2,
            label=panel.expected_label,
        )
    step = max(1, math.ceil(count / max_labels))  # few labels: legible on a phone
    ax.set_xticks(positions[::step], panel.labels[::step])
    ax.set_title(panel.title, color=TEXT, fontsize=13)
    ax.tick_params(colors=TEXT, labelsize=12)
    ax.grid(axis="y", color=GRID, linewidth=0.8)
    ax.set_axisbelow(True)
    for spine in ax.spines.values():
        spine.set_color(GRID)
    if panel.percent:
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
