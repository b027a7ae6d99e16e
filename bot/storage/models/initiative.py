"""Initiative encounters: at most one active per channel, the whole state as JSON.

The engine's :class:`~engine.initiative.Encounter` (order, round, turn pointer and the event
log that makes undo possible) is stored as ``engine.initiative.to_dict()`` in ``state``.
``active_channel_id`` equals the channel while the encounter runs and is NULL once it has
ended, so a unique constraint allows one active encounter per channel on SQLite and
PostgreSQL alike (NULLs never collide) while ended ones stay on record.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models.base import Base, Snowflake, utcnow


class InitiativeEncounter(Base):
    __tablename__ = "initiative_encounters"
    __table_args__ = (
        UniqueConstraint("active_channel_id"),
        Index("ix_initiative_encounters_channel_id_id", "channel_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(Snowflake)
    channel_id: Mapped[int] = mapped_column(Snowflake)
    active_channel_id: Mapped[int | None] = mapped_column(Snowflake)
    started_by: Mapped[int] = mapped_column(Snowflake)
    # "active" or "ended".
    status: Mapped[str] = mapped_column(String(16), default="active")
    # The sheet value every joining character adds (Hogwarts 1990: the Finesse attribute).
    attribute: Mapped[str | None] = mapped_column(String(64))
    # Dice notation that replaces the system's initiative roll, e.g. "1d20+2".
    dice: Mapped[str | None] = mapped_column(String(100))
    # The channel's tracker message, edited in place on every change.
    tracker_message_id: Mapped[int | None] = mapped_column(Snowflake)
    # engine.initiative.to_dict(encounter)
    state: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
