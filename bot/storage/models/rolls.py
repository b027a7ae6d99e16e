"""The roll log: every roll from every command, written in the command's own transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models.base import Base, Snowflake, utcnow


class RollLog(Base):
    __tablename__ = "roll_log"
    __table_args__ = (Index("ix_roll_log_channel_id_id", "channel_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(Snowflake)
    channel_id: Mapped[int] = mapped_column(Snowflake)
    user_id: Mapped[int] = mapped_column(Snowflake)
    system: Mapped[str] = mapped_column(String(16))
    input: Mapped[str] = mapped_column(Text)
    label: Mapped[str | None] = mapped_column(String(100))
    # The macro that made this roll (``/macro run``, a panel button), if one did.
    macro: Mapped[str | None] = mapped_column(String(32))
    faces: Mapped[list[Any]] = mapped_column(default=list)
    outcome: Mapped[str] = mapped_column(Text)
    secret: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # A secret roll's commitment (engine.commitment): the exact record hashed, its salt and the
    # SHA-256. Empty for public rolls and for rolls logged before commitments existed.
    record: Mapped[str | None] = mapped_column(Text, default=None)
    salt: Mapped[str | None] = mapped_column(String(32), default=None)
    commitment: Mapped[str | None] = mapped_column(String(64), default=None)
    # A public roll's die size and count of each face ({"face": count}) for dice statistics
    # (bot.storage.roll_tally); empty for secret rolls and for rolls of no single die size.
    tally_sides: Mapped[int | None] = mapped_column(default=None)
    tally: Mapped[dict[str, Any] | None] = mapped_column(default=None)
