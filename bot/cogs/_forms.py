"""What every form (Discord modal) shares: a refused form can be reopened as it was typed.

A modal cannot answer a submission with another modal, and a refused form would otherwise
lose everything typed into it: the refusal carries a **Fix it** button that reopens the
form with the typed text, for whoever filled it in.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.cogs._confirm import OwnedView
from bot.i18n import N_, _, translate_error
from bot.render.limits import MESSAGE, clip

FORM_SECONDS = 900
"""How long a form, and the button that reopens it, keep answering."""


def typed_values(modal: discord.ui.Modal) -> dict[str, str]:
    """A submitted modal's text inputs by custom id."""
    return {
        item.custom_id: item.value
        for item in modal.children
        if isinstance(item, discord.ui.TextInput)
    }


class FixIt(OwnedView):
    """Reopens a refused form (``reopen`` builds it again, with what was typed)."""

    def __init__(self, owner_id: int, reopen: Callable[[], discord.ui.Modal]) -> None:
        super().__init__(
            owner_id, refusal=_("Only whoever filled the form can fix it."), timeout=FORM_SECONDS
        )
        self.reopen = reopen
        self.fix.label = _(self.fix.label)  # type: ignore[arg-type]

    @discord.ui.button(label=N_("Fix it"), style=discord.ButtonStyle.primary)
    async def fix(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
        await interaction.response.send_modal(self.reopen())


async def refuse_form(
    interaction: discord.Interaction, error: Exception, reopen: Callable[[], discord.ui.Modal]
) -> None:
    """Answer a form that could not be saved: why, and a button to fix it."""
    await interaction.response.send_message(
        clip(_("Nothing was saved. {error}", error=translate_error(error)), MESSAGE),
        view=FixIt(interaction.user.id, reopen),
        ephemeral=True,
    )
