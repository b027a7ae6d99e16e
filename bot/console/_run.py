"""``narrator console``: build the bot for one person at a terminal, start it inside SimCord,
and feed it the lines typed or piped in, printing each reply as text or JSON.

Kept apart from the session (:mod:`bot.console._console`), which runs one line whatever
reads it: a test drives a session line by line without this loop, stdin or stdout.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, TextIO

from bot.app import create_bot
from bot.console._console import Console
from bot.console._locale import DEFAULT_LOCALE, client_locale, parse_locale
from bot.console._text import format_text, line_editor
from bot.hosting.config import Settings
from bot.i18n import _, use_language
from bot.i18n.choice import language_of
from engine.dice import Dice


async def run_console(
    settings: Settings,
    *,
    as_json: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    dice: Dice | None = None,
    save_files: Path | None = None,
    locale: str = DEFAULT_LOCALE,
) -> int:
    stdout = stdout or sys.stdout
    try:
        return await _run(
            settings, as_json, stdin or sys.stdin, stdout, dice, save_files, parse_locale(locale)
        )
    except BrokenPipeError:
        # The reader left (`| head`): stop quietly, and keep Python's exit-time flush of
        # stdout from complaining about the closed pipe.
        if stdout is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


@contextlib.asynccontextmanager
async def in_simcord(bot: Any) -> AsyncIterator[Any]:
    """``bot`` running in SimCord's in-memory Discord (its environment), as the console and
    the tests that type into it run it; the bot's pool is closed when it ends, however.

    SimCord's shutdown does not close the bot, and the one-statement layer keeps connections
    checked out between statements (``Database.held``): left to the garbage collector, each
    was an SAWarning (and aiosqlite's ResourceWarning at exit)."""
    import simcord  # only the console needs it: ``narrator run`` never imports it

    try:
        async with simcord.run(bot, check_errors=False, settle_timeout=30.0) as env:
            yield env
    finally:
        await bot.db.dispose()


async def _run(
    settings: Settings,
    as_json: bool,
    stdin: TextIO,
    stdout: TextIO,
    dice: Dice | None,
    save_files: Path | None,
    locale: str = DEFAULT_LOCALE,
) -> int:
    interactive = stdin.isatty() and not as_json
    console: Console | None = None

    def emit(payload: dict[str, Any]) -> None:
        if as_json:
            stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
        else:
            names = console.names() if console is not None else {}
            stdout.write(format_text(payload, names) + "\n")
        stdout.flush()

    # One person at a terminal, whose pasted scripts run at machine speed: no rate limits.
    unlimited = settings.model_copy(
        update={"rate_user_burst": 0, "rate_channel_burst": 0, "rate_autocomplete_burst": 0}
    )
    bot = create_bot(unlimited, dice=dice, sync_globally=True)
    async with in_simcord(bot) as env:
        session = Console(env=env, bot=bot, emit=emit, save_files=save_files, locale=locale)
        console = session
        session.setup()
        with client_locale(lambda: session.locale):
            return await _read_lines(session, stdin, stdout, interactive)


async def _read_lines(console: Console, stdin: TextIO, stdout: TextIO, interactive: bool) -> int:
    """Run the lines typed or piped in until the end of input or /quit."""
    read = line_editor(stdin, stdout) if interactive else None
    if interactive:
        with use_language(language_of(console.locale)):
            stdout.write(
                _("Narrator console — /help for commands, /help console for the console's own.")
                + "\n"
            )
    while True:
        if read is not None:
            line = await asyncio.to_thread(read, f"{console.user}@#{console.channel}> ")
        else:
            line = await asyncio.to_thread(stdin.readline)
        if not line or not await console.run_line(line):
            return 0


def configure_console_logging(level: str) -> None:
    # The console's output is the replies; the bot's own logs go to stderr, quietly.
    logging.basicConfig(
        level=max(logging.WARNING, logging.getLevelName(level)),
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("discord").setLevel(logging.ERROR)
