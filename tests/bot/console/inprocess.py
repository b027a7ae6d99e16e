"""The console in this process: one session over a fresh copy of the migrated database,
fed lines one at a time, every payload kept, and every line that was refused or failed
noted (the console's own errors, the bot's refusals and bugs).

Faster than the ``narrator`` process (no start-up, no migration) for tests that run many
short scripts: the documentation's examples and ``/help``'s.
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.console import Console, in_simcord
from bot.console._locale import client_locale
from bot.gateway import NarratorTree, user_message
from bot.hosting.config import Settings
from engine.dice import SeededDice

BUG = "a bug: "


@dataclass
class Session:
    """A console session and what it said."""

    console: Console
    payloads: list[dict[str, Any]]
    refusals: list[str] = field(default_factory=list)

    async def run(self, line: str) -> list[dict[str, Any]]:
        """Run ``line``; the payloads it produced."""
        start = len(self.payloads)
        await self.console.run_line(line)
        return self.payloads[start:]

    async def failures(self, line: str, *, bugs_only: bool = False) -> list[str]:
        """Run ``line``; why it did not run (empty when it ran): the console's errors, then
        the bot's refusals and bugs (with ``bugs_only``, its bugs alone)."""
        refused = len(self.refusals)
        shown = await self.run(line)
        errors = [p["content"] for p in shown if p.get("error")]
        refusals = self.refusals[refused:]
        if bugs_only:
            refusals = [r for r in refusals if r.startswith(BUG)]
        return errors + refusals


@asynccontextmanager
async def console_session(
    template: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Session]:
    """A console over a fresh copy of the migrated ``template`` database, in ``folder``."""
    database = folder / "console.db"
    shutil.copy(template, database)  # a pytest tmp_path: the folder exists
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        DATABASE_URL=f"sqlite+aiosqlite:///{database}",
        RATE_USER_BURST=0,
        RATE_CHANNEL_BURST=0,
        RATE_AUTOCOMPLETE_BURST=0,
    )
    payloads: list[dict[str, Any]] = []
    refusals: list[str] = []
    original = NarratorTree.on_error

    async def on_error(tree: Any, interaction: Any, error: Any) -> None:
        refusals.append(user_message(error) or f"{BUG}{error!r}")
        await original(tree, interaction, error)

    monkeypatch.setattr(NarratorTree, "on_error", on_error)
    bot = create_bot(settings, dice=SeededDice(20261127), sync_globally=True)
    async with in_simcord(bot) as env:
        console = Console(env=env, bot=bot, emit=payloads.append, save_files=folder)
        console.setup()
        with client_locale(lambda: console.locale):
            yield Session(console, payloads, refusals)
