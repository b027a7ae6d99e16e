"""Small text pieces every renderer shares: percentages, dice lists, labels, signed numbers."""

from __future__ import annotations

from collections.abc import Iterable

from bot.render.limits import clip


def percent(chance: float) -> str:
    """A chance as a table reads it: "41.7%", never "100.0%" for something short of certain."""
    value = chance * 100
    if 0 < value < 0.1:
        return "<0.1%"
    if 99.9 < value < 100:
        return ">99.9%"
    return f"{value:.1f}%"


def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def number(value: int) -> str:
    """A number as the bot writes it: a typographic minus ("−2"), no plus sign."""
    return str(value) if value >= 0 else f"−{-value}"


def faces(values: Iterable[int], *, marks: dict[int, str] | None = None) -> str:
    """Faces as ``[6] [6] [3]``; ``marks`` adds a marker after the face at that index."""
    marks = marks or {}
    return " ".join(f"[{face}]{marks.get(i, '')}" for i, face in enumerate(values))


def titled(title: str, label: str | None) -> str:
    """A roll title with the player's label, e.g. "Stealth — sneaking past Filch"."""
    return clip(f"{title} — {label}" if label else title, 256)
