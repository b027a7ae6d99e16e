"""The ``/sheet edit`` modals, and the buttons that open them.

A modal is built from a :class:`~bot.services.sheet_form.SheetForm`; its submission goes to
:func:`bot.services.sheet_edit.submit`, which re-reads the sheet. A form that cannot be
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
from bot.errors import UserError
from bot.render.limits import MESSAGE, clip
from bot.render.sheets import sheet_pages
from bot.services import sheet_edit
from bot.services.sheet_form import FIELD_TEXT, LABEL, Part, SheetForm

FORM_SECONDS = 900  # Discord keeps a modal open until the user closes it; this bounds ours


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

    def values(self) -> dict[str, str]:
        return {
            item.custom_id: item.value
            for item in self.children
            if isinstance(item, discord.ui.TextInput)
        }

    async def on_submit(self, interaction: discord.Interaction) -> None:
        typed = self.values()
        try:
            change = await sheet_edit.submit(
                self.db(interaction), actor_from(interaction), self.form.character_id,
                self.form.part, typed,
            )  # fmt: skip
        except UserError as error:
            retry = FixIt(interaction.user.id, _with_values(self.form, typed))
            await interaction.response.send_message(
                clip(f"Nothing was saved. {error}", MESSAGE), view=retry, ephemeral=True
            )
            return
        await send_pages(interaction, sheet_pages(change.sheet, changed=change.summary))

    @staticmethod
    def db(interaction: discord.Interaction) -> Any:
        return interaction.client.db  # type: ignore[attr-defined]

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await answer_error(interaction, error)


def _with_values(form: SheetForm, typed: Mapping[str, str]) -> SheetForm:
    fields = tuple(replace(f, value=typed.get(f.key, f.value)) for f in form.fields)
    return replace(form, fields=fields)


class FixIt(OwnedView):
    """Reopens a refused form with what was typed in it."""

    def __init__(self, owner_id: int, form: SheetForm) -> None:
        super().__init__(
            owner_id, refusal="Only whoever filled the form can fix it.", timeout=FORM_SECONDS
        )
        self.form = form

    @discord.ui.button(label="Fix it", style=discord.ButtonStyle.primary)
    async def fix(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
        await interaction.response.send_modal(SheetModal(self.form))


async def open_form(
    interaction: discord.Interaction, part: Part, character: str | None = None
) -> None:
    """Answer ``interaction`` with the modal for ``part`` of the caller's character."""
    form = await sheet_edit.form(
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
            owner_id, refusal="Only the character's owner can fill it in.", timeout=FORM_SECONDS
        )
        self.character = character

    @discord.ui.button(label="Fill in attributes", style=discord.ButtonStyle.primary)
    async def attributes(self, interaction: discord.Interaction, _b: discord.ui.Button) -> None:
        await open_form(interaction, "attributes", self.character)

    @discord.ui.button(label="Fill in skills", style=discord.ButtonStyle.secondary)
    async def skills(self, interaction: discord.Interaction, _b: discord.ui.Button) -> None:
        await open_form(interaction, "skills", self.character)
