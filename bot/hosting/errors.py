"""Database failures as one line that names the setting, for every ``narrator`` command."""

from __future__ import annotations

import sqlite3

from sqlalchemy import exc
from sqlalchemy.engine import make_url

from bot.hosting.config import ConfigError

# What a wrong DATABASE_URL raises before or at the first query: a refused or unknown host
# (OSError), a timeout, a driver's refusal (bad password, no such database: DBAPIError), a
# URL SQLAlchemy cannot parse or load a driver for (ArgumentError, NoSuchModuleError).
SQLALCHEMY_ERRORS: tuple[type[BaseException], ...] = (
    exc.DBAPIError,
    exc.ArgumentError,
    exc.NoSuchModuleError,
)
DATABASE_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    sqlite3.Error,
    *SQLALCHEMY_ERRORS,
)


def safe_url(url: str) -> str:
    """``url`` with its password hidden, for messages and logs."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except exc.ArgumentError:
        return "(unparsable URL)"


def database_error_line(error: BaseException, url: str, *, setting: str = "DATABASE_URL") -> str:
    """One line: which setting, which database, and the driver's own reason (first line)."""
    original = getattr(error, "orig", None) or error
    reason = str(original).strip().splitlines()[0] if str(original).strip() else ""
    kind = type(original).__name__
    if isinstance(original, TimeoutError) or "timeout" in kind.lower():
        reason = "no answer in time (is the host right and the server up?)"
    return f"{setting}: cannot use the database at {safe_url(url)}: {kind}: {reason}".rstrip(": ")


class ServiceUnavailable(ConfigError):
    """Something the settings name did not answer: it may pass, so the exit status is 1
    (systemd restarts the bot), where a setting that is simply wrong exits with 2."""


class DatabaseUnavailable(ServiceUnavailable):
    """The database could not be reached or used at start-up; the message is one line."""
