"""``narrator run`` as its own process, pointed at the Discord stand-in."""

from __future__ import annotations

import ast
import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.e2e.fake_discord import FakeDiscord

NETAUDIT = Path(__file__).parent / "netaudit"
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


def narrator_script() -> Path:
    """The installed console script next to the interpreter running the tests."""
    return Path(sys.executable).parent / "narrator"


class BotProcess:
    """Start, kill and inspect one ``narrator run`` process (always stop it in ``finally``)."""

    def __init__(
        self,
        fake: FakeDiscord,
        database_url: str,
        workdir: Path,
        *,
        name: str = "bot",
        script: Path | None = None,
        env: dict[str, str] | None = None,
        rate_limits: bool = False,
        run_args: tuple[str, ...] = (),
    ):
        # Off unless asked: the stand-in plays a whole server through four accounts, so its
        # bursts and load runs would be a flood to the real limits (tests/e2e/
        # test_fair_use_process.py and benchmarks/abuse.py turn them on).
        self.rate_limits = rate_limits
        self.run_args = run_args  # e.g. ("--web",)
        self.fake = fake
        self.script = script or narrator_script()
        self.extra_env = env or {}
        self.database_url = database_url
        self.workdir = workdir
        self.name = name
        self.log_path = workdir / f"{name}.log"
        self.audit_path = workdir / f"{name}.netaudit"
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    def env(self) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD", "GM_ROLE", "RATE_"))
        }
        if not self.rate_limits:
            env.update(RATE_USER_BURST="0", RATE_CHANNEL_BURST="0", RATE_AUTOCOMPLETE_BURST="0")
        env.update(self.fake.bot_env())
        env.update(
            DATABASE_URL=self.database_url,
            LOG_LEVEL="INFO",
            # The caller's PYTHONPATH is kept after the audit hook (e.g. a worktree whose code
            # is to run instead of an editable install's).
            PYTHONPATH=os.pathsep.join(
                path for path in (str(NETAUDIT), os.environ.get("PYTHONPATH", "")) if path
            ),
            NARRATOR_NET_AUDIT=str(self.audit_path),
            PYTHONUNBUFFERED="1",
        )
        env.update(self.extra_env)
        return env

    async def start(self, *, ready_timeout: float = 120.0, shards: list[int] | None = None) -> None:
        """Start the bot and wait until it identified and got its guild (or, with ``shards``,
        until each of those shards is connected)."""
        identifies = self.fake.identifies + 1
        self.starts += 1
        log = open(self.log_path, "ab")  # noqa: SIM115, ASYNC230 (handed to the child)
        try:
            self.process = await asyncio.create_subprocess_exec(
                str(self.script),
                "run",
                *self.run_args,
                cwd=self.workdir,  # no stray .env is read
                env=self.env(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        finally:
            log.close()
        ready = (
            self.fake.wait_ready(ready_timeout, identifies=identifies)
            if shards is None
            else self.fake.wait_shards(shards, ready_timeout)
        )
        waiter = asyncio.ensure_future(ready)
        exited = asyncio.ensure_future(self.process.wait())
        done, _ = await asyncio.wait({waiter, exited}, return_when=asyncio.FIRST_COMPLETED)
        if exited in done:
            waiter.cancel()
            raise RuntimeError(f"narrator run exited with {exited.result()}:\n{self.log_tail()}")
        exited.cancel()
        try:
            waiter.result()
        except TimeoutError as error:
            raise RuntimeError(f"{error}\n{self.log_tail()}") from None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    async def kill(self) -> None:
        """SIGKILL: no clean-up, no flush, as a crash or an OOM kill."""
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
            await asyncio.wait_for(self.process.wait(), 10)

    async def stop(self, grace: float = 10.0) -> None:
        """SIGTERM, then SIGKILL if it does not go in time."""
        if self.process is None or self.process.returncode is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), grace)
        except TimeoutError:
            await self.kill()

    def rss_kib(self) -> int:
        """Resident set size now and its peak (VmHWM), in KiB, from /proc."""
        return self._status_field("VmRSS:")

    def peak_rss_kib(self) -> int:
        return self._status_field("VmHWM:")

    def cpu_seconds(self) -> float:
        """User + system CPU time the process used so far (from /proc/<pid>/stat)."""
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def _status_field(self, name: str) -> int:
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith(name):
                    return int(line.split()[1])
        except OSError:
            pass
        return 0

    def log_tail(self, lines: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def contacted(self) -> set[tuple[str, str]]:
        """Every (host, port) the process connected to or looked up."""
        found: set[tuple[str, str]] = set()
        if not self.audit_path.exists():
            return found
        for line in self.audit_path.read_text().splitlines():
            kind, host, port = line.split(" ", 2)
            if kind == "getaddrinfo":
                value = ast.literal_eval(host)
                host = value.decode() if isinstance(value, bytes) else str(value)
            found.add((host, port))
        return found

    def foreign_contacts(self, allowed_ports: set[int]) -> set[tuple[str, str]]:
        """Contacts that are not the stand-in (or another allowed local port, e.g. PostgreSQL)."""
        allowed = {str(port) for port in allowed_ports} | {"None"}
        return {
            (host, port)
            for host, port in self.contacted()
            if host not in LOCAL_HOSTS or port not in allowed
        }
