"""The whole campaign page of a channel for one viewer, gathered from the read models of
this package and the dice statistics service: what ``/channels/{id}`` renders."""

from __future__ import annotations

from dataclasses import dataclass

from bot.actor import Actor
from bot.services import dice_stats
from bot.services.campaign._log import LogFilter, LogPage, roll_log_page
from bot.services.campaign._roster import People, Roster, people, roster
from bot.services.campaign._tasks import Tasks, tasks
from bot.services.campaign._turns import Combatant, TurnOrder, turn_order
from bot.storage import Database


@dataclass(frozen=True, slots=True)
class CampaignPage:
    """``gm``: the viewer is a GM of the channel (the roster and hidden things are theirs)."""

    gm: bool
    turns: TurnOrder | None
    tasks: Tasks
    log: LogPage
    #: None on the live part's refresh, which shows neither (:func:`campaign_page` ``live``).
    stats: dice_stats.DiceStats | None
    roster: Roster | None
    #: The channel's players by user id, and its name (the log and the title use them).
    people: People

    @property
    def npcs(self) -> tuple[Combatant, ...]:
        """The encounter's combatants played by nobody's sheet (a GM's page lists them)."""
        if self.turns is None:
            return ()
        return tuple(c for c in self.turns.combatants if c.owner_id is None)


async def campaign_page(
    db: Database,
    actor: Actor,
    filters: LogFilter,
    *,
    stats_since: str | None = None,
    live: bool = False,
) -> CampaignPage:
    """Everything the page shows ``actor``; the log's filters are checked first (a bad one
    raises a short UserError before anything is read). ``live``: only what a change refreshes
    (the turn order, tasks, the log), fetched by every open page at each change, so the
    dice statistics (up to 5000 rows) and the roster are left out."""
    log = await roll_log_page(db, actor, filters)
    gm = log.includes_secret  # is_gm, as the log decided it
    return CampaignPage(
        gm=gm,
        turns=await turn_order(db, actor),
        tasks=await tasks(db, actor),
        log=log,
        stats=None if live else await dice_stats.stats(db, actor, since=stats_since),
        roster=await roster(db, actor) if gm and not live else None,
        people=await people(db, actor),
    )
