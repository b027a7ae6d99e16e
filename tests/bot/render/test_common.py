"""A roll's title with the player's label: escaped, within Discord's 256, never cut inside an
escape (a lone backslash at the cut would escape the "…")."""

from __future__ import annotations

from bot.render.common import titled
from bot.render.limits import TITLE
from bot.text import UserText


def test_a_label_is_escaped_and_cut_to_the_title() -> None:
    title = titled("🎲 12", UserText("*_" * 200))
    assert len(title) <= TITLE and title.endswith("…")
    assert title.startswith("🎲 12 — \\*\\_")
    assert not title[:-1].endswith("\\") and "\\\\" not in title


def test_no_label_is_the_title_alone() -> None:
    assert titled("🎲 12", None) == "🎲 12"
    assert titled("🎲 12", UserText.of("")) == "🎲 12"
    assert titled("x" * 300, UserText("label")) == "x" * (TITLE - 1) + "…"
