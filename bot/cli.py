"""``narrator``: run the bot, the offline console, migrations and command sync."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from bot.config import ConfigError, Settings

log = logging.getLogger("narrator")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="narrator", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("run", help="run the bot (needs DISCORD_TOKEN)")
    console = commands.add_parser("console", help="the bot's commands offline, in this terminal")
    console.add_argument("--db", help="database URL (default: DATABASE_URL or the SQLite file)")
    console.add_argument("--json", action="store_true", help="print each reply as one JSON object")
    console.add_argument(
        "--save-files", metavar="DIR", type=Path, help="save files the bot sends (exports) in DIR"
    )
    commands.add_parser("migrate", help="upgrade the database to the newest schema")
    sync = commands.add_parser("sync", help="register the slash commands with Discord")
    sync.add_argument("--guild", type=int, help="sync to this guild only (instant)")
    args = parser.parse_args(argv)

    try:
        settings = Settings(**({"DATABASE_URL": args.db} if getattr(args, "db", None) else {}))
    except (ValidationError, ConfigError) as error:
        print(f"narrator: configuration error: {_config_message(error)}", file=sys.stderr)
        return 2

    if args.command == "console":
        from bot.console import configure_console_logging, run_console

        configure_console_logging(settings.log_level)
        return asyncio.run(run_console(settings, as_json=args.json, save_files=args.save_files))

    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if args.command == "migrate":
        from bot.storage.migrate import upgrade_to_head

        upgrade_to_head(settings.database_url)
        print("database is at the newest schema")
        return 0
    try:
        token = settings.require_token()
    except ConfigError as error:
        print(f"narrator: {error}", file=sys.stderr)
        return 2
    if args.command == "sync":
        return asyncio.run(_sync(settings, token, args.guild))
    return _run(settings, token)


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


def _run(settings: Settings, token: str) -> int:
    import uvloop

    from bot.app import create_bot, freeze_long_lived_objects
    from bot.proxy import apply_endpoints

    apply_endpoints(settings)
    # uvloop's event loop does the gateway's and the database driver's I/O callbacks in C.
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    bot = create_bot(settings)
    bot.add_listener(freeze_long_lived_objects, "on_ready")
    bot.run(token, log_handler=None)
    return 0


async def _sync(settings: Settings, token: str, guild_id: int | None) -> int:
    import discord

    from bot.app import create_bot
    from bot.proxy import apply_endpoints

    apply_endpoints(settings)
    bot = create_bot(settings.model_copy(update={"dev_guild_id": None}))
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
