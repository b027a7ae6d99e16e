"""Configuration from the environment and ``.env``, validated once at start-up."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///" + str(Path("data") / "narrator.db")
DEFAULT_GM_ROLE_NAMES = ("GM", "Game Master", "Narrator", "Storyguide", "Director")


class ConfigError(ValueError):
    """A setting that makes the bot refuse to start; the message says which and why."""


class Settings(BaseSettings):
    """Every setting Narrator reads; ``.env.example`` documents each one."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", populate_by_name=True
    )

    discord_token: SecretStr | None = Field(default=None, alias="DISCORD_TOKEN")
    database_url: str = Field(default=DEFAULT_DATABASE_URL, alias="DATABASE_URL")
    dev_guild_id: int | None = Field(default=None, alias="DEV_GUILD_ID")
    log_level: str = Field(default="INFO", alias="LOG_LEVEL")
    gm_role_names: Annotated[tuple[str, ...], NoDecode] = Field(
        default=DEFAULT_GM_ROLE_NAMES, alias="GM_ROLE_NAMES"
    )
    # Fair use (README "Fair use and limits"): a burst, then a steady rate; burst 0 turns it off.
    rate_user_burst: int = Field(default=10, ge=0, alias="RATE_USER_BURST")
    rate_user_per_second: float = Field(default=2.0, ge=0, alias="RATE_USER_PER_SECOND")
    rate_channel_burst: int = Field(default=30, ge=0, alias="RATE_CHANNEL_BURST")
    rate_channel_per_second: float = Field(default=5.0, ge=0, alias="RATE_CHANNEL_PER_SECOND")
    discord_api_base: str | None = Field(default=None, alias="DISCORD_API_BASE")
    discord_gateway_url: str | None = Field(default=None, alias="DISCORD_GATEWAY_URL")

    @field_validator("gm_role_names", mode="before")
    @classmethod
    def _split_role_names(cls, value: object) -> object:
        # A comma-separated list reads naturally in .env: GM_ROLE_NAMES=GM,Game Master
        if isinstance(value, str):
            return tuple(name.strip() for name in value.split(",") if name.strip())
        return value

    @field_validator("log_level")
    @classmethod
    def _upper_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError(
                f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {value!r}"
            )
        return level

    @field_validator("dev_guild_id", "discord_api_base", "discord_gateway_url", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @model_validator(mode="after")
    def _proxy_pair(self) -> Settings:
        if (self.discord_api_base is None) != (self.discord_gateway_url is None):
            raise ConfigError(
                "DISCORD_API_BASE and DISCORD_GATEWAY_URL go together: set both (to use a proxy) "
                "or neither (to talk to Discord directly)."
            )
        return self

    def require_token(self) -> str:
        """The token for ``narrator run``; only the real bot needs one."""
        if self.discord_token is None or not self.discord_token.get_secret_value().strip():
            raise ConfigError("DISCORD_TOKEN is not set: put it in .env or the environment.")
        return self.discord_token.get_secret_value().strip()
