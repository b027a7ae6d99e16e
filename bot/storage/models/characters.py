"""Characters (player sheets) and which one each player has active in each channel."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models.base import Base, Snowflake, utcnow


class Character(Base):
    """One sheet. ``name_key`` (the casefolded name) makes names unique per owner and guild
    without caring about case, on SQLite and PostgreSQL alike."""

    __tablename__ = "characters"
    __table_args__ = (
        UniqueConstraint("guild_id", "owner_id", "name_key"),
        # A player's characters in every server (the tracker's Health column): the unique
        # constraint's index leads with the guild, so it cannot find them.
        Index("ix_characters_owner_id", "owner_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    guild_id: Mapped[int] = mapped_column(Snowflake)
    owner_id: Mapped[int] = mapped_column(Snowflake)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(64))
    system: Mapped[str] = mapped_column(String(16))
    # name -> int
    attributes: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # name -> {"ranks": int, "attribute": str | None, "specialties": [str, ...]}
    skills: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # name -> {"current": int, "max": int | None}
    resources: Mapped[dict[str, Any]] = mapped_column(default=dict)
    notes: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class ActiveCharacter(Base):
    """The character a player chose with ``/sheet use`` in one channel."""

    __tablename__ = "active_characters"
    __table_args__ = (Index("ix_active_characters_channel_id", "channel_id"),)

    user_id: Mapped[int] = mapped_column(Snowflake, primary_key=True, autoincrement=False)
    channel_id: Mapped[int] = mapped_column(Snowflake, primary_key=True, autoincrement=False)
    guild_id: Mapped[int] = mapped_column(Snowflake)
    character_id: Mapped[int] = mapped_column(
        ForeignKey("characters.id", ondelete="CASCADE"), index=True
    )
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
