"""``narrator console --locale es-ES`` and ``/locale``: a Spanish table, offline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.console import LocaleError, parse_locale
from tests.bot.console.test_console import run_console


def test_a_spanish_console_gets_spanish_replies_until_locale_changes(tmp_path: Path) -> None:
    result = run_console(
        [
            "/settings show",
            "/locale",
            "/locale en-US",
            "/settings show",
            "/locale klingon",
            "/locale es",
            "/as alice",
            "/settings language language:en",
        ],
        tmp_path / "spanish.db",
        "--json",
        "--locale",
        "es-ES",
    )
    assert result.returncode == 0, result.stderr
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    spanish, shown, english_now, english, refused, spanish_again, as_alice, not_gm = replies
    assert spanish["embeds"][0]["title"] == "Configuración del canal"
    assert shown["content"] == (
        "El idioma de tu cliente de Discord es es-ES (respuestas en Español)."
    )
    assert english_now["content"] == (
        "Your Discord client's language is en-US (replies in English)."
    )
    assert english["embeds"][0]["title"] == "Channel settings"
    assert refused["error"] and "`klingon` is not a Discord locale" in refused["content"]
    assert "es-ES" in spanish_again["content"]
    assert as_alice["content"] == "Ahora eres alice."  # the console's own words too
    assert "Solo el DJ del canal puede fijar el idioma del canal" in not_gm["content"]


def test_a_wrong_locale_on_the_command_line_is_refused(tmp_path: Path) -> None:
    result = run_console(["/roll expression:d6"], tmp_path / "x.db", "--locale", "xx-YY")
    assert result.returncode == 2
    assert "`xx-YY` is not a Discord locale" in result.stderr


@pytest.mark.parametrize(
    ("typed", "locale"),
    [("es-ES", "es-ES"), ("es_es", "es-ES"), ("ES-419", "es-419"), ("es", "es-ES"), ("fr", "fr")],
)
def test_locales_are_read_as_discord_writes_them(typed: str, locale: str) -> None:
    assert parse_locale(typed) == locale


@pytest.mark.parametrize("typed", ["", "xx", "es-XX", "e" * 200])
def test_other_text_is_not_a_locale(typed: str) -> None:
    with pytest.raises(LocaleError):
        parse_locale(typed)
