"""The command tree: one place where every command error becomes a short, kind reply."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.errors import UserError
from bot.gateway import _deadline as deadline
from bot.gateway._admission import Admission
from bot.gateway._deadline import answer_in_time
from bot.gateway._interactions import apply_language
from bot.hosting.metrics import BotMetrics
from bot.i18n import N_, _, translate_error
from bot.internals import CommandTreeHooks
from bot.render.limits import MESSAGE, clip
from bot.storage.db import track_writes, tracked_writes
from engine.errors import InputError

log = logging.getLogger(__name__)

GENERIC_FAILURE = N_(
    "Something went wrong on our side and it has been logged. Nothing was saved; please try again."
)
SAVED_BUT_FAILED = N_(
    "Your change was saved, but something went wrong after it (it has been logged), so a reply "
    "may be missing. Please don't repeat the command: check the result instead."
)
SAVE_IN_DOUBT = N_(
    "The database connection failed while saving (it has been logged): your change may or may "
    "not have been saved. Please check before trying again."
)


def failure_message() -> str:
    """What to tell the user after a bug, true to what this interaction's transactions did.

    "Nothing was saved" only when no commit happened: a reply that fails after the commit
    must not make the user repeat a change that is already on disk.
    """
    writes = tracked_writes()
    if writes.in_doubt:
        return _(SAVE_IN_DOUBT)
    if writes.committed:
        return _(SAVED_BUT_FAILED)
    return _(GENERIC_FAILURE)


def user_message(error: BaseException) -> str | None:
    """The message a user should see for ``error``, or None when it is a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserError | InputError):
        return translate_error(error)
    if isinstance(error, app_commands.TransformerError):
        return _(
            "`{value}` is not a valid value for this option.", value=clip(str(error.value), 100)
        )
    if isinstance(error, app_commands.CommandOnCooldown):
        return _("Slow down: try again in {seconds} s.", seconds=f"{error.retry_after:.0f}")
    if isinstance(error, app_commands.CheckFailure):
        return translate_error(error) if str(error) else _("You can't use this command here.")
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


class NarratorTree(CommandTreeHooks):
    """Turns every command error into an ephemeral reply; bugs are logged with context."""

    async def around_call(self, interaction: discord.Interaction, call: Any) -> None:
        # A command still working after ~1.5 s is deferred, so Discord's 3 s never lapses.
        client = interaction.client  # a property: read once for both attributes
        admission: Admission | None = getattr(client, "admission", None)
        metrics: BotMetrics | None = getattr(client, "metrics", None)
        if admission is None:
            async with answer_in_time(interaction):
                await call(interaction)
            if metrics is not None:
                _count_completion(metrics, interaction)
            return
        # Past capacity (bot.gateway._admission): the 1.5 s count from when Discord created the
        # interaction, the commands running at once are counted, and how late each one's first
        # answer goes out adapts their bound.
        admission.started()
        try:
            after = max(0.0, deadline.DEFER_AFTER - admission.waited(interaction.id))
            async with answer_in_time(interaction, after=after, answered=admission.answered):
                await call(interaction)
        finally:
            admission.finished()
        if metrics is not None:
            _count_completion(metrics, interaction)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # Runs before options are parsed: text options lose NUL characters here, once, since
        # PostgreSQL refuses to store them and no player types one on purpose.
        track_writes()  # the error handler below tells the user whether anything was saved
        data = interaction.data
        options = data.get("options") if data is not None else None
        if options:
            _strip_nul(options)  # type: ignore[arg-type]
        BotMetrics.started(interaction)
        await apply_language(interaction)  # every reply below, refusals included
        # The fair-use limits were applied at the gateway, on the raw payload
        # (bot.gateway._interactions, bot.gateway._ratelimit): a refused command never gets here.
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        message = user_message(error)
        original = getattr(error, "original", error)
        metrics: BotMetrics | None = getattr(interaction.client, "metrics", None)
        if metrics is not None:
            metrics.finished(
                interaction, "refused" if message else "error", None if message else original
            )
        if message is None:
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error(
                "command /%s failed (user %s, channel %s, guild %s)",
                command,
                interaction.user.id if interaction.user else None,
                interaction.channel_id,
                interaction.guild_id,
                exc_info=original,
            )
            message = failure_message()
        await send_ephemeral(interaction, message)


def _count_completion(metrics: BotMetrics, interaction: discord.Interaction) -> None:
    """Count a command that completed ("ok") here, where discord.py would dispatch
    ``app_command_completion``: a command ran (not autocomplete) and did not fail (its
    checks passed, it raised nothing). A listener of that event cost a task per command.
    Refusals and errors are counted by :meth:`NarratorTree.on_error`."""
    if (
        interaction.type is not discord.InteractionType.autocomplete
        and not interaction.command_failed
        and interaction.command is not None
    ):
        metrics.finished(interaction, "ok")


def _strip_nul(options: list[Any]) -> None:
    # Every command's options pass here: nothing is replaced or descended into for nothing.
    for option in options:
        value = option.get("value")
        if isinstance(value, str) and "\x00" in value:
            option["value"] = value.replace("\x00", "")
        nested = option.get("options")
        if nested:
            _strip_nul(nested)
