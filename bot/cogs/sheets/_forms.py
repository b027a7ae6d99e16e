"""The ``/sheet edit`` modals, and the buttons that open them.

A modal is built from a :class:`~bot.services.sheets._form.SheetForm`; its submission goes to
:func:`bot.services.sheets._edit.submit`, which re-reads the sheet. A form that cannot be
read is answered privately with the reason (naming the line) and a **Fix it** button that
reopens the form with what was typed, so nothing typed is lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import discord

from bot.cogs._common import actor_from, send_pages
from bot.cogs._confirm import OwnedView, answer_error
from bot.cogs._forms import FORM_SECONDS, refuse_form, typed_values
from bot.errors import UserError
from bot.i18n import N_, _
from bot.render.limits import clip
from bot.render.sheets import sheet_pages
from bot.services import sheets
from bot.services.sheets import FIELD_TEXT, LABEL, Part, SheetForm, SheetText


class SheetModal(discord.ui.Modal):
    """One part of one sheet as paragraph fields, one entry per line."""

    def __init__(self, form: SheetForm) -> None:
        super().__init__(
            title=form.title,
            timeout=FORM_SECONDS,
            custom_id=f"sheet-{form.part}-{form.character_id}",
        )
        self.form = form
        for field in form.fields:
            self.add_item(
                discord.ui.TextInput(
                    label=clip(field.label, LABEL),
                    custom_id=field.key,
                    style=discord.TextStyle.paragraph,
                    default=field.value or None,
                    placeholder=clip(field.placeholder, 100),
                    required=False,
                    max_length=FIELD_TEXT,
                )
            )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        typed = typed_values(self)
        try:
            change = await sheets.submit(
                self.db(interaction), actor_from(interaction), self.form.character_id,
                self.form.part, typed,
            )  # fmt: skip
        except UserError as error:
            form = _with_values(self.form, typed)
            await refuse_form(interaction, error, lambda: SheetModal(form))
            return
        await send_pages(
            interaction, sheet_pages(SheetText.of(change.sheet), changed=change.summary)
        )

    @staticmethod
    def db(interaction: discord.Interaction) -> Any:
        return interaction.client.db  # type: ignore[attr-defined]

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:  # type: ignore[override]
        await answer_error(interaction, error)


def _with_values(form: SheetForm, typed: Mapping[str, str]) -> SheetForm:
    fields = tuple(replace(f, value=typed.get(f.key, f.value)) for f in form.fields)
    return replace(form, fields=fields)


async def open_form(
    interaction: discord.Interaction, part: Part, character: str | None = None
) -> None:
    """Answer ``interaction`` with the modal for ``part`` of the caller's character."""
    form = await sheets.form(
        interaction.client.db,  # type: ignore[attr-defined]
        actor_from(interaction),
        part,
        character,
    )
    await interaction.response.send_modal(SheetModal(form))


class FillIn(OwnedView):
    """Under ``/sheet create``'s reply: the new sheet's forms, its system's names prefilled."""

    def __init__(self, owner_id: int, character: str) -> None:
        super().__init__(
            owner_id, refusal=_("Only the character's owner can fill it in."), timeout=FORM_SECONDS
        )
        self.character = character
        self.attributes.label = _(str(self.attributes.label))
        self.skills.label = _(str(self.skills.label))

    @discord.ui.button(label=N_("Fill in attributes"), style=discord.ButtonStyle.primary)
    async def attributes(self, interaction: discord.Interaction, _b: discord.ui.Button) -> None:
        await open_form(interaction, "attributes", self.character)

    @discord.ui.button(label=N_("Fill in skills"), style=discord.ButtonStyle.secondary)
    async def skills(self, interaction: discord.Interaction, _b: discord.ui.Button) -> None:
        await open_form(interaction, "skills", self.character)
