"""A bad setting, whatever the command, is one line naming it: never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main

UNREACHABLE = "postgresql+asyncpg://narrator:hunter2@127.0.0.1:1/narrator"
COMMANDS = [["run"], ["migrate"], ["console"], ["doctor"], ["backup", "b.db"], ["sync"]]


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("DISCORD_API_BASE", "DISCORD_GATEWAY_URL", "DEV_GUILD_ID", "METRICS_PORT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "x.y.z")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("postgres://u:p@db/narrator", "use postgresql+asyncpg://"),
        ("postgresql://u:p@db/narrator", "use postgresql+asyncpg://"),
        ("sqlite:///data/x.db", "use sqlite+aiosqlite:///"),
        ("mysql://u:p@db/narrator", "does not support"),
        ("data/narrator.db", "is not a database URL"),
    ],
)
def test_bad_scheme(
    command: list[str],
    url: str,
    words: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DATABASE_URL", url)
    assert main(command) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "DATABASE_URL" in err and words in err


@pytest.mark.parametrize("command", [["migrate"], ["console"]], ids=lambda c: c[0])
def test_unreachable_database(
    command: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", UNREACHABLE)
    assert main(command) == 1  # it may come back: systemd restarts on 1, not on 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1, captured.err
    assert "DATABASE_URL: cannot use the database" in captured.err
    assert "127.0.0.1:1" in captured.err and "hunter2" not in captured.err
    assert "Traceback" not in captured.err + captured.out


def test_migrate_is_quiet(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path}/sub/dir/n.db")
    assert main(["migrate"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert captured.out.strip().endswith("is at the newest schema")


def test_env_example_parses_as_is(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from bot.hosting.config import Settings

    example = Path(__file__).parents[3] / ".env.example"
    for name in ("DATABASE_URL", "METRICS_PORT", "METRICS_HOST", "DISCORD_CLIENT_ID"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings(_env_file=example)  # type: ignore[call-arg]
    assert settings.metrics_port is None and settings.metrics_host == "127.0.0.1"
    assert settings.discord_client_id is None


def test_bad_metrics_port_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("METRICS_PORT", "99999")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "METRICS_PORT" in err


def test_help_is_plain_text(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = capsys.readouterr().out
    assert "`" not in shown and "Run the bot, the offline console" in shown
