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

_switch = os.environ.get("NARRATOR_EXPERIMENT_SWITCH_INTERVAL")
if _switch:
    sys.setswitchinterval(float(_switch))

if os.environ.get("NARRATOR_EXPERIMENT_INLINE_SQLITE"):
    import functools

    import aiosqlite.core as _core

    _orig_connect = _core.connect

    def _connect(database, **kwargs):
        kwargs["check_same_thread"] = False
        return _orig_connect(database, **kwargs)

    _core.connect = _connect
    import aiosqlite as _a

    _a.connect = _connect

    async def _execute(self, fn, *args, **kwargs):
        if not self._running or not self._connection:
            raise ValueError("Connection closed")
        return functools.partial(fn, *args, **kwargs)()

    _core.Connection._execute = _execute
