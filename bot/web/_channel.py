"""``/channels/{id}``: a channel's campaign page for the members of its guild.

Server-rendered, complete without JavaScript (a refresh link); ``static/channel.js`` makes
the turn order, tasks and roll log live: it listens to ``/channels/{id}/events``
(:mod:`bot.web._events`) and, when the channel changes, replaces that part of the page with
``/channels/{id}/live``, drawn for this viewer by the same template. Everything comes from
:mod:`bot.services.campaign`, which applies the bot's visibility rules (hidden combatants,
NPC Health, secret rolls, the roster: GMs; a secret roll: its roller too). The dice chart is
drawn by the bot's own renderer in the worker pool and served as a PNG at its own URL.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from aiohttp import web

from bot import workers
from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.render.charts import Chart, draw
from bot.render.dice_stats import stats_chart
from bot.services import access, campaign, dice_stats
from bot.services.offload import CHART
from bot.web._context import database_of
from bot.web._session import require_viewer
from bot.web._templates import render

log = logging.getLogger(__name__)

routes = web.RouteTableDef()

#: A channel id is a Discord snowflake: digits, at most 20 of them, within 64 bits.
MAX_SNOWFLAKE = 2**63 - 1
#: A chart's budget in its worker (as the bot's: bot/cogs/_charts.py).
CHART_SECONDS = 10.0
#: Browsers may keep a chart this long: it changes only with new rolls.
CHART_MAX_AGE = 60


def channel_id_of(request: web.Request) -> int:
    """The ``{id}`` of the URL, or 404 (never a traceback for a hostile id)."""
    text = request.match_info.get("channel_id", "")
    if not (text.isdigit() and len(text) <= 20 and 0 < int(text) <= MAX_SNOWFLAKE):
        raise web.HTTPNotFound
    return int(text)


async def viewer_actor(request: web.Request) -> Actor:
    """The logged-in viewer as an actor of the URL's channel (anonymous: to /login; a channel
    they may not open, or one nothing is known of: 404, the same for both). Who may open it
    is :func:`bot.services.access.channel_for`'s rule: a channel they played in, or any
    played-in channel of a guild where they are a GM."""
    viewer = require_viewer(request)
    channel_id = channel_id_of(request)
    try:
        found = await access.channel_for(
            database_of(request), viewer.user_id, viewer.guild_ids, channel_id
        )
    except access.NotVisible:
        raise web.HTTPNotFound from None
    return found.actor


def log_filter(query: Mapping[str, str]) -> campaign.LogFilter:
    """The roll log's filters from the query string; empty fields are no filter, a field
    that is not a number where one is wanted is a short UserError."""

    def number(name: str) -> int | None:
        text = query.get(name, "").strip()
        if not text:
            return None
        if not text.isdigit() or len(text) > 20:
            raise UserError(_("The field {field} takes a whole number.", field=name))
        return int(text)

    count = number("count")
    return campaign.LogFilter(
        system=query.get("system", "").strip() or None,
        player_id=number("player"),
        since=query.get("since", "").strip() or None,
        before=number("before"),
        count=campaign.PAGE_SIZE if count is None else count,
    ).checked()


@routes.get("/channels/{channel_id}", name="channel")
async def channel_page(request: web.Request) -> web.StreamResponse:
    actor = await viewer_actor(request)
    db = database_of(request)
    problem = None
    try:
        filters = log_filter(request.query)
    except UserError as error:
        filters, problem = campaign.LogFilter(), str(error)
    # The mark first: a change while the page is read is then seen by the live stream.
    mark = (await campaign.marks(db, [actor.channel_id]))[actor.channel_id]
    page = await campaign.campaign_page(db, actor, filters, stats_since=filters.since)
    return render(
        request,
        "channel.html",
        status=400 if problem else 200,
        channel_id=actor.channel_id,
        page=page,
        mark=mark,
        problem=problem,
        query=_query(filters),
        live_query=_query(filters, paged=True),
        systems=dice_stats.SYSTEMS,
        since_choices=list(dice_stats.SINCE),
        me=actor.user_id,
    )


@routes.get("/channels/{channel_id}/live", name="channel_live")
async def channel_live(request: web.Request) -> web.StreamResponse:
    """The live parts of the page (turn order, tasks, the log's first page), for the script."""
    actor = await viewer_actor(request)
    db = database_of(request)
    try:
        filters = log_filter(request.query)
    except UserError:
        filters = campaign.LogFilter()
    page = await campaign.campaign_page(db, actor, filters, live=True)
    response = render(
        request,
        "channel_live.html",
        channel_id=actor.channel_id,
        page=page,
        query=_query(filters),
        me=actor.user_id,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@routes.get("/channels/{channel_id}/dice.png", name="channel_dice_chart")
async def dice_chart(request: web.Request) -> web.StreamResponse:
    """The channel's dice statistics chart, drawn as ``/dice stats`` draws it."""
    actor = await viewer_actor(request)
    since = request.query.get("since") or None
    try:
        stats = await dice_stats.stats(database_of(request), actor, since=since)
    except UserError:
        raise web.HTTPNotFound from None
    people = await campaign.people(database_of(request), actor)
    where = f"#{people.channel_name}" if people.channel_name else _("this channel")
    chart = stats_chart(stats, where)
    if chart is None:
        raise web.HTTPNotFound
    return await chart_png(actor, chart, max_age=CHART_MAX_AGE)


async def chart_png(actor: Actor, chart: Chart, *, max_age: int) -> web.Response:
    """A chart drawn by the bot's renderer in the worker pool, under the viewer's and the
    channel's queues and :data:`CHART_SECONDS`, as a PNG the browser may keep ``max_age``
    seconds; 503 with ``Retry-After`` when the pool is busy or the drawing ran too long."""
    try:
        data = await workers.run(
            draw,
            {"chart": chart},
            budget=CHART_SECONDS,
            user=actor.user_id,
            channel=actor.channel_id,
            cache=True,
            what=CHART,
        )
    except (workers.Busy, workers.OverBudget) as error:
        log.info("web chart left out: %s", error)
        raise web.HTTPServiceUnavailable(headers={"Retry-After": "5"}) from None
    return web.Response(
        body=data,
        content_type="image/png",
        headers={"Cache-Control": f"private, max-age={max_age}"},
    )


def _query(filters: campaign.LogFilter, *, paged: bool = False) -> dict[str, str]:
    """The filters as query parameters: for the next page's link, and with the page's own
    place (``paged``) for the live fragment."""
    pairs = {
        "before": filters.before if paged else None,
        "system": filters.system,
        "player": filters.player_id,
        "since": filters.since,
        "count": filters.count if filters.count != campaign.PAGE_SIZE else None,
    }
    return {key: str(value) for key, value in pairs.items() if value is not None}
