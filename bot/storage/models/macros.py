"""Saved command lines (macros), each owned by a player, a character, a channel or a server."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models.base import Base, Snowflake, utcnow

#: Macros per owner (one player's, one character's, one channel's, one server's).
MAX_PER_SCOPE = 100


class Macro(Base):
    """One macro. ``owner_id`` is the user (scope ``me``), character, channel or 0 (server).

    Both limits live in constraints, so simultaneous saves cannot exceed them on SQLite or
    PostgreSQL: names are unique per owner (``name_key``, casefolded), and each macro takes
    one of ``MAX_PER_SCOPE`` numbered ``slot``s, unique per owner.
    """

    __tablename__ = "macros"
    __table_args__ = (
        UniqueConstraint("guild_id", "scope", "owner_id", "name_key"),
        UniqueConstraint("guild_id", "scope", "owner_id", "slot"),
        CheckConstraint(f"slot >= 0 AND slot < {MAX_PER_SCOPE}", name="slot_range"),
        Index("ix_macros_character_id", "character_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    guild_id: Mapped[int] = mapped_column(Snowflake)
    scope: Mapped[str] = mapped_column(String(16))
    owner_id: Mapped[int] = mapped_column(Snowflake)
    slot: Mapped[int] = mapped_column()
    # Set for scope "character" only: the macro goes when its character is deleted.
    character_id: Mapped[int | None] = mapped_column(
        ForeignKey("characters.id", ondelete="CASCADE")
    )
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32))
    command: Mapped[str] = mapped_column(Text)
    created_by: Mapped[int] = mapped_column(Snowflake)
    uses: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
