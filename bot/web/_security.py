"""Hostile input is the normal case: headers, limits, error pages and safe redirects.

- Every response carries a strict Content-Security-Policy (scripts only from our own
  ``/static``, never inline; no framing), ``nosniff`` and a same-origin referrer policy.
- Each session and each address gets a token bucket of requests (WEB_RATE_BURST at once,
  WEB_RATE_PER_SECOND more per second); past it, a short 429 page with Retry-After.
- Errors are a short page saying what happened (404, 403, 400, 413, 429, 500), never a
  traceback; an unexpected exception is logged here and shown as 500.
- ``next=`` (where a login returns to) is followed only to a path of this site.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Middleware

from bot.i18n import N_
from bot.web._session import SESSION
from bot.web._templates import render

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

#: Requests' bodies: a sheet's JSON import is the largest thing anyone sends (64 KiB of
#: sheet, with room for a form's encoding).
MAX_BODY = 256 * 1024

HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}

#: Pages show one viewer's sheets: no shared cache or back-button copy keeps them.
NO_STORE = {"Cache-Control": "no-store"}

#: What each error page says (one line; the status code is shown too).
ERROR_TEXT = {
    400: N_("That request did not make sense to the server."),
    403: N_("You may not do that here."),
    404: N_("There is nothing here, or it is not yours to see."),
    405: N_("That page does not take that kind of request."),
    413: N_("That is too much to send at once."),
    429: N_("Slow down: try again in a few seconds."),
    500: N_("Something went wrong on our side; nothing was changed."),
}
CSRF_TEXT = N_(
    "This form has expired or did not come from this site: reload the page and try again."
)


def safe_next(value: str | None, default: str = "/") -> str:
    """``value`` when it is a path on this site (``/characters?x=1``), else ``default``.

    Refused: absolute URLs, scheme-relative ``//host``, backslashes (which browsers read as
    slashes), control characters, anything not starting with one ``/``.
    """
    if not value or len(value) > 2000 or not value.startswith("/"):
        return default
    if value.startswith("//") or "\\" in value or any(ord(c) < 32 or ord(c) == 127 for c in value):
        return default
    return value


class Buckets:
    """Token buckets by key (a session, an address); full buckets are forgotten."""

    def __init__(
        self, burst: int, per_second: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.per_second = per_second
        self.clock = clock
        self._buckets: dict[Hashable, tuple[float, float]] = {}  # key -> (tokens, when)

    def take(self, key: Hashable) -> float:
        """Spend one request of ``key``'s: 0 when allowed, else the seconds to wait."""
        if self.burst <= 0:
            return 0.0
        now = self.clock()
        tokens, when = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - when) * self.per_second)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return math.inf if self.per_second <= 0 else (1.0 - tokens) / self.per_second
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > 10_000:
            self._forget_full(now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        full = [
            key
            for key, (tokens, when) in self._buckets.items()
            if tokens + (now - when) * self.per_second >= self.burst
        ]
        for key in full:
            del self._buckets[key]


def client_address(request: web.Request, trust_proxy: bool) -> str:
    """Who sent the request: the peer, or behind a trusted proxy the address the proxy saw
    (the last X-Forwarded-For entry: the one the proxy added, not the client's claims)."""
    if trust_proxy:
        forwarded = request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
        if forwarded:
            return forwarded
    return request.remote or ""


def rate_middleware(buckets: Buckets, *, trust_proxy: bool = False) -> Middleware:
    """Refuse (429) a session or an address past its budget; static files are not counted."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith("/static/"):
            keys: list[Hashable] = [("ip", client_address(request, trust_proxy))]
            session_key = request[SESSION].get("csrf")
            if isinstance(session_key, str):
                keys.append(("session", session_key))
            wait = max(buckets.take(key) for key in keys)
            if wait:
                seconds = 60 if math.isinf(wait) else max(1, math.ceil(wait))
                raise web.HTTPTooManyRequests(headers={"Retry-After": str(seconds)})
        return await handler(request)

    return middleware


@web.middleware
async def headers_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The security headers on every response, error pages included."""
    private = {} if request.path.startswith("/static/") else NO_STORE
    try:
        response = await handler(request)
    except web.HTTPException as exception:
        exception.headers.update({**HEADERS, **private})
        raise
    response.headers.update(HEADERS)
    for name, value in private.items():  # a handler's own caching (a chart's) stands
        response.headers.setdefault(name, value)
    return response


@web.middleware
async def error_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """An error as a short page of ours; redirects and successes pass through."""
    try:
        return await handler(request)
    except web.HTTPException as exception:
        if exception.status < 400:
            raise
        return error_page(request, exception.status, exception.reason, exception.headers)
    except Exception:
        log.exception("web request %s %s failed", request.method, request.path)
        return error_page(request, 500)


def error_page(
    request: web.Request, status: int, reason: str = "", headers: Any = None
) -> web.Response:
    text = CSRF_TEXT if reason == "csrf" else ERROR_TEXT.get(status, ERROR_TEXT[400])
    response = render(request, "error.html", status=status, message=text)
    if headers and "Retry-After" in headers:
        response.headers["Retry-After"] = headers["Retry-After"]
    if headers and "Allow" in headers:
        response.headers["Allow"] = headers["Allow"]
    return response
