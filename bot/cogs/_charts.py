"""Sending an embed with its chart: the PNG drawn off the event loop and attached, the
embed's text standing in for it (screen readers, and a chart that could not be drawn)."""

from __future__ import annotations

import io
import logging

import discord

from bot.render.charts import Chart, file_name, render

log = logging.getLogger(__name__)


async def chart_file(embed: discord.Embed, chart: Chart | None) -> discord.File | None:
    """Draw ``chart`` and point ``embed``'s image at it; ``None`` (text only) when there is
    no chart or drawing failed (logged: the numbers in the embed are still right)."""
    if chart is None:
        return None
    try:
        data = await render(chart)
    except Exception:
        log.exception("could not draw chart %r", chart.title)
        return None
    name = file_name(chart)
    embed.set_image(url=f"attachment://{name}")
    return discord.File(io.BytesIO(data), filename=name, description=chart.title[:1024])


async def send_with_chart(
    interaction: discord.Interaction,
    embed: discord.Embed,
    chart: Chart | None,
    *,
    ephemeral: bool = False,
) -> None:
    """Answer a deferred interaction with ``embed`` and its chart."""
    file = await chart_file(embed, chart)
    kwargs = {"file": file} if file is not None else {}
    await interaction.followup.send(  # type: ignore[call-overload]
        embed=embed, ephemeral=ephemeral, allowed_mentions=discord.AllowedMentions.none(), **kwargs
    )
