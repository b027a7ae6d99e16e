"""``/channels/{id}/odds``: a roll's exact chances before it is made, as ``/odds`` shows them
in Discord, for the channel's members: the same service (the channel's own rules apply, e.g.
CODA's ones rule) and the same chart, drawn in the worker pool and served as a PNG at its own
URL. CODA tests and RPS checks, the two a player most often weighs at the table."""

from __future__ import annotations

from collections.abc import Mapping

from aiohttp import web

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.render.common import percent
from bot.render.odds import odds_chart
from bot.services import odds
from bot.web._channel import chart_png, viewer_actor
from bot.web._context import database_of
from bot.web._templates import render
from engine.systems import coda, rps

routes = web.RouteTableDef()

#: Odds never change for the same numbers (only a channel's rules could, rarely).
ODDS_MAX_AGE = 300
#: Each number's bounds, as the ``/odds`` options give them.
BOUNDS = {
    "modifier": (coda.MODIFIER_MIN, coda.MODIFIER_MAX),
    "tn": (coda.TN_MIN, coda.TN_MAX),
    "penalty": (coda.PENALTY_MIN, coda.PENALTY_MAX),
    "base": (rps.MIN_BASE, rps.MAX_BASE),
}
DEFAULTS = {"modifier": 0, "tn": 10, "penalty": 0, "base": 50}


def numbers(query: Mapping[str, str]) -> dict[str, int]:
    """The form's numbers within their bounds, or a short UserError naming the one that is
    not (an empty field takes its default)."""
    found = {}
    for name, (low, high) in BOUNDS.items():
        text = query.get(name, "").strip().replace("−", "-")
        if not text:
            found[name] = DEFAULTS[name]
            continue
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise UserError(
                _("{field} is a whole number from {low} to {high}.", field=name, low=low, high=high)
            )
        found[name] = value
    return found


async def table_for(request: web.Request, actor: Actor) -> odds.OddsTable:
    """The odds the query asks for (``system`` coda, the default, or rps)."""
    values = numbers(request.query)
    if request.query.get("system", "coda") == "rps":
        return await odds.rps_odds(base=values["base"])
    return await odds.coda_odds(
        database_of(request),
        actor,
        modifier=values["modifier"],
        tn=values["tn"],
        penalty=values["penalty"],
    )


@routes.get("/channels/{channel_id}/odds", name="channel_odds")
async def odds_page(request: web.Request) -> web.StreamResponse:
    actor = await viewer_actor(request)
    problem, table = None, None
    try:
        table = await table_for(request, actor)
    except UserError as error:
        problem = str(error)
    return render(
        request,
        "channel_odds.html",
        status=400 if problem else 200,
        channel_id=actor.channel_id,
        table=table,
        rows=_rows(table) if table is not None else [],
        problem=problem,
        system="rps" if request.query.get("system") == "rps" else "coda",
        values={name: request.query.get(name, str(DEFAULTS[name])) for name in BOUNDS},
        chart_query=request.query_string,
        percent=percent,
    )


@routes.get("/channels/{channel_id}/odds.png", name="channel_odds_chart")
async def odds_png(request: web.Request) -> web.StreamResponse:
    actor = await viewer_actor(request)
    try:
        table = await table_for(request, actor)
    except UserError:
        raise web.HTTPBadRequest from None
    return await chart_png(actor, odds_chart(table), max_age=ODDS_MAX_AGE)


def _rows(table: odds.OddsTable) -> list[tuple[str, list[float]]]:
    """Each category with its chances, leaving out the gaps a chart keeps to space its bars
    (as ``/odds`` does in Discord)."""
    rows = []
    for index, category in enumerate(table.categories):
        values = [series.values[index] for series in table.series]
        if table.gaps and not any(values):
            continue
        rows.append((category, values))
    return rows
