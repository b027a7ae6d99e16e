"""What the stand-in records: requests, and what the bot did with each interaction."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

TOKEN = "dummy"  # the only token the stand-in accepts
INTERACTION_DEADLINE = 3.0  # seconds Discord waits for the first callback
EPHEMERAL = 1 << 6
UPLOADS = "__uploads__"  # key of a body's uploaded files (name -> bytes) in recorded bodies


@dataclass
class Request:
    """One HTTP request or websocket connection the stand-in received."""

    at: float
    method: str
    path: str
    query: dict[str, str]
    host: str
    body: Any = None
    status: int = 0


class InteractionResult:
    """What the bot did with one interaction: its callback, follow-ups and edits."""

    def __init__(self, payload: dict[str, Any], name: str) -> None:
        self.payload = payload
        self.name = name
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.created_at = time.perf_counter()
        self.sent_at: float | None = None
        self.callback: dict[str, Any] | None = None
        self.callback_at: float | None = None
        self.callback_status: int | None = None
        self.message: dict[str, Any] | None = None
        self.followups: list[dict[str, Any]] = []
        self.edits: list[dict[str, Any]] = []
        self._waiters: list[asyncio.Future[None]] = []

    # -- what the bot answered --------------------------------------------------------------
    @property
    def callback_type(self) -> int | None:
        return None if self.callback is None else self.callback.get("type")

    @property
    def data(self) -> dict[str, Any]:
        return (self.callback or {}).get("data") or {}

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def files(self) -> dict[str, bytes]:
        """Files the callback uploaded, by name."""
        return dict((self.callback or {}).get(UPLOADS) or {})

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & EPHEMERAL)

    @property
    def latency(self) -> float | None:
        """Seconds from dispatching INTERACTION_CREATE to receiving the callback."""
        if self.callback_at is None:
            return None
        return self.callback_at - (self.sent_at or self.created_at)

    def all_embeds(self) -> list[dict[str, Any]]:
        """Embeds of the callback, then of every follow-up and edit, in order."""
        found = self.embeds
        for body in [*self.followups, *self.edits]:
            found.extend(body.get("embeds") or [])
        return found

    # -- waiting ----------------------------------------------------------------------------
    def _notify(self) -> None:
        for waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(None)
        self._waiters.clear()

    async def wait_until(self, predicate: Callable[[], bool], within: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while not predicate():
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(
                    f"/{self.name}: timed out; callback={self.callback!r} "
                    f"followups={len(self.followups)} edits={len(self.edits)}"
                )
            waiter = loop.create_future()
            self._waiters.append(waiter)
            try:
                await asyncio.wait_for(waiter, remaining)
            except TimeoutError:
                continue

    async def wait(self, within: float = 30.0, *, followups: int = 0, edits: int = 0) -> None:
        await self.wait_until(
            lambda: (
                self.callback_status not in (None, 200)  # refused: late or invalid
                or (
                    self.callback is not None
                    and len(self.followups) >= followups
                    and len(self.edits) >= edits
                )
            ),
            within,
        )

    def __repr__(self) -> str:
        return f"<InteractionResult /{self.name} callback_type={self.callback_type}>"
