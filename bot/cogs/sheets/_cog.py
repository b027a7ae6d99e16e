"""``/sheet create|show|set|skill|resource|note|use|list|delete|export|import``."""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands

from bot.cogs._common import Choices, NarratorCog, actor_from, safe_autocomplete
from bot.cogs._sheets import (
    attribute_autocomplete,
    character_autocomplete,
    skill_autocomplete,
)
from bot.errors import UserError
from bot.render.sheets import created_embed, list_embed, resource_embed, sheet_embed
from bot.services import sheets
from bot.services.sheet import MAX_VALUE, MIN_VALUE, NAME_LENGTH, NOTES_LENGTH
from engine.systems import SYSTEMS

log = logging.getLogger(__name__)

Value = app_commands.Range[int, MIN_VALUE, MAX_VALUE]
Name = app_commands.Range[str, 1, NAME_LENGTH]
SYSTEM_CHOICES = [app_commands.Choice(name=title, value=key) for key, title in SYSTEMS.items()]


async def _suggest(interaction: discord.Interaction, current: str, kind: str) -> Choices:
    character = getattr(interaction.namespace, "character", None)
    async with interaction.client.db.unit_of_work(read_only=True) as session:  # type: ignore[attr-defined]
        names = await sheets.suggested_names(
            session, actor_from(interaction), kind, current, character or None
        )
    return [app_commands.Choice(name=name, value=name) for name in names]


@safe_autocomplete
async def attribute_suggestions(interaction: discord.Interaction, current: str) -> Choices:
    """The sheet's attributes, then its system template's missing ones."""
    return await _suggest(interaction, current, "attributes")


@safe_autocomplete
async def resource_suggestions(interaction: discord.Interaction, current: str) -> Choices:
    return await _suggest(interaction, current, "resources")


class ConfirmDelete(discord.ui.View):
    """Delete / Cancel buttons for the character's owner."""

    def __init__(self, db: object, owner_id: int, character_id: int, name: str) -> None:
        super().__init__(timeout=120)
        self.db = db
        self.owner_id = owner_id
        self.character_id = character_id
        self.name = name

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.owner_id:
            await interaction.response.send_message(
                "Only the character's owner can answer this.", ephemeral=True
            )
            return False
        return True

    @discord.ui.button(label="Delete", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
        self.stop()
        try:
            name = await sheets.delete(self.db, actor_from(interaction), self.character_id)  # type: ignore[arg-type]
        except UserError as error:
            await interaction.response.edit_message(content=str(error), view=None)
            return
        await interaction.response.edit_message(content=f"Deleted {name}.", view=None)

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
        self.stop()
        await interaction.response.edit_message(
            content=f"Kept {self.name}: nothing was deleted.", view=None
        )


class SheetsCog(NarratorCog):
    sheet = app_commands.Group(name="sheet", description="Your characters' sheets")

    @sheet.command(name="create", description="Create a character (active here at once)")
    @app_commands.describe(name="The character's name", system="The game system it plays")
    @app_commands.choices(system=SYSTEM_CHOICES)
    async def create(self, interaction: discord.Interaction, name: Name, system: str) -> None:
        sheet = await sheets.create(self.db, actor_from(interaction), name, system)
        await interaction.response.send_message(embed=created_embed(sheet), ephemeral=True)

    @sheet.command(name="show", description="Show a sheet: yours, or (GM) one used here")
    @app_commands.describe(
        character="Which character (default: your active one)",
        player="Whose character (GM: another player's)",
    )
    @app_commands.autocomplete(character=character_autocomplete)
    async def show(
        self,
        interaction: discord.Interaction,
        character: Name | None = None,
        player: discord.Member | None = None,
    ) -> None:
        sheet = await sheets.show(
            self.db, actor_from(interaction), character, player.id if player else None
        )
        await interaction.response.send_message(embed=sheet_embed(sheet), ephemeral=True)

    @sheet.command(name="set", description="Set an attribute (remove:True deletes it)")
    @app_commands.describe(
        attribute="Attribute name (suggestions from your system)",
        value=f"Its value, {MIN_VALUE}…{MAX_VALUE}",
        remove="Delete this attribute instead",
        character="Which of your characters (default: your active one)",
    )
    @app_commands.autocomplete(attribute=attribute_suggestions, character=character_autocomplete)
    async def set_(
        self,
        interaction: discord.Interaction,
        attribute: Name,
        value: Value | None = None,
        remove: bool = False,
        character: Name | None = None,
    ) -> None:
        if not remove and value is None:
            raise UserError("Give the attribute a `value` (or `remove:True` to delete it).")
        change = await sheets.set_attribute(
            self.db, actor_from(interaction), attribute, None if remove else value, character
        )
        await interaction.response.send_message(
            embed=sheet_embed(change.sheet, changed=change.summary), ephemeral=True
        )

    @sheet.command(name="skill", description="Add or change a skill (remove:True deletes it)")
    @app_commands.describe(
        name="Skill name",
        ranks=f"Its ranks, {MIN_VALUE}…{MAX_VALUE} (needed for a new skill)",
        attribute="Its parent attribute (empty text clears it)",
        specialty="Specialties, comma-separated; replaces the list (empty text clears it)",
        remove="Delete this skill instead",
        character="Which of your characters (default: your active one)",
    )
    @app_commands.autocomplete(
        name=skill_autocomplete, attribute=attribute_autocomplete, character=character_autocomplete
    )
    async def skill(
        self,
        interaction: discord.Interaction,
        name: Name,
        ranks: Value | None = None,
        attribute: app_commands.Range[str, 0, NAME_LENGTH] | None = None,
        specialty: app_commands.Range[str, 0, 1000] | None = None,
        remove: bool = False,
        character: Name | None = None,
    ) -> None:
        change = await sheets.set_skill(
            self.db,
            actor_from(interaction),
            name,
            ranks,
            attribute=attribute,
            specialties=specialty,
            character=character,
            remove=remove,
        )
        await interaction.response.send_message(
            embed=sheet_embed(change.sheet, changed=change.summary), ephemeral=True
        )

    @sheet.command(
        name="resource", description="Set or change a resource (GM: any character used here)"
    )
    @app_commands.describe(
        name="Resource name (Health, Courage, Grit, W…)",
        current=f"Its new current value, {MIN_VALUE}…{MAX_VALUE}",
        change="Add to it (negative: damage), kept within its max",
        max="Its maximum (optional)",
        remove="Delete this resource instead (owner)",
        character="Which character (default: your active one; GM: any used here)",
    )
    @app_commands.autocomplete(name=resource_suggestions, character=character_autocomplete)
    async def resource(
        self,
        interaction: discord.Interaction,
        name: Name,
        current: Value | None = None,
        change: app_commands.Range[int, -2 * MAX_VALUE, 2 * MAX_VALUE] | None = None,
        max: Value | None = None,
        remove: bool = False,
        character: Name | None = None,
    ) -> None:
        actor = actor_from(interaction)
        if remove:
            removed = await sheets.remove_resource(self.db, actor, name, character)
            await interaction.response.send_message(
                embed=sheet_embed(removed.sheet, changed=removed.summary), ephemeral=True
            )
            return
        result = await sheets.set_resource(
            self.db, actor, name, current=current, delta=change, maximum=max, character=character
        )
        # A GM's change to another player's character is public: the table sees the damage.
        await interaction.response.send_message(
            embed=resource_embed(result), ephemeral=result.owner_id == actor.user_id
        )

    @sheet.command(name="note", description="Set a character's notes (empty clears them)")
    @app_commands.describe(
        text=f"Up to {NOTES_LENGTH} characters; leave empty to clear",
        character="Which of your characters (default: your active one)",
    )
    @app_commands.autocomplete(character=character_autocomplete)
    async def note(
        self,
        interaction: discord.Interaction,
        text: app_commands.Range[str, 1, NOTES_LENGTH] | None = None,
        character: Name | None = None,
    ) -> None:
        change = await sheets.set_notes(self.db, actor_from(interaction), text, character)
        await interaction.response.send_message(
            embed=sheet_embed(change.sheet, changed=change.summary), ephemeral=True
        )

    @sheet.command(name="use", description="Choose your active character in this channel")
    @app_commands.describe(character="One of your characters")
    @app_commands.autocomplete(character=character_autocomplete)
    async def use(self, interaction: discord.Interaction, character: Name) -> None:
        sheet = await sheets.use(self.db, actor_from(interaction), character)
        await interaction.response.send_message(
            f"You now play **{sheet.name}** ({sheet.system_title}) in this channel.",
            ephemeral=True,
        )

    @sheet.command(name="list", description="List your characters (GM: a player's)")
    @app_commands.describe(player="Whose characters (GM only for another player)")
    async def list_(
        self, interaction: discord.Interaction, player: discord.Member | None = None
    ) -> None:
        listing = await sheets.list_characters(
            self.db, actor_from(interaction), player.id if player else None
        )
        owner = player or interaction.user
        await interaction.response.send_message(
            embed=list_embed(listing, owner.display_name), ephemeral=True
        )

    @sheet.command(name="delete", description="Delete one of your characters (asks first)")
    @app_commands.describe(character="One of your characters")
    @app_commands.autocomplete(character=character_autocomplete)
    async def delete(self, interaction: discord.Interaction, character: Name) -> None:
        sheet = await sheets.own_character(self.db, actor_from(interaction), character)
        view = ConfirmDelete(self.db, interaction.user.id, sheet.id, sheet.name)
        await interaction.response.send_message(
            f"Delete **{sheet.name}** and everything on its sheet? This cannot be undone.",
            view=view,
            ephemeral=True,
        )

    @sheet.command(name="export", description="Download a sheet as a JSON file")
    @app_commands.describe(character="Which character (default: your active one)")
    @app_commands.autocomplete(character=character_autocomplete)
    async def export(self, interaction: discord.Interaction, character: Name | None = None) -> None:
        filename, data = await sheets.export(self.db, actor_from(interaction), character)
        await interaction.response.send_message(
            "Here is the sheet; `/sheet import` reads it back.",
            file=discord.File(io.BytesIO(data), filename=filename),
            ephemeral=True,
        )

    @sheet.command(name="import", description="Create a character from an exported JSON file")
    @app_commands.describe(
        file="A JSON file made by /sheet export",
        replace="Overwrite your character of the same name",
    )
    async def import_(
        self, interaction: discord.Interaction, file: discord.Attachment, replace: bool = False
    ) -> None:
        sheets.check_import_size(file.size)  # before downloading it
        content = await file.read()
        sheet = await sheets.import_sheet(
            self.db, actor_from(interaction), content, replace=replace
        )
        await interaction.response.send_message(
            embed=sheet_embed(sheet, changed="imported"), ephemeral=True
        )
