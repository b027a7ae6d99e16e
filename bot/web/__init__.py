"""The web companion (``narrator web``; issue 32): pages for sheets, channels and the roll
log, on the bot's database, calling the same services as the cogs (never storage).

Its modules: the application and serving it (``_app``), what handlers reach through the
application (``_context``), the signed session and who is looking (``_session``),
form tokens (``_csrf``), headers, limits and error pages (``_security``), templates and the
page language (``_templates``), logging in by name offline (``_auth``) or with Discord
(``_oauth``), and the pages: the viewer's tables (``_home``) and characters
(``_characters``), …

A handler that needs a logged-in viewer calls ``require_viewer(request)`` (anonymous: a
redirect to /login and back); ``current_viewer(request)`` is the viewer or None, the same as
``request.get(VIEWER)`` (aiohttp wants typed request keys, not ``request["viewer"]``). Who
may see or change what is decided by services from the bot's stored state, never by the
browser.
"""

from bot.web._app import create_app as create_app
from bot.web._app import serve as serve
from bot.web._app import start_web as start_web
from bot.web._session import VIEWER as VIEWER
from bot.web._session import Viewer as Viewer
from bot.web._session import current_viewer as current_viewer
from bot.web._session import require_viewer as require_viewer
