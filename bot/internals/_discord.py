"""discord.py's internals, behind the accessors :mod:`bot.internals` lists (its docstring says
which internal each one reaches and why)."""

from __future__ import annotations

import contextlib
import functools
import inspect
import weakref
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote

import aiohttp
import discord
import discord.interactions as _dpy_interactions
import yarl
from discord import app_commands
from discord import utils as _dpy_utils
from discord.app_commands.namespace import Namespace
from discord.gateway import DiscordWebSocket
from discord.http import MultipartParameters, Route, json_or_text
from discord.webhook.async_ import (
    AsyncWebhookAdapter,
    async_context,
    interaction_message_response_params,
)

from bot.keepalive import KeepAlivePool


class CommandTreeHooks(app_commands.CommandTree):
    """A command tree whose private dispatch (``CommandTree._call``) goes through
    :meth:`around_call`, so that subclasses never name the private method."""

    async def _call(self, interaction: discord.Interaction) -> None:
        await self.around_call(interaction, super()._call)

    async def around_call(
        self,
        interaction: discord.Interaction,
        call: Callable[[discord.Interaction], Awaitable[None]],
    ) -> None:
        """Run ``call(interaction)`` (discord.py's dispatch); override to wrap it."""
        await call(interaction)


def gateway_parsers(client: Any) -> dict[str, Callable[[Any], Any]]:
    """The client's raw gateway event handlers, by event name (mutable, every shard's;
    discord.py ignores what they return: admission's wrapper says whether it handed over)."""
    parsers: dict[str, Callable[[Any], Any]] = client._connection.parsers
    return parsers


async def send_interaction_callback(
    client: Any, interaction_id: int, token: str, payload: dict[str, Any]
) -> None:
    """POST one raw interaction callback through the client's own HTTP session."""
    http = client.http
    await async_context.get().create_interaction_response(
        interaction_id,
        token,
        session=http._HTTPClient__session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        params=MultipartParameters(payload=payload, multipart=None, files=None),
    )


def callback_body(payload: dict[str, Any]) -> bytes:
    """``payload`` serialised once, as discord.py's adapter serialises it: a JSON request body
    that every :func:`post_interaction_callback` with this same answer can share."""
    return _dpy_utils._to_json(payload).encode()


#: What stays unquoted of a token in the path: discord.py quotes all (``safe=''``), then aiohttp
#: (yarl) requotes its text and decodes these; the same bytes go out (real tokens have none).
_TOKEN_SAFE = "!$&'()*,;=:@~"


@functools.lru_cache(maxsize=4)
def _api_base(base: str) -> tuple[str, str, str]:
    """``Route.BASE`` parsed once per value it takes: scheme, authority and path prefix (yarl
    reads no path as ``/``; discord.py appends to the text as it is)."""
    url = yarl.URL(base)
    prefix = "" if url.raw_path == "/" and not base.endswith("/") else url.raw_path
    return url.scheme, url.raw_authority, prefix


def _callback_target(interaction_id: int, token: str) -> tuple[str, str, str]:
    """The callback's scheme, authority and path, as aiohttp sends discord.py's ``Route`` for
    it (the token quoted, ``Route.BASE`` read now: :func:`set_endpoints` may have moved it)."""
    scheme, authority, prefix = _api_base(Route.BASE)
    token = quote(token, safe=_TOKEN_SAFE)
    return scheme, authority, f"{prefix}/interactions/{interaction_id}/{token}/callback"


def callback_url(interaction_id: int, token: str) -> yarl.URL:
    """The interaction's callback URL (:func:`_callback_target`), built from its parts: half
    the cost of parsing the text."""
    scheme, authority, path = _callback_target(interaction_id, token)
    return yarl.URL.build(scheme=scheme, authority=authority, path=path, encoded=True)


#: The exception discord.py's adapter raises for a refusal, by status (else HTTPException).
_REFUSALS = {403: discord.Forbidden, 404: discord.NotFound, 500: discord.DiscordServerError}


def _refusal(response: Any, message: Any) -> discord.HTTPException:
    """What discord.py's adapter raises for ``response``'s refusal (its status and reason)."""
    return _REFUSALS.get(min(response.status, 500), discord.HTTPException)(response, message)


#: Each HTTP client's kept-alive callback connections (:func:`post_interaction_callback`).
_KEPT_ALIVE: weakref.WeakKeyDictionary[Any, KeepAlivePool] = weakref.WeakKeyDictionary()


def _kept_alive(http: Any) -> KeepAlivePool:
    pool = _KEPT_ALIVE.get(http)
    if pool is None:
        session: aiohttp.ClientSession = http._HTTPClient__session
        pool = _KEPT_ALIVE[http] = KeepAlivePool(
            user_agent=http.user_agent, timeout=session.timeout.total
        )
    return pool


def close_callback_connections(client: Any) -> None:
    """Close the client's kept-alive callback connections (a closing bot: its HTTP session
    closes with it; a client that logs in again opens new ones)."""
    pool = _KEPT_ALIVE.pop(client.http, None)
    if pool is not None:
        pool.close()


async def post_interaction_callback(
    client: Any, interaction_id: int, token: str, body: bytes
) -> None:
    """POST one interaction callback (``body``: :func:`callback_body`) as one bare request;
    ``discord.HTTPException`` when Discord refuses it.

    :func:`send_interaction_callback` goes through discord.py's webhook adapter, which per
    call serialises the payload, takes a per-webhook rate-limit lock (an interaction answers
    once: the lock never waits), runs a retry loop (sleeps of 1 s and more: past Discord's
    3 s for an interaction already late) and, asking ``with_response``, parses the message
    Discord sends back. A reply needs none of it: without ``with_response`` Discord answers
    204, no body (:func:`callback_url`: the URL discord.py would build). The request goes on
    the client's kept-alive connections (:mod:`bot.keepalive`), or, when the client goes
    through a proxy, on its own aiohttp session with its proxy settings. Refused, it raises
    what discord.py's adapter raises, without a retry."""
    http = client.http
    if http.proxy is None:
        scheme, authority, path = _callback_target(interaction_id, token)
        pool = _kept_alive(http)
        answer = await pool.post(f"{scheme}://{authority}", path, body, "application/json")
        if not 200 <= answer.status < 300:
            text = answer.body.decode("utf-8", "replace")
            message = (
                _dpy_utils._from_json(text) if answer.content_type == "application/json" else text
            )
            raise _refusal(answer, message)
        return
    session: aiohttp.ClientSession = http._HTTPClient__session
    async with session.request(
        "POST",
        callback_url(interaction_id, token),
        data=body,
        headers={"Content-Type": "application/json"},
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
    ) as response:
        if not 200 <= response.status < 300:
            raise _refusal(response, await json_or_text(response))
        await response.read()  # read to its end: the connection goes back to the pool


#: The options of a bare reply (:meth:`InteractionResponseHooks.post_message`).
BARE_REPLY_OPTIONS = frozenset(
    {"embed", "embeds", "ephemeral", "allowed_mentions", "suppress_embeds", "silent"}
)


class InteractionResponseHooks(discord.InteractionResponse):
    """discord.py's interaction response, able to answer with a plain message as one bare
    POST (:meth:`post_message`; the internals it reads are in :mod:`bot.internals`' docstring)."""

    __slots__ = ()

    def posts_bare(self) -> bool:
        """Whether a reply may go out as a bare POST: the client talks to Discord itself,
        through discord.py's own adapter and HTTP session (SimCord, the console's in-memory
        Discord, puts its own adapter in their place)."""
        return (
            type(async_context.get()) is AsyncWebhookAdapter and self._parent._session is not None
        )

    async def post_message(
        self,
        content: Any = None,
        *,
        embed: Any = discord.utils.MISSING,
        embeds: Any = discord.utils.MISSING,
        ephemeral: bool = False,
        allowed_mentions: Any = discord.utils.MISSING,
        suppress_embeds: bool = False,
        silent: bool = False,
    ) -> bool:
        """``send_message`` of a message with no view, file or poll: one POST of the body
        discord.py would send, without ``with_response`` (Discord answers 204: nothing to
        read back, where discord.py parses the message no command reads). True once
        answered; False for a 429 or a server error, which discord.py's adapter waits on and
        retries: the caller then sends it that way. Other refusals raise as discord.py's."""
        if self._response_type:
            raise discord.InteractionResponded(self._parent)
        flags: Any = discord.utils.MISSING
        if ephemeral or suppress_embeds or silent:
            flags = discord.MessageFlags._from_value(0)
            flags.ephemeral = ephemeral
            flags.suppress_embeds = suppress_embeds
            flags.suppress_notifications = silent
        parent = self._parent
        params = interaction_message_response_params(
            type=discord.InteractionResponseType.channel_message.value,
            content=content,
            embed=embed,
            embeds=embeds,
            previous_allowed_mentions=parent._state.allowed_mentions,
            allowed_mentions=allowed_mentions,
            flags=flags,
        )
        assert params.payload is not None  # a message without files: a JSON body
        try:
            await post_interaction_callback(
                parent.client, parent.id, parent.token, callback_body(params.payload)
            )
        except discord.HTTPException as error:
            if error.status == 429 or error.status >= 500:  # discord.py retries them
                return False
            raise
        self._response_type = discord.InteractionResponseType.channel_message
        return True


def set_endpoints(api_base: str, gateway_url: str) -> None:
    """Send every REST call to ``api_base`` and connect the gateway to ``gateway_url``."""
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


#: ``Interaction.followup``'s descriptor (a ``discord.utils.CachedSlotProperty``).
_INTERACTION_FOLLOWUP: Any = inspect.getattr_static(discord.Interaction, "followup")


def set_cached_response(interaction: discord.Interaction, response: Any) -> None:
    """Make ``interaction.response`` return ``response`` from now on."""
    interaction._cs_response = response  # type: ignore[attr-defined]


def release_response(interaction: discord.Interaction) -> None:
    """Put an answered ``interaction``'s response (and follow-up) out of a reference cycle.

    discord.py's response points back at its interaction (``_parent``), and the interaction
    caches it (``_cs_response``): every command left that cycle, with all that hangs off it,
    for the cyclic collector; with the upserts' statements, it was what the young
    collections found under load (docs/performance.md). The cached response becomes a spent
    one with the same response type and no parent: ``is_done()`` still says True and another
    answer still raises ``InteractionResponded``; the follow-up is built afresh if one is
    asked for. Nothing is then left in a cycle, and the interaction is freed by its
    reference count when the last holder lets go."""
    answered = interaction.response
    spent = discord.InteractionResponse(None)  # type: ignore[arg-type]
    spent._response_type = answered._response_type
    interaction._cs_response = spent  # type: ignore[attr-defined]
    with contextlib.suppress(AttributeError):  # a follow-up never asked for is not cached
        del interaction._cs_followup  # type: ignore[attr-defined]


def set_cached_followup(interaction: discord.Interaction, followup: Any) -> None:
    """Make ``interaction.followup`` return ``followup`` from now on."""
    interaction._cs_followup = followup  # type: ignore[attr-defined]


def followup_webhook(interaction: discord.Interaction) -> discord.Webhook:
    """A new follow-up webhook for ``interaction``, as ``interaction.followup`` builds it (the
    cached property's own function), for a replacement follow-up that builds it only when
    used (:class:`bot.gateway._deadline.DeadlineFollowup`)."""
    webhook: discord.Webhook = _INTERACTION_FOLLOWUP.function(interaction)
    return webhook


def set_cached_command(interaction: discord.Interaction, command: Any, namespace: Any) -> None:
    """What the tree caches for the interaction it runs: ``interaction.command`` and
    ``interaction.namespace``."""
    interaction._cs_command = command  # type: ignore[attr-defined]
    interaction._cs_namespace = namespace  # type: ignore[attr-defined]


def make_namespace(interaction: discord.Interaction, options: list[dict[str, Any]]) -> Namespace:
    """A command's namespace from raw (already resolved) option payloads."""
    return Namespace(interaction, {}, options)  # type: ignore[arg-type]


async def invoke_with_namespace(
    command: app_commands.Command[Any, ..., Any],
    interaction: discord.Interaction,
    namespace: Namespace,
) -> Any:
    """Run ``command`` as the tree does once it has parsed the payload: checks, option
    transformers, callback, error handlers."""
    return await command._invoke_with_namespace(interaction, namespace)


get_as_snowflake: Callable[[Any, str], int | None] = _dpy_utils._get_as_snowflake
"""``data[key]`` as an int, ``None`` when missing (discord.py's own helper)."""


class CallbackResponseHooks(_dpy_interactions.InteractionCallbackResponse):
    """discord.py's interaction callback response, with the private parts a subclass needs
    given public names: :meth:`read_callback` (its ``_update``), :meth:`set_flags`,
    :meth:`interaction_message` and :meth:`activity_instance`."""

    __slots__ = ()

    def _update(self, data: Any) -> None:
        self.read_callback(data)

    def read_callback(self, data: Any) -> None:
        """Read the callback payload (discord.py's ``_update`` by default)."""
        super()._update(data)

    def set_flags(self, *, thinking: bool, ephemeral: bool) -> None:
        """What ``is_thinking()`` and ``is_ephemeral()`` answer."""
        self._thinking = thinking
        self._ephemeral = ephemeral

    def interaction_message(self, data: Any) -> discord.InteractionMessage:
        """The callback's message, built exactly as discord.py builds it."""
        return discord.InteractionMessage(
            state=_dpy_interactions._InteractionMessageState(self._parent, self._state),  # type: ignore[arg-type]
            channel=self._parent.channel,  # type: ignore[arg-type]
            data=data,
        )

    @staticmethod
    def activity_instance(data: Any) -> Any:
        return _dpy_interactions.InteractionCallbackActivityInstance(data)


def install_callback_response(cls: type[CallbackResponseHooks]) -> None:
    """Make discord.py build ``cls`` for every interaction callback (it builds the response
    inside ``InteractionResponse``'s methods by this module-level name)."""
    _dpy_interactions.InteractionCallbackResponse = cls  # type: ignore[misc,assignment]


def message_state(message: discord.PartialMessage | discord.Message) -> Any:
    """The message's ``ConnectionState`` (its ``http``, ``allowed_mentions``, views)."""
    return message._state
