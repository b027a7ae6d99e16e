"""Every private or undocumented internal of a library the bot touches, in this one module.

The bot reaches past the public API of discord.py, SQLAlchemy, aiosqlite (and SimCord) in a
few places, each for a measured gain or for something the public API cannot do. Nothing
else in ``bot/`` imports or reads these internals: it uses the small accessors below, so an
upgrade that breaks one breaks here, and ``tests/bot/test_internals.py`` says which one, in
the library's own words ("discord.py 2.8.0 changed ``CommandTree._call``: …").

Checked against (the versions installed when this module was written, and the lower bounds
in ``pyproject.toml``; the upper bounds stop below the next minor release of each library
whose internals are touched): **discord.py 2.7.1, SQLAlchemy 2.1.9, aiosqlite 0.22.1,
SimCord 3.2.1**. SQLAlchemy 2.0 is *not* supported: its greenlet bridge is named
``await_only`` and its aiosqlite adapter keeps other private slots.

discord.py (``discord.py>=2.7.1,<2.8``)
  - ``app_commands.CommandTree._call(interaction)``: the tree's dispatch of a command, the
    one place a command can be timed and deferred around (:class:`CommandTreeHooks`;
    :mod:`bot.gateway._tree`'s deadline and admission counting).
  - ``ConnectionState.parsers["INTERACTION_CREATE"]`` reached as ``Client._connection``:
    the raw gateway handler, wrapped to turn interactions away before discord.py builds
    anything (:mod:`bot.gateway._admission`) and to set the language around component dispatch
    (:mod:`bot.gateway._interactions`) (:func:`gateway_parsers`).
  - ``HTTPClient._HTTPClient__session``, ``discord.webhook.async_.async_context``,
    ``AsyncWebhookAdapter.create_interaction_response`` and
    ``discord.http.MultipartParameters``: one raw callback (a rate limit's "slow down")
    without building an ``Interaction`` (:func:`send_interaction_callback`).
  - ``HTTPClient._HTTPClient__session`` again, ``discord.utils._to_json`` and
    ``discord.http.json_or_text(response)`` (undocumented): a "very busy" answer as one bare
    POST on the client's own session, its JSON serialised once, its error body read as
    discord.py reads it (:func:`callback_body`, :func:`post_interaction_callback`; the URL
    the one aiohttp sent for discord.py's ``Route``: :func:`callback_url`).
  - ``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``
    (undocumented class attributes): REST and gateway through a proxy or the local Discord
    stand-in (:func:`set_endpoints`).
  - ``Interaction._cs_response``, ``_cs_followup``, ``_cs_command``, ``_cs_namespace``: the
    cached-slot attributes behind ``interaction.response``/``followup``/``command``/
    ``namespace``, replaced by the deadline guard (:mod:`bot.gateway._deadline`) and by a macro run
    (:func:`set_cached_response`, :func:`set_cached_followup`, :func:`set_cached_command`).
  - ``discord.utils.CachedSlotProperty.function`` (``Interaction.followup``'s): the follow-up
    webhook built only when a command sends a follow-up (:func:`followup_webhook`).
  - ``InteractionResponse(parent)``, ``_parent``, ``_response_type``, ``Interaction._session``,
    ``MessageFlags._from_value``, ``webhook.async_.interaction_message_response_params`` and
    ``AsyncWebhookAdapter``: a plain reply as one bare POST (:class:`InteractionResponseHooks`,
    subclassed by :class:`bot.gateway.DeadlineResponse`).
  - ``app_commands.Namespace(interaction, resolved, options)`` and
    ``app_commands.Command._invoke_with_namespace(interaction, namespace)``: a macro runs its
    command exactly as the tree would (:func:`make_namespace`, :func:`invoke_with_namespace`).
  - ``InteractionCallbackResponse._update(data)``, its ``_thinking``/``_ephemeral``/
    ``_parent``/``_state`` slots, ``discord.interactions._InteractionMessageState``,
    ``discord.utils._get_as_snowflake`` and the module-level name
    ``discord.interactions.InteractionCallbackResponse``: the callback's message parsed only
    when read (:class:`CallbackResponseHooks`, :func:`install_callback_response`; issue 21).
  - ``PartialMessage._state`` with ``ConnectionState.prevent_view_updates_for``,
    ``store_view``, ``allowed_mentions``, ``HTTPClient.edit_message(…, params=)`` and
    ``discord.http.handle_message_parameters``: the tracker's edit without parsing the
    edited message (:func:`message_state`; :mod:`bot.cogs.initiative._edit`).

SQLAlchemy (``SQLAlchemy[asyncio]>=2.1.9,<2.2``)
  - ``sqlalchemy.util.concurrency.await_`` and ``greenlet_spawn``: the greenlet bridge
    between SQLAlchemy's synchronous core and asyncio (:func:`await_`, :func:`greenlet_spawn`),
    used by the one-trip SQLite dialect and by :mod:`bot.storage.one_statement`.
  - ``sqlalchemy.dialects.sqlite.aiosqlite``'s ``AsyncAdapt_aiosqlite_cursor`` (its slots
    ``_adapt_connection``, ``_connection``, ``_cursor``, ``_rows``,
    ``_soft_closed_memoized``, the hooks ``_awaitable_cursor_close`` and
    ``_async_soft_close``), ``AsyncAdapt_aiosqlite_connection`` (``_cursor_cls``,
    ``_execute_mutex``, ``_handle_exception``), ``AsyncAdapt_aiosqlite_dbapi`` and
    ``SQLiteDialect_aiosqlite``, and ``sqlalchemy.util.EMPTY_DICT``: the adapter that
    :mod:`bot.storage.sqlite_driver` subclasses (:class:`AiosqliteCursorBase`,
    :class:`AiosqliteConnectionBase`, :data:`AiosqliteDBAPI`, :data:`AiosqliteDialect`).

aiosqlite (``aiosqlite>=0.22.1,<0.23``)
  - ``Connection._execute(fn, *args)`` and ``Connection._conn``: run one function on the
    connection's thread with its ``sqlite3.Connection`` (:func:`run_on_sqlite_thread`), one
    hand-off per statement instead of three or four.

SimCord (``simcord>=3.2.1,<4``; the offline console)
  - ``simcord.results.ResponseMessage._message``: the stored message behind a reply, for its
    allowed mentions and attachments (:func:`simcord_message`).
  - ``simcord.env.Env._settle_internal``, in the tests only (``tests/conftest.py``): its
    attach-time wait made as patient as the env's failsafe settle timeout.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn, TypeVar
from urllib.parse import quote

import aiohttp
import discord
import discord.interactions as _dpy_interactions
import yarl
from discord import app_commands
from discord import utils as _dpy_utils
from discord.app_commands.namespace import Namespace
from discord.gateway import DiscordWebSocket
from discord.http import MultipartParameters, Route, handle_message_parameters, json_or_text
from discord.webhook.async_ import (
    AsyncWebhookAdapter,
    async_context,
    interaction_message_response_params,
)
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
    SQLiteDialect_aiosqlite,
)
from sqlalchemy.util import EMPTY_DICT
from sqlalchemy.util.concurrency import await_, greenlet_spawn

__all__ = [
    "BARE_REPLY_OPTIONS",
    "AiosqliteConnectionBase",
    "AiosqliteCursorBase",
    "AiosqliteDBAPI",
    "AiosqliteDialect",
    "CallbackResponseHooks",
    "CommandTreeHooks",
    "InteractionResponseHooks",
    "await_",
    "callback_body",
    "callback_url",
    "followup_webhook",
    "gateway_parsers",
    "get_as_snowflake",
    "greenlet_spawn",
    "handle_message_parameters",
    "install_callback_response",
    "invoke_with_namespace",
    "make_namespace",
    "message_state",
    "post_interaction_callback",
    "run_on_sqlite_thread",
    "send_interaction_callback",
    "set_cached_command",
    "set_cached_followup",
    "set_cached_response",
    "set_endpoints",
    "simcord_message",
]

T = TypeVar("T")

# ---------------------------------------------------------------------------------------
# discord.py


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


def callback_body(payload: dict[str, Any]) -> aiohttp.BytesPayload:
    """``payload`` serialised once (as discord.py's adapter serialises it), as a request body
    that every :func:`post_interaction_callback` with this same answer can share: aiohttp
    reads a bytes payload without consuming it, and its ``Content-Type`` header comes with it."""
    return aiohttp.BytesPayload(
        _dpy_utils._to_json(payload).encode(), content_type="application/json"
    )


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


def callback_url(interaction_id: int, token: str) -> yarl.URL:
    """The interaction's callback URL, as aiohttp sends discord.py's ``Route`` for it (the
    token quoted, ``Route.BASE`` read now: :func:`set_endpoints` may have moved it), built
    from its parts: half the cost of parsing the text."""
    scheme, authority, prefix = _api_base(Route.BASE)
    return yarl.URL.build(
        scheme=scheme,
        authority=authority,
        path=f"{prefix}/interactions/{interaction_id}/{quote(token, safe=_TOKEN_SAFE)}/callback",
        encoded=True,
    )


#: The exception discord.py's adapter raises for a refusal, by status (else HTTPException).
_REFUSALS = {403: discord.Forbidden, 404: discord.NotFound, 500: discord.DiscordServerError}


async def post_interaction_callback(
    client: Any, interaction_id: int, token: str, body: aiohttp.BytesPayload
) -> None:
    """POST one interaction callback (``body``: :func:`callback_body`) on the client's own
    HTTP session, with its proxy settings, as one bare request; ``discord.HTTPException``
    when Discord refuses it.

    :func:`send_interaction_callback` goes through discord.py's webhook adapter, which per
    call serialises the payload, takes a per-webhook rate-limit lock (an interaction answers
    once: the lock never waits), runs a retry loop (sleeps of 1 s and more: past Discord's
    3 s for an interaction already late) and, asking ``with_response``, parses the message
    Discord sends back. A "very busy" answer needs none of it: without ``with_response``
    Discord answers 204, no body (:func:`callback_url`: the URL discord.py would build).
    Refused, it raises what discord.py's adapter raises, without a retry."""
    http = client.http
    url = callback_url(interaction_id, token)
    session: aiohttp.ClientSession = http._HTTPClient__session
    async with session.request(
        "POST", url, data=body, proxy=http.proxy, proxy_auth=http.proxy_auth
    ) as response:
        if not 200 <= response.status < 300:
            refusal = _REFUSALS.get(min(response.status, 500), discord.HTTPException)
            raise refusal(response, await json_or_text(response))
        await response.read()  # read to its end: the connection goes back to the pool


#: The options of a bare reply (:meth:`InteractionResponseHooks.post_message`).
BARE_REPLY_OPTIONS = frozenset(
    {"embed", "embeds", "ephemeral", "allowed_mentions", "suppress_embeds", "silent"}
)


class InteractionResponseHooks(discord.InteractionResponse):
    """discord.py's interaction response, able to answer with a plain message as one bare
    POST (:meth:`post_message`; the internals it reads are in this module's docstring)."""

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


# ---------------------------------------------------------------------------------------
# SQLAlchemy (the greenlet bridge and the aiosqlite adapter) and aiosqlite

AiosqliteDBAPI = AsyncAdapt_aiosqlite_dbapi
AiosqliteDialect = SQLiteDialect_aiosqlite


class AiosqliteCursorBase(AsyncAdapt_aiosqlite_cursor):
    """SQLAlchemy's aiosqlite cursor adapter holding no aiosqlite cursor: a subclass runs
    each statement itself (:meth:`driver_connection`, :meth:`execute_mutex`) and hands the
    rows over with :meth:`set_rows`; ``fetch*`` are SQLAlchemy's own."""

    __slots__ = ()

    _awaitable_cursor_close = False  # close() never awaits: nothing is open

    def __init__(self, adapt_connection: AsyncAdapt_aiosqlite_connection) -> None:
        self._adapt_connection = adapt_connection
        self._connection = adapt_connection._connection
        self._cursor = None  # type: ignore[assignment]
        self._soft_closed_memoized = EMPTY_DICT
        self._rows = collections.deque()

    async def _async_soft_close(self) -> None:
        return None  # nothing is open between statements

    def close(self) -> None:
        self._rows.clear()

    @property
    def adapted_connection(self) -> AsyncAdapt_aiosqlite_connection:
        return self._adapt_connection  # type: ignore[return-value]

    @property
    def driver_connection(self) -> Any:
        """The ``aiosqlite.Connection``."""
        return self._connection

    def execute_mutex(self) -> asyncio.Lock:
        """The adapted connection's lock: one statement at a time on it."""
        lock: asyncio.Lock = self._adapt_connection._execute_mutex
        return lock

    def raise_dbapi_error(self, error: Exception) -> NoReturn:
        """Raise ``error`` as SQLAlchemy's adapter translates it (DBAPI exceptions)."""
        self._adapt_connection._handle_exception(error)

    def set_rows(self, rows: list[Any]) -> None:
        """The rows ``fetchone``/``fetchmany``/``fetchall`` hand out next."""
        self._rows = collections.deque(rows)


class AiosqliteConnectionBase(AsyncAdapt_aiosqlite_connection):
    """SQLAlchemy's aiosqlite connection adapter; ``cursor_class=`` in the class statement
    picks the buffered cursor it makes."""

    __slots__ = ()

    def __init_subclass__(cls, cursor_class: type[AiosqliteCursorBase] | None = None) -> None:
        super().__init_subclass__()
        if cursor_class is not None:
            cls._cursor_cls = cursor_class


async def run_on_sqlite_thread(connection: Any, fn: Callable[..., T], *args: Any) -> T:
    """``fn(sqlite3_connection, *args)`` on the ``aiosqlite.Connection``'s own thread, in one
    hand-off; its result (or exception) comes back here."""
    result: T = await connection._execute(fn, connection._conn, *args)
    return result


# ---------------------------------------------------------------------------------------
# SimCord


def simcord_message(reply: Any) -> Any:
    """The stored message behind a SimCord reply (``ResponseMessage``); ``reply`` itself
    when it is not one (a channel message is already the message)."""
    return getattr(reply, "_message", reply)
