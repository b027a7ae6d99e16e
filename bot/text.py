"""Numbers as the bot writes them: a typographic minus ("−2"), in replies and roll logs alike.

Free of discord (unlike ``bot.render``) so that services, which word the roll log and some
replies' lines, spell numbers exactly as the renderers do.
"""

from __future__ import annotations


def signed(value: int) -> str:
    """A modifier: "+3", "−2", "+0"."""
    return f"+{value}" if value >= 0 else f"−{-value}"


def number(value: int) -> str:
    """A plain number: "3", "−2" (no plus sign)."""
    return str(value) if value >= 0 else f"−{-value}"


def term(value: int) -> str:
    """A value as a term of a sum, its operator spaced: "+ 3", "− 2"."""
    return f"+ {value}" if value >= 0 else f"− {-value}"
