"""The command tree: one place where every command error becomes a short, kind reply."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.errors import UserError
from bot.ratelimit import within_limits
from bot.render.limits import MESSAGE, clip
from engine.errors import InputError

log = logging.getLogger(__name__)

GENERIC_FAILURE = (
    "Something went wrong on our side and it has been logged. Nothing was saved; please try again."
)


def user_message(error: BaseException) -> str | None:
    """The message a user should see for ``error``, or None when it is a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserError | InputError):
        return str(error)
    if isinstance(error, app_commands.TransformerError):
        return f"`{clip(str(error.value), 100)}` is not a valid value for this option."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f}s."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You can't use this command here."
    return None  # a bug, DiceError (a misused dice source) included


async def send_ephemeral(interaction: discord.Interaction, message: str) -> None:
    """Answer ``interaction`` ephemerally, whether or not it was answered already."""
    message = clip(message, MESSAGE)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send an error reply", exc_info=True)


class NarratorTree(app_commands.CommandTree):
    """Turns every command error into an ephemeral reply; bugs are logged with context."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # Runs before options are parsed: text options lose NUL characters here, once, since
        # PostgreSQL refuses to store them and no player types one on purpose.
        data = interaction.data
        if data is not None:
            _strip_nul(data.get("options") or [])
        if interaction.type is discord.InteractionType.autocomplete:
            return True  # suggestions as one types are not commands: never limited
        return await within_limits(interaction)

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        message = user_message(error)
        if message is None:
            original = getattr(error, "original", error)
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error(
                "command /%s failed (user %s, channel %s, guild %s)",
                command,
                interaction.user.id if interaction.user else None,
                interaction.channel_id,
                interaction.guild_id,
                exc_info=original,
            )
            message = GENERIC_FAILURE
        await send_ephemeral(interaction, message)


def _strip_nul(options: list[Any]) -> None:
    for option in options:
        if isinstance(option.get("value"), str):
            option["value"] = option["value"].replace("\x00", "")
        _strip_nul(option.get("options") or [])
