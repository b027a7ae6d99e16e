"""``narrator run`` as a host runs it: /healthz and /metrics scraped over HTTP, a restore
refused while it runs, and a bad DATABASE_URL reported in one line."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.conftest import migrated_copy
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process import BotProcess, narrator_script

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def metered(
    e2e_workdir: Path, migrated_template: Path
) -> AsyncIterator[tuple[FakeDiscord, BotProcess, str]]:
    port = free_port()
    async with FakeDiscord(channels=3) as fake:
        bot = BotProcess(
            fake,
            migrated_copy(migrated_template, e2e_workdir, "metered.db"),
            e2e_workdir,
            name="metered",
            env={"METRICS_PORT": str(port)},
        )
        try:
            await bot.start()
            yield fake, bot, f"http://127.0.0.1:{port}"
        finally:
            await bot.stop()


def listening_addresses(port: int) -> list[str]:
    """The local addresses (kernel hex) of sockets listening on ``port``, from /proc."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, local_port = local.rsplit(":", 1)
            if state == "0A" and int(local_port, 16) == port:  # 0A: LISTEN
                found.append(address)
    return found


async def get(url: str) -> tuple[int, str]:
    timeout = aiohttp.ClientTimeout(total=10)
    async with aiohttp.ClientSession(timeout=timeout) as session, session.get(url) as response:
        return response.status, await response.text()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


async def test_healthz_says_gateway_and_database_are_fine(metered) -> None:
    _fake, _bot, base = metered
    # The bot is READY a moment after the stand-in sent its guild (discord.py waits for
    # every guild); until then /healthz says the gateway is not connected yet.
    for _ in range(300):  # 60 s: a failsafe, it is READY long before
        status, body = await get(f"{base}/healthz")
        if status == 200:
            break
        assert status == 503 and '"gateway": "not connected"' in body, body
        await asyncio.sleep(0.2)
    assert status == 200, body
    assert '"gateway": "connected"' in body and '"database": "ok"' in body


async def test_metrics_count_commands_by_outcome(metered) -> None:
    fake, _bot, base = metered
    for _ in range(3):
        await fake.interact("roll", channel=fake.channel(1), expression="1d20")
    await fake.interact("roll", channel=fake.channel(1), expression="2d")  # refused: bad input
    status, body = await get(f"{base}/metrics")
    assert status == 200
    found = samples(body)
    assert found[("narrator_commands_total", (("command", "roll"), ("outcome", "ok")))] == 3
    assert found[("narrator_commands_total", (("command", "roll"), ("outcome", "refused")))] == 1
    assert found[("narrator_command_seconds_count", (("command", "roll"),))] == 4
    assert found[("narrator_shard_connected", (("shard", "0"),))] == 1
    assert found[("narrator_gateway_latency_seconds", ())] >= 0
    assert "narrator_errors_total" in body or "narrator_errors" in body


async def test_metrics_listen_on_localhost_only(metered) -> None:
    _fake, _bot, base = metered
    port = int(base.rsplit(":", 1)[1])
    assert listening_addresses(port) == ["0100007F"]  # 127.0.0.1 (little-endian hex) only


async def test_restore_is_refused_while_the_bot_runs(metered, tmp_path: Path) -> None:
    _fake, bot, _base = metered
    env = bot.env()
    backup_path = tmp_path / "snapshot.db"
    for command, expected in (
        (["backup", str(backup_path)], 0),
        (
            ["restore", str(backup_path)],
            1,
        ),  # exit 1: the bot will stop some day, the setting is fine
    ):
        process = await asyncio.create_subprocess_exec(
            str(narrator_script()),
            *command,
            cwd=tmp_path,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        _out, err = await asyncio.wait_for(process.communicate(), 60)
        assert process.returncode == expected, err.decode()
    assert "a running narrator uses" in err.decode()


async def test_unreachable_database_stops_run_with_one_line(e2e_workdir: Path) -> None:
    async with FakeDiscord(channels=1) as fake:
        bot = BotProcess(
            fake,
            "postgresql+asyncpg://narrator:hunter2@127.0.0.1:1/narrator",
            e2e_workdir,
            name="nodb",
        )
        with pytest.raises(RuntimeError, match="exited with 1"):
            await bot.start(ready_timeout=60)
        log = bot.log_path.read_text()
        assert "Traceback" not in log and "hunter2" not in log
        assert (
            log.strip()
            .splitlines()[-1]
            .startswith(
                "narrator: DATABASE_URL: cannot use the database at postgresql+asyncpg://narrator:***@"
            )
        )


async def test_a_taken_metrics_port_stops_run_with_one_line(metered, e2e_workdir: Path) -> None:
    fake, _bot, base = metered
    port = base.rsplit(":", 1)[1]
    second = BotProcess(
        fake,
        migrated_copy(e2e_workdir / "metered.db", e2e_workdir, "second.db"),
        e2e_workdir,
        name="second",
        env={"METRICS_PORT": port},
    )
    try:
        with pytest.raises(RuntimeError, match="exited with 1"):
            await second.start(ready_timeout=60)
    finally:
        await second.stop()
    last = second.log_path.read_text().strip().splitlines()[-1]
    assert last.startswith(
        f"narrator: METRICS_PORT/METRICS_HOST: cannot listen on 127.0.0.1:{port}"
    )
