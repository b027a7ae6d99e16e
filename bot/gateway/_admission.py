"""Past capacity, a short "very busy" instead of silence: admission control at the gateway.

Discord gives an interaction 3 seconds for its first response. A bot offered more commands
than it can serve falls behind: events wait in the gateway socket and on the event loop,
every command takes longer, and past 3 s the users see "The application did not respond"
whatever the bot does next. :class:`Admission` looks at each INTERACTION_CREATE before
discord.py builds anything from it, as the gateway hook's fair line hands it over (so the
wait in that line counts: :func:`bot.gateway._interactions.install_interaction_hook` installs
it), and, when the bot is behind, answers it at once with a
short ephemeral "very busy, try again in a few seconds" (one HTTP call, no database, no
command), so that the queue drains and the commands it does run answer in time.

"Behind" is either of:

- the interaction's age when the bot reads it, over :data:`BUSY_AGE` (``BUSY_AFTER``). Its id is a
  snowflake holding Discord's creation time; what counts is the age above the smallest age
  seen lately, so a skewed clock or a slow network path cancels out
  (:class:`AgeFloor`);
- as many commands already running (started, not yet finished) as the current bound,
  :attr:`Admission.limit`: each one shares the loop with the others and with the gateway
  reader. The fair line holds an interaction while there is no room under the bound
  (:meth:`Admission.room`), so this applies to one that waited there past its patience
  (:data:`bot.gateway._fair.LINE_PATIENCE`) and still finds none.

The bound follows measured outcomes, not a count chosen for some machine. Up to 512
admitted commands on one loop (``MAX_IN_FLIGHT``) made each step of the loop so long on a
2-core host that the last admitted ones, and their deferral timers, answered after Discord's
3 s although thousands were told "very busy". So the bound is adaptive (AIMD, as TCP's
window): it starts at :data:`MAX_IN_FLIGHT`, the hard ceiling, and

- drops to :data:`CUT` × the commands running at that moment (never below
  :data:`MIN_LIMIT`) as soon as an admitted command's first answer goes out more than
  :data:`LATE_AGE` above the age floor. Once per regime: lateness of a command created
  before the last cut is the old bound's, already answered, so one late backlog cuts once;
- grows by :data:`GROWTH` for each :data:`WINDOW` of monotonic time in which the first
  answers of commands created since the last cut were all in time;
- is :data:`MAX_IN_FLIGHT` again when no command runs and none has answered for a
  :data:`WINDOW` (an idle bot takes a sudden burst as it always did).

The signal is when the *first answer* is out — the command's own reply when it ends, or its
deferral when the deadline's timer fires (:func:`bot.gateway._deadline.answer_in_time` tells
:meth:`Admission.answered` once, whichever comes first) — rather than when the command ends:
a command waiting for a lock or a worker process is deferred in time and ends seconds
later with the loop idle, and must not shrink the bound; a deferral timer that fires late, or
a reply that leaves after it should have fired, means the loop itself is behind, which is
what too many commands at once cause. A timer of its own measuring the loop's lag would say
the same less directly (how late a command's several steps add up to is unknown) and would
wake an idle bot. Each decision is a few comparisons: O(1) per interaction.

Deferrals already given are unaffected: a command that was admitted runs to its end. Only
``narrator run`` installs it (tests and the console run on SimCord's clock).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.internals import callback_body, gateway_parsers, post_interaction_callback

if TYPE_CHECKING:
    from bot.hosting.metrics import BotMetrics

log = logging.getLogger(__name__)

#: Seconds an interaction may have waited (above the usual) before it is turned away
#: (``BUSY_AFTER``).
BUSY_AGE = 1.0
#: Commands running at once (``MAX_IN_FLIGHT``, the bound's ceiling): the fair line holds the
#: rest until there is room (:meth:`Admission.room`). 512 running at once, offered 1,600 a
#: second on the 2-core machine, made the loop's steps so long that SQLite's group commits
#: took several each and the bot served 944-1,015 a second where it serves 1,450; with 256
#: and the line holding the rest it served 1,490-1,576, a 1,500-interaction burst at 5,000 a
#: second was served 1,320-1,328 (927-948 before), and a 600-roll burst all of it (measured
#: 2026-11-28, AMD EPYC; docs/performance.md).
MAX_IN_FLIGHT = 256
#: Seconds over which the smallest age seen is kept (two windows: the floor moves slowly).
FLOOR_WINDOW = 30.0
#: Seconds above the floor by which an admitted command's first answer should be out: the
#: deferral is due at 1.5 (``DEFER_AFTER``), so this is half a second of the loop's lateness,
#: and it leaves a second of Discord's 3 for the callback's HTTP round trip and the floor's
#: own slack (the fastest interaction seen also had a network path to cross).
LATE_AGE = 2.0
#: Seconds of monotonic time over which in-time answers are gathered before the bound grows:
#: long enough for several answers at any real load, short enough to recover in seconds.
WINDOW = 0.5
#: The bound after a late answer, as a share of the commands running then: a quarter fewer
#: shares the loop among fewer, without emptying it (the backlog drains meanwhile).
CUT = 0.75
#: The bound's growth per window of in-time answers: from :data:`MIN_LIMIT` back to 512 in
#: about 22 s, from a first cut (~300 running) in about 3 s.
GROWTH = 1.1
#: The bound never drops below this: a few commands at once never make the loop late, and a
#: late answer with one or two running (a long synchronous step) says little about the count.
MIN_LIMIT = 8
#: The name of each "very busy" answer's task.
BUSY_REPLY = "very-busy-reply"
VERY_BUSY = "⏳ Narrator is very busy right now: please try again in a few seconds."
DISCORD_EPOCH_MS = 1_420_070_400_000
_EPHEMERAL = 64
_CHANNEL_MESSAGE = 4
_AUTOCOMPLETE_RESULT = 8
_PING, _AUTOCOMPLETE = 1, 4


def created_at(snowflake: int) -> float:
    """A snowflake's creation time, in Unix seconds."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


class AgeFloor:
    """The smallest age seen in the last one or two windows: what "no waiting" looks like
    with this host's clock and network (negative when the clock is behind Discord's)."""

    def __init__(self, window: float = FLOOR_WINDOW) -> None:
        self.window = window
        self._previous = float("inf")
        self._current = float("inf")
        self._window_ends: float | None = None

    def waited(self, age: float, now: float) -> float:
        """Record ``age`` (seen at monotonic ``now``); how much longer than usual it is."""
        if self._window_ends is None:
            self._window_ends = now + self.window
        elif now >= self._window_ends:
            self._previous, self._current = self._current, float("inf")
            self._window_ends = now + self.window
        self._current = min(self._current, age)
        return self.above(age)

    def above(self, age: float) -> float:
        """``age`` above the floor (0 before any age was seen)."""
        floor = min(self._previous, self._current)
        return 0.0 if floor == float("inf") else age - floor


class Admission:
    """Decides, per raw interaction, whether the bot takes it on; counts what it turned away.

    ``limit`` is the adaptive bound on commands running at once (see the module's docstring),
    read by the metrics; ``max_in_flight`` its ceiling."""

    def __init__(
        self,
        *,
        busy_age: float = BUSY_AGE,
        max_in_flight: int = MAX_IN_FLIGHT,
        late_age: float = LATE_AGE,
        window: float = WINDOW,
        wall_clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.busy_age = busy_age
        self.max_in_flight = max_in_flight
        self.late_age = late_age
        self.window = window
        self.limit: float = max_in_flight
        self.in_flight = 0
        self.turned_away = 0
        self._min_limit = min(MIN_LIMIT, max_in_flight)
        self._floor = AgeFloor()
        self._wall_clock = wall_clock
        self._monotonic = monotonic
        self._last_answer = float("-inf")  # monotonic time of the last first answer
        self._window_ends = float("-inf")
        self._in_time = False  # an in-time answer (since the last cut) in this window
        self._cut_wall: float | None = None  # wall-clock time of the last cut
        #: Told when a command finishes: the fair line holding interactions for room.
        self.room_made: Callable[[], None] | None = None

    def behind(self, interaction_id: int) -> bool:
        """True when an interaction with this id should be answered "very busy"."""
        age = self._wall_clock() - created_at(interaction_id)
        now = self._monotonic()
        waited = self._floor.waited(age, now)
        self._reset_when_idle(now)
        return waited > self.busy_age or self.in_flight >= self.limit

    def room(self) -> bool:
        """Whether one more command may start now: fewer running than the bound. The fair
        line (:mod:`bot.gateway._fair`) holds the others in turn until there is room, or
        until they have waited long enough to be judged here."""
        self._reset_when_idle(self._monotonic())
        return self.in_flight < self.limit

    def _reset_when_idle(self, now: float) -> None:
        if self.in_flight == 0 and now - self._last_answer >= self.window:
            self.limit = self.max_in_flight  # idle: nothing the bound was cut for is left

    def waited(self, interaction_id: int) -> float:
        """How much longer than usual this interaction had waited when seen now (≥ 0)."""
        age = self._wall_clock() - created_at(interaction_id)
        return max(0.0, self._floor.above(age))

    def started(self) -> None:
        self.in_flight += 1

    def finished(self) -> None:
        self.in_flight -= 1
        if self.room_made is not None:
            self.room_made()

    def answered(self, interaction_id: int) -> None:
        """An admitted command's first answer is going out now (its reply or its deferral):
        late, the bound drops; in time through a whole window, it grows back."""
        created = created_at(interaction_id)
        wall = self._wall_clock()
        now = self._last_answer = self._monotonic()
        if self._cut_wall is not None and self._floor.above(self._cut_wall - created) >= 0:
            return  # admitted under the bound before the last cut, which answered its lateness
        if now >= self._window_ends:
            if self._in_time:
                self.limit = min(self.max_in_flight, self.limit * GROWTH)
            self._in_time = False
            self._window_ends = now + self.window
        if self._floor.above(wall - created) > self.late_age:
            self.limit = max(self._min_limit, min(self.limit, CUT * self.in_flight))
            self._cut_wall = wall
            self._in_time = False
            self._window_ends = now + self.window
        else:
            self._in_time = True


def install_admission(bot: Any, admission: Admission, metrics: BotMetrics | None = None) -> None:
    """Put ``admission`` in front of the bot's INTERACTION_CREATE handling (every shard)."""
    parsers = gateway_parsers(bot)
    parse = parsers["INTERACTION_CREATE"]
    replies: set[asyncio.Task[None]] = set()
    # Past capacity this runs for most interactions: each answer's body is serialised here,
    # once, and the POST goes straight on the session (bot.internals.post_interaction_callback).
    suggestions = callback_body(busy_payload(_AUTOCOMPLETE))
    message = callback_body(busy_payload(None))
    behind = admission.behind
    turned_away = metrics.turned_away if metrics is not None else None

    def parse_interaction_create(data: dict[str, Any]) -> bool:
        """Hand ``data`` to discord.py (True), or answer it "very busy" (False: the fair
        line may hand over its next one in the same step, this one cost next to nothing)."""
        kind = data.get("type")
        interaction_id = int(data["id"])
        if kind == _PING or not behind(interaction_id):
            parse(data)
            return True
        admission.turned_away += 1
        if turned_away is not None:
            turned_away()
        body = suggestions if kind == _AUTOCOMPLETE else message
        task = asyncio.get_running_loop().create_task(
            _answer_busy(bot, interaction_id, data["token"], body), name=BUSY_REPLY
        )
        replies.add(task)  # held until done: the loop keeps only weak references to tasks
        task.add_done_callback(replies.discard)
        return False

    parsers["INTERACTION_CREATE"] = parse_interaction_create


def busy_payload(kind: int | None) -> dict[str, Any]:
    """The raw callback: no suggestions for autocomplete, else the short ephemeral line."""
    if kind == _AUTOCOMPLETE:
        return {"type": _AUTOCOMPLETE_RESULT, "data": {"choices": []}}
    return {
        "type": _CHANNEL_MESSAGE,
        "data": {"content": VERY_BUSY, "flags": _EPHEMERAL, "allowed_mentions": {"parse": []}},
    }


async def _answer_busy(bot: Any, interaction_id: int, token: str, body: bytes) -> None:
    """One callback, sent without discord.py's interaction objects; a failure is logged (the
    user sees Discord's "did not respond", as without the answer), never raised."""
    try:
        await post_interaction_callback(bot, interaction_id, token, body)
    except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError):
        log.info("could not answer an interaction 'very busy'", exc_info=True)
