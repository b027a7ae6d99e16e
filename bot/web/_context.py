"""What every handler reaches through its application: the settings and the database.

Handlers hand the database to services (as the cogs do); they never query it themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from bot.hosting.config import Settings

if TYPE_CHECKING:
    from bot.storage import Database

SETTINGS = web.AppKey("settings", Settings)
DATABASE: web.AppKey[Database] = web.AppKey("database")
#: Whether the offline login page (``narrator web --local-login``) is on.
LOCAL_LOGIN = web.AppKey("local_login", bool)


def database_of(request: web.Request) -> Database:
    return request.app[DATABASE]


def settings_of(request: web.Request) -> Settings:
    return request.app[SETTINGS]
