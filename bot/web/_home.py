"""``/``: the viewer's guilds and channels where Narrator keeps something."""

from __future__ import annotations

from aiohttp import web

from bot.web._session import current_viewer
from bot.web._templates import render

routes = web.RouteTableDef()


@routes.get("/", name="home")
async def home(request: web.Request) -> web.StreamResponse:
    viewer = current_viewer(request)
    if viewer is None:
        return render(request, "welcome.html")
    return render(request, "home.html", guilds=sorted(viewer.guild_ids))
