"""``narrator web``'s refusals: one line each, before anything listens."""

from __future__ import annotations

import pytest

from bot.cli import main


@pytest.fixture(autouse=True)
def no_discord_login(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DISCORD_CLIENT_ID", "DISCORD_CLIENT_SECRET", "WEB_BIND"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir("/")  # no .env here


def test_local_login_is_refused_when_a_client_secret_is_set(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_CLIENT_SECRET", "s3cret")
    assert main(["web", "--local-login"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--local-login is refused" in err


def test_discord_login_needs_the_client_id_and_secret(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["web"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "DISCORD_CLIENT_SECRET" in err and "--local-login" in err


def test_a_bad_web_bind_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WEB_BIND", "8080")
    assert main(["web", "--local-login"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "WEB_BIND" in err
