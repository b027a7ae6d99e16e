"""The pool: a few worker processes, fair queues in front of them, a budget per job.

Each job is admitted or refused at once: a user has at most ``per_user`` jobs queued or
running, a channel ``per_channel``, and at most ``max_waiting`` jobs wait for a worker in
all; the rest are told :class:`Busy` (a short "wait for your previous request", never a
queue that grows). Admitted jobs take a worker in the order they came. A job that runs past its
budget is stopped for real: its worker process is killed, and a new one starts with the
next job (docs/decisions/worker-processes.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from bot.workers._holders import Holders
from bot.workers._process import NoAnswer, WorkerDied, WorkerProcess

log = logging.getLogger(__name__)
T = TypeVar("T")

#: One job per user, whatever it is (odds, dice statistics, a dice test, a chart): the pool
#: has one or two workers, and a bound per kind would let one player mixing commands hold
#: them all while others wait. So a refusal must not say "your previous odds" to a player
#: whose running job is statistics: :class:`Busy` carries what the held job is (``held``),
#: and the services name that (bot/services/offload.py, ``still_running``).
PER_USER = 1
PER_CHANNEL = 3
MAX_WAITING = 16
#: A new worker's start (a fresh interpreter importing the engine): not part of any budget.
START_SECONDS = 30.0
#: Answers kept by their job (a repeated /odds, the same chart): no worker needed.
CACHE_ENTRIES = 128
#: What every worker imports before its first job.
PRELOAD = (
    "engine.systems.coda",
    "engine.systems.drama",
    "engine.systems.hogwarts1990",
    "engine.systems.infinity",
    "engine.systems.rps",
)


class OverBudget(Exception):
    """The job ran past its budget; its worker process was killed."""

    def __init__(self, budget: float) -> None:
        super().__init__(f"stopped after {budget:g} s")
        self.budget = budget


def default_size() -> int:
    """One worker on a machine of one or two cores (one core stays the event loop's), two
    from three cores up: heavy work is rare, and a worker busy on it is a core taken."""
    return max(1, min(2, (os.cpu_count() or 1) - 1))


class WorkerPool:
    """Up to ``size`` worker processes, started when a job first needs one."""

    def __init__(
        self,
        size: int,
        *,
        per_user: int = PER_USER,
        per_channel: int = PER_CHANNEL,
        max_waiting: int = MAX_WAITING,
        preload: Sequence[str] = PRELOAD,
        env: Mapping[str, str] | None = None,
    ) -> None:
        if size < 1:
            raise ValueError("a pool needs at least one worker")
        self.size = size
        self.per_user, self.per_channel, self.max_waiting = per_user, per_channel, max_waiting
        self.preload = tuple(preload)
        self.env = env
        self._free = size  # slots running nothing (an idle worker, or none started yet)
        self._idle: list[WorkerProcess] = []
        self._busy: set[WorkerProcess] = set()
        self._ending: list[WorkerProcess] = []
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._holders = Holders()
        self._answers: OrderedDict[bytes, Any] = OrderedDict()
        self.started = 0  # worker processes started, and killed (over budget or cancelled)
        self.killed = 0

    async def run(
        self,
        work: Callable[..., T],
        kwargs: Mapping[str, Any],
        *,
        budget: float,
        user: int | None = None,
        channel: int | None = None,
        cache: bool = False,
        what: str = "",
    ) -> T:
        """``work(**kwargs)`` in a worker process: its value, or the exception it raised.

        ``work`` is a module-level function and ``kwargs`` plain values (both are pickled).
        Raises :class:`Busy` at once when the user's, the channel's or the pool's queue is
        full, :class:`OverBudget` when the work runs past ``budget`` seconds (the worker is
        killed), :class:`WorkerDied` when the worker ended on its own. Cancelling the
        caller kills a running job's worker too: no work runs on that nobody awaits.
        ``what`` the job is (``"odds"``, ``"stats"``…) is what a refusal of the same user's
        next job names (``Busy.held``).
        """
        job = pickle.dumps((work, dict(kwargs)), protocol=pickle.HIGHEST_PROTOCOL)
        if cache and job in self._answers:
            self._answers.move_to_end(job)
            cached: T = self._answers[job]
            return cached
        self._admit(user, channel, what)
        try:
            await self._take_slot()
            try:
                kind, answer = await self._run_job(job, budget)
            finally:
                self._give_slot()
        finally:
            self._leave(user, channel, what)
        if kind == "error":
            raise answer
        if cache:
            self._answers[job] = answer
            while len(self._answers) > CACHE_ENTRIES:
                self._answers.popitem(last=False)
        value: T = answer
        return value

    @property
    def holding(self) -> bool:
        """Whether any user's or channel's job is counted: admitted and not yet over."""
        return bool(self._holders)

    @property
    def processes(self) -> int:
        """Worker processes alive now (idle or working)."""
        return len(self._idle) + len(self._busy)

    # --- admission --------------------------------------------------------------------

    def _admit(self, user: int | None, channel: int | None, what: str) -> None:
        full = self._free <= 0 and len(self._waiters) >= self.max_waiting
        self._holders.admit(
            user,
            channel,
            per_user=self.per_user,
            per_channel=self.per_channel,
            pool_full=full,
            what=what,
        )

    def _leave(self, user: int | None, channel: int | None, what: str) -> None:
        self._holders.leave(user, channel, what)

    # --- slots, first come first served ------------------------------------------------

    async def _take_slot(self) -> None:
        if self._free > 0 and not self._waiters:
            self._free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._give_slot()  # handed over just as the caller gave up: pass it on
            else:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(turn)
            raise

    def _give_slot(self) -> None:
        if self._free < 0:  # the pool shrank: this slot is gone
            self._free += 1
            return
        while self._waiters:
            turn = self._waiters.popleft()
            if turn.done():
                continue
            try:
                turn.set_result(None)  # the slot passes straight to the next in line
            except RuntimeError:  # its event loop is closed (a test's): skip it
                continue
            return
        self._free += 1

    def resize(self, size: int) -> None:
        """A new size. Growing hands the new slots to jobs waiting at once; shrinking ends
        idle workers now and busy ones as they finish their jobs (the jobs complete)."""
        if size < 1:
            raise ValueError("a pool needs at least one worker")
        self._free += size - self.size
        self.size = size
        while self.processes > size and self._idle:
            # An idle worker holds no slot (its slot is in _free): only the count changes.
            self._end(self._idle.pop())
        while self._free > 0 and self._waiters:
            self._free -= 1
            self._give_slot()  # to the next in line (or back, if none is still waiting)

    # --- processes ---------------------------------------------------------------------

    async def _worker(self) -> WorkerProcess:
        self._reap()
        while self._idle:
            worker = self._idle.pop()
            if worker.alive:
                return worker
            self._end(worker)
        worker = WorkerProcess(self.preload, self.env)
        self.started += 1
        try:
            await worker.started(START_SECONDS)
        except BaseException as error:
            worker.kill()
            self._end(worker)
            if isinstance(error, NoAnswer):
                message = f"worker {worker.pid} took over {START_SECONDS:g} s to start"
                raise WorkerDied(message) from None
            raise
        log.info("worker process %d started", worker.pid)
        return worker

    async def _run_job(self, job: bytes, budget: float) -> tuple[str, Any]:
        worker = await self._worker()
        self._busy.add(worker)
        try:
            answer = await worker.run(job, budget)
        except NoAnswer:
            self._kill(worker, "ran past its budget of %g s", budget)
            raise OverBudget(budget) from None
        except asyncio.CancelledError:
            self._kill(worker, "was cancelled")
            raise
        except BaseException:
            self._kill(worker, "died")
            raise
        finally:
            self._busy.discard(worker)
        if self.processes >= self.size:
            self._end(worker)  # the pool shrank while it worked
        else:
            self._idle.append(worker)
        return answer

    def _kill(self, worker: WorkerProcess, why: str, *args: object) -> None:
        log.warning("worker process %d " + why + ": killed", worker.pid, *args)
        worker.kill()
        self.killed += 1
        self._end(worker)

    def _end(self, worker: WorkerProcess) -> None:
        worker.discard()
        self._ending.append(worker)

    def _reap(self) -> None:
        self._ending = [worker for worker in self._ending if not worker.reaped()]

    async def shutdown(self, grace: float = 2.0) -> None:
        """End every worker (idle ones close, working ones are killed) and wait for them.
        The pool stays usable: a later job starts a new worker."""
        for worker in self._idle:
            self._end(worker)
        self._idle.clear()
        for worker in list(self._busy):
            worker.kill()  # its job gets WorkerDied, and its caller ends it
            self._ending.append(worker)
        self._answers.clear()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        self._reap()
        while self._ending and loop.time() < deadline:
            await asyncio.sleep(0.02)
            self._reap()
        for worker in self._ending:
            worker.kill()
        if self._ending:
            await asyncio.sleep(0.05)
            self._reap()
