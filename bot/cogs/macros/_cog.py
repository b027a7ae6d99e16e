"""``/macro save|run|list|show|edit|delete``: saved command lines, run by name."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._common import Choices, NarratorCog, actor_from, safe_autocomplete
from bot.cogs._confirm import answer_error
from bot.cogs.macros._run import check_line, check_panel_line, invoke, missing, resolve
from bot.gateway import Placeholder, parse_values
from bot.i18n import N_, _
from bot.render.limits import clip
from bot.render.macros import macro_embed, macros_embed
from bot.services import macros as service
from bot.services.macros import COMMAND_LENGTH, NAME_LENGTH, SCOPES

MacroName = app_commands.Range[str, 1, NAME_LENGTH]
CommandText = app_commands.Range[str, 1, COMMAND_LENGTH]
SCOPE_CHOICES = [
    app_commands.Choice(name=locale_str("me (yours, everywhere in this server)"), value="me"),
    app_commands.Choice(name=locale_str("character (your active character's)"), value="character"),
    app_commands.Choice(name=locale_str("channel (everyone here; GM)"), value="channel"),
    app_commands.Choice(name=locale_str("server (everyone in the server; GM)"), value="server"),
]
#: A scope's name in autocomplete suggestions ("Brew (character): …").
SCOPE_NAMES = {
    "me": N_("me"),
    "character": N_("character"),
    "channel": N_("channel"),
    "server": N_("server"),
}
COMMAND_HELP = locale_str(
    "A command line, e.g. coda skill skill:Potions difficulty:{difficulty:Challenging}"
)


async def run_macro(
    interaction: discord.Interaction,
    macro: service.MacroInfo,
    values: dict[str, str],
    *,
    panel: service.PanelMacro | None = None,
) -> None:
    """Run ``macro`` for the caller: at once, or after a form asks for its missing values.

    From a quick-roll ``panel``: only a roll, run as the panel's player for its character.
    """
    if panel is not None:  # checked at each press: the macro may have changed since posting
        check_panel_line(macro.name.raw, macro.command)
    asked = missing(macro.command, values)
    if asked:
        modal = ValuesModal(macro, asked, values, panel=panel)
        await interaction.response.send_modal(modal)
        return
    checked = resolve(interaction.client.tree, macro.command, values)  # type: ignore[attr-defined]
    await invoke(
        interaction,
        macro.name.raw,
        checked,
        character=panel.character if panel is not None else None,
        owner_id=panel.owner_id if panel is not None else None,
    )
    # Counted once the command has answered (a refused run raised before this line).
    await service.count_use(interaction.client.db, macro.id)  # type: ignore[attr-defined]


class ValuesModal(discord.ui.Modal):
    """Asks for a macro's placeholder values (each prefilled with its default)."""

    def __init__(
        self,
        macro: service.MacroInfo,
        asked: list[Placeholder],
        given: dict[str, str],
        *,
        panel: service.PanelMacro | None,
    ) -> None:
        super().__init__(title=clip(_("Macro: {name}", name=macro.name.plain()), 45), timeout=600)
        self.macro = macro
        self.given = given
        self.panel = panel
        self.fields: dict[str, discord.ui.TextInput] = {}
        for prompt in asked:
            field: discord.ui.TextInput = discord.ui.TextInput(
                label=clip(prompt.name, 45),
                custom_id=f"placeholder:{prompt.name.casefold()}",
                default=prompt.default,
                required=prompt.default is None,
                max_length=COMMAND_LENGTH,
            )
            self.fields[prompt.name.casefold()] = field
            self.add_item(field)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        values = {**self.given, **{name: f.value for name, f in self.fields.items()}}
        values = {name: value for name, value in values.items() if value}
        asked = {name for name in self.fields if name not in values}
        values.update(dict.fromkeys(asked, ""))  # left empty: the command's default
        try:
            await run_macro(interaction, self.macro, values, panel=self.panel)
        except Exception as error:  # a form is not a command: answer as the tree would
            await answer_error(interaction, error)

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:  # type: ignore[override]
        await answer_error(interaction, error)


class EditModal(discord.ui.Modal):
    """Changes a macro's command line (checked as when it was saved)."""

    def __init__(self, macro: service.MacroInfo) -> None:
        super().__init__(
            title=clip(_("Edit macro: {name}", name=macro.name.plain()), 45), timeout=600
        )
        self.macro = macro
        self.command: discord.ui.TextInput = discord.ui.TextInput(
            label=_("Command line"),
            custom_id="command",
            style=discord.TextStyle.paragraph,
            default=macro.command,
            max_length=COMMAND_LENGTH,
        )
        self.add_item(self.command)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        try:
            check_line(interaction.client.tree, self.command.value)  # type: ignore[attr-defined]
            macro = await service.edit(
                interaction.client.db,  # type: ignore[attr-defined]
                actor_from(interaction),
                scope=self.macro.scope,
                name=self.macro.name.raw,
                command=self.command.value,
            )
        except Exception as error:
            await answer_error(interaction, error)
            return
        await interaction.response.send_message(
            embed=macro_embed(macro, changed=_("edited")), ephemeral=True
        )

    async def on_error(self, interaction: discord.Interaction, error: Exception) -> None:  # type: ignore[override]
        await answer_error(interaction, error)


@safe_autocomplete
async def runnable_autocomplete(interaction: discord.Interaction, current: str) -> Choices:
    """What the caller can run here, the first of each name (own, character, channel, server)."""
    db = interaction.client.db  # type: ignore[attr-defined]
    async with db.unit_of_work(read_only=True) as session:
        macros = await service.runnable_names(session, actor_from(interaction))
    wanted = current.casefold().strip()
    return [
        app_commands.Choice(
            name=clip(f"{m.name.plain()} ({_(SCOPE_NAMES[m.scope])}): {m.command}", 100),
            value=m.name.raw,
        )
        for m in macros
        if wanted in m.key
    ]


class MacrosCog(NarratorCog):
    macro = app_commands.Group(
        name="macro", description=locale_str("Saved command lines, run by name")
    )

    @macro.command(name="save", description=locale_str("Save a command line as a macro"))
    @app_commands.describe(
        name=locale_str("The macro's name (1-32 characters)"),
        command=COMMAND_HELP,
        scope=locale_str(
            "Whose macro: yours (default), your character's, the channel's or the server's"
        ),
    )
    @app_commands.choices(scope=SCOPE_CHOICES)
    async def save(
        self,
        interaction: discord.Interaction,
        name: MacroName,
        command: CommandText,
        scope: str = "me",
    ) -> None:
        check_line(self.bot.tree, command)
        macro = await service.save(
            self.db, actor_from(interaction), scope=scope, name=name, command=command
        )
        await interaction.response.send_message(
            embed=macro_embed(macro, changed=_("saved")), ephemeral=True
        )

    @macro.command(
        name="run", description=locale_str("Run a macro (a form asks for missing values)")
    )
    @app_commands.describe(
        name=locale_str("The macro"),
        values=locale_str('Placeholder values, e.g. difficulty:Difficult "label:a brew"'),
    )
    @app_commands.autocomplete(name=runnable_autocomplete)
    async def run(
        self,
        interaction: discord.Interaction,
        name: MacroName,
        values: CommandText | None = None,
    ) -> None:
        given = parse_values(values or "")
        macro = await service.find(self.db, actor_from(interaction), name)
        await run_macro(interaction, macro, given)

    @macro.command(name="list", description=locale_str("The macros you can run here"))
    async def list_(self, interaction: discord.Interaction) -> None:
        macros = await service.visible(self.db, actor_from(interaction))
        await interaction.response.send_message(embed=macros_embed(macros), ephemeral=True)

    @macro.command(name="show", description=locale_str("Show a macro's command line"))
    @app_commands.describe(name=locale_str("The macro"))
    @app_commands.autocomplete(name=runnable_autocomplete)
    async def show(self, interaction: discord.Interaction, name: MacroName) -> None:
        macro = await service.find(self.db, actor_from(interaction), name)
        await interaction.response.send_message(embed=macro_embed(macro), ephemeral=True)

    @macro.command(name="edit", description=locale_str("Change a macro's command line (in a form)"))
    @app_commands.describe(
        name=locale_str("The macro"), scope=locale_str("Whose macro (default: yours)")
    )
    @app_commands.choices(scope=SCOPE_CHOICES)
    @app_commands.autocomplete(name=runnable_autocomplete)
    async def edit(
        self, interaction: discord.Interaction, name: MacroName, scope: str = "me"
    ) -> None:
        macro = await service.editable(self.db, actor_from(interaction), scope=scope, name=name)
        await interaction.response.send_modal(EditModal(macro))

    @macro.command(name="delete", description=locale_str("Delete a macro"))
    @app_commands.describe(
        name=locale_str("The macro"), scope=locale_str("Whose macro (default: yours)")
    )
    @app_commands.choices(scope=SCOPE_CHOICES)
    @app_commands.autocomplete(name=runnable_autocomplete)
    async def delete(
        self, interaction: discord.Interaction, name: MacroName, scope: str = "me"
    ) -> None:
        macro = await service.delete(self.db, actor_from(interaction), scope=scope, name=name)
        await interaction.response.send_message(
            embed=macro_embed(macro, changed=_("deleted")), ephemeral=True
        )


__all__ = ["SCOPES", "MacrosCog", "run_macro"]
