"""Settings: defaults, .env-style parsing, and refusals with clear messages."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.cli import main
from bot.hosting.config import DEFAULT_GM_ROLE_NAMES, ConfigError, Settings


def make(**values: str) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def test_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "GM_ROLE_NAMES", "DISCORD_TOKEN", "DEV_GUILD_ID"):
        monkeypatch.delenv(name, raising=False)
    settings = make()
    assert settings.database_url.startswith("sqlite+aiosqlite:///")
    assert "data" in settings.database_url
    assert settings.gm_role_names == DEFAULT_GM_ROLE_NAMES
    assert settings.dev_guild_id is None


def test_role_names_and_guild_from_text() -> None:
    settings = make(GM_ROLE_NAMES=" GM , Keeper ,", DEV_GUILD_ID="123", LOG_LEVEL="debug")
    assert settings.gm_role_names == ("GM", "Keeper")
    assert settings.dev_guild_id == 123
    assert settings.log_level == "DEBUG"


def test_token_is_secret() -> None:
    settings = make(DISCORD_TOKEN="abc.def")
    assert "abc.def" not in repr(settings) and "abc.def" not in str(settings)
    assert settings.require_token() == "abc.def"
    with pytest.raises(ConfigError, match="DISCORD_TOKEN is not set"):
        make().require_token()


@pytest.mark.parametrize("name", ["DISCORD_API_BASE", "DISCORD_GATEWAY_URL"])
def test_proxy_urls_go_together(name: str) -> None:
    with pytest.raises(ValidationError, match="go together"):
        make(**{name: "http://127.0.0.1:1"})
    both = make(DISCORD_API_BASE="http://127.0.0.1:1/api", DISCORD_GATEWAY_URL="ws://127.0.0.1:1")
    assert both.discord_api_base and both.discord_gateway_url


def test_bad_log_level_is_refused() -> None:
    with pytest.raises(ValidationError, match="LOG_LEVEL"):
        make(LOG_LEVEL="loud")


def test_cli_refuses_half_a_proxy(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_API_BASE", "http://127.0.0.1:1")
    monkeypatch.delenv("DISCORD_GATEWAY_URL", raising=False)
    assert main(["run"]) == 2
    assert "go together" in capsys.readouterr().err


def test_cli_run_needs_a_token(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("DISCORD_TOKEN", "")
    assert main(["run"]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_cli_names_each_bad_setting_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LOG_LEVEL", "loud")
    assert main(["migrate"]) == 2
    err = capsys.readouterr().err
    assert err.count("LOG_LEVEL") == 1 and "not 'loud'" in err


def test_shards_from_text() -> None:
    assert make().shard_count is None and make().shard_ids is None
    settings = make(SHARD_COUNT="8", SHARD_IDS="0-3")
    assert (settings.shard_count, settings.shard_ids) == (8, (0, 1, 2, 3))
    assert make(SHARD_COUNT="8", SHARD_IDS=" 6, 0,2-3 ,2").shard_ids == (0, 2, 3, 6)
    assert make(SHARD_COUNT="2", SHARD_IDS="").shard_ids is None
    assert make(SHARD_COUNT="").shard_count is None


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"SHARD_IDS": "0-1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2-4"}, r"\[4\] are outside SHARD_COUNT=4"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "runs backwards"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "one"}, "shard numbers and ranges"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
    ],
)
def test_bad_shards_are_refused(values: dict[str, str], message: str) -> None:
    with pytest.raises((ValidationError, ConfigError), match=message):
        make(**values)


def test_run_builds_an_auto_sharded_bot_on_the_configured_shards() -> None:
    import discord

    from bot.app import NarratorBot, create_bot

    bot = create_bot(make(SHARD_COUNT="4", SHARD_IDS="2-3"), sharded=True)
    assert isinstance(bot, discord.AutoShardedClient) and isinstance(bot, NarratorBot)
    assert (bot.shard_count, bot.shard_ids) == (4, [2, 3])
    assert not bot.holds_shard_zero  # so it does not sync commands
    everything = create_bot(make(), sharded=True)
    assert (everything.shard_count, everything.shard_ids) == (None, None)  # Discord's count
    assert everything.holds_shard_zero
    assert create_bot(make()).holds_shard_zero
