"""The signed session cookie, and who is looking: ``request[VIEWER]``.

The session is a small dict signed with itsdangerous (so the browser can read it but not
change it) and dated, so a stolen cookie stops working after ``WEB_SESSION_DAYS``. It holds
who logged in, the guilds they share with Narrator (read once at login), the form token
(``bot.web._csrf``); nothing the pages trust about permissions: those come from services.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from aiohttp import web
from aiohttp.typedefs import Middleware
from itsdangerous import BadSignature, URLSafeTimedSerializer

from bot.hosting.config import Settings

log = logging.getLogger(__name__)

COOKIE = "narrator_session"
#: A cookie is at most ~4 kB: the guilds remembered in it are capped (the rest are re-read).
MAX_GUILDS = 100

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is logged in: their Discord id and name, and the guilds they share with Narrator."""

    user_id: int
    name: str
    guild_ids: frozenset[int]


#: ``request[VIEWER]``: who is logged in, absent for anonymous requests (``current_viewer``).
VIEWER = web.RequestKey("viewer", Viewer)
#: ``request[SESSION]``: the session's data; ``request[SESSION_CHANGED]`` makes it saved.
SESSION: web.RequestKey[dict[str, Any]] = web.RequestKey("session")
SESSION_CHANGED = web.RequestKey("session_changed", bool)


def secret_key(settings: Settings) -> bytes:
    """The key that signs cookies: WEB_SECRET_KEY; else one derived from the OAuth client
    secret (the same in every process that shares the settings); else a random one, so a
    local-login session ends with its process."""
    if settings.web_secret_key is not None:
        return settings.web_secret_key.get_secret_value().encode()
    if settings.discord_client_secret is not None:
        client_secret = settings.discord_client_secret.get_secret_value().encode()
        return hmac.new(client_secret, b"narrator web session", hashlib.sha256).digest()
    return secrets.token_bytes(32)


class Sessions:
    """Reads and writes the session cookie."""

    def __init__(self, key: bytes, *, max_age: float, secure: bool) -> None:
        self._serializer = URLSafeTimedSerializer(key, salt="narrator.session")
        self.max_age = max_age
        self.secure = secure

    def load(self, request: web.Request) -> dict[str, Any]:
        """The session's data, or an empty dict for no, a forged or an expired cookie."""
        raw = request.cookies.get(COOKIE)
        if not raw:
            return {}
        try:
            data = self._serializer.loads(raw, max_age=int(self.max_age))
        except BadSignature:  # SignatureExpired is one too
            return {}
        return data if isinstance(data, dict) else {}

    def dumps(self, data: Mapping[str, Any]) -> str:
        """The cookie's value for ``data``: signed and dated."""
        return str(self._serializer.dumps(dict(data)))

    def save(self, response: web.StreamResponse, data: Mapping[str, Any]) -> None:
        if not data:
            response.del_cookie(COOKIE, path="/")
            return
        response.set_cookie(
            COOKIE,
            self.dumps(data),
            max_age=int(self.max_age),
            path="/",
            httponly=True,
            secure=self.secure,
            samesite="Lax",
        )


def viewer_of(data: Mapping[str, Any]) -> Viewer | None:
    """The viewer a session names, or None when nobody logged in (or the data is odd)."""
    user_id, name, guilds = data.get("uid"), data.get("name"), data.get("guilds", [])
    if not isinstance(user_id, int) or not isinstance(name, str) or not isinstance(guilds, list):
        return None
    return Viewer(user_id, name, frozenset(g for g in guilds if isinstance(g, int)))


def log_in(request: web.Request, viewer: Viewer) -> None:
    """Start a new session for ``viewer`` (a fresh form token: none carries over a login)."""
    request[SESSION] = {
        "uid": viewer.user_id,
        "name": viewer.name,
        "guilds": sorted(viewer.guild_ids)[:MAX_GUILDS],
        "csrf": secrets.token_urlsafe(32),
    }
    request[SESSION_CHANGED] = True
    request[VIEWER] = viewer


def log_out(request: web.Request) -> None:
    request[SESSION] = {}
    request[SESSION_CHANGED] = True
    request.pop(VIEWER, None)


def current_viewer(request: web.Request) -> Viewer | None:
    """Who is logged in, or None for an anonymous request."""
    return request.get(VIEWER)


def require_viewer(request: web.Request) -> Viewer:
    """The logged-in viewer; anyone else is sent to the login page, and back here after."""
    viewer = request.get(VIEWER)
    if viewer is None:
        raise web.HTTPFound(login_url(request.rel_url.path_qs))
    return viewer


def login_url(back_to: str) -> str:
    return "/login" if back_to in ("", "/") else f"/login?next={quote(back_to, safe='/')}"


def session_middleware(sessions: Sessions) -> Middleware:
    """Read the cookie into ``request[SESSION]`` and ``request[VIEWER]``; write it back
    when a handler changed it (on a redirect raised as an exception too)."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        data = sessions.load(request)
        request[SESSION] = data
        viewer = viewer_of(data)
        if viewer is not None:
            request[VIEWER] = viewer
        try:
            response = await handler(request)
        except web.HTTPException as exception:
            if request.get(SESSION_CHANGED):
                sessions.save(exception, request.get(SESSION, {}))
            raise
        if request.get(SESSION_CHANGED):
            sessions.save(response, request.get(SESSION, {}))
        return response

    return middleware
