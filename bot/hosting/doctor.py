"""``narrator doctor``: check settings, database and Discord, one line per check.

Every check is bounded in time, so a host without internet (or a firewalled database) gets
"could not reach" lines instead of a hang; the exit status is 1 when any check failed.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Callable
from dataclasses import dataclass

import aiohttp
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.hosting.backup import sqlite_path
from bot.hosting.config import Settings
from bot.hosting.errors import DATABASE_ERRORS, database_error_line, safe_url
from bot.hosting.invite import client_id_from_token
from bot.hosting.schema import schema_state

DISCORD_API = "https://discord.com/api/v10"
TIMEOUT = 5.0  # seconds, per network check
# Application flags: the Server Members intent is on (verified apps get the first one).
GATEWAY_GUILD_MEMBERS = 1 << 14
GATEWAY_GUILD_MEMBERS_LIMITED = 1 << 15
TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")

OK, WARN, FAIL = "ok", "warn", "FAIL"


@dataclass(frozen=True)
class Check:
    status: str
    name: str
    detail: str

    def line(self) -> str:
        return f"{self.status:<4}  {self.name}: {self.detail}"


def check_token(settings: Settings) -> Check:
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        return Check(FAIL, "DISCORD_TOKEN", "not set (narrator run and sync need it)")
    if token.lower().startswith("bot "):
        return Check(FAIL, "DISCORD_TOKEN", 'starts with "Bot ": put the token alone')
    if not TOKEN_SHAPE.match(token) or client_id_from_token(token) is None:
        return Check(
            FAIL,
            "DISCORD_TOKEN",
            "does not look like a bot token (three dot-separated parts, the first the "
            "application id): copy it again from Bot > Reset Token",
        )
    return Check(
        OK, "DISCORD_TOKEN", f"looks like a bot token (application {client_id_from_token(token)})"
    )


def _missing_sqlite_file(settings: Settings) -> Check | None:
    """Connecting would create an empty file; say it is not there yet instead."""
    path = sqlite_path(settings.database_url)
    if path is None or path.exists():
        return None
    # migrate creates the missing folders, then the file: the nearest existing one must
    # be a folder this user may write in.
    existing = next(folder for folder in path.parents if folder.exists())
    if not existing.is_dir():
        return Check(FAIL, "database", f"{path} cannot be created: {existing} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        return Check(
            FAIL,
            "database",
            f"{path} cannot be created: this user may not write in {existing} "
            "(choose another DATABASE_URL, or give this user that folder)",
        )
    return Check(
        WARN,
        "database",
        f"{path} does not exist yet: narrator migrate (or the first run) creates it",
    )


async def check_database(settings: Settings) -> list[Check]:
    """Reachability, then the schema's version against this version's migrations."""
    missing = _missing_sqlite_file(settings)
    if missing is not None:
        return [missing]
    shown = safe_url(settings.database_url)
    engine = create_async_engine(settings.database_url, pool_pre_ping=False)
    try:
        async with asyncio.timeout(TIMEOUT * 2):
            async with engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
            state = await schema_state(engine)
    except DATABASE_ERRORS as error:
        return [Check(FAIL, "database", database_error_line(error, settings.database_url))]
    finally:
        await engine.dispose()
    reached = Check(OK, "database", f"answers at {shown}")
    if state.at_head:
        return [reached, Check(OK, "schema", state.describe())]
    status = FAIL if state.newer else WARN
    return [reached, Check(status, "schema", state.describe())]


async def check_discord(settings: Settings) -> Check:
    """The token against Discord and the Server Members intent, when Discord answers."""
    token = settings.discord_token.get_secret_value().strip() if settings.discord_token else ""
    if not token:
        return Check(WARN, "discord", "not checked: no DISCORD_TOKEN")
    base = (settings.discord_api_base or DISCORD_API).rstrip("/")
    timeout = aiohttp.ClientTimeout(total=TIMEOUT)
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.get(
                f"{base}/applications/@me", headers={"Authorization": f"Bot {token}"}
            ) as response,
        ):
            if response.status == 401:
                return Check(FAIL, "discord", "Discord refused the token: reset it under Bot")
            if response.status != 200:
                return Check(
                    WARN, "discord", f"{base} answered HTTP {response.status}: not checked"
                )
            application = await response.json()
    except (TimeoutError, aiohttp.ClientError, OSError) as error:
        reason = "no answer in time" if isinstance(error, TimeoutError) else type(error).__name__
        return Check(
            WARN,
            "discord",
            f"could not reach Discord at {base} ({reason}): token and intents not checked",
        )
    flags = int(application.get("flags") or 0)
    name = application.get("name", "?")
    if not flags & (GATEWAY_GUILD_MEMBERS | GATEWAY_GUILD_MEMBERS_LIMITED):
        return Check(
            FAIL,
            "discord",
            f"{name}: the Server Members intent is off: enable it under Bot > "
            "Privileged Gateway Intents",
        )
    return Check(OK, "discord", f"{name}: token accepted, Server Members intent on")


async def diagnose(settings: Settings, emit: Callable[[Check], None]) -> bool:
    """Run every check, emitting each as it finishes; True when none failed."""
    checks = [
        Check(OK, "settings", "every setting parses"),
        Check(OK, "DATABASE_URL", f"a supported database: {safe_url(settings.database_url)}"),
        check_token(settings),
    ]
    for check in checks:
        emit(check)
    for check in await check_database(settings):
        checks.append(check)
        emit(check)
    discord_check = await check_discord(settings)
    checks.append(discord_check)
    emit(discord_check)
    return all(check.status != FAIL for check in checks)


def run_doctor(settings: Settings) -> int:
    healthy = asyncio.run(diagnose(settings, lambda check: print(check.line(), flush=True)))
    return 0 if healthy else 1
