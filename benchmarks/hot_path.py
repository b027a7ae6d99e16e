"""One command's server-side path, in process: raw INTERACTION_CREATE → reply payload.

Not a test: ``python -m benchmarks.hot_path`` from the project root. It builds the real bot
(``create_bot``, every cog, a fresh SQLite file or a PostgreSQL database, uvloop as in
``narrator run``), logs it in against an in-process HTTP answerer (a stand-in for aiohttp's
session: discord.py's own request, rate-limit and JSON code runs, only the socket does not),
sets up channels (a character and an encounter each) through the same path, then feeds it
the gateway payloads of the e2e load mix one at a time: ``/roll 4d6kh3 + 2``, ``/sheet
show``, ``/init next``. Each command is timed from ``parse_interaction_create`` to the end of
the command tree's call (its reply and, for ``/init next``, the tracker edit sent):
wall-clock µs min / median / max, and the process CPU per command over the whole batch
(aiosqlite's thread included). ``--profile`` adds where the main thread's time goes, by
package and by function (cProfile: it slows everything down, read the shares, not the µs).
First, the same payloads go through the bare floor (``benchmarks/_floor_bot.py``: a minimal
discord.py bot, no Narrator code, no database), and each row of Narrator's shows its CPU per
command over the floor's (``--no-floor`` skips it).

A quick comparison tool for hot-path work (docs/decisions/hot-path.md); the end-to-end figures
(network, gateway, load) come from ``benchmarks/e2e_load.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import os
import pstats
import re
import statistics
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from unittest import mock

import aiohttp
import orjson

from benchmarks import _mix as mix
from benchmarks._floor_bot import FloorBot, Storage
from benchmarks._timing import print_table
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_discord import payloads as p
from tests.e2e.fake_discord.results import TOKEN

POSTGRES_ADMIN_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
KINDS = ("roll", "sheet", "init")
HEADERS = [
    "command",
    "bot",
    "n",
    "min µs",
    "p10 µs",
    "median µs",
    "max µs",
    "CPU µs/cmd",
    "÷ floor",
]


class _Response:
    """What discord.py reads of an aiohttp response: status, headers, text."""

    def __init__(self, status: int, body: Any = None) -> None:
        self.status = status
        self.reason = "OK" if status < 400 else "Error"
        self._text = "" if body is None else orjson.dumps(body).decode()
        self.headers = {"content-type": "application/json"} if body is not None else {}

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def read(self) -> bytes:
        return self._text.encode()

    async def __aenter__(self) -> _Response:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        return None


class Answerer:
    """An aiohttp ``ClientSession`` look-alike answering like the e2e stand-in, in memory.

    It records every request (method, path, JSON body) so the benchmark can show the reply
    and check that each command got exactly its callback.
    """

    closed = False

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.requests: list[tuple[str, str, Any]] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.payloads: dict[str, dict[str, Any]] = {}  # interaction payloads by id

    def __call__(self, *_args: Any, **_kwargs: Any) -> Answerer:  # aiohttp.ClientSession(...)
        return self

    async def close(self) -> None:
        return None

    def request(self, method: str, url: str, **kwargs: Any) -> _Response:
        path = re.sub(r"^https?://[^/]+/api(?:/v\d+)?", "", str(url))
        data = kwargs.get("data")
        body = orjson.loads(data) if isinstance(data, str | bytes) and data else None
        self.requests.append((method, path, body))
        return self._answer(method, path, body, kwargs.get("params") or {})

    def _message(self, channel_id: int, body: dict[str, Any], interaction: Any = None) -> dict:
        message = p.message(
            message_id=p.snowflake(),
            channel_id=channel_id,
            guild_id=self.fake.table.guild_id,
            author=self.fake.bot_user,
            body=body,
            interaction=interaction,
            application_id=self.fake.application_id,
        )
        self.messages[int(message["id"])] = message
        return message

    def _answer(self, method: str, path: str, body: Any, params: dict[str, Any]) -> _Response:
        fake = self.fake
        if path == "/users/@me":
            return _Response(200, fake.bot_user)
        if path in ("/oauth2/applications/@me", "/applications/@me"):
            return _Response(200, _application(fake))
        if match := re.fullmatch(r"/interactions/(\d+)/[^/]+/callback", path):
            interaction = self.payloads[match.group(1)]
            kind = body.get("type")
            data = body.get("data") or {}
            response: dict[str, Any] = {
                "interaction": {"id": interaction["id"], "type": interaction["type"]}
            }
            if kind in (4, 5):
                message = self._message(
                    int(interaction["channel_id"]), data if kind == 4 else {}, interaction
                )
                response["interaction"]["response_message_id"] = message["id"]
                response["resource"] = {"type": kind, "message": message}
            else:
                response["resource"] = {"type": kind}
            return _Response(200, response)
        if re.fullmatch(r"/webhooks/\d+/[^/]+", path) and method == "POST":
            if str(params.get("wait", "0")) in ("1", "true", "True"):
                return _Response(200, self._message(fake.table.channel_ids[0], body or {}))
            return _Response(204)
        if match := re.fullmatch(r"/channels/(\d+)/messages", path):
            return _Response(200, self._message(int(match.group(1)), body or {}))
        if match := re.fullmatch(r"/channels/\d+/messages/(\d+)|/webhooks/.*/messages/(.+)", path):
            existing = self.messages.get(int(match.group(1) or 0)) or self._message(
                fake.table.channel_ids[0], {}
            )
            return _Response(200, p.edit_message(existing, body or {}))
        return _Response(404, {"message": f"404: {method} {path}", "code": 0})


def _application(fake: FakeDiscord) -> dict[str, Any]:
    return {
        "id": str(fake.application_id),
        "name": "Narrator",
        "icon": None,
        "description": "",
        "rpc_origins": [],
        "bot_public": True,
        "bot_require_code_grant": False,
        "bot": fake.bot_user,
        "owner": fake.owner,
        "team": None,
        "verify_key": "0" * 64,
        "flags": 0,
        "summary": "",
        "tags": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
    }


class HotPath:
    """A bot logged in against :class:`Answerer`, fed one payload at a time: the real one
    (``database_url``), or with ``database_url=None`` the bare floor
    (``benchmarks/_floor_bot.py``: a minimal discord.py bot, no Narrator code, no database).
    """

    def __init__(self, database_url: str | None, channels: int) -> None:
        self.fake = FakeDiscord(channels=channels, players=mix.players(channels))
        self.answerer = Answerer(self.fake)
        self.bot: Any
        if database_url is None:
            self.bot = FloorBot(Storage(), guild_id=None)
        else:
            # Imported here, after the floor ran: create_bot patches discord.py for the whole
            # process (bot.gateway.install_lazy_callbacks), which the floor must not get.
            from bot.app import create_bot
            from bot.hosting.config import Settings

            settings = Settings(
                _env_file=None,
                DATABASE_URL=database_url,
                RATE_USER_BURST=0,  # as in e2e_load: the stand-in plays many players as four
                RATE_CHANNEL_BURST=0,
            )
            self.bot = create_bot(settings)
        self._done: dict[str, asyncio.Future[None]] = {}
        self.player = dict(
            zip(self.fake.table.channel_ids, mix.channel_players(channels), strict=True)
        )

    async def start(self) -> None:
        with mock.patch.object(aiohttp, "ClientSession", self.answerer):
            await self.bot.login(TOKEN)
        tree = self.bot.tree
        original_call: Callable[[Any], Awaitable[None]] = tree._call

        async def timed_call(interaction: Any) -> None:
            try:
                await original_call(interaction)
            finally:
                future = self._done.pop(str(interaction.id), None)
                if future is not None and not future.done():
                    future.set_result(None)

        tree._call = timed_call  # type: ignore[method-assign]
        state = self.bot._connection
        state._add_guild_from_data(self.fake._guild_payload(self.fake.table))
        definitions = {}
        for command in tree.get_commands():
            definition = command.to_dict(tree)
            definition["id"] = str(p.snowflake())
            definitions[definition["name"]] = definition
        self.fake.global_commands = definitions

    async def stop(self) -> None:
        await self.bot.close()

    def payload(self, kind: str, channel: int) -> dict[str, Any]:
        return mix.payload(self.fake, kind, channel, self.player[channel])

    async def run(self, payload: dict[str, Any]) -> tuple[float, list[tuple[str, str, Any]]]:
        """Dispatch one INTERACTION_CREATE; the wall seconds until the command finished, and
        the requests it made."""
        loop = asyncio.get_running_loop()
        done = self._done[payload["id"]] = loop.create_future()
        self.answerer.payloads[payload["id"]] = payload
        first = len(self.answerer.requests)
        start = time.perf_counter()
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await done
        elapsed = time.perf_counter() - start
        self.answerer.payloads.pop(payload["id"], None)
        return elapsed, self.answerer.requests[first:]

    async def command(self, command: str, channel: int, user: str, **options: Any) -> None:
        payload = self.fake.command_payload(command, channel=channel, user=user, **options)
        _, requests = await self.run(payload)
        callbacks = [r for r in requests if r[1].endswith("/callback")]
        if not callbacks or "Something went wrong" in orjson.dumps(callbacks[0][2]).decode():
            raise RuntimeError(f"setup /{command} failed: {requests}")

    async def setup(self) -> None:
        for index, channel in enumerate(self.fake.table.channel_ids):
            for command, user, options in mix.setup_steps(index, self.player[channel]):
                if self.fake.has_command(command):  # the floor: only /init start
                    await self.command(command, channel, user, **options)


def _package(filename: str) -> str:
    """The top-level package a profiled function belongs to (the breakdown's rows)."""
    path = filename.replace("\\", "/")
    if "site-packages/" in path:
        return path.split("site-packages/", 1)[1].split("/", 1)[0].removesuffix(".py")
    for own in ("/bot/", "/engine/", "/benchmarks/", "/tests/"):
        if own in path:
            return own.strip("/")
    if path.startswith("~") or path.startswith("<"):
        return "builtins"
    if "/lib/python3" in path:
        return "stdlib:" + path.rsplit("/lib/python3", 1)[1].split("/", 2)[1].removesuffix(".py")
    return "other"


def print_profile(profile: cProfile.Profile, commands: int, top: int) -> None:
    stats = pstats.Stats(profile)
    by_package: dict[str, float] = defaultdict(float)
    total = 0.0
    for (filename, _line, _name), (_cc, _nc, tottime, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        by_package[_package(filename)] += tottime
        total += tottime
    print(f"\nmain thread under cProfile: {total / commands * 1e6:,.0f} µs/command (inflated)")
    rows = sorted(by_package.items(), key=lambda kv: -kv[1])[:15]
    print_table(["package", "share %"], [(k, 100 * v / total) for k, v in rows])
    print(f"\ntop {top} functions by own time:")
    functions = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:top]  # type: ignore[attr-defined]
    print_table(
        ["function", "calls/cmd", "own %", "cumulative %"],
        [
            (
                f"{_package(f)}:{Path(f).name}:{line}({name})",
                nc / commands,
                100 * tt / total,
                100 * ct / total,
            )
            for (f, line, name), (_cc, nc, tt, ct, _callers) in functions
        ],
    )


async def measure(
    database_url: str | None, args: argparse.Namespace
) -> tuple[list[tuple[Any, ...]], cProfile.Profile | None]:
    """The rows of one bot (the floor with ``database_url=None``), and its profile when
    ``--profile`` asked for one (Narrator's only)."""
    hot = HotPath(database_url, args.channels)
    await hot.start()
    try:
        setup_start = time.perf_counter()
        await hot.setup()
        name = "floor" if database_url is None else "narrator"
        print(
            f"{name}: setup of {args.channels} channels: {time.perf_counter() - setup_start:.1f}s",
            flush=True,
        )
        gc.collect()
        gc.freeze()  # as narrator run (and the floor) do at READY
        channels = hot.fake.table.channel_ids
        samples: dict[str, list[tuple[str, str, Any]]] = {}
        rows: list[tuple[Any, ...]] = []
        kinds = args.only.split(",") if args.only else [*KINDS, "mix"]
        profile = None
        for kind in kinds:
            walls: list[float] = []
            cpu_start = time.process_time()
            profiled = (
                cProfile.Profile()
                if args.profile and database_url is not None and kind == kinds[-1]
                else None
            )
            for number in range(args.warmup + args.commands):
                if number == args.warmup:
                    cpu_start = time.process_time()
                    if profiled is not None:
                        profiled.enable()
                current = mix.MIX[number % len(mix.MIX)] if kind == "mix" else kind
                payload = hot.payload(current, channels[number % len(channels)])
                wall, requests = await hot.run(payload)
                if number >= args.warmup:
                    walls.append(wall)
                samples.setdefault(current, requests)
            if profiled is not None:
                profiled.disable()
                profile = profiled
            cpu = time.process_time() - cpu_start
            rows.append(
                (
                    kind,
                    name,
                    args.commands,
                    min(walls) * 1e6,
                    statistics.quantiles(walls, n=10)[0] * 1e6,
                    statistics.median(walls) * 1e6,
                    max(walls) * 1e6,
                    cpu / args.commands * 1e6,
                )
            )
        for kind, requests in samples.items() if args.show else ():
            for method, path, body in requests:
                text = orjson.dumps(body, option=orjson.OPT_INDENT_2).decode()
                print(f"\n{name} {kind}: {method} {path}\n{text}")
        return rows, profile
    finally:
        await hot.stop()


async def bench(database_url: str, args: argparse.Namespace) -> None:
    """The floor first (before anything of Narrator patches discord.py), then Narrator; one
    table with each command's two rows and Narrator's CPU per command over the floor's."""
    floor = [] if args.no_floor else (await measure(None, args))[0]
    rows, profile = await measure(database_url, args)
    floor_cpu = {row[0]: row[-1] for row in floor}
    table = []
    for row in rows:
        if row[0] in floor_cpu:
            table.append((*next(f for f in floor if f[0] == row[0]), ""))
            table.append((*row, f"{row[-1] / floor_cpu[row[0]]:.2f}x"))
        else:
            table.append((*row, ""))
    print_table(HEADERS, table)
    if profile is not None:
        print_profile(profile, args.commands, args.top)


async def _postgres(admin_url: str, statement: str) -> None:
    import asyncpg

    url = admin_url.replace("postgresql+asyncpg://", "postgresql://")
    connection = await asyncpg.connect(url, timeout=5)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


async def main(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="narrator-hot-") as tmp:
        if args.backend == "sqlite":
            await bench(f"sqlite+aiosqlite:///{Path(tmp) / 'hot.db'}", args)
            return 0
        name = f"narrator_hot_{uuid.uuid4().hex[:10]}"
        await _postgres(args.postgres, f'CREATE DATABASE "{name}"')
        try:
            await bench(args.postgres.rsplit("/", 1)[0] + f"/{name}", args)
        finally:
            await _postgres(args.postgres, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--postgres", default=POSTGRES_ADMIN_URL, help="admin URL (a database)")
    parser.add_argument("--commands", type=int, default=1000, help="timed commands per row")
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument(
        "--channels", type=int, default=200, help="rotated through: each encounter's history grows"
    )
    parser.add_argument(
        "--profile", action="store_true", help="cProfile the last row (the mix by default; slower)"
    )
    parser.add_argument("--top", type=int, default=30, help="functions listed with --profile")
    parser.add_argument("--show", action="store_true", help="print each command's requests")
    parser.add_argument("--no-uvloop", action="store_true")
    parser.add_argument("--no-floor", action="store_true", help="Narrator alone")
    parser.add_argument("--only", help="rows to run, e.g. roll,mix (default: all)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse_args()
    import logging

    # As narrator run logs (INFO, same format), into the void: the cost counts, not the text.
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        handlers=[logging.FileHandler(os.devnull)],
    )
    if not arguments.no_uvloop:
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(asyncio.run(main(arguments)))
