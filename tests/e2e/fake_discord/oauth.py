"""The OAuth2 half of the stand-in: "Log in with Discord" for the web companion, offline.

``/oauth2/authorize`` approves at once as ``oauth_user`` (a test picks who logs in), then
``/api/v10/oauth2/token`` trades the code for a token only with the right client secret,
redirect URI and PKCE ``code_verifier`` (S256), once; a Bearer token then reads
``/users/@me`` and ``/users/@me/guilds`` as that user (the guilds of every table).
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

from tests.e2e.fake_discord import payloads as p

CLIENT_SECRET = "fake-client-secret"


@dataclass
class Grant:
    """An authorization code waiting to be traded: whose, for which redirect and challenge."""

    user: str
    redirect_uri: str
    challenge: str


def s256(verifier: str) -> str:
    """PKCE's S256 code challenge of ``verifier``."""
    digest = hashlib.sha256(verifier.encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


class OAuthMixin:
    """Authorize, token and the Bearer routes; the state lives in FakeDiscord."""

    application_id: int
    tables: list[Any]

    def _init_oauth(self) -> None:
        #: Who the authorize page logs in as (a test sets it before logging in).
        self.oauth_user = "alice"
        #: Why each refused token request was refused.
        self.oauth_refused: list[str] = []
        self._grants: dict[str, Grant] = {}
        self._tokens: dict[str, str] = {}

    async def _authorize(self, request: web.Request) -> web.StreamResponse:
        query = request.query
        problems = []
        if query.get("response_type") != "code":
            problems.append("response_type must be code")
        if query.get("client_id") != str(self.application_id):
            problems.append("unknown client_id")
        if not {"identify", "guilds"} <= set(query.get("scope", "").split()):
            problems.append("scope must hold identify and guilds")
        if query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
            problems.append("PKCE S256 code_challenge required")
        if not query.get("redirect_uri") or not query.get("state"):
            problems.append("redirect_uri and state required")
        if problems:
            return web.json_response({"error": "invalid_request", "problems": problems}, status=400)
        code = secrets.token_urlsafe(16)
        self._grants[code] = Grant(self.oauth_user, query["redirect_uri"], query["code_challenge"])
        target = f"{query['redirect_uri']}?{urlencode({'code': code, 'state': query['state']})}"
        raise web.HTTPFound(target)

    def _refuse(self, why: str) -> web.Response:
        self.oauth_refused.append(why)
        return web.json_response({"error": "invalid_grant", "error_description": why}, status=400)

    async def _token(self, request: web.Request, _body: Any) -> web.Response:
        form = await request.post()
        client_id, secret = str(form.get("client_id", "")), str(form.get("client_secret", ""))
        basic = request.headers.get("Authorization", "")
        if basic.startswith("Basic "):
            decoded = base64.b64decode(basic.removeprefix("Basic ")).decode()
            client_id, _colon, secret = decoded.partition(":")
        if client_id != str(self.application_id) or secret != CLIENT_SECRET:
            return self._refuse("bad client credentials")
        if form.get("grant_type") != "authorization_code":
            return self._refuse("grant_type")
        grant = self._grants.pop(str(form.get("code", "")), None)
        if grant is None:
            return self._refuse("unknown or used code")
        if form.get("redirect_uri") != grant.redirect_uri:
            return self._refuse("redirect_uri mismatch")
        if s256(str(form.get("code_verifier", ""))) != grant.challenge:
            return self._refuse("code_verifier does not match the challenge")
        token = secrets.token_urlsafe(24)
        self._tokens[token] = grant.user
        return web.json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": "identify guilds",
            }
        )

    def bearer_user(self, request: web.Request) -> str | None:
        """The user a ``Bearer`` token stands for, or None (the bot's own ``Bot`` token)."""
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            return None
        return self._tokens.get(header.removeprefix("Bearer "))

    async def _my_guilds(self, request: web.Request, _body: Any) -> web.Response:
        who = self.bearer_user(request)
        if who is None:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        guilds = [
            {
                "id": str(table.guild_id),
                "name": f"Table {index}",
                "icon": None,
                "owner": False,
                "permissions": str(p.EVERYONE_PERMISSIONS),
            }
            for index, table in enumerate(self.tables)
            if who in table.users
        ]
        return web.json_response(guilds)
