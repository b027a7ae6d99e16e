"""The REST half of the stand-in: the routes discord.py calls, answered like Discord.

``RestMixin`` is mixed into :class:`~tests.e2e.fake_discord.server.FakeDiscord` and works on
its state. Unknown routes are logged loudly and answered 404; message bodies Discord would
refuse (embed limits, empty messages) are answered 400 and recorded in ``rejected``.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from tests.e2e.fake_discord import payloads as p
from tests.e2e.fake_discord.results import (
    EPHEMERAL,
    INTERACTION_DEADLINE,
    UPLOADS,
    InteractionResult,
    Request,
)
from tests.e2e.fake_discord.validation import message_errors

log = logging.getLogger("fake_discord")


class RestMixin:
    """Route table and handlers; the state they use lives in FakeDiscord."""

    def _record(self, request: web.Request, body: Any, status: int) -> Request:
        entry = Request(
            at=time.time(),
            method=request.method,
            path=request.path,
            query=dict(request.query),
            host=request.host,
            body=body,
            status=status,
        )
        self.requests.append(entry)
        return entry

    def _build_routes(
        self,
    ) -> list[tuple[str, re.Pattern[str], Callable[..., Awaitable[web.StreamResponse]]]]:
        table: list[tuple[str, str, Callable[..., Awaitable[web.StreamResponse]]]] = [
            ("GET", r"/users/@me", self._get_me),
            ("GET", r"/users/@me/guilds", self._my_guilds),  # type: ignore[attr-defined]
            ("POST", r"/oauth2/token", self._token),  # type: ignore[attr-defined]
            ("GET", r"/oauth2/applications/@me", self._get_application),
            ("GET", r"/applications/@me", self._get_application),
            ("GET", r"/gateway", self._get_gateway),
            ("GET", r"/gateway/bot", self._get_gateway),
            ("PUT", r"/applications/(?P<app>\d+)/commands", self._put_commands),
            ("GET", r"/applications/(?P<app>\d+)/commands", self._get_commands),
            (
                "PUT",
                r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
                self._put_commands,
            ),
            (
                "GET",
                r"/applications/(?P<app>\d+)/guilds/(?P<guild>\d+)/commands",
                self._get_commands,
            ),
            ("POST", r"/interactions/(?P<id>\d+)/(?P<token>[^/]+)/callback", self._callback),
            ("POST", r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)", self._followup),
            (
                "GET",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
                self._get_webhook_message,
            ),
            (
                "PATCH",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
                self._edit_webhook_message,
            ),
            (
                "DELETE",
                r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)",
                self._delete_webhook_message,
            ),
            ("GET", r"/channels/(?P<cid>\d+)", self._get_channel),
            ("POST", r"/channels/(?P<cid>\d+)/messages", self._post_channel_message),
            ("GET", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._get_channel_message),
            ("PATCH", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._edit_channel_message),
            ("DELETE", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)", self._delete_message),
            ("POST", r"/users/@me/channels", self._create_dm),
            ("GET", r"/users/(?P<uid>\d+)", self._get_user),
            ("GET", r"/guilds/(?P<guild>\d+)/members/(?P<uid>\d+)", self._get_member),
        ]
        return [
            (method, re.compile(pattern + r"/?$"), handler) for method, pattern, handler in table
        ]

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        match = re.match(r"^/api(?:/v\d+)?(/.*)$", request.path)
        body = await _read_body(request)
        entry = self._record(request, body, 0)
        if match is not None:
            path = match.group(1)
            for method, pattern, handler in self._routes:
                found = pattern.match(path)
                if found and method == request.method:
                    response = await handler(request, body, **found.groupdict())
                    entry.status = response.status
                    return response
        entry.status = 404
        self.unknown.append(entry)
        log.error("fake Discord: UNKNOWN ROUTE %s %s (answered 404)", request.method, request.path)
        return _error(404, 0, f"404: Not Found ({request.method} {request.path})")

    def _reject(self, request: web.Request, problems: list[str]) -> web.Response:
        entry = self.requests[-1] if self.requests else None
        if entry is not None:
            self.rejected.append((entry, problems))
        log.error("fake Discord: rejected %s %s: %s", request.method, request.path, problems)
        return _error(400, 50035, "Invalid Form Body: " + "; ".join(problems))

    async def _get_me(self, request: web.Request, _body: Any) -> web.Response:
        who = self.bearer_user(request)  # type: ignore[attr-defined]
        if who is not None:  # the web companion, with a user's OAuth token
            return _json(self.tables[0].users[who])
        return _json(self.bot_user)

    async def _get_application(self, _request: web.Request, _body: Any) -> web.Response:
        return _json(
            {
                "id": str(self.application_id),
                "name": "Narrator",
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": self.bot_user,
                "owner": self.owner,
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "summary": "",
                "tags": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": 1,
            }
        )

    async def _get_gateway(self, _request: web.Request, _body: Any) -> web.Response:
        return _json(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    def _store_commands(
        self, body: list[dict[str, Any]], guild: str | None
    ) -> list[dict[str, Any]]:
        existing = self.guild_commands.get(int(guild), {}) if guild else self.global_commands
        stored: dict[str, dict[str, Any]] = {}
        for command in body:
            previous = existing.get(command["name"])
            full = {
                "type": 1,
                "default_member_permissions": None,
                "nsfw": False,
                "options": [],
                **command,
                "id": previous["id"] if previous else str(p.snowflake()),
                "application_id": str(self.application_id),
                "version": str(p.snowflake()),
            }
            if guild:
                full["guild_id"] = guild
            stored[command["name"]] = full
        if guild:
            self.guild_commands[int(guild)] = stored
        else:
            self.global_commands = stored
        self.command_syncs += 1
        self._changed()
        return list(stored.values())

    async def _put_commands(
        self, request: web.Request, body: Any, app: str, guild: str | None = None
    ) -> web.Response:
        if int(app) != self.application_id:
            return _error(403, 50001, "Missing Access")
        if not isinstance(body, list):
            return self._reject(request, ["body must be a list of commands"])
        problems = [
            f"/{c.get('name')}: description missing or longer than 100"
            for c in body
            if c.get("type", 1) == 1 and not 1 <= len(c.get("description") or "") <= 100
        ]
        if len(body) > 100:
            problems.append("more than 100 commands")
        if problems:
            return self._reject(request, problems)
        return _json(self._store_commands(body, guild))

    async def _get_commands(
        self, _request: web.Request, _body: Any, app: str, guild: str | None = None
    ) -> web.Response:
        commands = self.guild_commands.get(int(guild), {}) if guild else self.global_commands
        return _json(list(commands.values()))

    def _new_message(
        self, result: InteractionResult | None, channel_id: int, body: dict[str, Any]
    ) -> dict[str, Any]:
        message = p.message(
            message_id=p.snowflake(),
            channel_id=channel_id,
            guild_id=table.guild_id if (table := self.table_of_channel(channel_id)) else None,
            author=self.bot_user,
            body=body,
            interaction=result.payload if result is not None else None,
            application_id=self.application_id,
        )
        self.messages[int(message["id"])] = message
        if len(self.messages) > 200_000:
            self.messages.pop(next(iter(self.messages)))
        return message

    async def _callback(
        self, request: web.Request, body: Any, id: str, token: str
    ) -> web.StreamResponse:
        result = self.results.get(token)
        if result is None or result.id != int(id):
            return _error(404, 10062, "Unknown interaction")
        if result.callback is not None:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        now = time.perf_counter()
        if now - result.created_at > INTERACTION_DEADLINE:
            self.late_callbacks.append(result)
            result.callback_status = 404
            result._notify()
            return _error(404, 10062, "Unknown interaction")
        kind = body.get("type") if isinstance(body, dict) else None
        data = (body or {}).get("data") or {}
        if kind in (4, 7) and (problems := message_errors(data)):
            result.callback_status = 400
            result._notify()
            return self._reject(request, problems)
        result.callback, result.callback_at, result.callback_status = body, now, 200
        interaction = result.payload
        response: dict[str, Any] = {
            "interaction": {
                "id": interaction["id"],
                "type": interaction["type"],
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
            }
        }
        channel_id = int(interaction["channel_id"])
        if kind in (4, 5):  # a message (or a "thinking…" placeholder) in the channel
            result.message = self._new_message(result, channel_id, data if kind == 4 else {})
            response["interaction"]["response_message_id"] = result.message["id"]
            response["resource"] = {"type": kind, "message": result.message}
        elif kind in (6, 7) and "message" in interaction:  # update the pressed button's message
            target = self.messages.get(int(interaction["message"]["id"]), interaction["message"])
            if kind == 7:
                target = p.edit_message(target, data)
                self.messages[int(target["id"])] = target
            result.message = target
            response["interaction"]["response_message_id"] = target["id"]
            response["resource"] = {"type": kind, "message": target}
        else:
            response["resource"] = {"type": kind}
        result._notify()
        if self.on_callback is not None:
            self.on_callback(result)
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)  # Discord's answer unless asked for the message
        return _json(response)

    def _result_for_webhook(self, app: str, token: str) -> InteractionResult | None:
        if int(app) != self.application_id:
            return None
        return self.results.get(token)

    async def _followup(
        self, request: web.Request, body: Any, app: str, token: str
    ) -> web.StreamResponse:
        result = self._result_for_webhook(app, token)
        if result is None or result.callback is None:
            return _error(404, 10015, "Unknown Webhook")
        if problems := message_errors(body or {}):
            return self._reject(request, problems)
        message = self._new_message(result, int(result.payload["channel_id"]), body)
        result.followups.append(body)
        result._notify()
        if request.query.get("wait", "false").lower() in ("true", "1"):
            return _json(message)
        return web.Response(status=204)

    def _webhook_target(self, result: InteractionResult, mid: str) -> dict[str, Any] | None:
        if mid == "@original":
            return None if result.message is None else self.messages.get(int(result.message["id"]))
        return self.messages.get(int(mid))

    async def _get_webhook_message(
        self, _request: web.Request, _body: Any, app: str, token: str, mid: str
    ) -> web.StreamResponse:
        result = self._result_for_webhook(app, token)
        target = None if result is None else self._webhook_target(result, mid)
        if target is None:
            return _error(404, 10008, "Unknown Message")
        return _json(target)

    async def _edit_webhook_message(
        self, request: web.Request, body: Any, app: str, token: str, mid: str
    ) -> web.StreamResponse:
        result = self._result_for_webhook(app, token)
        target = None if result is None else self._webhook_target(result, mid)
        if result is None or target is None:
            return _error(404, 10008, "Unknown Message")
        updated = p.edit_message(target, body or {})
        if problems := message_errors(updated):
            return self._reject(request, problems)
        self.messages[int(updated["id"])] = updated
        if mid == "@original":
            result.message = updated
        result.edits.append(body or {})
        result._notify()
        return _json(updated)

    async def _delete_webhook_message(
        self, _request: web.Request, _body: Any, app: str, token: str, mid: str
    ) -> web.StreamResponse:
        result = self._result_for_webhook(app, token)
        target = None if result is None else self._webhook_target(result, mid)
        if target is None:
            return _error(404, 10008, "Unknown Message")
        self.messages.pop(int(target["id"]), None)
        return web.Response(status=204)

    def _channel_payload(self, channel_id: int) -> dict[str, Any] | None:
        table = self.table_of_channel(channel_id)
        if table is not None:
            index = table.channel_ids.index(channel_id)
            return p.text_channel(channel_id, table.guild_id, f"table-{index}", index)
        return self.dm_channels.get(channel_id)

    async def _get_channel(self, _request: web.Request, _body: Any, cid: str) -> web.Response:
        channel = self._channel_payload(int(cid))
        if channel is None:
            return _error(404, 10003, "Unknown Channel")
        return _json(channel)

    async def _post_channel_message(
        self, request: web.Request, body: Any, cid: str
    ) -> web.StreamResponse:
        channel_id = int(cid)
        if self._channel_payload(channel_id) is None:
            return _error(404, 10003, "Unknown Channel")
        if problems := message_errors(body or {}):
            return self._reject(request, problems)
        message = self._new_message(None, channel_id, body)
        self.channel_messages[channel_id].append(message)
        self._changed()
        return _json(message)

    async def _get_channel_message(
        self, _request: web.Request, _body: Any, cid: str, mid: str
    ) -> web.Response:
        message = self.messages.get(int(mid))
        if message is None or message["channel_id"] != cid:
            return _error(404, 10008, "Unknown Message")
        return _json(message)

    async def _edit_channel_message(
        self, request: web.Request, body: Any, cid: str, mid: str
    ) -> web.Response:
        message = self.messages.get(int(mid))
        if message is None or message["channel_id"] != cid:
            return _error(404, 10008, "Unknown Message")
        updated = p.edit_message(message, body or {})
        if problems := message_errors(updated):
            return self._reject(request, problems)
        self.messages[int(mid)] = updated
        self._changed()
        return _json(updated)

    async def _delete_message(
        self, _request: web.Request, _body: Any, cid: str, mid: str
    ) -> web.Response:
        self.messages.pop(int(mid), None)
        return web.Response(status=204)

    async def _create_dm(self, _request: web.Request, body: Any) -> web.Response:
        recipient_id = int((body or {}).get("recipient_id", 0))
        recipient = next(
            (u for u in self.table.users.values() if int(u["id"]) == recipient_id), None
        )
        if recipient is None:
            return _error(400, 50007, "Cannot send messages to this user")
        for channel in self.dm_channels.values():
            if channel["recipients"][0]["id"] == recipient["id"]:
                return _json(channel)
        channel = p.dm_channel(p.snowflake(), recipient)
        self.dm_channels[int(channel["id"])] = channel
        return _json(channel)

    async def _get_user(self, _request: web.Request, _body: Any, uid: str) -> web.Response:
        for candidate in [*self.table.users.values(), self.bot_user]:
            if candidate["id"] == uid:
                return _json(candidate)
        return _error(404, 10013, "Unknown User")

    async def _get_member(
        self, _request: web.Request, _body: Any, guild: str, uid: str
    ) -> web.Response:
        table = self.table_of_guild(int(guild))
        for who, candidate in self.table.users.items():
            if candidate["id"] == uid and table is not None:
                member = self._member(who, table)
                member.pop("permissions")
                return _json(member)
        return _error(404, 10007, "Unknown Member")

    async def _attachment(self, request: web.Request) -> web.StreamResponse:
        self._record(request, None, 200)
        found = self.attachments.get(int(request.match_info["id"]))
        if found is None:
            return _error(404, 0, "404: Not Found")
        return web.Response(body=found[1], content_type="application/octet-stream")


async def _read_body(request: web.Request) -> Any:
    if not request.can_read_body:
        return None
    if request.content_type == "multipart/form-data":
        form = await request.post()
        raw = form.get("payload_json")
        body = json.loads(raw) if isinstance(raw, str) else {}
        files = {
            value.filename: value.file.read()
            for key, value in form.items()
            if key.startswith("files[") and isinstance(value, web.FileField)
        }
        if files:
            body[UPLOADS] = files  # what the bot uploaded, by file name
        return body
    text = await request.text()
    if not text:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _json(payload: Any, *, status: int = 200) -> web.Response:
    # Discord's exact header: discord.py parses JSON only for "application/json" verbatim.
    return web.Response(
        status=status,
        body=json.dumps(payload).encode(),
        headers={"Content-Type": "application/json"},
    )


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"message": message, "code": code}, status=status)
