"""Text as the bot writes it: a typographic minus ("−2"), and user text escaped (never a
ping, never markdown), in replies and roll logs alike.

Free of discord (unlike ``bot.render``) so that services, which word the roll log and some
replies' lines, spell numbers exactly as the renderers do.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable


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

#: What stands in for a backtick inside a code span, which no backslash can escape.
_TICK = "ˋ"

#: Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): one left
#: open in a name reverses or reorders the bot's own text after it on the same line, so
#: shown user text drops them (a name stays readable; only its direction marks go).
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")

#: Every character :func:`escape` changes in any form (markdown, ``@``, a line break, a
#: bidirectional control): text with none of them is shown as it is, without the passes.
_SPECIAL = re.compile(r"[\\*_~|`>#\-\[\]<:@\n\u202a-\u202e\u2066-\u2069]")


def escape(text: str, *, lines: bool = False, code: bool = False) -> str:
    """User text (a name, label, note or reason) as it must appear in a message or embed:
    rendered literally, pinging nobody. ``@everyone`` gets a zero-width space after its
    ``@``, as :func:`discord.utils.escape_mentions` does; line breaks become spaces unless
    ``lines`` (notes), so a name never breaks a one-line layout; bidirectional controls are
    dropped, so a name never reverses the text after it.

    ``code`` is for text inside a code span (`` `…` ``), where nothing renders but a
    backslash shows as itself: only a backtick could end the span, so it becomes "ˋ" (and
    ``<`` and ``@`` take a zero-width space, should a client read mentions there).

    The one escaping function: :class:`UserText` becomes display text only through it.
    Every character is escaped on its own, so :meth:`UserText.shown` can cut the result at
    a character's boundary.
    """
    if _SPECIAL.search(text) is None:  # most names and labels: nothing to escape
        return text
    flat = _BIDI.sub("", text if lines else " ".join(text.split("\n")))
    if code:
        return flat.replace("`", _TICK).replace("@", "@\u200b").replace("<", "<\u200b")
    return _MARKDOWN.sub(r"\\\1", flat).replace("@", "@\u200b")


def _plain(text: str) -> str:
    return _BIDI.sub("", " ".join(text.split("\n"))).replace("@", "@\u200b")


def _within(raw: str, limit: int | None, form: Callable[[str], str]) -> str:
    """``raw`` in ``form``, cut (with "…") so that the result holds ``limit`` characters."""
    shown = form(raw)
    if limit is None or len(shown) <= limit:
        return shown
    kept: list[str] = []
    room = max(limit - 1, 0)
    for char in raw:
        piece = form(char)
        if len(piece) > room:
            break
        kept.append(piece)
        room -= len(piece)
    return "".join(kept) + "…"


class UserText:
    """Text a user typed (a character's, skill's, resource's, macro's or team's name, a
    label, a note, a reason), as the renderers and the bot's messages take it.

    It is not a ``str``: a renderer that asks for it cannot be handed raw text without mypy
    saying so, and it cannot be glued to a message with ``+``. The only ways to display it go
    through :func:`escape`: ``str(text)``, an f-string or ``str.format`` (``{name}``), and
    :meth:`shown`; ``{name:code}`` (and :func:`bot.i18n._` for a placeholder written
    `` `{name}` ``) gives the form for inside a code span. :meth:`plain` is for the surfaces
    Discord shows as typed, rendering neither markdown nor mentions (footers, labels).
    ``raw`` is the text itself, for lookups and comparisons, never for display.
    """

    __slots__ = ("raw",)

    def __init__(self, raw: str) -> None:
        self.raw = raw

    def __str__(self) -> str:
        return escape(self.raw)

    def __format__(self, spec: str) -> str:
        if spec == "code":
            return escape(self.raw, code=True)
        return format(escape(self.raw), spec)

    def __repr__(self) -> str:
        return f"UserText({self.raw!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, UserText) and other.raw == self.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __bool__(self) -> bool:
        return bool(self.raw)

    @classmethod
    def of(cls, raw: str | None) -> UserText | None:
        """An optional text (a label, a note): ``None`` when none was typed."""
        return cls(raw) if raw else None

    def shown(self, limit: int | None = None, *, lines: bool = False) -> str:
        """Escaped, within ``limit`` characters once escaped (cut with "…")."""
        return _within(self.raw, limit, lambda text: escape(text, lines=lines))

    def code(self, limit: int | None = None) -> str:
        """For inside a code span: as typed but for its backticks, within ``limit``."""
        return _within(self.raw, limit, lambda text: escape(text, code=True))

    def plain(self, limit: int | None = None) -> str:
        """For a surface that renders no markdown and no mention (an embed's footer or
        author, a button's or an option's label): one line, ``@`` unable to ping."""
        return _within(self.raw, limit, _plain)


def listed(names: Iterable[str], separator: str = ", ") -> str:
    """Names users typed, each escaped, in one line: "Hermione, Ron"."""
    return separator.join(escape(name) for name in names)


_BOT_MENTION = re.compile(r"<@\d+>")


def escape_party(text: str) -> str:
    """A party or helper name: escaped, except the ``<@id>`` the bot writes for a mentioned
    player without a character (an embed shows it as their name and never pings)."""
    return text if _BOT_MENTION.fullmatch(text) else escape(text)
