"""``/settings show|system|rule|secret|gm-channel|gm-role``."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.cogs._common import Choices, NarratorCog, actor_from, safe_autocomplete
from bot.cogs._options import SYSTEM_CHOICES
from bot.render.settings import gm_roles_embed, settings_embed
from bot.services import channel_settings, gm_roles
from bot.services.channel_settings import RULE_HELP, RULE_VALUES, SECRET_MODES
from engine.systems import SYSTEMS

#: A rule's value is free text (autocompleted); the longest one is "complete-failure".
RuleValue = app_commands.Range[str, 1, 32]


class SettingsCog(NarratorCog):
    settings = app_commands.Group(name="settings", description="This channel's settings")

    @settings.command(name="show", description="Every setting of this channel with its value")
    async def show(self, interaction: discord.Interaction) -> None:
        view = await channel_settings.show(self.db, interaction.channel_id or 0)
        await interaction.response.send_message(embed=settings_embed(view), ephemeral=True)

    @settings.command(name="system", description="Set this channel's default game system (GM)")
    @app_commands.describe(name="The system this channel plays")
    @app_commands.choices(name=SYSTEM_CHOICES)
    async def system(self, interaction: discord.Interaction, name: str) -> None:
        view = await channel_settings.set_system(self.db, actor_from(interaction), name)
        await interaction.response.send_message(
            embed=settings_embed(view, changed=f"system set to {SYSTEMS[name]}")
        )

    @settings.command(name="rule", description="Turn an optional rule on or off here (GM)")
    @app_commands.describe(name="The rule", value="Its new value")
    @app_commands.choices(
        name=[
            app_commands.Choice(name=f"{key}: {RULE_HELP[key]}", value=key) for key in RULE_VALUES
        ]
    )
    async def rule(self, interaction: discord.Interaction, name: str, value: RuleValue) -> None:
        view = await channel_settings.set_rule(self.db, actor_from(interaction), name, value)
        await interaction.response.send_message(
            embed=settings_embed(view, changed=f"{name} = {value}")
        )

    @rule.autocomplete("value")
    @safe_autocomplete
    async def _rule_values(self, interaction: discord.Interaction, current: str) -> Choices:
        name = getattr(interaction.namespace, "name", None)
        values = (
            RULE_VALUES.get(name, ())
            if name
            else sorted({v for vs in RULE_VALUES.values() for v in vs})
        )
        return [
            app_commands.Choice(name=value, value=value)
            for value in values
            if current.casefold() in value.casefold()
        ]

    @settings.command(name="secret", description="How secret rolls work in this channel (GM)")
    @app_commands.describe(mode="gm: roller and GM see them · open: all public · off: refused")
    @app_commands.choices(
        mode=[
            app_commands.Choice(name=f"{key} — {text}", value=key)
            for key, text in SECRET_MODES.items()
        ]
    )
    async def secret(self, interaction: discord.Interaction, mode: str) -> None:
        view = await channel_settings.set_secret_mode(self.db, actor_from(interaction), mode)
        await interaction.response.send_message(
            embed=settings_embed(view, changed=f"secret rolls: {mode}")
        )

    @settings.command(
        name="gm-channel", description="Where secret rolls are posted for the GM (GM; empty clears)"
    )
    @app_commands.describe(channel="A channel only the GMs can read; leave empty to use DMs")
    async def gm_channel(
        self, interaction: discord.Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        view = await channel_settings.set_gm_channel(
            self.db, actor_from(interaction), channel.id if channel else None
        )
        changed = (
            f"secret rolls go to #{channel.name}" if channel else "secret rolls go to GMs by DM"
        )
        await interaction.response.send_message(embed=settings_embed(view, changed=changed))

    @settings.command(
        name="gm-role", description="Make a role's holders GMs in this server (GM or Manage Server)"
    )
    @app_commands.describe(role="The role", remove="Stop this role making GMs")
    async def gm_role(
        self, interaction: discord.Interaction, role: discord.Role, remove: bool = False
    ) -> None:
        roles = await gm_roles.change(self.db, actor_from(interaction), role.id, remove=remove)
        names = self.bot.settings.gm_role_names  # type: ignore[attr-defined]
        await interaction.response.send_message(
            embed=gm_roles_embed(roles, role.id, remove=remove, shared=names)
        )
