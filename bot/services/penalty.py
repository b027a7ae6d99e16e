"""Penalty pools (Drama in History): ``/penalty add|recover|rest|show`` and the in-session
helpers the Drama rolls use to read and grow the roller's pool in the roll's transaction.

A character has one pool, which follows it into every channel (RULES.md §5).

Who may do what: the GM changes the pool of any character used in the channel; a player may
add to their own pool and rest their own character; only the GM removes dice outright
(RULES.md: "removed by the GM").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.i18n import N_, _
from bot.services.permissions import require_gm
from bot.services.sheets import CharacterSheet, character_by_name, named_or_active
from bot.storage import Database
from bot.storage.models import PenaltyPool
from bot.storage.repositories import penalty as repo
from bot.text import UserText
from engine import penalty
from engine.penalty import PenaltyChange, PenaltyLevel

SYSTEM = "drama"
LOG_LINES = 10
REASON_LENGTH = 200

# How each kind of change reads in the log.
KIND_LABELS = {
    "add": N_("added"),
    "recover": N_("recovered"),
    "rest": N_("rested"),
    "drama": N_("1s on drama dice"),
    "price": N_("paid the price"),
}


@dataclass(frozen=True, slots=True)
class LogLine:
    user_id: int
    kind: str
    before: int
    after: int
    reason: str
    at: datetime


@dataclass(frozen=True, slots=True)
class PenaltyUpdate:
    """A change to a character's pool (``change.level_changed`` is worth announcing). The
    character's name is its player's text; ``reason`` is the GM's, or the bot's for a rest."""

    character: UserText
    owner_id: int
    kind: str
    change: PenaltyChange
    reason: str = ""


@dataclass(frozen=True, slots=True)
class PenaltyView:
    """A character's pool and its recent log (each line's ``reason`` as it was logged)."""

    character: UserText
    owner_id: int
    dice: int
    level: PenaltyLevel
    log: tuple[LogLine, ...]


# --- inside another command's unit of work ---------------------------------------------


async def current_dice(session: AsyncSession, character_id: int) -> int:
    """The character's penalty dice (0 when it never had any)."""
    pool = await repo.get(session, character_id)
    return pool.dice if pool is not None else 0


async def lock_pool(session: AsyncSession, actor: Actor, sheet: CharacterSheet) -> PenaltyPool:
    """The character's pool, locked until the transaction ends."""
    return await repo.get_for_update(session, sheet.id, actor.guild_id)


def apply(
    session: AsyncSession,
    pool: PenaltyPool,
    change: PenaltyChange,
    *,
    user_id: int,
    kind: str,
    reason: str = "",
) -> None:
    """Write ``change`` to the locked ``pool`` and its log, in the caller's transaction."""
    pool.dice = change.after
    repo.log(
        session,
        pool,
        user_id=user_id,
        kind=kind,
        before=change.before,
        after=change.after,
        reason=reason,
    )


# --- the /penalty commands ------------------------------------------------------------------


async def _own_or_gm(
    session: AsyncSession, actor: Actor, character: str, doing: str
) -> tuple[CharacterSheet, PenaltyPool]:
    """The named character and its locked pool, if it is the actor's or the actor is GM."""
    sheet = await character_by_name(session, actor, character, system=SYSTEM)
    if sheet.owner_id != actor.user_id:
        await require_gm(session, actor, doing)
    return sheet, await lock_pool(session, actor, sheet)


async def add(
    db: Database, actor: Actor, *, character: str, amount: int, reason: str = ""
) -> PenaltyUpdate:
    """Add penalty dice: the GM to anyone's character here, a player to their own."""
    reason = reason.strip()[:REASON_LENGTH]
    async with db.unit_of_work() as session:
        sheet, pool = await _own_or_gm(
            session, actor, character, N_("add penalty dice to another player's character")
        )
        change = penalty.add(pool.dice, amount)
        apply(session, pool, change, user_id=actor.user_id, kind="add", reason=reason)
    return PenaltyUpdate(UserText(sheet.name), sheet.owner_id, "add", change, reason)


async def recover(db: Database, actor: Actor, *, character: str, amount: int) -> PenaltyUpdate:
    """Remove penalty dice (GM only); the pool stops at 0."""
    async with db.unit_of_work() as session:
        await require_gm(session, actor, N_("remove penalty dice"))
        sheet = await character_by_name(session, actor, character, system=SYSTEM)
        pool = await lock_pool(session, actor, sheet)
        change = penalty.recover(pool.dice, amount)
        apply(session, pool, change, user_id=actor.user_id, kind="recover")
    return PenaltyUpdate(UserText(sheet.name), sheet.owner_id, "recover", change)


async def rest(db: Database, actor: Actor, *, character: str, hours: float) -> PenaltyUpdate:
    """Recover 1 die per 3 full hours of sleep or serious rest (the owner or the GM)."""
    async with db.unit_of_work() as session:
        sheet, pool = await _own_or_gm(
            session, actor, character, N_("rest another player's character")
        )
        change = penalty.rest(pool.dice, hours)
        # Written in the resting player's language: the log keeps it as a reason is kept.
        reason = _("{hours} hours of rest", hours=f"{hours:g}")
        apply(session, pool, change, user_id=actor.user_id, kind="rest", reason=reason)
    return PenaltyUpdate(UserText(sheet.name), sheet.owner_id, "rest", change, reason)


async def show(db: Database, actor: Actor, *, character: str | None = None) -> PenaltyView:
    """A character's pool, level and recent log (yours, or as GM any used here)."""
    async with db.unit_of_work(read_only=True) as session:
        sheet = await named_or_active(session, actor, character, system=SYSTEM)
        pool = await repo.get(session, sheet.id)
        entries = await repo.recent_log(session, pool.id, count=LOG_LINES) if pool else []
    dice = pool.dice if pool is not None else 0
    return PenaltyView(
        character=UserText(sheet.name),
        owner_id=sheet.owner_id,
        dice=dice,
        level=penalty.level_of(dice),
        log=tuple(
            LogLine(e.user_id, e.kind, e.before, e.after, e.reason, e.created_at) for e in entries
        ),
    )
