"""Log in with Discord: OAuth2's authorization code flow with PKCE (S256) and ``state``.

``/auth/discord`` keeps a fresh ``state`` and code verifier in the session and sends the
browser to Discord's authorize page (scopes ``identify guilds``); ``/auth/callback`` takes
the code only with that same ``state``, trades it (with the verifier and the client secret)
for a token, reads who the user is and which guilds they are in, and logs them in with
those guilds (what they may see there is then the services' to decide, from the bot's
record). The token is then dropped: the web reads nothing
more from Discord, and everything else from the bot's database.

The API base is ``DISCORD_API_BASE`` when set (the tests' stand-in), else Discord's.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
from typing import Any
from urllib.parse import urlencode, urlsplit

import aiohttp
from aiohttp import web

from bot.hosting.config import Settings
from bot.i18n import N_, _
from bot.services.members import guild_ids_of
from bot.web._context import database_of, settings_of
from bot.web._security import safe_next
from bot.web._session import MAX_GUILDS, SESSION, SESSION_CHANGED, Viewer, log_in
from bot.web._templates import render

log = logging.getLogger(__name__)

routes = web.RouteTableDef()

DISCORD_API = "https://discord.com/api/v10"
SCOPES = "identify guilds"
CALLBACK = "/auth/callback"
#: How long Discord may take to answer one call of the login.
TIMEOUT = aiohttp.ClientTimeout(total=15)

REFUSED = N_("Discord did not confirm this login (it expired or came from elsewhere): try again.")
UNREACHABLE = N_("Discord did not answer: try again in a moment.")
DENIED = N_("The login was cancelled at Discord.")


def api_base(settings: Settings) -> str:
    return (settings.discord_api_base or DISCORD_API).rstrip("/")


def authorize_url(settings: Settings) -> str:
    """Discord's authorize page: the API base's origin, ``/oauth2/authorize``."""
    parts = urlsplit(api_base(settings))
    return f"{parts.scheme}://{parts.netloc}/oauth2/authorize"


def redirect_uri(settings: Settings) -> str:
    """The address to register in Discord's developer portal (OAuth2 > Redirects)."""
    return settings.web_url + CALLBACK


def code_challenge(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


@routes.get("/auth/discord")
async def start(request: web.Request) -> web.StreamResponse:
    settings = settings_of(request)
    if settings.discord_client_id is None or settings.discord_client_secret is None:
        raise web.HTTPNotFound()
    state, verifier = secrets.token_urlsafe(24), secrets.token_urlsafe(48)
    request[SESSION]["oauth"] = {
        "state": state,
        "verifier": verifier,
        "next": safe_next(request.query.get("next")),
    }
    request[SESSION_CHANGED] = True
    query = urlencode(
        {
            "response_type": "code",
            "client_id": str(settings.discord_client_id),
            "scope": SCOPES,
            "state": state,
            "redirect_uri": redirect_uri(settings),
            "code_challenge": code_challenge(verifier),
            "code_challenge_method": "S256",
        }
    )
    raise web.HTTPFound(f"{authorize_url(settings)}?{query}")


@routes.get(CALLBACK)
async def callback(request: web.Request) -> web.StreamResponse:
    settings = settings_of(request)
    pending = request[SESSION].pop("oauth", None)
    request[SESSION_CHANGED] = True  # a code is good for one try: the pending login ends here
    state = request.query.get("state", "")
    if not isinstance(pending, dict) or not hmac.compare_digest(
        state.encode(), str(pending.get("state", "")).encode()
    ):
        return render(request, "login.html", status=400, next="/", error=_(REFUSED))
    if "error" in request.query or "code" not in request.query:
        return render(request, "login.html", status=400, next="/", error=_(DENIED))
    try:
        user, guilds = await _identify(settings, request.query["code"], str(pending["verifier"]))
    except LoginRefused:
        return render(request, "login.html", status=400, next="/", error=_(REFUSED))
    except (aiohttp.ClientError, TimeoutError, ValueError, KeyError):
        log.warning("Discord's OAuth2 endpoints failed", exc_info=True)
        return render(request, "login.html", status=502, next="/", error=_(UNREACHABLE))
    user_id = int(user["id"])
    # Discord's list decides (a guild they left is out), those the bot knows them in first;
    # one they join later counts once the bot records them there. A cookie holds 100 at most.
    known = await guild_ids_of(database_of(request), user_id)
    ordered = sorted(guilds & known) + sorted(guilds - known)
    name = str(user.get("global_name") or user.get("username") or user_id)
    log_in(request, Viewer(user_id, name, frozenset(ordered[:MAX_GUILDS])))
    raise web.HTTPSeeOther(safe_next(str(pending.get("next", ""))))


class LoginRefused(Exception):
    """Discord refused the code (used, expired, or the verifier does not match)."""


async def _identify(
    settings: Settings, code: str, verifier: str
) -> tuple[dict[str, Any], set[int]]:
    """Trade the code for a token; the user and the ids of their guilds."""
    assert settings.discord_client_id is not None and settings.discord_client_secret is not None
    base = api_base(settings)
    async with aiohttp.ClientSession(timeout=TIMEOUT) as client:
        async with client.post(
            f"{base}/oauth2/token",
            data={
                "grant_type": "authorization_code",
                "code": code,
                "redirect_uri": redirect_uri(settings),
                "code_verifier": verifier,
            },
            headers={
                "Authorization": aiohttp.encode_basic_auth(
                    str(settings.discord_client_id),
                    settings.discord_client_secret.get_secret_value(),
                )
            },
        ) as response:
            if 400 <= response.status < 500:
                raise LoginRefused()
            response.raise_for_status()
            token = (await response.json())["access_token"]
        headers = {"Authorization": f"Bearer {token}"}
        async with client.get(f"{base}/users/@me", headers=headers) as response:
            response.raise_for_status()
            user = await response.json()
        async with client.get(f"{base}/users/@me/guilds", headers=headers) as response:
            response.raise_for_status()
            guilds = {int(guild["id"]) for guild in await response.json()}
    return user, guilds
