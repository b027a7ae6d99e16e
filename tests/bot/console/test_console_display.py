"""The console shows what Discord's client would: Markdown escapes as the characters they
escape, and disabled buttons as disabled (which ``/click`` refuses to press)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.console._text import format_text, unescaped
from tests.bot.console.inprocess import console_session


def test_escapes_are_shown_as_discord_shows_them() -> None:
    assert unescaped(r"Hac\-Tao in \#table at 2026\-11\-27T09\:05\:26") == (
        "Hac-Tao in #table at 2026-11-27T09:05:26"
    )
    assert unescaped(r"\*\*not bold\*\* `a\-b` ```x\_y```") == r"**not bold** `a\-b` ```x\_y```"
    assert unescaped(r"\`Hac\-Tao\`") == "`Hac-Tao`"


async def test_text_and_buttons_as_discord_shows_them(
    migrated_template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with console_session(migrated_template, tmp_path, monkeypatch) as session:
        for line in [
            "/as alice",
            "/sheet create name:Hac-Tao system:coda",
            "/sheet set attribute:Wits value:3",
            "/as bob",
            "/sheet create name:Ron system:coda",
            "/sheet set attribute:Wits value:2",
        ]:
            assert await session.failures(line) == [], line
        shown = await session.run("/sheet show character:Hac-Tao")
        text = format_text(shown[0])
        assert "Hac-Tao" in text and "Hac\\-Tao" not in text
        await session.run("/as alice")
        asked = await session.run("/coda opposed a:Hac-Tao b:Ron a_skill:Wits b_skill:Wits")
        assert any(p.get("buttons") for p in asked), asked
        await session.run("/as bob")
        label = next(p for p in asked if p.get("buttons"))["buttons"][0]
        start = len(session.payloads)
        assert await session.failures(f"/click {label}") == []
        greyed = [p for p in session.payloads[start:] if p.get("disabled")]
        assert greyed and f"[{label}: disabled]" in format_text(greyed[-1])
        pressed = await session.run(f"/click {label}")
        assert pressed[0]["error"]
        assert pressed[0]["content"] == (
            f"The button `{label}` is disabled: Discord does not let anyone press it."
        )
