"""A worker process: ``python -m bot.workers._child [module …]``.

It imports the modules named (so the first job does not pay for them), says it is ready,
then runs one job at a time: a pickled ``(function, kwargs)`` in on stdin, a pickled
``("ok", value)`` or ``("error", exception)`` out on the descriptor stdout had at start.
Anything the job prints goes to stderr, never into the answers. The parent kills it to stop
a job; it ends by itself when its stdin closes (the parent shut it down or died).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import signal
import sys
import time
from typing import BinaryIO

from bot.workers._frames import HEADER, frame, payload_size

#: A test hook: with this set, every job hangs, so a budget is overrun whatever the load.
HANG_VARIABLE = "NARRATOR_WORKER_TEST_HANG"
#: How much lower a worker's CPU priority is than the bot's (``nice``): when the machine is
#: short of cores, the event loop's commands run first and heavy work takes what is left.
NICENESS = 10


def niceness() -> int:
    """This process's nice value (a job: the tests check a worker's)."""
    return os.nice(0)


def _read_exactly(stream: BinaryIO, size: int) -> bytes | None:
    data = stream.read(size)
    return data if data is not None and len(data) == size else None


def _answer(job: bytes) -> bytes:
    try:
        work, kwargs = pickle.loads(job)
        if os.environ.get(HANG_VARIABLE):
            time.sleep(3600)
        answer: tuple[str, object] = ("ok", work(**kwargs))
    except Exception as error:
        answer = ("error", error)
    try:
        return pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as error:  # an unpicklable result or exception: say what it was
        return pickle.dumps(("error", RuntimeError(f"{type(error).__name__}: {error}")))


def main(argv: list[str]) -> int:
    # Ctrl-C in the console's terminal reaches the whole process group: the parent decides.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    answers = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)  # a stray print goes to stderr, not into an answer
    sys.stdout = sys.stderr
    for name in argv:
        importlib.import_module(name)
    answers.write(frame(pickle.dumps(("ready", os.getpid()))))
    jobs = sys.stdin.buffer
    while True:
        header = _read_exactly(jobs, HEADER)
        if header is None:
            return 0
        job = _read_exactly(jobs, payload_size(header))
        if job is None:
            return 0
        answers.write(frame(_answer(job)))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
