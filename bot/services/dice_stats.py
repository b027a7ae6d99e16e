"""Dice statistics: a player's (or a channel's) faces from the roll log against fair dice, and
a test of the production dice source itself (``/dice stats``, ``/dice test``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bot import workers
from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.services.offload import STATS, TEST, still_running
from bot.storage import Database
from bot.storage.models.base import utcnow
from bot.storage.repositories import rolls as roll_log
from bot.storage.roll_tally import SYSTEMS
from bot.text import UserText
from engine.dice import Dice
from engine.fairness import FaceTest, check_counts, roll_and_check

#: Roll log rows read at most for one ``/dice stats``: the newest ones.
MAX_ROWS = 5000
SINCE: dict[str, timedelta] = {
    "1h": timedelta(hours=1),
    "24h": timedelta(days=1),
    "7d": timedelta(days=7),
    "30d": timedelta(days=30),
}
#: ``/dice test`` bounds: die sizes and how many dice.
MAX_TEST_SIDES = 100
MAX_TEST_COUNT = 100_000
#: Above this many dice, ``/dice test`` rolls in a worker process (100,000 dice from the
#: production source take ~0.1 s of CPU: too long for the event loop, and a thread would
#: share the loop's GIL; docs/decisions/worker-processes.md).
INLINE_MAX = 1000
#: The budget of a ``/dice test`` in its worker (the command is deferred meanwhile);
#: 100,000 dice take ~0.1–0.3 s, a new worker's start is not counted.
TEST_SECONDS = 10.0


#: The budget of a ``/dice stats`` count in a worker (SQLite: :func:`stats`); the
#: aggregate of :data:`MAX_ROWS` entries of 250 faces takes well under a second.
STATS_SECONDS = 10.0


#: One ``/dice stats`` count at a time in this process (one aggregate query of up to
#: :data:`MAX_ROWS` entries: tens of milliseconds to a few hundred); a user's second, a
#: channel's third or a ninth in line is refused at once (:class:`StatsBusy`). Unbounded,
#: five players' bursts ran fifty at once, took every pooled connection and held other
#: players' /roll 1.5 s. On SQLite the count it admits runs in a worker process (one worker
#: at most: the others stay free for /odds).
GATE = workers.FairGate(1, per_user=1, per_channel=2, max_waiting=8)


class StatsBusy(UserError):
    """``/dice stats`` refused at once: its user's, channel's or the bot's line is full (the
    user's own: their previous statistics, or on SQLite any heavy request of theirs still in
    a worker, named as it is)."""

    def __init__(self, busy: workers.Busy) -> None:
        super().__init__(
            still_running(busy.held)
            if busy.scope == "user"
            else _("Too busy counting dice right now: try again in a moment.")
        )


class StatsTooHeavy(UserError):
    """``/dice stats`` stopped: its count took longer than :data:`STATS_SECONDS`."""

    def __init__(self) -> None:
        super().__init__(
            _("Too heavy to count in time: narrow it (a player, a system, recent rolls).")
        )


class TestBusy(UserError):
    """``/dice test`` refused at once: the user's (or the channel's) queue of heavy work is
    full (the user's: whichever of their heavy requests runs, named as it is)."""

    def __init__(self, busy: workers.Busy) -> None:
        super().__init__(
            still_running(busy.held)
            if busy.scope == "user"
            else _("Too busy rolling dice right now: try again in a moment.")
        )


class TestTooHeavy(UserError):
    """``/dice test`` stopped: its dice took longer than :data:`TEST_SECONDS`."""

    def __init__(self) -> None:
        super().__init__(_("Too heavy to roll in time: ask for fewer dice."))


@dataclass(frozen=True, slots=True)
class DiceStats:
    """Face counts per die size, each tested, from at most :data:`MAX_ROWS` log entries."""

    tests: tuple[FaceTest, ...]
    rows: int
    limit: int  # at most this many entries were read (MAX_ROWS)
    capped: bool  # the limit was reached: older entries were left out
    uncounted: int  # entries whose die size cannot be told (mixed notation, other commands)
    player_id: int | None
    system: str | None
    since: str | None


async def stats(
    db: Database,
    actor: Actor,
    *,
    player_id: int | None = None,
    system: str | None = None,
    since: str | None = None,
) -> DiceStats:
    """Count the faces of the channel's (or one player's) public rolls per die size and test
    them. Secret rolls are left out: the table sees these counts, and a count that moved
    would tell them a secret roll's faces (a secret roll is checked by its commitment)."""
    if system is not None and system not in SYSTEMS:
        raise UserError(
            _(
                "No dice statistics for {system}: one of {systems}.",
                system=UserText(repr(system)),
                systems=", ".join(SYSTEMS),
            )
        )
    if since is not None and since not in SINCE:
        raise UserError(_("Since is one of {choices}.", choices=", ".join(SINCE)))
    start = utcnow() - SINCE[since] if since else None
    filters: dict[str, Any] = {
        "systems": [system] if system else list(SYSTEMS),
        "user_id": player_id,
        "since": start,
        "limit": MAX_ROWS,
    }
    try:
        async with GATE.enter(actor.user_id, actor.channel_id, what=STATS):
            totals = await roll_log.face_totals(
                db, actor.channel_id, elsewhere=_in_worker(actor), **filters
            )
    except workers.Busy as error:
        raise StatsBusy(error) from None
    except (workers.OverBudget, workers.WorkerDied):
        raise StatsTooHeavy() from None
    # One step per die size and per (die size, face) the database added up: never per roll.
    rows = sum(entries for _sides, entries in totals.entries)
    uncounted = sum(entries for sides, entries in totals.entries if sides is None)
    counts: dict[int, list[int]] = {
        sides: [0] * sides for sides, _entries in totals.entries if sides is not None
    }
    for sides, face, count in totals.faces:
        counts[sides][face - 1] += count
    return DiceStats(
        tests=tuple(check_counts(counts[sides]) for sides in sorted(counts)),
        rows=rows,
        limit=MAX_ROWS,
        capped=rows >= MAX_ROWS,
        uncounted=uncounted,
        player_id=player_id,
        system=system,
        since=since,
    )


def _in_worker(actor: Actor) -> roll_log.ReadElsewhere:
    """Read queries on the SQLite file in a worker process, under the ``actor``'s and the
    channel's queues and :data:`STATS_SECONDS`: in this process the aggregate was
    aiosqlite's thread taking a core (a million JSON rows for 5,000 entries of 250 faces)
    beside the event loop, and other players' /roll slowed 2.6× while five users flooded
    /dice stats."""

    async def read(
        path: str, queries: Sequence[tuple[str, Sequence[Any]]]
    ) -> list[list[tuple[Any, ...]]]:
        return await workers.run(
            workers.read_sqlite,
            {"path": path, "queries": list(queries)},
            budget=STATS_SECONDS,
            user=actor.user_id,
            channel=actor.channel_id,
            what=STATS,
        )

    return read


async def roll_source(dice: Dice, actor: Actor, *, sides: int, count: int) -> FaceTest:
    """Roll ``count`` dice of ``sides`` from ``dice`` and test them: past :data:`INLINE_MAX`
    in a worker process, under the ``actor``'s and the channel's queues and
    :data:`TEST_SECONDS` (:class:`TestBusy`, :class:`TestTooHeavy`: short private answers)."""
    if not 2 <= sides <= MAX_TEST_SIDES or not 1 <= count <= MAX_TEST_COUNT:
        raise ValueError(f"sides 2–{MAX_TEST_SIDES} and count 1–{MAX_TEST_COUNT}")
    if count <= INLINE_MAX:
        return roll_and_check(dice=dice, sides=sides, count=count)
    try:
        return await workers.run(
            roll_and_check,
            {"dice": dice, "sides": sides, "count": count},
            budget=TEST_SECONDS,
            user=actor.user_id,
            channel=actor.channel_id,
            what=TEST,
        )
    except workers.Busy as error:
        raise TestBusy(error) from None
    except (workers.OverBudget, workers.WorkerDied):
        raise TestTooHeavy() from None
