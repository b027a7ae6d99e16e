"""The channel settings embed, the server's GM roles, and the language choices."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import _
from bot.i18n.names import native_name
from bot.render import colours
from bot.render.limits import fit_embed
from bot.services.channel_settings import RULE_HELP, SECRET_MODES, ChannelView
from bot.services.gm_roles import GmRoles
from bot.services.languages import LanguageSettings
from engine.systems import SYSTEMS


def settings_embed(
    view: ChannelView,
    *,
    changed: str | None = None,
    languages: LanguageSettings | None = None,
) -> discord.Embed:
    embed = discord.Embed(
        title=_("Channel settings")
        if changed is None
        else _("Channel settings — {change}", change=changed),
        colour=colours.INFO,
    )
    system = (
        _(SYSTEMS[view.default_system])
        if view.default_system in SYSTEMS
        else _("not set (`/settings system`)")
    )
    embed.add_field(name=_("Default system"), value=system, inline=False)
    embed.add_field(
        name=_("Secret rolls"),
        value=f"`{view.secret_mode}` — {_(SECRET_MODES[view.secret_mode])}",
        inline=False,
    )
    embed.add_field(
        name=_("GM channel"),
        value=f"<#{view.gm_channel_id}>"
        if view.gm_channel_id
        else _("none (secret rolls go to GMs by DM)"),
        inline=False,
    )
    rules = "\n".join(
        f"`{name}` = **{value}** — {_(RULE_HELP[name])}" for name, value in view.rules.items()
    )
    embed.add_field(name=_("Optional rules"), value=rules or _("none"), inline=False)
    if languages is not None:
        embed.add_field(name=_("Language"), value=language_line(languages), inline=False)
    return fit_embed(embed)


def language_line(languages: LanguageSettings) -> str:
    """The channel's and the caller's own language choices, in a line."""
    channel = (
        native_name(languages.channel)
        if languages.channel
        else _("each user's Discord language (`/settings language`)")
    )
    user = (
        native_name(languages.user) if languages.user else _("not chosen (`/settings my-language`)")
    )
    return _("This channel: {channel} · you: {user}", channel=channel, user=user)


def language_embed(chosen: str | None, *, channel: bool) -> discord.Embed:
    """The confirmation of ``/settings language`` (``channel``) or ``/settings my-language``."""
    if channel:
        description = (
            _("The bot now answers in {language} in this channel.", language=native_name(chosen))
            if chosen
            else _("The bot now answers each user in their own Discord language in this channel.")
        )
        note = _("A user's own choice (`/settings my-language`) still comes first.")
    else:
        description = (
            _("The bot now answers you in {language}, everywhere.", language=native_name(chosen))
            if chosen
            else _("The bot now answers you in the channel's language, else your Discord language.")
        )
        note = _("Only you see this choice; it applies in every server and channel.")
    embed = discord.Embed(
        title=_("Language"), description=f"{description}\n{note}", colour=colours.INFO
    )
    return fit_embed(embed)


def gm_roles_line(role_ids: Sequence[int], shared: Sequence[str]) -> str:
    """Every role that makes GMs in a server: the shared names, then the server's own."""
    names = ", ".join(f"`{name}`" for name in shared) or _("none")
    own = ", ".join(f"<@&{role_id}>" for role_id in role_ids) or _("none yet")
    return _("Every server: {names} · this server: {own}", names=names, own=own)


def gm_roles_embed(
    roles: GmRoles, role_id: int, *, remove: bool, shared: Sequence[str]
) -> discord.Embed:
    role = f"<@&{role_id}>"
    if remove:
        done = (
            _("{role} no longer makes GMs here.", role=role)
            if roles.changed
            else _("{role} was not a GM role here.", role=role)
        )
    else:
        done = (
            _("{role} now makes GMs here.", role=role)
            if roles.changed
            else _("{role} already made GMs here.", role=role)
        )
    embed = discord.Embed(
        title=_("GM roles"),
        description=f"{done}\n{gm_roles_line(roles.role_ids, shared)}",
        colour=colours.INFO,
    )
    return fit_embed(embed)
