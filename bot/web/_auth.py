"""Logging in and out: "Log in with Discord" (``bot.web._oauth``), or, offline, a name.

``narrator web --local-login`` (``make web``) shows a page where you type a user name and
are that user of the console's guild (the same ids ``narrator console`` gives ``alice`` or
``gm``, so its sheets are there). It is refused whenever a Discord client secret is set: a
server that can log people in with Discord must not let anyone be anyone.
"""

from __future__ import annotations

import re

from aiohttp import web

from bot.console import GUILD_ID, stable_id
from bot.i18n import N_, _, available_languages
from bot.services.members import guild_ids_of
from bot.web._context import LOCAL_LOGIN, database_of, settings_of
from bot.web._security import safe_next
from bot.web._session import Viewer, log_in, log_out
from bot.web._templates import render

routes = web.RouteTableDef()

#: A console user's name: what ``narrator console``'s ``/as NAME`` accepts, kept short.
NAME = re.compile(r"[\w.-]{1,32}")
BAD_NAME = N_("A user name is 1 to 32 letters, digits, dots, dashes or underscores.")


def local_login_allowed(request: web.Request) -> bool:
    return request.app[LOCAL_LOGIN] and settings_of(request).discord_client_secret is None


@routes.get("/login", name="login")
async def login_page(request: web.Request) -> web.StreamResponse:
    back_to = safe_next(request.query.get("next"))
    if local_login_allowed(request):
        return render(request, "login_local.html", next=back_to, error=None, name="")
    return render(request, "login.html", next=back_to, error=None)


@routes.post("/login")
async def local_login(request: web.Request) -> web.StreamResponse:
    if not local_login_allowed(request):
        raise web.HTTPForbidden()
    form = await request.post()
    back_to = safe_next(str(form.get("next", "")))
    name = str(form.get("name", "")).strip()
    if not NAME.fullmatch(name):
        return render(
            request, "login_local.html", status=400, next=back_to, error=_(BAD_NAME), name=name
        )
    user_id = stable_id(f"user:{name}")
    # The console's guild, and any other the bot has seen this id in.
    guilds = await guild_ids_of(database_of(request), user_id) | {GUILD_ID}
    log_in(request, Viewer(user_id, name, guilds))
    raise web.HTTPSeeOther(back_to)


@routes.post("/logout", name="logout")
async def logout(request: web.Request) -> web.StreamResponse:
    log_out(request)
    raise web.HTTPSeeOther("/")


@routes.post("/language")
async def choose_language(request: web.Request) -> web.StreamResponse:
    """The language switcher: a cookie for a year (no login needed)."""
    form = await request.post()
    response = web.HTTPSeeOther(safe_next(str(form.get("next", ""))))
    language = str(form.get("language", ""))
    if language not in available_languages():
        raise web.HTTPBadRequest()
    response.set_cookie("lang", language, max_age=365 * 86400, path="/", samesite="Lax")
    raise response
