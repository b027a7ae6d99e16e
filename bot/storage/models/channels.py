"""Per-channel settings: default system, rule toggles, secret-roll mode, GM channel."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models.base import Base, Snowflake, utcnow


class ChannelSettings(Base):
    __tablename__ = "channel_settings"

    channel_id: Mapped[int] = mapped_column(Snowflake, primary_key=True, autoincrement=False)
    guild_id: Mapped[int | None] = mapped_column(Snowflake, index=True)
    default_system: Mapped[str | None] = mapped_column(String(16))
    # Rule toggles by dotted name, e.g. {"coda.ones": "fumble", "drama.criticals": "on"}.
    rules: Mapped[dict[str, Any]] = mapped_column(default=dict)
    secret_mode: Mapped[str] = mapped_column(String(8), default="gm")
    gm_channel_id: Mapped[int | None] = mapped_column(Snowflake)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class GuildGmRole(Base):
    """A role whose holders are GMs in one server, added with ``/settings gm-role`` (besides
    the role names every server shares, ``GM_ROLE_NAMES``). Kept by id: a renamed role stays."""

    __tablename__ = "guild_gm_roles"

    guild_id: Mapped[int] = mapped_column(Snowflake, primary_key=True, autoincrement=False)
    role_id: Mapped[int] = mapped_column(Snowflake, primary_key=True, autoincrement=False)
    added_by: Mapped[int] = mapped_column(Snowflake)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
