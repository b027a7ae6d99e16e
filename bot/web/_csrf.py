"""Form tokens: every POST, PUT and DELETE carries the session's token, or it is refused.

One token per session (made when a page first shows a form, renewed at login), sent back as
the form field ``csrf_token`` or the ``X-CSRF-Token`` header (``app.js``'s requests). A page
on another site can make a browser post to us, with our cookie even, but cannot read the
token out of our pages, so its forged request fails here.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from bot.web._session import SESSION, SESSION_CHANGED

FIELD = "csrf_token"
HEADER = "X-CSRF-Token"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def csrf_token(request: web.Request) -> str:
    """This session's token (made now, and the session saved, when it had none)."""
    session: dict[str, Any] = request.setdefault(SESSION, {})
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
        request[SESSION_CHANGED] = True
    return token


async def sent_token(request: web.Request) -> str:
    """The token the request carries: the header, else the form field."""
    header = request.headers.get(HEADER)
    if header:
        return header
    if request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
        form = await request.post()  # read once: handlers get the same parsed form
        value = form.get(FIELD)
        return value if isinstance(value, str) else ""
    return ""


@web.middleware
async def csrf_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refuse (403) a state-changing request whose token is missing or not this session's."""
    if request.method in UNSAFE:
        expected = request[SESSION].get("csrf")
        sent = await sent_token(request)
        if not isinstance(expected, str) or not hmac.compare_digest(sent, expected):
            raise web.HTTPForbidden(reason="csrf")
    return await handler(request)
