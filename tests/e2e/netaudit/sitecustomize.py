"""Loaded by the bot process under test (PYTHONPATH): logs every socket connect and name lookup.

The end-to-end tests read the log to prove the bot contacted no address but the stand-in.
Python's audit hooks see every ``socket.connect`` and ``socket.getaddrinfo``, asyncio included.
"""

import os
import sys

_path = os.environ.get("NARRATOR_NET_AUDIT")
if _path:
    _log = open(_path, "a", buffering=1, encoding="utf-8")  # noqa: SIM115 (lives with the process)

    def _audit(event: str, args: tuple) -> None:
        if event == "socket.connect":
            address = args[1]
            if isinstance(address, tuple):
                _log.write(f"connect {address[0]} {address[1]}\n")
            else:
                _log.write(f"connect {address!r} -\n")
        elif event == "socket.getaddrinfo":
            _log.write(f"getaddrinfo {args[0]!r} {args[1]}\n")

    sys.addaudithook(_audit)


# Fault injection for tests/e2e/test_crash_safety.py. With NARRATOR_TEST_KILL_AFTER_WRITES=N
# the process SIGKILLs itself just before its (N+1)-th SQLite write would become durable (the
# COMMIT of a transaction that wrote, or a write run in autocommit mode): the crash lands
# after exactly N durable writes, at a point of the process's own progress, however loaded
# the machine (a kill timed by an observer lands late). SQLite's statement trace sees every
# statement of every connection, whatever layer of the bot issued it. Off unless set.
_kill_after = os.environ.get("NARRATOR_TEST_KILL_AFTER_WRITES")
if _kill_after:
    import signal
    import sqlite3
    import threading

    _limit = int(_kill_after)
    _durable = [0]
    _lock = threading.Lock()
    _WRITING = ("INSERT", "UPDATE", "DELETE", "REPLACE")
    _connect = sqlite3.connect

    def _one_more_durable_write() -> None:
        with _lock:
            if _durable[0] >= _limit:
                os.kill(os.getpid(), signal.SIGKILL)  # before this write reaches the file
            _durable[0] += 1

    def _traced_connect(*args, **kwargs):
        connection = _connect(*args, **kwargs)
        wrote = [False]

        def trace(statement: str) -> None:
            head = statement.lstrip().upper()
            if head.startswith(_WRITING):
                if connection.in_transaction:
                    wrote[0] = True
                else:
                    _one_more_durable_write()
            elif head.startswith(("COMMIT", "END")):
                if wrote[0]:
                    _one_more_durable_write()
                wrote[0] = False
            elif head.startswith("ROLLBACK"):
                wrote[0] = False

        connection.set_trace_callback(trace)
        return connection

    sqlite3.connect = _traced_connect
