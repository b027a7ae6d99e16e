"""Fair order at the gateway: one user's burst never holds back another user's interaction.

discord.py reads the gateway socket in one task, and when several events wait in its buffer
it parses them all in one step of the event loop, each INTERACTION_CREATE building its
Interaction and starting its command (milliseconds each). Five users sending a burst of ten
commands each at once were fifty such parses in one step (over 130 ms measured), and a quiet
user's ``/roll`` that arrived just behind them waited for all fifty, then for all fifty
commands' first steps, started before it.

:class:`FairDispatch` takes the interactions the rate limits admitted (that check is cheap and
stays where the event is read) and hands them to discord.py one per step of the loop, taking
the users in turn: a user with a backlog waits for their own earlier interactions, never
anyone else for theirs. Each user's interactions keep their order. Nothing is refused or
dropped here, and when nothing waits an interaction is handed over at once, so a quiet bot
behaves as before. Discord's 3 s deadline is still watched from when Discord created each
interaction (:mod:`bot.gateway._deadline`, :mod:`bot.gateway._admission`), however long it
waited in line.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable

log = logging.getLogger(__name__)


class FairDispatch:
    """Admitted interactions, handed over one per event-loop step, users taken in turn."""

    def __init__(self) -> None:
        self._lines: dict[int, deque[Callable[[], None]]] = {}  # each user's waiting ones
        self._turns: deque[int] = deque()  # users with a line, in the order they are served
        # The loop in whose current step one was handed over at once (None: no such step).
        self._stepping: asyncio.AbstractEventLoop | None = None
        self._serving: asyncio.Task[None] | None = None

    def submit(self, user_id: int, dispatch: Callable[[], None]) -> None:
        """Run ``dispatch`` (discord.py's parse of one interaction of ``user_id``) now if
        nothing waits, else when its user's turn comes."""
        loop = asyncio.get_running_loop()
        serving = self._serving
        if serving is not None and (serving.done() or serving.get_loop() is not loop):
            self._forget()  # a former event loop's line (a restart, a test's): gone with it
        if self._serving is None and self._stepping is not loop:
            # Nothing waits: at once (a quiet bot pays one callback for it); whatever
            # arrives in this same step (the rest of a buffered burst) lines up behind it.
            self._stepping = loop
            loop.call_soon(self._step_over)
            _run(dispatch)
            return
        line = self._lines.get(user_id)
        if line is None:
            line = self._lines[user_id] = deque()
            self._turns.append(user_id)
        line.append(dispatch)
        if self._serving is None:
            self._serving = loop.create_task(self._serve(), name="fair-dispatch")

    def _step_over(self) -> None:
        self._stepping = None

    def _forget(self) -> None:
        self._lines.clear()
        self._turns.clear()
        self._stepping = self._serving = None

    async def _serve(self) -> None:
        """Hand the lines over, one interaction per step of the loop, users in turn."""
        try:
            while self._turns:
                await asyncio.sleep(0)  # the rest of the loop's work runs between two
                user_id = self._turns.popleft()
                line = self._lines[user_id]
                dispatch = line.popleft()
                if line:
                    self._turns.append(user_id)  # their next one after everyone else's
                else:
                    del self._lines[user_id]
                _run(dispatch)
        finally:
            if self._serving is asyncio.current_task():
                self._serving = None


def _run(dispatch: Callable[[], None]) -> None:
    """One parse; an error in it is logged and never stops the line behind it."""
    try:
        dispatch()
    except Exception:
        log.exception("could not dispatch an interaction")
