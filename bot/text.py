"""Text as the bot writes it: a typographic minus ("−2"), and user text escaped (never a
ping, never markdown), in replies and roll logs alike.

Free of discord (unlike ``bot.render``) so that services, which word the roll log and some
replies' lines, spell numbers exactly as the renderers do.
"""

from __future__ import annotations

import re


def signed(value: int) -> str:
    """A modifier: "+3", "−2", "+0"."""
    return f"+{value}" if value >= 0 else f"−{-value}"


def number(value: int) -> str:
    """A plain number: "3", "−2" (no plus sign)."""
    return str(value) if value >= 0 else f"−{-value}"


def term(value: int) -> str:
    """A value as a term of a sum, its operator spaced: "+ 3", "− 2"."""
    return f"+ {value}" if value >= 0 else f"− {-value}"


# Markdown that user text could use to restyle a message: emphasis, code, spoilers, quotes,
# headings, lists, masked links ([text](url)), mentions (<@id>), emoji (:name:) and the
# autolink of "https://…" (the colon). Discord reads a backslash before punctuation as
# "this character, literally", so the text renders exactly as typed.
_MARKDOWN = re.compile(r"([\\*_~|`>#\-\[\]<:])")


def escape(text: str, *, lines: bool = False) -> str:
    """User text (a name, label, note or reason) as it must appear in a message or embed:
    rendered literally, pinging nobody. ``@everyone`` gets a zero-width space after its
    ``@``, as :func:`discord.utils.escape_mentions` does; line breaks become spaces unless
    ``lines`` (notes), so a name never breaks a one-line layout.

    Not for text inside a code span (`` `…` ``), where a backslash shows as itself.
    """
    flat = text if lines else " ".join(text.split("\n"))
    return _MARKDOWN.sub(r"\\\1", flat).replace("@", "@\u200b")


_BOT_MENTION = re.compile(r"<@\d+>")


def escape_party(text: str) -> str:
    """A party or helper name: escaped, except the ``<@id>`` the bot writes for a mentioned
    player without a character (an embed shows it as their name and never pings)."""
    return text if _BOT_MENTION.fullmatch(text) else escape(text)
