"""Every private or undocumented internal of a library the bot touches, in this one package.

The bot reaches past the public API of discord.py, SQLAlchemy, aiosqlite (and SimCord) in a
few places, each for a measured gain or for something the public API cannot do. Nothing
else in ``bot/`` imports or reads these internals: it uses the small accessors this face
exports (by library: ``_discord``, ``_storage`` for SQLAlchemy and aiosqlite, ``_simcord``),
so an upgrade that breaks one breaks here, and ``tests/bot/test_internals.py`` says which one, in
the library's own words ("discord.py 2.8.0 changed ``CommandTree._call``: …").

Checked against (the versions installed when this package was written, and the lower bounds
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
  - ``HTTPClient._HTTPClient__session`` again (its timeout; its proxy settings),
    ``HTTPClient.user_agent``, ``discord.utils._to_json``/``_from_json`` and
    ``discord.http.json_or_text(response)`` (undocumented): a reply or a "very busy" answer
    as one bare POST, its JSON serialised once, on the client's kept-alive connections
    (:mod:`bot.keepalive`; closed with the bot: :func:`close_callback_connections`), or on
    its aiohttp session when it goes through a proxy; its error body read as discord.py
    reads it (:func:`callback_body`, :func:`post_interaction_callback`; the URL the one
    aiohttp sent for discord.py's ``Route``: :func:`callback_url`).
  - ``discord.http.Route.BASE`` and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``
    (undocumented class attributes): REST and gateway through a proxy or the local Discord
    stand-in (:func:`set_endpoints`).
  - ``Interaction._cs_response``, ``_cs_followup``, ``_cs_command``, ``_cs_namespace``: the
    cached-slot attributes behind ``interaction.response``/``followup``/``command``/
    ``namespace``, replaced by the deadline guard (:mod:`bot.gateway._deadline`) and by a macro run
    (:func:`set_cached_response`, :func:`set_cached_followup`, :func:`set_cached_command`),
    and, once a command has answered, by a spent response with no ``_parent`` (the reference
    cycle broken: :func:`release_response`).
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

from discord.http import handle_message_parameters as handle_message_parameters
from sqlalchemy.util.concurrency import await_ as await_
from sqlalchemy.util.concurrency import greenlet_spawn as greenlet_spawn

from bot.internals._discord import BARE_REPLY_OPTIONS as BARE_REPLY_OPTIONS
from bot.internals._discord import CallbackResponseHooks as CallbackResponseHooks
from bot.internals._discord import CommandTreeHooks as CommandTreeHooks
from bot.internals._discord import InteractionResponseHooks as InteractionResponseHooks
from bot.internals._discord import callback_body as callback_body
from bot.internals._discord import callback_url as callback_url
from bot.internals._discord import close_callback_connections as close_callback_connections
from bot.internals._discord import followup_webhook as followup_webhook
from bot.internals._discord import gateway_parsers as gateway_parsers
from bot.internals._discord import get_as_snowflake as get_as_snowflake
from bot.internals._discord import install_callback_response as install_callback_response
from bot.internals._discord import invoke_with_namespace as invoke_with_namespace
from bot.internals._discord import make_namespace as make_namespace
from bot.internals._discord import message_state as message_state
from bot.internals._discord import post_interaction_callback as post_interaction_callback
from bot.internals._discord import release_response as release_response
from bot.internals._discord import send_interaction_callback as send_interaction_callback
from bot.internals._discord import set_cached_command as set_cached_command
from bot.internals._discord import set_cached_followup as set_cached_followup
from bot.internals._discord import set_cached_response as set_cached_response
from bot.internals._discord import set_endpoints as set_endpoints
from bot.internals._simcord import simcord_message as simcord_message
from bot.internals._storage import AiosqliteConnectionBase as AiosqliteConnectionBase
from bot.internals._storage import AiosqliteCursorBase as AiosqliteCursorBase
from bot.internals._storage import AiosqliteDBAPI as AiosqliteDBAPI
from bot.internals._storage import AiosqliteDialect as AiosqliteDialect
from bot.internals._storage import run_on_sqlite_thread as run_on_sqlite_thread
