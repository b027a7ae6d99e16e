"""The pipe protocol between the bot and a worker: each message a length, then a pickle."""

from __future__ import annotations

import struct

_LENGTH = struct.Struct(">Q")
HEADER = _LENGTH.size


def frame(payload: bytes) -> bytes:
    return _LENGTH.pack(len(payload)) + payload


def payload_size(header: bytes) -> int:
    (size,) = _LENGTH.unpack(header)
    return int(size)


def split(buffer: bytearray) -> bytes | None:
    """The first whole message's payload, removed from ``buffer``; None until one is whole."""
    if len(buffer) < HEADER:
        return None
    size = payload_size(bytes(buffer[:HEADER]))
    if len(buffer) < HEADER + size:
        return None
    payload = bytes(buffer[HEADER : HEADER + size])
    del buffer[: HEADER + size]
    return payload
