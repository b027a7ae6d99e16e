"""Buttons that answer like commands do, and the one "are you sure?" prompt every cog uses.

A button press is not a command, so the command tree's error handler never sees it: without
:class:`KindView` a refused press (a ``PermissionDenied`` from the service) would only be
logged by discord.py and the user would read "This interaction failed".
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.gateway import failure_message, send_ephemeral, user_message
from bot.i18n import N_, _

log = logging.getLogger(__name__)

CONFIRM_SECONDS = 120

OnConfirm = Callable[[discord.Interaction], Awaitable[None]]


async def answer_error(interaction: discord.Interaction, error: BaseException) -> None:
    """What the command tree does for commands, for buttons: a kind message, bugs logged."""
    message = user_message(error)
    if message is None:
        log.error(
            "button failed (user %s, channel %s)",
            interaction.user.id,
            interaction.channel_id,
            exc_info=error,
        )
        message = failure_message()
    await send_ephemeral(interaction, message)


class KindView(discord.ui.View):
    """A view whose button errors reach the presser as an ephemeral message (its presses
    count against the presser's rate limit like every press: bot.gateway._ratelimit)."""

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, _item: discord.ui.Item[Any]
    ) -> None:
        await answer_error(interaction, error)


class OwnedView(KindView):
    """A view only ``owner_id`` may press; anyone else is told ``refusal``."""

    def __init__(self, owner_id: int, *, refusal: str, timeout: float | None) -> None:
        super().__init__(timeout=timeout)
        self.owner_id = owner_id
        self.refusal = refusal

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.owner_id:
            await interaction.response.send_message(self.refusal, ephemeral=True)
            return False
        return True


class Confirm(OwnedView):
    """A danger button and a cancel button that only ``owner_id`` may press.

    Confirming runs ``on_confirm`` (which answers the interaction, usually by editing the
    prompt); cancelling replaces the prompt with ``cancelled``; so does a timeout when the
    prompt was sent with :meth:`ask`. Each ends the prompt.
    """

    def __init__(
        self,
        owner_id: int,
        on_confirm: OnConfirm,
        *,
        confirm_label: str,
        cancel_label: str = N_("Cancel"),
        cancelled: str,
        refusal: str,
        timeout: float | None = None,
    ) -> None:
        super().__init__(
            owner_id, refusal=refusal, timeout=CONFIRM_SECONDS if timeout is None else timeout
        )
        self.on_confirm = on_confirm
        self.cancelled = cancelled
        # Labels in the language of the interaction that builds the prompt (callers pass
        # them translated or marked with N_; translating twice leaves a translation as is).
        self.confirm.label = _(confirm_label)
        self.cancel.label = _(cancel_label)
        self.prompt: discord.Interaction | None = None

    async def ask(self, interaction: discord.Interaction, **message: Any) -> None:
        """Send the prompt privately, remembering it so that a timeout can close it."""
        await interaction.response.send_message(view=self, ephemeral=True, **message)
        self.prompt = interaction

    async def on_timeout(self) -> None:
        """Unanswered: say nothing was done and take the buttons away (a press would fail)."""
        if self.prompt is None:
            return
        try:
            await self.prompt.edit_original_response(
                content=_("No answer. {cancelled}", cancelled=self.cancelled), embed=None, view=None
            )
        except discord.HTTPException:
            log.info("could not close an unanswered confirmation", exc_info=True)

    @discord.ui.button(label=N_("Confirm"), style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _b: discord.ui.Button) -> None:
        self.stop()
        await self.on_confirm(interaction)

    @discord.ui.button(label=N_("Cancel"), style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, _b: discord.ui.Button) -> None:
        self.stop()
        await interaction.response.edit_message(content=self.cancelled, embed=None, view=None)
