"""Exact odds off the event loop's interpreter, under a time budget that really stops them.

Most odds cost microseconds (the engine caches them) or well under a couple of
milliseconds: those stay inline, cheaper than a worker's round trip. Past a cost estimate
(:func:`drama_heavy`, :func:`rps_heavy`: a Drama test of more than :data:`INLINE_DICE` dice
in all, a resisted action of more than :data:`INLINE_PARTIES` parties) they run in a worker
process (:mod:`bot.workers`): a thread would share the GIL with the event loop, and ten
``/odds drama`` by one player once raised other players' ``/roll`` to two seconds.

A roll never waits on its odds: odds that miss :data:`ODDS_SECONDS`, or that the player's
queue has no room for, are left out of the reply ("chance unavailable") and their work is
stopped. ``/odds`` itself asks :func:`table`, which says why instead (:class:`OddsBusy`,
:class:`TooHeavy`). Figures: docs/performance.md, "Odds in worker processes".
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from bot import workers
from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import N_, _
from engine.systems.drama import Pools

log = logging.getLogger(__name__)
T = TypeVar("T")

ODDS_SECONDS = 2.0
"""How long a roll's reply waits for its odds (Discord's window is 3 s); the work stops then."""
TABLE_SECONDS = 5.0
"""``/odds``'s budget (the command is deferred meanwhile); past it, "too heavy"."""
INLINE_DICE = 40
"""Drama: odds of up to this many dice in all (every pool of every side) stay inline: at
most about 2 ms the first time (a 20 Bd / 10 Rd / 10 Dd test with criticals), then cached."""
INLINE_PARTIES = 3
"""RPS resisted actions: up to this many parties stay inline (about 3 ms the first time)."""


#: What a job in the worker pool (or a :class:`~bot.workers.FairGate`) is, given as its
#: ``what``: a refusal of the same user's next heavy request names it (:func:`still_running`).
ODDS, STATS, TEST, CHART = "odds", "stats", "test", "chart"
_STILL_RUNNING = {
    ODDS: N_("Your previous odds are still being worked out: wait for them, then ask again."),
    STATS: N_(
        "Your previous dice statistics are still being counted: wait for them, then ask again."
    ),
    TEST: N_("Your previous dice test is still rolling: wait for it, then ask again."),
    CHART: N_("Your previous chart is still being drawn: wait for it, then ask again."),
}
_ANYTHING = N_("Your previous request is still being worked out: wait for it, then ask again.")


def still_running(held: str) -> str:
    """The refusal of a user's heavy request while their own previous one still runs, naming
    *that* one. A user holds one job at a time whatever its kind (``bot.workers.PER_USER``:
    a bound per kind would let one player take every worker), so ``/odds`` may be refused
    for the user's running ``/dice stats``, and says so."""
    return _(_STILL_RUNNING.get(held, _ANYTHING))


class OddsBusy(UserError):
    """``/odds`` refused at once: the user's (or the channel's) queue of heavy work is full."""

    def __init__(self, busy: workers.Busy) -> None:
        super().__init__(
            still_running(busy.held)
            if busy.scope == "user"
            else _("Too busy working out odds right now: try again in a moment.")
        )


class TooHeavy(UserError):
    """``/odds`` stopped: the exact chances took longer than :data:`TABLE_SECONDS`."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "Too heavy to work out in time: narrow it (fewer dice, fewer combinations) "
                "and ask again."
            )
        )


def drama_heavy(*pools: Pools) -> bool:
    """Whether Drama odds over these pools go to a worker (more than :data:`INLINE_DICE`)."""
    return sum(p.base + p.resistance + p.drama for p in pools) > INLINE_DICE


def rps_heavy(parties: Sequence[object]) -> bool:
    """Whether a resisted action's odds go to a worker (more than :data:`INLINE_PARTIES`)."""
    return len(parties) > INLINE_PARTIES


async def odds(work: Callable[..., T], /, *, actor: Actor, heavy: bool, **kwargs: Any) -> T | None:
    """A roll's odds: ``work(**kwargs)`` inline when cheap, else in a worker; None when they
    did not fit (the roll's reply says "chance unavailable")."""
    if not heavy:
        return work(**kwargs)
    try:
        return await asyncio.wait_for(
            workers.run(
                work,
                kwargs,
                budget=ODDS_SECONDS,
                user=actor.user_id,
                channel=actor.channel_id,
                cache=True,
                what=ODDS,
            ),
            ODDS_SECONDS,  # the wait for a worker counts too
        )
    except (TimeoutError, workers.Busy, workers.OverBudget, workers.WorkerDied) as error:
        log.info("odds left out (%s): %s", type(error).__name__, error)
        return None


async def table(work: Callable[..., T], /, *, actor: Actor, heavy: bool, **kwargs: Any) -> T:
    """``/odds``'s chances: inline when cheap, else in a worker under :data:`TABLE_SECONDS`;
    :class:`OddsBusy` or :class:`TooHeavy` (a short private answer) when they do not fit."""
    if not heavy:
        return work(**kwargs)
    try:
        return await workers.run(
            work,
            kwargs,
            budget=TABLE_SECONDS,
            user=actor.user_id,
            channel=actor.channel_id,
            cache=True,
            what=ODDS,
        )
    except workers.Busy as error:
        raise OddsBusy(error) from None
    except (workers.OverBudget, workers.WorkerDied):
        raise TooHeavy() from None
