"""Every library internal listed in :mod:`bot.internals` still exists with the shape it uses.

An upgrade of discord.py, SQLAlchemy, aiosqlite or SimCord that renames or reshapes one of
them fails here, with a message naming the library, its version and the internal ("discord.py
2.8.0 changed `discord.app_commands.tree.CommandTree._call`: …"), before anything subtler
breaks at run time. A last test checks that no module of ``bot/`` but :mod:`bot.internals`
reaches for them.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import sqlite3
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import aiosqlite
import discord
import discord.http
import discord.interactions
import discord.state
import discord.utils
import pytest
import simcord.results
import sqlalchemy.util
import sqlalchemy.util.concurrency
import yarl
from discord import app_commands
from discord.app_commands.namespace import Namespace
from discord.gateway import DiscordWebSocket
from discord.webhook.async_ import (
    AsyncWebhookAdapter,
    async_context,
    interaction_message_response_params,
)
from sqlalchemy.dialects.sqlite import aiosqlite as sa_aiosqlite

from bot import internals

DISTRIBUTIONS = {
    "discord.py": "discord.py",
    "SQLAlchemy": "SQLAlchemy",
    "aiosqlite": "aiosqlite",
    "SimCord": "simcord",
}


class Broken(AssertionError):
    pass


def fail(library: str, name: str, problem: str) -> Broken:
    return Broken(
        f"{library} {version(DISTRIBUTIONS[library])} changed `{name}`: {problem} "
        f"(bot/internals relies on it; checked on the versions its docstring lists)"
    )


def parameters(function: Any) -> list[str]:
    return list(inspect.signature(function).parameters)


def expect_parameters(library: str, name: str, function: Any, expected: list[str]) -> None:
    found = parameters(function)
    if found[: len(expected)] != expected:
        raise fail(library, name, f"expected parameters {expected}, found {found}")


def expect_coroutine(library: str, name: str, function: Any) -> None:
    if not inspect.iscoroutinefunction(function):
        raise fail(library, name, "is no longer a coroutine function")


def expect_attribute(library: str, name: str, owner: Any, attribute: str) -> Any:
    try:
        return getattr(owner, attribute)
    except AttributeError:
        raise fail(library, name, "no longer exists") from None


def all_slots(cls: type) -> set[str]:
    return {slot for klass in cls.__mro__ for slot in getattr(klass, "__slots__", ())}


def expect_slots(library: str, name: str, cls: type, slots: set[str]) -> None:
    missing = slots - all_slots(cls)
    if missing:
        raise fail(library, name, f"no longer has the slots {sorted(missing)}")


# --------------------------------------------------------------------------- discord.py

DPY = "discord.py"


def check_command_tree_call() -> None:
    name = "discord.app_commands.tree.CommandTree._call"
    call = expect_attribute(DPY, name, app_commands.CommandTree, "_call")
    expect_coroutine(DPY, name, call)
    expect_parameters(DPY, name, call, ["self", "interaction"])


def check_gateway_parsers() -> None:
    name = "discord.Client._connection.parsers['INTERACTION_CREATE']"
    client = discord.Client(intents=discord.Intents.none())
    state = expect_attribute(DPY, "discord.Client._connection", client, "_connection")
    parsers = expect_attribute(DPY, name, state, "parsers")
    if not isinstance(parsers, dict) or not callable(parsers.get("INTERACTION_CREATE")):
        raise fail(DPY, name, "is no longer a dict holding an INTERACTION_CREATE handler")
    if internals.gateway_parsers(client) is not parsers:
        raise fail(DPY, name, "is no longer what gateway_parsers() returns")
    expect_parameters(DPY, name, parsers["INTERACTION_CREATE"], ["data"])


def check_interaction_callback_request() -> None:
    client = discord.Client(intents=discord.Intents.none())
    for attribute in ("_HTTPClient__session", "proxy", "proxy_auth"):
        expect_attribute(DPY, f"discord.http.HTTPClient.{attribute}", client.http, attribute)
    name = "discord.webhook.async_.AsyncWebhookAdapter.create_interaction_response"
    adapter = async_context.get()
    method = expect_attribute(DPY, name, adapter, "create_interaction_response")
    expect_parameters(
        DPY,
        name,
        method,
        ["interaction_id", "token", "session", "proxy", "proxy_auth", "params"],
    )
    name = "discord.http.json_or_text"
    read = expect_attribute(DPY, name, discord.http, "json_or_text")
    expect_coroutine(DPY, name, read)
    expect_parameters(DPY, name, read, ["response"])
    name = "discord.utils._to_json"
    to_json = expect_attribute(DPY, name, discord.utils, "_to_json")
    if to_json({"a": [1]}).replace(" ", "") != '{"a":[1]}':
        raise fail(DPY, name, "no longer serialises a payload to a JSON str")
    fields = getattr(discord.http.MultipartParameters, "_fields", None)
    if fields != ("payload", "multipart", "files"):
        raise fail(
            DPY,
            "discord.http.MultipartParameters",
            f"expected the fields ('payload', 'multipart', 'files'), found {fields}",
        )


def check_endpoints() -> None:
    base = expect_attribute(DPY, "discord.http.Route.BASE", discord.http.Route, "BASE")
    if not isinstance(base, str):
        raise fail(DPY, "discord.http.Route.BASE", f"is no longer a str: {base!r}")
    name = "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY"
    gateway = expect_attribute(DPY, name, DiscordWebSocket, "DEFAULT_GATEWAY")
    if not isinstance(gateway, yarl.URL):
        raise fail(DPY, name, f"is no longer a yarl.URL: {gateway!r}")


def check_interaction_cached_slots() -> None:
    for public, slot in (
        ("response", "_cs_response"),
        ("followup", "_cs_followup"),
        ("command", "_cs_command"),
        ("namespace", "_cs_namespace"),
    ):
        name = f"discord.Interaction.{slot}"
        expect_slots(DPY, name, discord.Interaction, {slot})
        prop = inspect.getattr_static(discord.Interaction, public)
        if not isinstance(prop, discord.utils.CachedSlotProperty) or prop.name != slot:
            raise fail(DPY, name, f"no longer caches `Interaction.{public}`")
    followup = inspect.getattr_static(discord.Interaction, "followup")
    name = "discord.utils.CachedSlotProperty.function"
    function = expect_attribute(DPY, name, followup, "function")
    expect_parameters(DPY, name, function, ["self"])


def check_interaction_response_constructor() -> None:
    name = "discord.InteractionResponse.__init__"
    expect_parameters(DPY, name, discord.InteractionResponse.__init__, ["self", "parent"])


def check_bare_reply() -> None:
    name = "discord.InteractionResponse"
    expect_slots(DPY, name, discord.InteractionResponse, {"_parent", "_response_type"})
    expect_slots(DPY, "discord.Interaction._session", discord.Interaction, {"_session"})
    name = "discord.webhook.async_.AsyncWebhookAdapter"
    if type(async_context.get()) is not AsyncWebhookAdapter:
        raise fail(DPY, name, "is no longer the adapter async_context holds by default")
    name = "discord.MessageFlags._from_value"
    from_value = expect_attribute(DPY, name, discord.MessageFlags, "_from_value")
    if from_value(64).ephemeral is not True:
        raise fail(DPY, name, "no longer builds flags from their value")
    name = "discord.webhook.async_.interaction_message_response_params"
    for keyword in ("type", "content", "embed", "embeds", "flags", "allowed_mentions"):
        if keyword not in parameters(interaction_message_response_params):
            raise fail(DPY, name, f"no longer takes {keyword}=")
    params = interaction_message_response_params(
        type=4, content="hi", previous_allowed_mentions=discord.AllowedMentions.none()
    )
    data = {"tts": False, "content": "hi", "allowed_mentions": {"parse": []}}
    if params.payload != {"type": 4, "data": data}:
        raise fail(DPY, name, f"builds another callback body: {params.payload}")


def check_namespace_and_invoke() -> None:
    expect_parameters(
        DPY,
        "discord.app_commands.namespace.Namespace.__init__",
        Namespace.__init__,
        ["self", "interaction", "resolved", "options"],
    )
    name = "discord.app_commands.Command._invoke_with_namespace"
    invoke = expect_attribute(DPY, name, app_commands.Command, "_invoke_with_namespace")
    expect_coroutine(DPY, name, invoke)
    expect_parameters(DPY, name, invoke, ["self", "interaction", "namespace"])


def check_callback_response() -> None:
    # The original class: LazyCallbackResponse may have replaced the module-level name.
    cls = internals.CallbackResponseHooks.__mro__[1]
    name = "discord.interactions.InteractionCallbackResponse"
    if cls.__module__ != "discord.interactions" or cls.__name__ != "InteractionCallbackResponse":
        raise fail(DPY, name, f"is no longer the base of CallbackResponseHooks: {cls!r}")
    expect_slots(DPY, name, cls, {"_thinking", "_ephemeral", "_parent", "_state", "resource"})
    update = expect_attribute(DPY, f"{name}._update", cls, "_update")
    expect_parameters(DPY, f"{name}._update", update, ["self", "data"])
    expect_parameters(DPY, f"{name}.__init__", cls.__init__, ["self", "data", "parent", "state"])
    # discord.py builds it by its module-level name, which install_callback_response replaces.
    for method in ("send_message", "defer", "edit_message", "send_modal"):
        source = inspect.getsource(getattr(discord.InteractionResponse, method))
        if "InteractionCallbackResponse(" not in source:
            raise fail(
                DPY,
                f"discord.InteractionResponse.{method}",
                "no longer builds `InteractionCallbackResponse` by its module-level name",
            )
    state_name = "discord.interactions._InteractionMessageState"
    state = expect_attribute(DPY, state_name, discord.interactions, "_InteractionMessageState")
    expect_parameters(DPY, state_name, state.__init__, ["self", "interaction", "parent"])
    expect_parameters(
        DPY,
        "discord.interactions.InteractionCallbackActivityInstance",
        discord.interactions.InteractionCallbackActivityInstance.__init__,
        ["self", "data"],
    )
    snowflake = "discord.utils._get_as_snowflake"
    get = expect_attribute(DPY, snowflake, discord.utils, "_get_as_snowflake")
    if get({"id": "12"}, "id") != 12 or get({}, "id") is not None:
        raise fail(DPY, snowflake, "no longer reads a snowflake (or None when missing)")


def check_message_edit() -> None:
    expect_slots(DPY, "discord.PartialMessage._state", discord.PartialMessage, {"_state"})
    state_cls = discord.state.ConnectionState
    for method, expected in (
        ("prevent_view_updates_for", ["self", "message_id"]),
        ("store_view", ["self", "view", "message_id"]),
    ):
        name = f"discord.state.ConnectionState.{method}"
        expect_parameters(DPY, name, expect_attribute(DPY, name, state_cls, method), expected)
    client = discord.Client(intents=discord.Intents.none())
    expect_attribute(
        DPY,
        "discord.state.ConnectionState.allowed_mentions",
        client._connection,
        "allowed_mentions",
    )
    expect_parameters(
        DPY,
        "discord.http.HTTPClient.edit_message",
        discord.http.HTTPClient.edit_message,
        ["self", "channel_id", "message_id", "params"],
    )
    name = "discord.http.handle_message_parameters"
    found = set(parameters(discord.http.handle_message_parameters))
    missing = {"content", "embed", "view", "previous_allowed_mentions"} - found
    if missing:
        raise fail(DPY, name, f"no longer takes {sorted(missing)}")


# --------------------------------------------------------------------------- SQLAlchemy

SA = "SQLAlchemy"


def check_greenlet_bridge() -> None:
    for attribute, expected in (("await_", ["awaitable"]), ("greenlet_spawn", ["fn"])):
        name = f"sqlalchemy.util.concurrency.{attribute}"
        function = expect_attribute(SA, name, sqlalchemy.util.concurrency, attribute)
        expect_parameters(SA, name, function, expected)
    expect_coroutine(
        SA, "sqlalchemy.util.concurrency.greenlet_spawn", sqlalchemy.util.concurrency.greenlet_spawn
    )

    async def round_trip() -> int:
        async def seven() -> int:
            return 7

        return await internals.greenlet_spawn(lambda: internals.await_(seven()))

    if asyncio.run(round_trip()) != 7:
        raise fail(SA, "sqlalchemy.util.concurrency.await_", "no longer bridges a greenlet")


def check_empty_dict() -> None:
    empty = expect_attribute(SA, "sqlalchemy.util.EMPTY_DICT", sqlalchemy.util, "EMPTY_DICT")
    if dict(empty) != {} or not callable(getattr(empty, "union", None)):
        raise fail(SA, "sqlalchemy.util.EMPTY_DICT", "is no longer an empty immutabledict")


def check_aiosqlite_adapter() -> None:
    module = "sqlalchemy.dialects.sqlite.aiosqlite"
    cursor = f"{module}.AsyncAdapt_aiosqlite_cursor"
    cursor_cls = expect_attribute(SA, cursor, sa_aiosqlite, "AsyncAdapt_aiosqlite_cursor")
    expect_slots(
        SA,
        cursor,
        cursor_cls,
        {"_adapt_connection", "_connection", "_cursor", "_rows", "_soft_closed_memoized"},
    )
    flag = expect_attribute(
        SA, f"{cursor}._awaitable_cursor_close", cursor_cls, "_awaitable_cursor_close"
    )
    if not isinstance(flag, bool):
        raise fail(SA, f"{cursor}._awaitable_cursor_close", "is no longer a bool")
    soft_close = expect_attribute(
        SA, f"{cursor}._async_soft_close", cursor_cls, "_async_soft_close"
    )
    expect_coroutine(SA, f"{cursor}._async_soft_close", soft_close)
    expect_parameters(SA, f"{cursor}.__init__", cursor_cls.__init__, ["self", "adapt_connection"])
    for method in ("fetchone", "fetchmany", "fetchall"):
        source = inspect.getsource(getattr(cursor_cls, method))
        if "self._rows" not in source:
            raise fail(SA, f"{cursor}.{method}", "no longer reads the buffered rows `_rows`")

    connection = f"{module}.AsyncAdapt_aiosqlite_connection"
    connection_cls = expect_attribute(
        SA, connection, sa_aiosqlite, "AsyncAdapt_aiosqlite_connection"
    )
    expect_slots(SA, connection, connection_cls, {"_execute_mutex"})
    expect_attribute(SA, f"{connection}._cursor_cls", connection_cls, "_cursor_cls")
    handle = expect_attribute(
        SA, f"{connection}._handle_exception", connection_cls, "_handle_exception"
    )
    expect_parameters(SA, f"{connection}._handle_exception", handle, ["self", "error"])
    expect_parameters(
        SA, f"{connection}.__init__", connection_cls.__init__, ["self", "dbapi", "connection"]
    )
    if "self._cursor_cls(" not in inspect.getsource(connection_cls.cursor):
        raise fail(SA, f"{connection}.cursor", "no longer makes its cursor from `_cursor_cls`")
    expect_attribute(SA, f"{connection}.driver_connection", connection_cls, "driver_connection")

    dbapi = f"{module}.AsyncAdapt_aiosqlite_dbapi"
    dbapi_cls = expect_attribute(SA, dbapi, sa_aiosqlite, "AsyncAdapt_aiosqlite_dbapi")
    expect_parameters(SA, f"{dbapi}.__init__", dbapi_cls.__init__, ["self", "aiosqlite", "sqlite"])
    expect_attribute(SA, f"{dbapi}.connect", dbapi_cls, "connect")
    dialect = f"{module}.SQLiteDialect_aiosqlite"
    dialect_cls = expect_attribute(SA, dialect, sa_aiosqlite, "SQLiteDialect_aiosqlite")
    expect_attribute(SA, f"{dialect}.import_dbapi", dialect_cls, "import_dbapi")


# --------------------------------------------------------------------------- aiosqlite

AIO = "aiosqlite"


def check_aiosqlite_thread() -> None:
    name = "aiosqlite.Connection._execute"
    execute = expect_attribute(AIO, name, aiosqlite.Connection, "_execute")
    expect_coroutine(AIO, name, execute)
    expect_parameters(AIO, name, execute, ["self", "fn"])
    expect_attribute(AIO, "aiosqlite.Connection._conn", aiosqlite.Connection, "_conn")

    def on_thread(connection: sqlite3.Connection, value: int) -> int:
        if not isinstance(connection, sqlite3.Connection):
            raise TypeError(type(connection))
        return int(connection.execute("SELECT ?", (value,)).fetchone()[0])

    async def run() -> int:
        async with aiosqlite.connect(":memory:") as connection:
            return await internals.run_on_sqlite_thread(connection, on_thread, 5)

    try:
        result = asyncio.run(run())
    except Exception as error:
        raise fail(AIO, "aiosqlite.Connection._conn", f"{type(error).__name__}: {error}") from error
    if result != 5:
        raise fail(AIO, name, f"no longer returns fn's result ({result!r})")


# --------------------------------------------------------------------------- SimCord


def check_simcord_reply() -> None:
    marker = object()
    reply = simcord.results.ResponseMessage(None, marker)  # type: ignore[arg-type]
    if getattr(reply, "_message", None) is not marker:
        raise fail("SimCord", "simcord.results.ResponseMessage._message", "no longer holds it")
    if internals.simcord_message(reply) is not marker:
        raise fail("SimCord", "simcord.results.ResponseMessage._message", "not reached")


def check_simcord_settle() -> None:
    """The test suite's own use (tests/conftest.py makes SimCord's attach-time settle as
    patient as the env's failsafe timeout): ``Env._settle_internal(self, *, timeout=...)``."""
    import simcord.env

    settle = getattr(simcord.env.Env, "_settle_internal", None)
    if settle is None:
        raise fail("SimCord", "simcord.env.Env._settle_internal", "no longer exists")
    if "timeout" not in inspect.signature(settle).parameters:
        raise fail("SimCord", "simcord.env.Env._settle_internal", "takes no timeout any more")


CHECKS: list[Callable[[], None]] = [
    check_command_tree_call,
    check_gateway_parsers,
    check_interaction_callback_request,
    check_endpoints,
    check_interaction_cached_slots,
    check_interaction_response_constructor,
    check_bare_reply,
    check_namespace_and_invoke,
    check_callback_response,
    check_message_edit,
    check_greenlet_bridge,
    check_empty_dict,
    check_aiosqlite_adapter,
    check_aiosqlite_thread,
    check_simcord_reply,
    check_simcord_settle,
]


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
def test_internal_still_has_its_shape(check: Callable[[], None]) -> None:
    check()


def test_a_broken_internal_is_named_with_its_library_and_version() -> None:
    with pytest.raises(Broken, match=r"^discord\.py \d+\.\d+\S* changed `discord\.x\._y`: gone"):
        raise fail(DPY, "discord.x._y", "gone")


# --------------------------------------------------------------------------- nobody else

#: Modules whose import alone reaches past a library's public API.
PRIVATE_MODULES = (
    "discord.http",
    "discord.gateway",
    "discord.webhook",
    "discord.interactions",
    "discord.state",
    "discord.app_commands.namespace",
    "discord.app_commands.tree",
    "discord.app_commands.commands",
    "sqlalchemy.util",
    "sqlalchemy.connectors",
    "sqlalchemy.dialects.sqlite.aiosqlite",
    "simcord.results",
)
#: Private attributes of library objects, read or written anywhere but bot/internals/.
PRIVATE_ATTRIBUTES = {
    "_HTTPClient__session",
    "_adapt_connection",
    "_async_soft_close",
    "_awaitable_cursor_close",
    "_call",
    "_conn",
    "_connection",
    "_cs_command",
    "_cs_followup",
    "_cs_namespace",
    "_cs_response",
    "_cursor_cls",
    "_ephemeral",
    "_execute",
    "_execute_mutex",
    "_from_value",
    "_get_as_snowflake",
    "_handle_exception",
    "_invoke_with_namespace",
    "_message",
    "_parent",
    "_response_type",
    "_session",
    "_soft_closed_memoized",
    "_thinking",
}
#: Private methods of library classes that a subclass would override.
PRIVATE_HOOKS = {"_call", "_update", "_async_soft_close"}
LIBRARIES = ("discord", "sqlalchemy", "aiosqlite", "simcord")


def _trespasses(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in LIBRARIES and (
                node.module.startswith(PRIVATE_MODULES)
                or any(alias.name.startswith("_") for alias in node.names)
            ):
                found.append(f"line {node.lineno}: from {node.module} import …")
        elif isinstance(node, ast.Import):
            found += [
                f"line {node.lineno}: import {alias.name}"
                for alias in node.names
                if alias.name.startswith(PRIVATE_MODULES)
            ]
        elif isinstance(node, ast.Attribute):
            private = node.attr in PRIVATE_ATTRIBUTES
            foreign_state = node.attr == "_state" and not (
                isinstance(node.value, ast.Name) and node.value.id == "self"
            )
            if private or foreign_state:
                found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and (
                    item.name in PRIVATE_HOOKS
                ):
                    found.append(f"line {item.lineno}: def {item.name}")
                if isinstance(item, ast.Assign):
                    found += [
                        f"line {item.lineno}: {target.id} ="
                        for target in item.targets
                        if isinstance(target, ast.Name) and target.id in PRIVATE_ATTRIBUTES
                    ]
    return found


def test_only_bot_internals_touches_library_internals() -> None:
    root = Path(__file__).resolve().parents[2] / "bot"
    offenders = {}
    for path in sorted(root.rglob("*.py")):
        if path.is_relative_to(root / "internals"):
            continue
        found = _trespasses(ast.parse(path.read_text(encoding="utf-8")))
        if found:
            offenders[str(path.relative_to(root.parent))] = found
    assert not offenders, (
        f"library internals used outside bot/internals/ (add an accessor there): {offenders}"
    )


def test_the_guard_sees_a_trespass() -> None:
    source = (
        "from sqlalchemy.util.concurrency import await_\n"
        "class T(CommandTree):\n    async def _call(self, i): ...\n"
        "x = client._connection.parsers\n"
        "s = message._state\n"
    )
    assert len(_trespasses(ast.parse(source))) == 4
