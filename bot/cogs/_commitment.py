"""The buttons of committed secret rolls: the full commitment on the public notice, and a
Verify button on a reveal that recomputes the SHA-256 for whoever presses it."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.cogs._confirm import KindView
from bot.i18n import N_, _
from bot.render.commitments import (
    full_commitments,
    public_notice,
    seal_lines,
    verification_embed,
)
from bot.services import commitments
from bot.services.commitments import Reveal
from bot.services.secrecy import Seal

log = logging.getLogger(__name__)

#: How long the buttons answer; the short commitment alone is enough for ``/dice verify``.
BUTTON_SECONDS = 3600


class NoticeView(KindView):
    """ "Full commitment" for anyone at the table."""

    def __init__(self, seals: Sequence[Seal]) -> None:
        super().__init__(timeout=BUTTON_SECONDS)
        self.seals = tuple(seals)
        self.full.label = _(str(self.full.label))

    @discord.ui.button(label=N_("Full commitment"), style=discord.ButtonStyle.secondary)
    async def full(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
        await interaction.response.send_message(full_commitments(self.seals), ephemeral=True)


class RevealView(KindView):
    """ "Verify" for anyone: the bot recomputes the commitment from the revealed record."""

    def __init__(self, reveal: Reveal) -> None:
        super().__init__(timeout=BUTTON_SECONDS)
        self.reveal = reveal
        self.check.label = _(str(self.check.label))

    @discord.ui.button(label=N_("Verify"), style=discord.ButtonStyle.primary)
    async def check(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
        result = commitments.verify(
            record=self.reveal.record, salt=self.reveal.salt, commitment_hex=self.reveal.commitment
        )
        await interaction.response.send_message(embed=verification_embed(result), ephemeral=True)


async def post_notice(interaction: discord.Interaction, seals: Sequence[Seal]) -> None:
    """Tell the table a secret roll was made, with what fixes it (the roller is not pinged).
    If Discord refuses, the roll stands: the roller's and the GM's copies carry the same
    commitment."""
    try:
        await interaction.followup.send(
            public_notice(interaction.user.mention, seals),
            view=NoticeView(seals),
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException:
        log.warning("could not post a secret roll's notice in channel %s", interaction.channel_id)


def roller_note(seals: Sequence[Seal]) -> str:
    """The commitment lines for the roller's and the GM's copies."""
    return f"\n{seal_lines(seals)}" if seals else ""
