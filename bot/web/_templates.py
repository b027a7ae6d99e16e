"""Pages from Jinja2 templates (``bot/web/templates``), autoescaped, in the viewer's language.

Templates translate with ``_`` and ``_n``, the bot's own catalog functions (the same
messages and the same Spanish as in Discord; ``make messages`` extracts them from the
templates too). The language is the viewer's choice (the ``lang`` cookie, set by the
switcher in the footer), else the browser's Accept-Language, else English.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import jinja2
from aiohttp import web
from markupsafe import Markup, escape

from bot.i18n import (
    SOURCE_LANGUAGE,
    _,
    _n,
    available_languages,
    set_language,
    use_language,
)
from bot.web._csrf import FIELD, csrf_token
from bot.web._session import current_viewer

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

LANGUAGE_COOKIE = "lang"
#: Each language's name in itself, for the switcher.
LANGUAGE_NAMES = {"en": "English", "es": "Español"}

ENVIRONMENT = jinja2.Environment(
    loader=jinja2.PackageLoader("bot.web", "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,  # a misspelt name fails the tests, not a page silently
)
ENVIRONMENT.globals.update(_=_, _n=_n, csrf_field_name=FIELD)

#: A backslash before a markdown character (how the bot escapes names for Discord).
_ESCAPED = re.compile(r"\\([\\*_~|#\[\]():.\-]|&lt;|&gt;|&amp;)")
_CODE = re.compile(r"`([^`]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


def discord_text(text: str) -> Markup:
    """A service's message (written for Discord) as HTML: its `code` spans and **bold** as
    such, the backslashes that escape names for Discord's markdown gone, everything else
    escaped."""
    html = str(escape(text.replace("\u200b", ""))).replace("\\`", "\x00")
    html = _CODE.sub(r"<code>\1</code>", html)
    html = _BOLD.sub(r"<strong>\1</strong>", html)
    return Markup(_ESCAPED.sub(r"\1", html).replace("\x00", "`"))


ENVIRONMENT.filters["discord"] = discord_text


def request_language(request: web.Request) -> str:
    """The language to write this page in: the cookie, else Accept-Language, else English."""
    known = available_languages()
    chosen = request.cookies.get(LANGUAGE_COOKIE, "")
    if chosen in known:
        return chosen
    ranked: list[tuple[float, str]] = []
    for part in request.headers.get("Accept-Language", "").split(",")[:20]:
        tag, _semi, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                continue
        ranked.append((quality, tag.strip().split("-")[0].lower()))
    for _quality, language in sorted(ranked, key=lambda item: -item[0]):
        if language in known:
            return language
    return SOURCE_LANGUAGE


@web.middleware
async def language_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Everything this request writes (pages, the services' messages) in its language."""
    set_language(request_language(request))  # each request runs in a task of its own
    return await handler(request)


def page(request: web.Request, template: str, *, status: int = 200, **context: Any) -> str:
    """The HTML of ``template`` for this request (the viewer, the form token, the language)."""
    language = request_language(request)
    values: Mapping[str, Any] = {
        "viewer": current_viewer(request),
        "csrf_token": csrf_token(request),
        "language": language,
        "languages": {
            code: LANGUAGE_NAMES.get(code, code) for code in sorted(available_languages())
        },
        "path": request.rel_url.path_qs,
        "status": status,
        **context,
    }
    with use_language(language):
        return ENVIRONMENT.get_template(template).render(values)


def render(
    request: web.Request, template: str, *, status: int = 200, **context: Any
) -> web.Response:
    """A page as the response (``text/html``)."""
    return web.Response(
        text=page(request, template, status=status, **context),
        status=status,
        content_type="text/html",
        charset="utf-8",
    )
