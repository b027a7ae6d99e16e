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
