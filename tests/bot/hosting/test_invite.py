"""``narrator invite``: the application id from the token or the setting, exact permissions."""

from __future__ import annotations

import base64
import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import discord
import pytest

from bot.cli import main
from bot.hosting.config import Settings
from bot.hosting.invite import (
    PERMISSIONS,
    client_id_from_token,
    invite_url,
    required_permissions,
)

README = Path(__file__).parents[3] / "docs" / "hosting.md"  # the invite table
APP_ID = 1234567890123456789


def fake_token(application_id: int = APP_ID) -> str:
    first = base64.urlsafe_b64encode(str(application_id).encode()).decode().rstrip("=")
    return f"{first}.GhIjKl.{'x' * 38}"


def test_the_id_is_the_tokens_first_part() -> None:
    assert client_id_from_token(fake_token()) == APP_ID
    assert client_id_from_token("not-a-token") is None
    assert client_id_from_token("") is None


def test_url_has_both_scopes_and_the_exact_permissions() -> None:
    query = parse_qs(urlparse(invite_url(APP_ID)).query)
    assert query["client_id"] == [str(APP_ID)]
    assert query["scope"] == ["bot applications.commands"]
    expected = discord.Permissions(
        view_channel=True, send_messages=True, send_messages_in_threads=True, embed_links=True
    )
    assert query["permissions"] == [str(expected.value)]


def test_readme_documents_every_permission_and_the_integer() -> None:
    readme = README.read_text()
    assert f"permissions={required_permissions().value}" in readme
    for flag, label, _why in PERMISSIONS:
        assert re.search(rf"\| {label} \| `{flag}` \|", readme), label


def test_cli_prints_the_url(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_CLIENT_ID", raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", fake_token())
    assert main(["invite"]) == 0
    assert capsys.readouterr().out.strip() == invite_url(APP_ID)
    monkeypatch.setenv("DISCORD_CLIENT_ID", "42")
    assert main(["invite"]) == 0
    assert "client_id=42&" in capsys.readouterr().out


def test_cli_without_id_or_token_names_both(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DISCORD_CLIENT_ID", raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "")
    assert main(["invite"]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_CLIENT_ID" in err and "DISCORD_TOKEN" in err and len(err.splitlines()) == 1
    monkeypatch.setenv("DISCORD_TOKEN", "garbage")
    assert main(["invite"]) == 2
    assert "DISCORD_CLIENT_ID" in capsys.readouterr().err


def test_settings_parse_the_client_id() -> None:
    settings = Settings(_env_file=None, DISCORD_CLIENT_ID="7")  # type: ignore[call-arg]
    assert settings.discord_client_id == 7
