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
dropped here, and when nothing waits (and there is room, below) an interaction is handed
over at once, so a quiet bot behaves as before. Discord's 3 s deadline is still watched
from when Discord created each interaction (:mod:`bot.gateway._deadline`,
:mod:`bot.gateway._admission`), however long it waited in line.

Admission ("very busy") is decided as an interaction leaves the line. One turned away costs
next to nothing (no Interaction, no command), so it does not use up its step: the line goes
on to the next one in the same step, up to :data:`TURNED_AWAY_PER_STEP`. With one per step
whatever its fate, a line past capacity drained at the loop's step rate (a step lasts
milliseconds when the loop is full), the "very busy" answers themselves waited in line, and
at twice the served maximum hundreds of them went past Discord's 3 s (measured on
2026-11-27).

With admission control (``narrator run``) the line also holds what there is no room for:
while as many commands run as admission's bound
(:meth:`bot.gateway._admission.Admission.room`), it hands over no one in turn, so a burst
past the bound waits its turn here rather than being told "very busy" at once, and the
commands running share the loop with no more than the bound. Offered 1,600 a second on the
2-core machine with 512 running at once, the loop's steps grew so long that each group
commit of SQLite's writes took several of them, the commands waited on those commits, and
the bot served 944-1,266 a second (probes of 5 s) where it served 1,450 offered 1,450
(measured 2026-11-28). What waits past :data:`LINE_PATIENCE` is handed over out of turn as
below, room or not: admission answers it "very busy" if there is still no room, while that
reaches the user in time. The line waits for room without a step per loop iteration: a
finishing command wakes it (:meth:`FairDispatch.room_made`), or the oldest one's patience
running out.

Taking users in turn means a user with a long backlog (a flood, or a load test's one roller)
sees each of their interactions wait for everyone else's. Past capacity such a backlog aged
in the line past Discord's 3 s before admission saw it, so even its "very busy" came too late
(median age at the decision 2.8 s, measured). So an interaction that has waited in the line
longer than :data:`LINE_PATIENCE` is handed over out of turn, oldest first: admission then
answers it "very busy" while that still reaches the user in time (or runs it, when it is not
yet late).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

#: Interactions turned away that one step may hand over before the one it admits (bounds the
#: step: each is an admission check and a reply task, tens of microseconds).
TURNED_AWAY_PER_STEP = 64
#: Seconds an interaction may wait in the line for its user's turn before it is handed over
#: out of turn (oldest first): half of admission's default ``BUSY_AFTER``, so a backlog is
#: judged while a "very busy" answer can still reach the user within Discord's 3 s.
LINE_PATIENCE = 0.5

#: discord.py's parse of one interaction; False when it was turned away instead (admission).
Dispatch = Callable[[], "bool | None"]


@dataclass(slots=True, eq=False)
class _Waiting:
    """One interaction in the line: in its user's line and in the line of arrivals."""

    dispatch: Dispatch
    since: float
    handed: bool = False


class FairDispatch:
    """Admitted interactions, handed over one per event-loop step, users taken in turn."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, room: Callable[[], bool] | None = None
    ) -> None:
        self._clock = clock
        #: Whether one more may be handed over in turn now (None: always; see the docstring).
        self._room = room
        #: While the line waits for room: resolved by :meth:`room_made` or the oldest's patience.
        self._waking: asyncio.Future[None] | None = None
        self._lines: dict[int, deque[_Waiting]] = {}  # each user's waiting ones
        self._turns: deque[int] = deque()  # users with a line, in the order they are served
        self._arrivals: deque[_Waiting] = deque()  # every waiting one, oldest first
        # The loop in whose current step one was handed over at once (None: no such step).
        self._stepping: asyncio.AbstractEventLoop | None = None
        self._serving: asyncio.Task[None] | None = None

    def submit(self, user_id: int, dispatch: Dispatch) -> None:
        """Run ``dispatch`` (discord.py's parse of one interaction of ``user_id``) now if
        nothing waits and there is room, else when its user's turn comes (or it has waited
        too long)."""
        loop = asyncio.get_running_loop()
        serving = self._serving
        if serving is not None and (serving.done() or serving.get_loop() is not loop):
            self._forget()  # a former event loop's line (a restart, a test's): gone with it
        if self._serving is None and self._stepping is not loop and self._has_room():
            # Nothing waits: at once (a quiet bot pays one callback for it); whatever
            # arrives in this same step (the rest of a buffered burst) lines up behind it.
            self._stepping = loop
            loop.call_soon(self._step_over)
            _run(dispatch)
            return
        waiting = _Waiting(dispatch, self._clock())
        self._arrivals.append(waiting)
        line = self._lines.get(user_id)
        if line is None:
            line = self._lines[user_id] = deque()
            self._turns.append(user_id)
        line.append(waiting)
        if self._serving is None:
            self._serving = loop.create_task(self._serve(), name="fair-dispatch")

    def room_made(self) -> None:
        """A command finished (admission calls this): a line waiting for room goes on."""
        waking = self._waking
        if waking is not None and not waking.done():
            waking.set_result(None)

    def _has_room(self) -> bool:
        return self._room is None or self._room()

    async def _until_room(self) -> None:
        """Wait, without a step per loop iteration, until a command finishes or the oldest
        in line reaches :data:`LINE_PATIENCE` (then it is handed over out of turn)."""
        loop = asyncio.get_running_loop()
        waking = self._waking = loop.create_future()
        patience = self._arrivals[0].since + LINE_PATIENCE - self._clock()
        timer = loop.call_later(max(0.0, patience), _resolve, waking)
        try:
            await waking
        finally:
            timer.cancel()
            self._waking = None

    def _step_over(self) -> None:
        self._stepping = None

    def _forget(self) -> None:
        self._waking = None
        self._lines.clear()
        self._turns.clear()
        self._arrivals.clear()
        self._stepping = self._serving = None

    async def _serve(self) -> None:
        """Hand the lines over, one admitted interaction per step of the loop: those that
        waited too long first, oldest first, then users in turn while there is room (those
        turned away on the way do not count)."""
        try:
            while self._arrivals:
                if self._has_room():
                    await asyncio.sleep(0)  # the rest of the loop's work runs between two
                else:
                    await self._until_room()
                self._step()
            # Nothing waits (every one was handed over): lines left hold only handed ones.
            self._lines.clear()
            self._turns.clear()
        finally:
            if self._serving is asyncio.current_task():
                self._serving = None

    def _step(self) -> None:
        budget = TURNED_AWAY_PER_STEP + 1
        arrivals = self._arrivals
        too_old = self._clock() - LINE_PATIENCE
        while budget and arrivals:
            oldest = arrivals[0]
            if oldest.handed:
                arrivals.popleft()
                continue
            if oldest.since > too_old:
                break
            arrivals.popleft()
            budget -= 1
            if self._run(oldest) is not False:
                return  # this step's admitted one
        while budget and self._turns and self._has_room():
            waiting = self._next_in_turn()
            if waiting is None:
                continue
            budget -= 1
            if self._run(waiting) is not False:
                return
        while arrivals and arrivals[0].handed:
            arrivals.popleft()

    def _next_in_turn(self) -> _Waiting | None:
        """The next user's next interaction not handed over yet (None: that user had none
        left, their line is gone)."""
        user_id = self._turns.popleft()
        line = self._lines[user_id]
        while line and line[0].handed:
            line.popleft()  # handed over out of turn
        waiting = line.popleft() if line else None
        while line and line[0].handed:
            line.popleft()
        if line:
            self._turns.append(user_id)  # their next one after everyone else's
        else:
            del self._lines[user_id]
        return waiting

    @staticmethod
    def _run(waiting: _Waiting) -> bool | None:
        waiting.handed = True
        return _run(waiting.dispatch)


def _resolve(waking: asyncio.Future[None]) -> None:
    if not waking.done():
        waking.set_result(None)


def _run(dispatch: Dispatch) -> bool | None:
    """One parse (its outcome); an error in it is logged and never stops the line behind it."""
    try:
        return dispatch()
    except Exception:
        log.exception("could not dispatch an interaction")
        return None
