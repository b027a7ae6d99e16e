"""Retention: the database keeps what players may still ask for, and no more.

- the roll log keeps the newest ``ROLL_LOG_KEEP`` rolls of each channel (``/history`` shows
  at most 100; the rest is a record kept for a while);
- "Pay the price" offers go :data:`OFFER_DAYS` days after they expire (a press after that
  is refused either way: a missing offer reads "This roll can no longer be changed");
- ended initiative encounters and quidditch matches go :data:`ENDED_DAYS` days after their
  last change (running ones are never touched);
- "roll your side / part" requests go :data:`REQUEST_DAYS` day after they lapse or were
  answered (a press on a deleted request reads "This roll can no longer be answered");
- each penalty pool's log keeps its newest :data:`PENALTY_LOG_KEEP` entries (``/penalty show``
  shows the last 10; the pool itself is never touched);
- attack exchanges (``/coda attack``, ``/h90 attack``) go :data:`EXCHANGE_DAYS` days after
  they finished or their answer window closed (a late press reads "This attack is no longer
  known", as it would have been refused anyway).

Each batch is its own short transaction, so pruning never holds a lock for long; the
periodic task (:mod:`bot.cogs.retention`) runs :func:`prune` every hour.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from bot.storage import Database
from bot.storage.models import InitiativeEncounter, QuidditchMatch
from bot.storage.repositories import retention as repo

OFFER_DAYS = 7
ENDED_DAYS = 30
REQUEST_DAYS = 1
PENALTY_LOG_KEEP = 100
EXCHANGE_DAYS = 7
BATCH = 1000


@dataclass(frozen=True, slots=True)
class Pruned:
    rolls: int = 0
    offers: int = 0
    encounters: int = 0
    matches: int = 0
    requests: int = 0
    penalty_entries: int = 0
    exchanges: int = 0


async def prune(db: Database, *, now: datetime, keep_rolls: int, batch: int = BATCH) -> Pruned:
    """Delete everything past its retention; how many rows of each kind went."""
    rolls = 0
    async with db.unit_of_work(read_only=True) as session:
        channels = await repo.roll_channels_over(session, keep_rolls)
    for channel_id in channels:
        async with db.unit_of_work(read_only=True) as session:
            oldest_kept = await repo.oldest_kept_roll(session, channel_id, keep_rolls)
        if oldest_kept is not None:
            rolls += await _in_batches(
                db,
                lambda session, c=channel_id, k=oldest_kept: repo.delete_rolls_before(  # type: ignore[misc]
                    session, c, k, batch=batch
                ),
                batch,
            )
    offers = await _in_batches(
        db,
        lambda session: repo.delete_offers_expired_before(
            session, now - timedelta(days=OFFER_DAYS), batch=batch
        ),
        batch,
    )
    ended = now - timedelta(days=ENDED_DAYS)
    encounters = await _in_batches(
        db,
        lambda session: repo.delete_ended_before(session, InitiativeEncounter, ended, batch=batch),
        batch,
    )
    matches = await _in_batches(
        db,
        lambda session: repo.delete_ended_before(session, QuidditchMatch, ended, batch=batch),
        batch,
    )
    requests = await _in_batches(
        db,
        lambda session: repo.delete_requests_expired_before(
            session, now - timedelta(days=REQUEST_DAYS), batch=batch
        ),
        batch,
    )
    penalty_entries = await _keep_newest_penalty_entries(db, batch)
    closed = now - timedelta(days=EXCHANGE_DAYS)
    exchanges = 0
    for model in repo.EXCHANGE_MODELS:
        exchanges += await _in_batches(
            db,
            lambda session, m=model: repo.delete_exchanges_closed_before(  # type: ignore[misc]
                session, m, closed, batch=batch
            ),
            batch,
        )
    return Pruned(rolls, offers, encounters, matches, requests, penalty_entries, exchanges)


async def _keep_newest_penalty_entries(db: Database, batch: int) -> int:
    deleted = 0
    async with db.unit_of_work(read_only=True) as session:
        pools = await repo.penalty_pools_over(session, PENALTY_LOG_KEEP)
    for pool_id in pools:
        async with db.unit_of_work(read_only=True) as session:
            oldest_kept = await repo.oldest_kept_penalty_entry(session, pool_id, PENALTY_LOG_KEEP)
        if oldest_kept is not None:
            deleted += await _in_batches(
                db,
                lambda session, p=pool_id, k=oldest_kept: repo.delete_penalty_entries_before(  # type: ignore[misc]
                    session, p, k, batch=batch
                ),
                batch,
            )
    return deleted


async def _in_batches(
    db: Database, delete_batch: Callable[[AsyncSession], Awaitable[int]], batch: int
) -> int:
    """Run ``delete_batch`` in its own transaction until a batch comes back short."""
    total = 0
    while True:
        async with db.unit_of_work() as session:
            deleted = await delete_batch(session)
        total += deleted
        if deleted < batch:
            return total
