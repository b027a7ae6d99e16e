"""``/help [command]``, built from the command tree itself so it can never fall out of date."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._common import Choices, NarratorCog, safe_autocomplete
from bot.errors import UserError
from bot.i18n import _
from bot.render.help import command_embed, gm_embed, help_embed
from bot.services import channel_settings, gm_roles
from bot.services.sheets import matching
from bot.text import UserText

#: ``/help command:gm``: the GM rule in full (refusals point here in one line).
GM_TOPIC = "gm"


def _leaves(tree: app_commands.CommandTree) -> dict[str, app_commands.Command]:
    found: dict[str, app_commands.Command] = {}
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command):
            found[command.qualified_name] = command
    return found


class HelpCog(NarratorCog):
    @app_commands.command(
        name="help", description=locale_str("Every command; or one command's options")
    )
    @app_commands.describe(command=locale_str("A command (e.g. coda test), or gm: who is a GM"))
    async def help(
        self,
        interaction: discord.Interaction,
        command: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        if command is None:
            view = await channel_settings.show(self.db, interaction.channel_id or 0)
            embed = help_embed(self.bot.tree.get_commands(), default_system=view.default_system)
        elif command.strip().lstrip("/").casefold() == GM_TOPIC:
            shared = list(self.bot.settings.gm_role_names)  # type: ignore[attr-defined]
            embed = gm_embed(shared, await gm_roles.role_ids(self.db, interaction.guild_id))
        else:
            embed = command_embed(self._find(command))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    def _find(self, typed: str) -> app_commands.Command:
        wanted = " ".join(typed.strip().lstrip("/").split()).casefold()
        leaves = _leaves(self.bot.tree)
        for name, found in leaves.items():
            if name.casefold() == wanted:
                return found
        close = matching(list(leaves), wanted.split(" ")[-1])[:8] or matching(list(leaves), "")[:8]
        raise UserError(
            _(
                "There is no command `/{command}`. Try: {commands} (or `gm`).",
                command=UserText(typed.strip().lstrip("/")),
                commands=", ".join(f"`{name}`" for name in close),
            )
        )

    @help.autocomplete("command")
    @safe_autocomplete
    async def _command_names(self, interaction: discord.Interaction, current: str) -> Choices:
        names = [GM_TOPIC, *sorted(_leaves(self.bot.tree))]
        return [app_commands.Choice(name=n, value=n) for n in matching(names, current)]
