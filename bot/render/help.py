"""The ``/help`` embed: one line per command group, from the tree's own descriptions."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import app_commands

from bot.render import colours
from bot.render.limits import clip, fit_embed
from engine.systems import SYSTEMS


def help_embed(
    commands: Sequence[app_commands.Command | app_commands.Group | app_commands.ContextMenu],
    *,
    default_system: str | None,
) -> discord.Embed:
    lines = []
    for command in sorted(commands, key=lambda c: c.name):
        if isinstance(command, app_commands.ContextMenu):
            continue
        if isinstance(command, app_commands.Group):
            subcommands = "|".join(c.name for c in command.commands)
            lines.append(f"**/{command.name}** {subcommands} — {command.description}")
        else:
            lines.append(f"**/{command.name}** — {command.description}")
    system = SYSTEMS.get(default_system or "")
    embed = discord.Embed(
        title="Narrator — commands",
        description=clip("\n".join(lines), 4096),
        colour=colours.INFO,
    )
    embed.set_footer(
        text=(
            f"This channel plays {system}."
            if system
            else "No default system here yet: a GM can set one with /settings system."
        )
    )
    return fit_embed(embed)
