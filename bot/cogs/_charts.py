"""Sending an embed with its chart: the PNG drawn in a worker process (:mod:`bot.workers`)
and attached, the embed's text standing in for it (screen readers, and a chart that could
not be drawn: the user's or channel's chart queue full, or past :data:`CHART_SECONDS`)."""

from __future__ import annotations

import io
import logging

import discord

from bot import workers
from bot.render.charts import Chart, draw, file_name
from bot.services.offload import CHART

log = logging.getLogger(__name__)

#: A chart's budget in its worker: ~0.1 s to draw, ~1–2 s more for a new worker's first one
#: (matplotlib's import); the command is deferred meanwhile.
CHART_SECONDS = 10.0


async def chart_file(
    interaction: discord.Interaction, embed: discord.Embed, chart: Chart | None
) -> discord.File | None:
    """Draw ``chart`` and point ``embed``'s image at it; ``None`` (text only) when there is
    no chart or drawing failed or did not fit (logged: the numbers in the embed are still
    right)."""
    if chart is None:
        return None
    try:
        data = await workers.run(
            draw,
            {"chart": chart},
            budget=CHART_SECONDS,
            user=interaction.user.id,
            channel=interaction.channel_id,
            cache=True,
            what=CHART,
        )
    except (workers.Busy, workers.OverBudget) as error:
        log.info("chart %r left out: %s", chart.title, error)
        return None
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
    file = await chart_file(interaction, embed, chart)
    kwargs = {"file": file} if file is not None else {}
    await interaction.followup.send(  # type: ignore[call-overload]
        embed=embed, ephemeral=ephemeral, allowed_mentions=discord.AllowedMentions.none(), **kwargs
    )
