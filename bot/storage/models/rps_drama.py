"""RPS sustained actions and Drama in History penalty pools, price offers (RULES.md §4–5)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models.base import Base, Snowflake, utcnow


class PenaltyPool(Base):
    """A character's penalty dice, one pool per character in every channel (RULES.md: it
    follows the character); every change is a :class:`PenaltyLogEntry`."""

    __tablename__ = "penalty_pools"

    id: Mapped[int] = mapped_column(primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(Snowflake)
    character_id: Mapped[int] = mapped_column(
        ForeignKey("characters.id", ondelete="CASCADE"), index=True, unique=True
    )
    dice: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class PenaltyLogEntry(Base):
    """One gain or recovery: who changed the pool, how (``kind``), from what to what, why."""

    __tablename__ = "penalty_log"
    __table_args__ = (Index("ix_penalty_log_pool_id_id", "pool_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    pool_id: Mapped[int] = mapped_column(ForeignKey("penalty_pools.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(Snowflake)
    # "add", "recover", "rest", "drama" (drama-die 1s) or "price" (a "Yes, but…" paid)
    kind: Mapped[str] = mapped_column(String(16))
    before: Mapped[int] = mapped_column(Integer)
    after: Mapped[int] = mapped_column(Integer)
    reason: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RpsSustainedTask(Base):
    """The channel's sustained action: the engine's ``SustainedTask`` stored, with a log.

    One per channel; a finished one stays (to show its end) until the next is started.
    """

    __tablename__ = "rps_sustained_tasks"

    channel_id: Mapped[int] = mapped_column(Snowflake, primary_key=True, autoincrement=False)
    guild_id: Mapped[int | None] = mapped_column(Snowflake)
    started_by: Mapped[int] = mapped_column(Snowflake)
    # The players the starter named, who may roll it too (user ids; the GM always may).
    participants: Mapped[list[Any]] = mapped_column(default=list)
    label: Mapped[str | None] = mapped_column(String(100))
    goal: Mapped[int] = mapped_column(Integer)
    pool: Mapped[int] = mapped_column(Integer, default=0)
    no_loss: Mapped[bool] = mapped_column(default=False)
    checks: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(String(32))
    # [{"user_id": int, "name": str, "base": int, "faces": [int, ...], "sl": int,
    #   "change": int, "pool": int}, ...] — the latest checks, oldest first
    log: Mapped[list[Any]] = mapped_column(default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class DramaPriceOffer(Base):
    """A "Yes, but…" whose roller may pay the price (once, until ``expires_at``).

    Stored so that the button still works, and still refuses, after a restart.
    """

    __tablename__ = "drama_price_offers"

    id: Mapped[int] = mapped_column(primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(Snowflake)
    channel_id: Mapped[int] = mapped_column(Snowflake, index=True)
    user_id: Mapped[int] = mapped_column(Snowflake)
    character_id: Mapped[int | None] = mapped_column(
        ForeignKey("characters.id", ondelete="SET NULL")
    )
    character_name: Mapped[str | None] = mapped_column(String(64))
    expires_at: Mapped[datetime] = mapped_column()
    paid_at: Mapped[datetime | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
