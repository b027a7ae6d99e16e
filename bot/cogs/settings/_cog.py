"""``/settings show|system|rule|secret|gm-channel|gm-role|language|my-language``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.cogs._common import Choices, NarratorCog, actor_from, safe_autocomplete
from bot.cogs._options import SYSTEM_CHOICES
from bot.i18n import N_, _, available_languages, set_language
from bot.i18n.choice import choose_language
from bot.i18n.commands import locale_format
from bot.i18n.names import native_name
from bot.render.settings import gm_roles_embed, language_embed, settings_embed
from bot.services import channel_settings, gm_roles, languages
from bot.services.channel_settings import RULE_HELP, RULE_VALUES, SECRET_MODES
from engine.systems import SYSTEMS

#: A rule's value is free text (autocompleted); the longest one is "complete-failure".
RuleValue = app_commands.Range[str, 1, 32]


def language_choices(default: str) -> list[app_commands.Choice[str]]:
    """Every catalog language by its own name, then ``default`` (remove the choice)."""
    return [
        *(
            app_commands.Choice(name=f"{native_name(code)} ({code})", value=code)
            for code in available_languages()
        ),
        app_commands.Choice(name=locale_str(default), value=languages.DEFAULT),
    ]


class SettingsCog(NarratorCog):
    settings = app_commands.Group(
        name="settings", description=locale_str("This channel's settings")
    )

    @settings.command(
        name="show", description=locale_str("Every setting of this channel with its value")
    )
    async def show(self, interaction: discord.Interaction) -> None:
        view = await channel_settings.show(self.db, interaction.channel_id or 0)
        chosen = await languages.show(
            self.bot.languages,  # type: ignore[attr-defined]
            interaction.channel_id or 0,
            interaction.user.id,
        )
        await interaction.response.send_message(
            embed=settings_embed(view, languages=chosen), ephemeral=True
        )

    @settings.command(
        name="system", description=locale_str("Set this channel's default game system (GM)")
    )
    @app_commands.describe(name=locale_str("The system this channel plays"))
    @app_commands.choices(name=SYSTEM_CHOICES)
    async def system(self, interaction: discord.Interaction, name: str) -> None:
        view = await channel_settings.set_system(self.db, actor_from(interaction), name)
        await interaction.response.send_message(
            embed=settings_embed(view, changed=_("system set to {system}", system=_(SYSTEMS[name])))
        )

    @settings.command(
        name="rule", description=locale_str("Turn an optional rule on or off here (GM)")
    )
    @app_commands.describe(name=locale_str("The rule"), value=locale_str("Its new value"))
    @app_commands.choices(
        name=[
            app_commands.Choice(
                name=locale_format("{rule}: {help}", rule=key, help=RULE_HELP[key]), value=key
            )
            for key in RULE_VALUES
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

    @settings.command(
        name="secret", description=locale_str("How secret rolls work in this channel (GM)")
    )
    @app_commands.describe(
        mode=locale_str("gm: roller and GM see them · open: all public · off: refused")
    )
    @app_commands.choices(
        mode=[
            app_commands.Choice(
                name=locale_format("{mode} — {text}", mode=key, text=text), value=key
            )
            for key, text in SECRET_MODES.items()
        ]
    )
    async def secret(self, interaction: discord.Interaction, mode: str) -> None:
        view = await channel_settings.set_secret_mode(self.db, actor_from(interaction), mode)
        await interaction.response.send_message(
            embed=settings_embed(view, changed=_("secret rolls: {mode}", mode=mode))
        )

    @settings.command(
        name="gm-channel",
        description=locale_str("Where secret rolls are posted for the GM (GM; empty clears)"),
    )
    @app_commands.describe(
        channel=locale_str("A channel only the GMs can read; leave empty to use DMs")
    )
    async def gm_channel(
        self, interaction: discord.Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        view = await channel_settings.set_gm_channel(
            self.db, actor_from(interaction), channel.id if channel else None
        )
        changed = (
            _("secret rolls go to #{channel}", channel=channel.name)
            if channel
            else _("secret rolls go to GMs by DM")
        )
        await interaction.response.send_message(embed=settings_embed(view, changed=changed))

    @settings.command(
        name="gm-role",
        description=locale_str("Make a role's holders GMs in this server (GM or Manage Server)"),
    )
    @app_commands.describe(
        role=locale_str("The role"), remove=locale_str("Stop this role making GMs")
    )
    async def gm_role(
        self, interaction: discord.Interaction, role: discord.Role, remove: bool = False
    ) -> None:
        roles = await gm_roles.change(self.db, actor_from(interaction), role.id, remove=remove)
        names = self.bot.settings.gm_role_names  # type: ignore[attr-defined]
        await interaction.response.send_message(
            embed=gm_roles_embed(roles, role.id, remove=remove, shared=names)
        )

    @settings.command(
        name="language",
        description=locale_str("The language the bot answers in, in this channel (GM)"),
    )
    @app_commands.describe(
        language=locale_str("A language, or default: each user's own Discord language")
    )
    @app_commands.choices(language=language_choices(N_("default: each user's Discord language")))
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        cache = self.bot.languages  # type: ignore[attr-defined]
        chosen = await languages.set_channel_language(
            self.db, cache, actor_from(interaction), language
        )
        _channel, user = await cache.choices(interaction.channel_id, interaction.user.id)
        self._answer_in(interaction, choose_language(interaction.locale, chosen, user))
        await interaction.response.send_message(embed=language_embed(chosen, channel=True))

    @settings.command(
        name="my-language",
        description=locale_str("The language the bot answers you in, everywhere"),
    )
    @app_commands.describe(
        language=locale_str("A language, or default: the channel's, else your Discord language")
    )
    @app_commands.choices(
        language=language_choices(N_("default: the channel's, else your Discord language"))
    )
    async def my_language(self, interaction: discord.Interaction, language: str) -> None:
        cache = self.bot.languages  # type: ignore[attr-defined]
        chosen = await languages.set_user_language(self.db, cache, interaction.user.id, language)
        channel, _user = await cache.choices(interaction.channel_id, interaction.user.id)
        self._answer_in(interaction, choose_language(interaction.locale, channel, chosen))
        await interaction.response.send_message(
            embed=language_embed(chosen, channel=False), ephemeral=True
        )

    @staticmethod
    def _answer_in(interaction: discord.Interaction, language: str) -> None:
        """The confirmation (and the rest of this interaction) in the language now chosen."""
        interaction.extras["language"] = language
        set_language(language)
