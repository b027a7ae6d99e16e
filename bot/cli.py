"""``narrator``: run the bot, the offline console, migrations, command sync and host tools."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sqlite3
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from bot.hosting.commands import HOSTING_COMMANDS, add_commands, run_command
from bot.hosting.config import ConfigError, Settings
from bot.hosting.errors import (
    DATABASE_ERRORS,
    SQLALCHEMY_ERRORS,
    DatabaseUnavailable,
    ServiceUnavailable,
    database_error_line,
)

if TYPE_CHECKING:
    from bot.app import NarratorBot

log = logging.getLogger("narrator")

#: ``narrator --help``'s first line: plain text (the docstring above is reStructuredText).
DESCRIPTION = "Run the bot, the offline console, migrations, command sync and host tools."


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="narrator", description=DESCRIPTION)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run the bot (needs DISCORD_TOKEN)")
    run.add_argument(
        "--web", action="store_true", help="serve the web companion too, in the same process"
    )
    web = commands.add_parser(
        "web", help="the web companion on WEB_BIND (Log in with Discord, or --local-login)"
    )
    web.add_argument(
        "--local-login",
        action="store_true",
        help="log in by typing a console user's name, to try it offline (refused when "
        "DISCORD_CLIENT_SECRET is set)",
    )
    console = commands.add_parser("console", help="the bot's commands offline, in this terminal")
    console.add_argument("--db", help="database URL (default: DATABASE_URL or the SQLite file)")
    console.add_argument("--json", action="store_true", help="print each reply as one JSON object")
    console.add_argument(
        "--save-files",
        metavar="DIR",
        type=Path,
        help="save files the bot sends (exports, charts) in DIR",
    )
    console.add_argument(
        "--locale",
        default="en-US",
        help="your Discord client's language, e.g. es-ES (replies in Spanish); /locale changes it",
    )
    commands.add_parser("migrate", help="upgrade the database to the newest schema")
    sync = commands.add_parser("sync", help="register the slash commands with Discord")
    sync.add_argument("--guild", type=int, help="sync to this guild only (instant)")
    add_commands(commands)
    args = parser.parse_args(argv)

    try:
        settings = Settings(**({"DATABASE_URL": args.db} if getattr(args, "db", None) else {}))
    except (ValidationError, ConfigError) as error:
        print(f"narrator: configuration error: {_config_message(error)}", file=sys.stderr)
        return 2
    try:
        return _dispatch(args, settings)
    except ServiceUnavailable as error:  # the database or Discord did not answer: may pass
        print(f"narrator: {error}", file=sys.stderr)
        return 1
    except ConfigError as error:  # a bad setting found on the way: one line naming it
        print(f"narrator: {error}", file=sys.stderr)
        return 2
    except SQLALCHEMY_ERRORS as error:  # only the database raises these
        print(f"narrator: {database_error_line(error, settings.database_url)}", file=sys.stderr)
        return 1
    except (OSError, sqlite3.Error) as error:  # e.g. a backup path that cannot be written
        print(f"narrator: {error}", file=sys.stderr)
        return 1


def _dispatch(args: argparse.Namespace, settings: Settings) -> int:
    if args.command in HOSTING_COMMANDS:
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        return run_command(args, settings)
    if args.command == "console":
        from bot.console import LocaleError, configure_console_logging, parse_locale, run_console

        configure_console_logging(settings.log_level)
        try:
            locale = parse_locale(args.locale)
        except LocaleError as error:
            print(f"narrator: {error}", file=sys.stderr)
            return 2
        return asyncio.run(
            run_console(settings, as_json=args.json, save_files=args.save_files, locale=locale)
        )

    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)  # import chatter
    if args.command == "migrate":
        logging.getLogger("alembic").setLevel(logging.WARNING)  # no per-step INFO chatter
        from bot.hosting.errors import safe_url
        from bot.storage.db import ensure_sqlite_directory
        from bot.storage.migrate import upgrade_to_head

        try:
            ensure_sqlite_directory(settings.database_url)
            upgrade_to_head(settings.database_url)
        except DATABASE_ERRORS as error:
            raise DatabaseUnavailable(database_error_line(error, settings.database_url)) from error
        print(f"{safe_url(settings.database_url)} is at the newest schema")
        return 0
    if args.command == "web":
        return _web(settings, local_login=args.local_login)
    token = settings.require_token()
    if args.command == "sync":
        return asyncio.run(_sync(settings, token, args.guild))
    return _run(settings, token, web=args.web)


def _config_message(error: Exception) -> str:
    """Each problem once, named by its variable unless the message already names it."""
    if not isinstance(error, ValidationError):
        return str(error)
    problems = []
    for problem in error.errors():
        where = ".".join(str(part) for part in problem["loc"])
        message = problem["msg"].removeprefix("Value error, ")
        problems.append(
            message if not where or message.startswith(where) else f"{where}: {message}"
        )
    return "; ".join(problems)


def _web_login_problem(settings: Settings, local_login: bool) -> str | None:
    """Why the web companion cannot log anyone in with these settings, or None."""
    if local_login:
        if settings.discord_client_secret is not None:
            return (
                "--local-login is refused while DISCORD_CLIENT_SECRET is set: a server that "
                "logs people in with Discord must not let anyone be anyone"
            )
        return None
    if settings.discord_client_id is None or settings.discord_client_secret is None:
        return (
            "DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET are needed for Log in with Discord "
            "(developer portal > OAuth2); to try it offline: narrator web --local-login"
        )
    return None


def _web(settings: Settings, *, local_login: bool) -> int:
    import uvloop

    from bot.storage import Database
    from bot.web import serve

    problem = _web_login_problem(settings, local_login)
    if problem is not None:
        raise ConfigError(problem)
    logging.getLogger("alembic").setLevel(logging.WARNING)  # no per-step INFO chatter
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    database = Database(settings.database_url, synchronous=settings.sqlite_synchronous)

    async def main() -> None:
        try:
            try:
                await database.upgrade_async()  # the bot may not have run on it yet
            except DATABASE_ERRORS as error:
                raise DatabaseUnavailable(
                    database_error_line(error, settings.database_url)
                ) from error
            print(f"narrator web: {settings.web_url}", flush=True)
            await serve(settings, database, local_login=local_login)
        finally:
            await database.dispose()

    with suppress(KeyboardInterrupt):
        asyncio.run(main())
    return 0


async def _bot_with_web(bot: NarratorBot, token: str) -> None:
    """``narrator run --web``: the bot and the web companion on one event loop."""
    from bot.web import start_web

    async with bot:
        await bot.login(token)  # runs setup_hook: the database is migrated before pages open
        runner = await start_web(bot.settings, bot.db)
        try:
            await bot.connect()
        finally:
            await runner.cleanup()


def _run(settings: Settings, token: str, *, web: bool = False) -> int:
    import uvloop

    from bot.app import create_bot, freeze_long_lived_objects
    from bot.gateway._proxy import apply_endpoints
    from bot.hosting.backup import hold_run_lock

    apply_endpoints(settings)
    # Held until the process ends, so `narrator restore` cannot replace the file under us.
    run_lock = hold_run_lock(settings.database_url)
    # uvloop's event loop does the gateway's and the database driver's I/O callbacks in C.
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    bot = create_bot(settings, serve_metrics=True, sharded=True, admit=True)
    bot.add_listener(freeze_long_lived_objects, "on_ready")
    if web and (problem := _web_login_problem(settings, local_login=False)) is not None:
        raise ConfigError(problem)
    try:
        with _discord_errors():
            if web:
                with suppress(KeyboardInterrupt):
                    asyncio.run(_bot_with_web(bot, token))
            else:
                bot.run(token, log_handler=None)
    finally:
        if run_lock is not None:
            run_lock.close()
    return 0


@contextmanager
def _discord_errors() -> Iterator[None]:
    """Discord's refusals of the settings as one line each (ConfigError), not tracebacks."""
    import aiohttp
    import discord

    try:
        yield
    except discord.LoginFailure:
        raise ConfigError("DISCORD_TOKEN: Discord refused the token: reset it under Bot") from None
    except discord.PrivilegedIntentsRequired:
        raise ConfigError(
            "the Server Members intent is off: enable it in the developer portal under Bot > "
            "Privileged Gateway Intents"
        ) from None
    except aiohttp.ClientConnectionError as error:
        raise ServiceUnavailable(
            f"could not reach Discord ({type(error).__name__}: {error})"
        ) from None


async def _sync(settings: Settings, token: str, guild_id: int | None) -> int:
    from bot.app import create_bot
    from bot.gateway._proxy import apply_endpoints

    apply_endpoints(settings)
    bot = create_bot(settings.model_copy(update={"dev_guild_id": None}))
    with _discord_errors():
        return await _sync_commands(bot, token, guild_id)


async def _sync_commands(bot: NarratorBot, token: str, guild_id: int | None) -> int:
    import discord

    async with bot:
        await bot.login(token)  # runs setup_hook: migrations and cogs, no sync
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
            print(f"synced {len(synced)} commands to guild {guild_id}")
        else:
            synced = await bot.tree.sync()
            print(f"synced {len(synced)} commands globally (Discord may take up to an hour)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
