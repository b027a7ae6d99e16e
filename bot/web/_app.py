"""The web application: its middlewares in order, its routes, and serving it.

Middlewares, outermost first: the session (so every page, error pages too, knows the
viewer and can save the cookie), the language (the services' messages are in it too), the
security headers (on every response), the error pages,
the rate limits (per address and per session), the form tokens (``bot.web._csrf``).
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import web

from bot.hosting.config import Settings
from bot.hosting.errors import ServiceUnavailable
from bot.web._auth import routes as auth_routes
from bot.web._characters import routes as character_routes
from bot.web._context import DATABASE, LOCAL_LOGIN, SETTINGS
from bot.web._csrf import csrf_middleware
from bot.web._events import add_channel_pages
from bot.web._home import routes as home_routes
from bot.web._oauth import routes as oauth_routes
from bot.web._security import (
    MAX_BODY,
    Buckets,
    error_middleware,
    headers_middleware,
    rate_middleware,
)
from bot.web._session import Sessions, secret_key, session_middleware
from bot.web._templates import language_middleware

if TYPE_CHECKING:
    from bot.storage import Database

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")


def create_app(
    settings: Settings, database: Database, *, local_login: bool = False
) -> web.Application:
    """The web companion over ``database``, configured by ``settings``.

    ``local_login`` turns on the offline login page (``narrator web --local-login``); it
    stays off whenever a Discord client secret is configured.
    """
    sessions = Sessions(
        secret_key(settings),
        max_age=settings.web_session_days * 86400,
        secure=settings.web_url.startswith("https://"),
    )
    buckets = Buckets(settings.web_rate_burst, settings.web_rate_per_second)
    app = web.Application(
        client_max_size=MAX_BODY,
        middlewares=[
            session_middleware(sessions),
            language_middleware,
            headers_middleware,
            error_middleware,
            rate_middleware(buckets, trust_proxy=settings.web_trust_proxy),
            csrf_middleware,
        ],
    )
    app[SETTINGS] = settings
    app[DATABASE] = database
    app[LOCAL_LOGIN] = local_login and settings.discord_client_secret is None
    app.add_routes(home_routes)
    app.add_routes(auth_routes)
    app.add_routes(oauth_routes)
    app.add_routes(character_routes)
    add_channel_pages(app)
    app.router.add_static("/static", STATIC, name="static", append_version=True)
    return app


async def start_web(
    settings: Settings, database: Database, *, local_login: bool = False
) -> web.AppRunner:
    """Serve the web companion on WEB_BIND, on the running event loop (``narrator web``, or
    beside the bot for ``narrator run --web``); ``runner.cleanup()`` stops it."""
    runner = web.AppRunner(create_app(settings, database, local_login=local_login), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, settings.web_host, settings.web_port).start()
    except OSError as error:  # the port is taken, or the host is not this machine's
        await runner.cleanup()
        raise ServiceUnavailable(
            f"WEB_BIND: cannot listen on {settings.web_bind} ({error.strerror or error})"
        ) from None
    log.info("web companion on http://%s, reached at %s", settings.web_bind, settings.web_url)
    return runner


async def serve(settings: Settings, database: Database, *, local_login: bool = False) -> None:
    """Run the web companion until cancelled (``narrator web``)."""
    runner = await start_web(settings, database, local_login=local_login)
    try:
        await asyncio.Event().wait()
    finally:
        await runner.cleanup()
