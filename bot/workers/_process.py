"""One worker process as the event loop sees it: started, fed a job, waited for, killed.

The process is a fresh interpreter (``subprocess`` runs ``python -m bot.workers._child``):
nothing of the bot's process is forked into it, like multiprocessing's "spawn" context.
Its answer is awaited by a thread blocked in ``read`` on the pipe (it holds no GIL while
it waits, and only unpickles the answer), handed to the loop through ``run_in_executor``:
so any event loop can wait on any worker (the console, ``narrator run``, tests that each
bring their own loop), and SimCord sees the wait as the native work it is.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import pickle
import select
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from bot.workers._frames import HEADER, frame, payload_size

#: The folder that holds the ``bot`` and ``engine`` packages, put first on the child's path.
_SOURCE_ROOT = str(Path(__file__).resolve().parent.parent.parent)


class WorkerDied(RuntimeError):
    """The worker process ended (killed, or crashed) before it answered."""


class NoAnswer(TimeoutError):
    """The worker did not answer within the time it was given."""


class _Waiters(concurrent.futures.Executor):
    """A daemon thread per wait: a wait on a worker that never answers (killed meanwhile,
    or the interpreter exiting) must never hold up anything, not even the exit."""

    def submit(
        self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[Any]:
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def wait() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as error:
                future.set_exception(error)

        threading.Thread(target=wait, name="worker-answer", daemon=True).start()
        return future


_WAITERS = _Waiters()


class WorkerProcess:
    def __init__(self, preload: Sequence[str], env: Mapping[str, str] | None = None) -> None:
        environment = dict(os.environ if env is None else env)
        path = environment.get("PYTHONPATH")
        environment["PYTHONPATH"] = _SOURCE_ROOT + (os.pathsep + path if path else "")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot.workers._child", *preload],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=environment,
            close_fds=True,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self._jobs: IO[bytes] = self.process.stdin
        self._answers: IO[bytes] = self.process.stdout
        self._reading: asyncio.Future[tuple[str, Any]] | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    async def started(self, seconds: float) -> None:
        """Wait until the child has imported what it preloads and said so."""
        kind, _pid = await self._receive(seconds)
        if kind != "ready":
            raise WorkerDied(f"worker {self.pid} said {kind!r} instead of ready")

    async def run(self, job: bytes, seconds: float) -> tuple[str, Any]:
        """Send a pickled ``(function, kwargs)``: ``("ok", value)`` or ``("error", exception)``
        (the job's own exception is returned, not raised: the caller tells it from the
        pipe's and the budget's); :class:`NoAnswer` after ``seconds``."""
        try:
            self._jobs.write(frame(job))  # small, and the idle child is reading: no wait
            self._jobs.flush()
        except (OSError, ValueError) as error:
            raise WorkerDied(f"worker {self.pid} is gone: {error}") from error
        return await self._receive(seconds)

    async def _receive(self, seconds: float) -> tuple[str, Any]:
        # The waiting thread keeps the time (a real clock, whatever the loop's: SimCord's
        # is virtual while native work runs).
        loop = asyncio.get_running_loop()
        self._reading = loop.run_in_executor(_WAITERS, self._read_answer, seconds)
        return await self._reading

    def _read_answer(self, seconds: float) -> tuple[str, Any]:
        """In a waiting thread: the next message, unpickled, or :class:`NoAnswer`."""
        deadline = time.monotonic() + seconds
        header = self._read_exactly(HEADER, deadline)
        payload = self._read_exactly(payload_size(header), deadline)
        try:
            message: tuple[str, Any] = pickle.loads(payload)
        except Exception as error:  # an exception the parent cannot rebuild, say
            raise WorkerDied(f"worker {self.pid} answered something unreadable: {error}") from error
        return message

    def _read_exactly(self, size: int, deadline: float) -> bytes:
        data = bytearray()
        while len(data) < size:
            left = deadline - time.monotonic()
            try:
                ready, _, _ = select.select([self._answers], [], [], max(0.0, left))
                chunk = os.read(self._answers.fileno(), size - len(data)) if ready else None
            except (OSError, ValueError) as error:  # the pipe closed under us: it was ended
                raise WorkerDied(f"worker {self.pid}: {error}") from error
            if chunk is None:
                raise NoAnswer(f"worker {self.pid} did not answer in time")
            if not chunk:
                raise WorkerDied(f"worker {self.pid} ended")
            data += chunk
        return bytes(data)

    def kill(self) -> None:
        """Stop it now, whatever it is doing: a wait on it gets :class:`WorkerDied`."""
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()

    def discard(self) -> None:
        """Close its stdin: an idle child reads the end of its jobs and exits (a killed one is
        gone already). Its stdout stays open while a thread may still read it (closing it
        under a blocked read is not safe): :meth:`reaped` closes it."""
        with contextlib.suppress(OSError, ValueError):
            self._jobs.close()

    def reaped(self) -> bool:
        """Whether it has ended, been waited for and its pipes closed (never blocks)."""
        if self.process.poll() is None:
            return False
        if self._reading is not None and not self._reading.done():
            return False  # the reading thread is about to see the end of the pipe
        with contextlib.suppress(OSError, ValueError):
            self._answers.close()
        return True
