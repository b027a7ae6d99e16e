"""The host's subcommands of ``narrator``: registered and dispatched from here."""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.hosting.config import Settings

HOSTING_COMMANDS = ("invite", "doctor", "backup", "restore", "copy-db")


def add_commands(commands: argparse._SubParsersAction) -> None:
    commands.add_parser("invite", help="print the URL that adds the bot to a server")
    commands.add_parser("doctor", help="check settings, database and Discord; one line each")
    backup = commands.add_parser("backup", help="copy the live database to PATH (SQLite)")
    backup.add_argument("path", type=Path, help="the new backup file")
    restore = commands.add_parser(
        "restore", help="replace the database with the backup at PATH (the bot must be stopped)"
    )
    restore.add_argument("path", type=Path, help="a file made by narrator backup")
    copy = commands.add_parser(
        "copy-db", help="copy every table to another, empty database (e.g. SQLite → PostgreSQL)"
    )
    copy.add_argument("--to", required=True, metavar="URL", help="the target database URL")


def run_command(args: argparse.Namespace, settings: Settings) -> int:
    """Run one host command; errors are raised for the caller to print as one line."""
    if args.command == "invite":
        from bot.hosting.invite import run_invite

        return run_invite(settings)
    if args.command == "doctor":
        from bot.hosting.doctor import run_doctor

        return run_doctor(settings)
    if args.command == "backup":
        from bot.hosting.backup import backup

        print(backup(settings.database_url, args.path))
        return 0
    if args.command == "restore":
        from bot.hosting.backup import restore

        print(restore(settings.database_url, args.path))
        return 0
    from bot.hosting.copydb import run_copy

    return run_copy(settings.database_url, args.to)
