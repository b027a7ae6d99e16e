"""``/``: the viewer's guilds (with whether they are a GM there) and the channels they
played in, as the bot recorded them (:mod:`bot.services.members`)."""

from __future__ import annotations

from aiohttp import web

from bot.services.members import places_of
from bot.web._context import database_of
from bot.web._session import current_viewer
from bot.web._templates import render

routes = web.RouteTableDef()


@routes.get("/", name="home")
async def home(request: web.Request) -> web.StreamResponse:
    viewer = current_viewer(request)
    if viewer is None:
        return render(request, "welcome.html")
    places = [
        place
        for place in await places_of(database_of(request), viewer.user_id)
        if place.guild_id in viewer.guild_ids
    ]
    return render(request, "home.html", places=places)
