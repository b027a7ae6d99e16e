"""Quidditch: one match per channel (its whole state as JSON) and each guild's house points.

The match's columns are those every per-channel state shares (:class:`ChannelStateMixin`):
at most one active per channel, finished matches kept on record.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models._channel_state import ChannelStateMixin
from bot.storage.models.base import Base, Snowflake, utcnow


class QuidditchMatch(ChannelStateMixin, Base):
    """A match: "active", "finished" (snitch caught) or "abandoned" (/quidditch end)."""

    __tablename__ = "quidditch_matches"

    # The channel's one roster message, edited in place as the GM fills the rosters.
    roster_message_id: Mapped[int | None] = mapped_column(Snowflake)
    # The states before the last turns (newest last), for /quidditch undo.
    undo_states: Mapped[list[Any] | None] = mapped_column(default=None)


class HousePoints(Base):
    __tablename__ = "house_points"

    guild_id: Mapped[int] = mapped_column(Snowflake, primary_key=True, autoincrement=False)
    # The house name casefolded, so "gryffindor" and "Gryffindor" share one row.
    house_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    house: Mapped[str] = mapped_column(String(64))
    points: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
