"""Configuration from the environment and ``.env``, validated once at start-up."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

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
    roll_log_keep: int = Field(default=10_000, ge=100, alias="ROLL_LOG_KEEP")
    sqlite_synchronous: Literal["FULL", "NORMAL"] = Field(
        default="FULL", alias="SQLITE_SYNCHRONOUS"
    )
    shard_count: int | None = Field(default=None, ge=1, alias="SHARD_COUNT")
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(default=None, alias="SHARD_IDS")
    # Fair use (docs/hosting.md): a burst, then a steady rate; burst 0 turns it off.
    rate_user_burst: int = Field(default=10, ge=0, alias="RATE_USER_BURST")
    rate_user_per_second: float = Field(default=2.0, ge=0, alias="RATE_USER_PER_SECOND")
    rate_channel_burst: int = Field(default=30, ge=0, alias="RATE_CHANNEL_BURST")
    rate_channel_per_second: float = Field(default=5.0, ge=0, alias="RATE_CHANNEL_PER_SECOND")
    # Autocomplete (suggestions as one types) has its own, more generous, budget per user.
    rate_autocomplete_burst: int = Field(default=20, ge=0, alias="RATE_AUTOCOMPLETE_BURST")
    rate_autocomplete_per_second: float = Field(
        default=5.0, ge=0, alias="RATE_AUTOCOMPLETE_PER_SECOND"
    )
    discord_api_base: str | None = Field(default=None, alias="DISCORD_API_BASE")
    discord_gateway_url: str | None = Field(default=None, alias="DISCORD_GATEWAY_URL")
    discord_client_id: int | None = Field(default=None, alias="DISCORD_CLIENT_ID")
    metrics_port: int | None = Field(default=None, alias="METRICS_PORT", ge=1, le=65535)
    metrics_host: str = Field(default="127.0.0.1", alias="METRICS_HOST")
    # Past capacity (bot.gateway._admission): commands running at once (the rest wait in the
    # fair line, then are told "very busy"); one that waited this many seconds more than usual
    # is too.
    max_in_flight: int = Field(default=256, ge=1, alias="MAX_IN_FLIGHT")
    busy_after: float = Field(default=1.0, gt=0, le=2.5, alias="BUSY_AFTER")
    # Worker processes for heavy odds and charts (bot.workers); unset: 1, or 2 from 3 cores up.
    worker_processes: int | None = Field(default=None, ge=1, le=32, alias="WORKER_PROCESSES")
    # The web companion (bot.web; docs/hosting.md, "The web companion"): where it listens,
    # the address people reach it by (behind a proxy: the proxy's https:// URL), the key
    # that signs its session cookies, Discord's OAuth2 client secret for "Log in with
    # Discord", how long a login lasts, and the fair use of each session and address.
    web_bind: str = Field(default="127.0.0.1:8080", alias="WEB_BIND")
    web_base_url: str | None = Field(default=None, alias="WEB_BASE_URL")
    web_secret_key: SecretStr | None = Field(default=None, alias="WEB_SECRET_KEY")
    discord_client_secret: SecretStr | None = Field(default=None, alias="DISCORD_CLIENT_SECRET")
    web_session_days: float = Field(default=14.0, gt=0, le=365, alias="WEB_SESSION_DAYS")
    web_rate_burst: int = Field(default=60, ge=0, alias="WEB_RATE_BURST")
    web_rate_per_second: float = Field(default=5.0, ge=0, alias="WEB_RATE_PER_SECOND")
    # Behind a reverse proxy every request comes from the proxy: trust the address it adds to
    # X-Forwarded-For (its last entry) for the per-address limit. Only behind a proxy.
    web_trust_proxy: bool = Field(default=False, alias="WEB_TRUST_PROXY")

    @field_validator("gm_role_names", mode="before")
    @classmethod
    def _split_role_names(cls, value: object) -> object:
        # A comma-separated list reads naturally in .env: GM_ROLE_NAMES=GM,Game Master
        if isinstance(value, str):
            return tuple(name.strip() for name in value.split(",") if name.strip())
        return value

    @field_validator("sqlite_synchronous", mode="before")
    @classmethod
    def _upper_synchronous(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("log_level")
    @classmethod
    def _upper_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError(
                f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {value!r}"
            )
        return level

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_shard_ids(cls, value: object) -> object:
        # SHARD_IDS=0-3 or SHARD_IDS=0,2,4-5: ranges are inclusive.
        if not isinstance(value, str):
            return value
        if not value.strip():
            return None
        ids: list[int] = []
        for part in value.split(","):
            first, dash, last = part.strip().partition("-")
            try:
                low, high = int(first), int(last if dash else first)
            except ValueError:
                raise ValueError(
                    f"SHARD_IDS takes shard numbers and ranges like 0-3 or 0,2,4-5, not {value!r}"
                ) from None
            if low > high:
                raise ValueError(f"SHARD_IDS: the range {part.strip()} runs backwards")
            ids.extend(range(low, high + 1))
        return tuple(sorted(set(ids)))

    @field_validator("shard_count", mode="before")
    @classmethod
    def _blank_count_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, value: str) -> str:
        # A wrong scheme would otherwise surface as a driver traceback at the first query.
        problem = database_url_problem(value)
        if problem is not None:
            raise ValueError(f"DATABASE_URL {problem}")
        return value

    @field_validator(
        "dev_guild_id",
        "discord_api_base",
        "discord_gateway_url",
        "discord_client_id",
        "metrics_port",
        "worker_processes",
        "web_base_url",
        "web_secret_key",
        "discord_client_secret",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("web_bind")
    @classmethod
    def _host_and_port(cls, value: str) -> str:
        host, _colon, port = value.strip().rpartition(":")
        if not host or not port.isdigit() or not 1 <= int(port) <= 65535:
            raise ValueError(f"WEB_BIND takes host:port, e.g. 127.0.0.1:8080, not {value!r}")
        return value.strip()

    @field_validator("web_base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if not value.startswith(("http://", "https://")):
            raise ValueError(
                f"WEB_BASE_URL is the address people open, e.g. https://narrator.example.org, "
                f"not {value!r}"
            )
        return value.rstrip("/")

    @property
    def web_host(self) -> str:
        """The address ``narrator web`` listens on (WEB_BIND's host, without IPv6 brackets)."""
        return self.web_bind.rpartition(":")[0].strip("[]")

    @property
    def web_port(self) -> int:
        return int(self.web_bind.rpartition(":")[2])

    @property
    def web_url(self) -> str:
        """Where people reach the web companion: WEB_BASE_URL, else http://WEB_BIND."""
        return self.web_base_url or f"http://{self.web_bind}"

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ConfigError(
                "SHARD_IDS needs SHARD_COUNT: every process must agree on the total "
                "(e.g. SHARD_COUNT=4 with SHARD_IDS=0-1 here and SHARD_IDS=2-3 elsewhere)."
            )
        outside = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
        if outside:
            raise ConfigError(
                f"SHARD_IDS {outside} are outside SHARD_COUNT={self.shard_count} "
                f"(shards are numbered 0 to {self.shard_count - 1})."
            )
        return self

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


# Schemes people paste from hosting dashboards, and the one the bot's driver needs instead.
_SCHEME_FIXES = {
    "postgres": "postgresql+asyncpg://",
    "postgresql": "postgresql+asyncpg://",
    "postgresql+psycopg2": "postgresql+asyncpg://",
    "postgresql+psycopg": "postgresql+asyncpg://",
    "sqlite": "sqlite+aiosqlite:///",
    "sqlite+pysqlite": "sqlite+aiosqlite:///",
}
SUPPORTED_SCHEMES = ("sqlite+aiosqlite", "postgresql+asyncpg")


def database_url_problem(url: str) -> str | None:
    """Why ``url`` cannot work (with the fix when there is one), or None when it can."""
    scheme, separator, _rest = url.strip().partition("://")
    if not separator or not scheme:
        return "is not a database URL: use sqlite+aiosqlite:///path or postgresql+asyncpg://…"
    scheme = scheme.lower()
    if scheme in SUPPORTED_SCHEMES:
        return None
    if scheme in _SCHEME_FIXES:
        return f"starts with {scheme}:// — use {_SCHEME_FIXES[scheme]} instead"
    return (
        f"uses {scheme}://, which Narrator does not support: use sqlite+aiosqlite:///path "
        "or postgresql+asyncpg://user:password@host:5432/narrator"
    )
