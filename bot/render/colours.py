"""Colours by outcome, shared by every system's embeds so a table reads them at a glance."""

from __future__ import annotations

import discord

NEUTRAL = discord.Colour.blurple()
SUCCESS = discord.Colour.green()
GREAT_SUCCESS = discord.Colour.from_rgb(46, 204, 113)
PARTIAL = discord.Colour.gold()
FAILURE = discord.Colour.orange()
DISASTER = discord.Colour.red()
SECRET = discord.Colour.dark_grey()
INFO = discord.Colour.teal()
ERROR = discord.Colour.red()
