"""``/sheet create|edit|show|set|skill|resource|note|use|list|rename|copy|delete|export|import``
and ``/sheet panel``."""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._common import NarratorCog, actor_from, send_pages
from bot.cogs._confirm import Confirm
from bot.cogs._options import CHARACTER_HELP, SYSTEM_CHOICES, SheetName
from bot.cogs._sheets import (
    attribute_autocomplete,
    character_autocomplete,
    sheet_names_from,
    skill_autocomplete,
)
from bot.cogs.macros import post_panel
from bot.cogs.sheets._forms import FillIn, open_form
from bot.errors import UserError
from bot.i18n import _
from bot.render.sheets import created_embed, list_embed, resource_embed, sheet_pages
from bot.services import sheets
from bot.services.sheets import (
    MAX_VALUE,
    MIN_VALUE,
    NAME_LENGTH,
    NOTES_LENGTH,
    SheetChange,
    SheetText,
)
from bot.text import UserText

Value = app_commands.Range[int, MIN_VALUE, MAX_VALUE]


attribute_suggestions = sheet_names_from(sheets.suggestions("attributes"))
resource_suggestions = sheet_names_from(sheets.suggestions("resources"))


class SheetsCog(NarratorCog):
    sheet = app_commands.Group(name="sheet", description=locale_str("Your characters' sheets"))

    @sheet.command(
        name="create", description=locale_str("Create a character (active here at once)")
    )
    @app_commands.describe(
        name=locale_str("The character's name"), system=locale_str("The game system it plays")
    )
    @app_commands.choices(system=SYSTEM_CHOICES)
    async def create(self, interaction: discord.Interaction, name: SheetName, system: str) -> None:
        sheet = await sheets.create(self.db, actor_from(interaction), name, system)
        await interaction.response.send_message(
            embed=created_embed(SheetText.of(sheet)),
            view=FillIn(interaction.user.id, sheet.name),
            ephemeral=True,
        )

    @sheet.command(
        name="edit", description=locale_str("Edit a whole sheet in a form: attributes or skills")
    )
    @app_commands.describe(
        part=locale_str("attributes (with resources and notes) or skills"),
        character=locale_str("Which of your characters (default: your active one)"),
    )
    @app_commands.choices(
        part=[
            app_commands.Choice(
                name=locale_str("attributes, resources and notes"), value="attributes"
            ),
            app_commands.Choice(name=locale_str("skills"), value="skills"),
        ]
    )
    @app_commands.autocomplete(character=character_autocomplete)
    async def edit(
        self,
        interaction: discord.Interaction,
        part: str = "attributes",
        character: SheetName | None = None,
    ) -> None:
        await open_form(interaction, "skills" if part == "skills" else "attributes", character)

    @sheet.command(name="rename", description=locale_str("Rename one of your characters"))
    @app_commands.describe(
        character=locale_str("One of your characters"), new_name=locale_str("Its new name")
    )
    @app_commands.autocomplete(character=character_autocomplete)
    async def rename(
        self, interaction: discord.Interaction, character: SheetName, new_name: SheetName
    ) -> None:
        change = await sheets.rename(self.db, actor_from(interaction), character, new_name)
        await _reply_change(interaction, change)

    @sheet.command(name="copy", description=locale_str("Copy a sheet to a new character of yours"))
    @app_commands.describe(
        new_name=locale_str("The copy's name"),
        character=locale_str("The sheet to copy (default: your active one; GMs may name any here)"),
    )
    @app_commands.autocomplete(character=character_autocomplete)
    async def copy(
        self,
        interaction: discord.Interaction,
        new_name: SheetName,
        character: SheetName | None = None,
    ) -> None:
        sheet = await sheets.copy(self.db, actor_from(interaction), character, new_name)
        change = SheetChange(sheet, _("a copy; `/sheet use` plays it here"))
        await _reply_change(interaction, change)

    @sheet.command(
        name="show", description=locale_str("Show a sheet: yours, or (GM) one used here")
    )
    @app_commands.describe(
        character=CHARACTER_HELP,
        player=locale_str("Whose character (GM: another player's)"),
    )
    @app_commands.autocomplete(character=character_autocomplete)
    async def show(
        self,
        interaction: discord.Interaction,
        character: SheetName | None = None,
        player: discord.Member | None = None,
    ) -> None:
        sheet = await sheets.show(
            self.db, actor_from(interaction), character, player.id if player else None
        )
        await send_pages(interaction, sheet_pages(SheetText.of(sheet)))

    @sheet.command(name="set", description=locale_str("Set an attribute (remove:true deletes it)"))
    @app_commands.describe(
        attribute=locale_str("Attribute name (suggestions from your system)"),
        value=locale_str("Its value, -100…1000"),  # MIN_VALUE…MAX_VALUE
        remove=locale_str("Delete this attribute instead"),
        character=locale_str("Which of your characters (default: your active one)"),
    )
    @app_commands.autocomplete(attribute=attribute_suggestions, character=character_autocomplete)
    async def set_(
        self,
        interaction: discord.Interaction,
        attribute: SheetName,
        value: Value | None = None,
        remove: bool = False,
        character: SheetName | None = None,
    ) -> None:
        if not remove and value is None:
            raise UserError(_("Give the attribute a `value` (or `remove:true` to delete it)."))
        change = await sheets.set_attribute(
            self.db, actor_from(interaction), attribute, None if remove else value, character
        )
        await _reply_change(interaction, change)

    @sheet.command(
        name="skill", description=locale_str("Add or change a skill (remove:true deletes it)")
    )
    @app_commands.describe(
        name=locale_str("Skill name"),
        ranks=locale_str("Its ranks, -100…1000 (needed for a new skill)"),  # MIN_VALUE…MAX_VALUE
        attribute=locale_str("Its parent attribute (empty text clears it)"),
        specialty=locale_str(
            "Specialties, comma-separated; replaces the list (empty text clears it)"
        ),
        remove=locale_str("Delete this skill instead"),
        character=locale_str("Which of your characters (default: your active one)"),
    )
    @app_commands.autocomplete(
        name=skill_autocomplete, attribute=attribute_autocomplete, character=character_autocomplete
    )
    async def skill(
        self,
        interaction: discord.Interaction,
        name: SheetName,
        ranks: Value | None = None,
        attribute: app_commands.Range[str, 0, NAME_LENGTH] | None = None,
        specialty: app_commands.Range[str, 0, 1000] | None = None,
        remove: bool = False,
        character: SheetName | None = None,
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
        await _reply_change(interaction, change)

    @sheet.command(
        name="resource",
        description=locale_str("Set or change a resource (GM: any character used here)"),
    )
    @app_commands.describe(
        name=locale_str("Resource name (Health, Courage, Grit, W…)"),
        current=locale_str("Its new current value, -100…1000"),  # MIN_VALUE…MAX_VALUE
        change=locale_str("Add to it (negative: damage), kept within its max"),
        max=locale_str("Its maximum (optional)"),
        remove=locale_str("Delete this resource instead (owner)"),
        character=CHARACTER_HELP,
    )
    @app_commands.autocomplete(name=resource_suggestions, character=character_autocomplete)
    async def resource(
        self,
        interaction: discord.Interaction,
        name: SheetName,
        current: Value | None = None,
        change: app_commands.Range[int, -2 * MAX_VALUE, 2 * MAX_VALUE] | None = None,
        max: Value | None = None,
        remove: bool = False,
        character: SheetName | None = None,
    ) -> None:
        actor = actor_from(interaction)
        if remove:
            removed = await sheets.remove_resource(self.db, actor, name, character)
            await _reply_change(interaction, removed)
            return
        result = await sheets.set_resource(
            self.db, actor, name, current=current, delta=change, maximum=max, character=character
        )
        # A GM's change to another player's character is public: the table sees the damage.
        await interaction.response.send_message(
            embed=resource_embed(result), ephemeral=result.owner_id == actor.user_id
        )

    @sheet.command(
        name="note", description=locale_str("Set a character's notes (empty clears them)")
    )
    @app_commands.describe(
        text=locale_str("Up to 1000 characters; leave empty to clear"),  # NOTES_LENGTH
        character=locale_str("Which of your characters (default: your active one)"),
    )
    @app_commands.autocomplete(character=character_autocomplete)
    async def note(
        self,
        interaction: discord.Interaction,
        text: app_commands.Range[str, 1, NOTES_LENGTH] | None = None,
        character: SheetName | None = None,
    ) -> None:
        change = await sheets.set_notes(self.db, actor_from(interaction), text, character)
        await _reply_change(interaction, change)

    @sheet.command(
        name="use", description=locale_str("Choose your active character in this channel")
    )
    @app_commands.describe(character=locale_str("One of your characters"))
    @app_commands.autocomplete(character=character_autocomplete)
    async def use(self, interaction: discord.Interaction, character: SheetName) -> None:
        sheet = await sheets.use(self.db, actor_from(interaction), character)
        await interaction.response.send_message(
            _(
                "You now play **{name}** ({system}) in this channel.",
                name=UserText(sheet.name),
                system=_(sheet.system_title),
            ),
            ephemeral=True,
        )

    @sheet.command(name="list", description=locale_str("List your characters (GM: a player's)"))
    @app_commands.describe(player=locale_str("Whose characters (GM only for another player)"))
    async def list_(
        self, interaction: discord.Interaction, player: discord.Member | None = None
    ) -> None:
        listing = await sheets.list_characters(
            self.db, actor_from(interaction), player.id if player else None
        )
        owner = player or interaction.user
        await interaction.response.send_message(
            embed=list_embed(listing, UserText(owner.display_name)), ephemeral=True
        )

    @sheet.command(
        name="delete", description=locale_str("Delete one of your characters (asks first)")
    )
    @app_commands.describe(character=locale_str("One of your characters"))
    @app_commands.autocomplete(character=character_autocomplete)
    async def delete(self, interaction: discord.Interaction, character: SheetName) -> None:
        sheet = await sheets.own_character(self.db, actor_from(interaction), character)

        async def confirmed(pressed: discord.Interaction) -> None:
            name = await sheets.delete(self.db, actor_from(pressed), sheet.id)
            await pressed.response.edit_message(
                content=_("Deleted {name}.", name=UserText(name)), view=None
            )

        confirm = Confirm(
            interaction.user.id,
            confirmed,
            confirm_label=_("Delete"),
            cancelled=_("Kept {name}: nothing was deleted.", name=UserText(sheet.name)),
            refusal=_("Only the character's owner can answer this."),
        )
        await confirm.ask(
            interaction,
            content=_(
                "Delete **{name}** and everything on its sheet? This cannot be undone.",
                name=UserText(sheet.name),
            ),
        )

    @sheet.command(name="export", description=locale_str("Download a sheet as a JSON file"))
    @app_commands.describe(character=CHARACTER_HELP)
    @app_commands.autocomplete(character=character_autocomplete)
    async def export(
        self, interaction: discord.Interaction, character: SheetName | None = None
    ) -> None:
        filename, data = await sheets.export(self.db, actor_from(interaction), character)
        await interaction.response.send_message(
            _("Here is the sheet; `/sheet import` reads it back."),
            file=discord.File(io.BytesIO(data), filename=filename),
            ephemeral=True,
        )

    @sheet.command(
        name="import", description=locale_str("Create a character from an exported JSON file")
    )
    @app_commands.describe(
        file=locale_str("A JSON file made by /sheet export"),
        replace=locale_str("Overwrite your character of the same name"),
    )
    async def import_(
        self, interaction: discord.Interaction, file: discord.Attachment, replace: bool = False
    ) -> None:
        sheets.check_import_size(file.size)  # before downloading it
        content = await file.read()
        sheet = await sheets.import_sheet(
            self.db, actor_from(interaction), content, replace=replace
        )
        await _reply_change(interaction, SheetChange(sheet, _("imported")))

    @sheet.command(
        name="panel", description=locale_str("Post quick-roll buttons for your character's macros")
    )
    async def panel(self, interaction: discord.Interaction) -> None:
        await post_panel(interaction)


async def _reply_change(interaction: discord.Interaction, change: SheetChange) -> None:
    """A changed sheet goes to its owner alone: only owners change anything but resources."""
    await send_pages(interaction, sheet_pages(SheetText.of(change.sheet), changed=change.summary))
