"""How the console talks to a person: replies as readable text (mentions and timestamps as
names and times, Markdown escapes as the characters they escape, as Discord's client shows
them) and, at a terminal, a line editor."""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from bot.i18n import _, _n

_MENTION = re.compile(r"<(@!?|@&|#)(\d+)>")
_TIMESTAMP = re.compile(r"<t:(-?\d{1,13})(?::([tTdDfFR]))?>")
#: Code (```block``` or `span`), where Discord shows a backslash as it is.
_CODE = re.compile(r"((?<!\\)```.*?```|(?<!\\)`[^`]*`)", re.S)
#: A backslash before punctuation: Discord shows the punctuation alone.
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def unescaped(text: str) -> str:
    """Discord's Markdown escapes as its client shows them: ``Hac\\-Tao`` as ``Hac-Tao``,
    ``\\#table`` as ``#table``; inside code, backslashes stay (Discord shows them there)."""
    parts = _CODE.split(text)
    return "".join(
        part if index % 2 else _ESCAPE.sub(r"\1", part) for index, part in enumerate(parts)
    )


def readable(text: str, names: dict[int, str], now: datetime | None = None) -> str:
    """Discord's markup as its client shows it: ``<@id>`` as @name, ``<#id>`` as #channel,
    ``<t:…:R>`` as "3 minutes ago" and other timestamps as a UTC date and time."""

    def mention(match: re.Match[str]) -> str:
        kind, number = match.group(1), int(match.group(2))
        unknown = {"#": "#unknown-channel", "@&": "@unknown-role"}.get(kind, "@unknown-user")
        return names.get(number, unknown)

    def timestamp(match: re.Match[str]) -> str:
        try:
            when = datetime.fromtimestamp(int(match.group(1)), UTC)
        except (OverflowError, OSError, ValueError):
            return match.group(0)
        if match.group(2) == "R":
            return _relative(when, now or datetime.now(UTC))
        return when.strftime("%Y-%m-%d %H:%M UTC")

    return _TIMESTAMP.sub(timestamp, _MENTION.sub(mention, text))


def _relative(when: datetime, now: datetime) -> str:
    seconds = int((now - when).total_seconds())
    ahead, seconds = seconds < 0, abs(seconds)
    if seconds >= 86400:
        count = seconds // 86400
        text = _n("{count} day", "{count} days", count, count=count)
    elif seconds >= 3600:
        count = seconds // 3600
        text = _n("{count} hour", "{count} hours", count, count=count)
    elif seconds >= 60:
        count = seconds // 60
        text = _n("{count} minute", "{count} minutes", count, count=count)
    else:
        text = _n("{count} second", "{count} seconds", seconds, count=seconds)
    return _("in {time}", time=text) if ahead else _("{time} ago", time=text)


def format_text(payload: dict[str, Any], names: dict[int, str] | None = None) -> str:
    """A reply as readable text: title, description, fields, footer; ephemeral marked;
    Markdown escapes unescaped (the console's own messages are not Markdown); mentions and
    timestamps as names and times when ``names`` are given."""
    text = _format_text(payload)
    if not payload.get("console"):
        text = unescaped(text)
    return readable(text, names) if names is not None else text


def _format_text(payload: dict[str, Any]) -> str:
    if payload.get("console"):
        return ("! " if payload.get("error") else "") + payload["content"]
    lines: list[str] = []
    if payload.get("ephemeral"):
        lines.append(_("(only you can see this)"))
    if payload.get("channel_message"):
        where = payload.get("where", _("the channel"))
        lines.append(
            _("(message posted in {where})", where=where)
            if payload["channel_message"] == "posted"
            else _("(message edited in {where})", where=where)
        )
    if payload.get("content"):
        lines.append(payload["content"])
    for embed in payload.get("embeds", []):
        if embed.get("title"):
            lines.append(f"== {embed['title']} ==")
        if embed.get("description"):
            lines.append(embed["description"])
        for item in embed.get("fields", []):
            lines.append(f"  {item['name']}: {item['value']}")
        if embed.get("footer", {}).get("text"):
            lines.append(f"  -- {embed['footer']['text']}")
    if payload.get("buttons"):
        disabled = set(payload.get("disabled", []))
        shown = [
            _("{label}: disabled", label=b) if b in disabled else str(b) for b in payload["buttons"]
        ]
        lines.append(f"  [{'] ['.join(shown)}]  " + _("(/click LABEL)"))
    if payload.get("attachments"):
        lines.append("  " + _("attached: {files}", files=", ".join(payload["attachments"])))
    if payload.get("saved"):
        lines.append("  " + _("saved: {files}", files=", ".join(payload["saved"])))
    return "\n".join(lines)


def line_editor(stdin: TextIO, stdout: TextIO) -> Callable[[str], str]:
    """At a terminal: ``input`` with readline's line editing and a history kept between
    sessions (arrow keys, Ctrl-R); "" at end of input, like ``readline()``."""
    try:
        import readline
    except ImportError:  # no readline (Windows): plain lines
        readline = None  # type: ignore[assignment]
    history = Path(os.environ.get("NARRATOR_HISTORY", "~/.narrator_history")).expanduser()
    if readline is not None:
        with contextlib.suppress(OSError):  # no history yet
            readline.read_history_file(history)

    def read(prompt: str) -> str:
        if stdin is not sys.stdin or stdout is not sys.stdout:
            stdout.write(prompt)
            stdout.flush()
            return stdin.readline()
        try:
            line = input(prompt)
        except EOFError:
            return ""
        if readline is not None and line.strip():
            # A read-only home: the history lasts this session only.
            with contextlib.suppress(OSError):
                readline.write_history_file(history)
        return line + "\n"

    return read
