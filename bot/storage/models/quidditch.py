"""Quidditch: one match per channel (its whole state as JSON) and each guild's house points.

A match row keeps ``active_channel_id`` equal to its channel while it is being played and
NULL once it ends, so a unique constraint allows at most one active match per channel on
both SQLite and PostgreSQL (NULLs never collide) while finished matches stay on record.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models.base import Base, Snowflake, utcnow


class QuidditchMatch(Base):
    __tablename__ = "quidditch_matches"
    __table_args__ = (
        UniqueConstraint("active_channel_id"),
        Index("ix_quidditch_matches_channel_id_id", "channel_id", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(Snowflake)
    channel_id: Mapped[int] = mapped_column(Snowflake)
    active_channel_id: Mapped[int | None] = mapped_column(Snowflake)
    started_by: Mapped[int] = mapped_column(Snowflake)
    # "active", "finished" (snitch caught) or "abandoned" (/quidditch end).
    status: Mapped[str] = mapped_column(String(16), default="active")
    # engine.quidditch.MatchState.to_dict()
    state: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class HousePoints(Base):
    __tablename__ = "house_points"

    guild_id: Mapped[int] = mapped_column(Snowflake, primary_key=True, autoincrement=False)
    # The house name casefolded, so "gryffindor" and "Gryffindor" share one row.
    house_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    house: Mapped[str] = mapped_column(String(64))
    points: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
