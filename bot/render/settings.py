"""The channel settings embed, and the server's GM roles."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.render import colours
from bot.render.limits import fit_embed
from bot.services.channel_settings import RULE_HELP, SECRET_MODES, ChannelView
from bot.services.gm_roles import GmRoles
from engine.systems import SYSTEMS


def settings_embed(view: ChannelView, *, changed: str | None = None) -> discord.Embed:
    embed = discord.Embed(
        title="Channel settings" if changed is None else f"Channel settings — {changed}",
        colour=colours.INFO,
    )
    system = SYSTEMS.get(view.default_system or "", "not set (`/settings system`)")
    embed.add_field(name="Default system", value=system, inline=False)
    embed.add_field(
        name="Secret rolls",
        value=f"`{view.secret_mode}` — {SECRET_MODES[view.secret_mode]}",
        inline=False,
    )
    embed.add_field(
        name="GM channel",
        value=f"<#{view.gm_channel_id}>"
        if view.gm_channel_id
        else "none (secret rolls go to GMs by DM)",
        inline=False,
    )
    rules = "\n".join(
        f"`{name}` = **{value}** — {RULE_HELP[name]}" for name, value in view.rules.items()
    )
    embed.add_field(name="Optional rules", value=rules or "none", inline=False)
    return fit_embed(embed)


def gm_roles_line(role_ids: Sequence[int], shared: Sequence[str]) -> str:
    """Every role that makes GMs in a server: the shared names, then the server's own."""
    names = ", ".join(f"`{name}`" for name in shared) or "none"
    own = ", ".join(f"<@&{role_id}>" for role_id in role_ids) or "none yet"
    return f"Every server: {names} · this server: {own}"


def gm_roles_embed(
    roles: GmRoles, role_id: int, *, remove: bool, shared: Sequence[str]
) -> discord.Embed:
    if remove:
        done = "no longer makes GMs here" if roles.changed else "was not a GM role here"
    else:
        done = "now makes GMs here" if roles.changed else "already made GMs here"
    embed = discord.Embed(
        title="GM roles",
        description=f"<@&{role_id}> {done}.\n{gm_roles_line(roles.role_ids, shared)}",
        colour=colours.INFO,
    )
    return fit_embed(embed)
