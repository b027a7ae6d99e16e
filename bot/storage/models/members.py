"""Who the bot has seen in each guild, for the web companion (``narrator web``).

The web has no gateway: it cannot ask Discord who holds a GM role. The bot already works
that out for every command it runs (:func:`bot.cogs._common.actor_from`); it writes it here
when it changed, so the web decides who may see and change what from the bot's own record,
never from what a browser says.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models.base import Base, Snowflake, utcnow


class Member(Base):
    """A user of a guild as the bot last saw them (one row per guild and user)."""

    __tablename__ = "members"
    __table_args__ = (Index("ix_members_user_id", "user_id"),)

    guild_id: Mapped[int] = mapped_column(Snowflake, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(Snowflake, primary_key=True, autoincrement=False)
    display_name: Mapped[str] = mapped_column(String(100))
    guild_name: Mapped[str] = mapped_column(String(100), default="")
    #: The Discord half of the GM rule (a GM role by name, or Manage Channels).
    gm_role: Mapped[bool] = mapped_column(default=False)
    #: The member's role ids, for the GM roles a server adds (``/settings gm-role``).
    role_ids: Mapped[list[int]] = mapped_column(JSON, default=list)
    #: The channels they ran commands in, by id (as a string, JSON's keys): their names.
    channels: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    last_seen: Mapped[datetime] = mapped_column(default=utcnow)
