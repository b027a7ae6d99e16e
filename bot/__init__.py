"""Narrator, the Discord bot: cogs, services, storage and rendering around ``engine``.

Build the bot with :func:`bot.app.create_bot`; the command line is :mod:`bot.cli`.
"""
