"""Tools for people who host the bot: settings, invite, doctor, backups, database copies, metrics.

Each ``narrator`` subcommand for hosts lives in its own module here; :mod:`bot.hosting.commands`
registers them with the command line, so ``bot/cli.py`` only hands over.
"""
