"""The channel settings embed."""

from __future__ import annotations

import discord

from bot.render import colours
from bot.render.limits import fit_embed
from bot.services.channel_settings import RULE_HELP, SECRET_MODES, ChannelView
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
