"""CODA extended tests in progress, per channel (RULES.md §1, "Extended test")."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models.base import Base, Snowflake, utcnow


class CodaExtendedTask(Base):
    """One extended test: the engine's :class:`~engine.systems.coda.ExtendedTask`, stored.

    The row lives until the task completes or is abandoned. ``name_key`` (the casefolded
    name) keeps names unique per channel without caring about case.
    """

    __tablename__ = "coda_extended_tasks"
    __table_args__ = (UniqueConstraint("channel_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(Snowflake)
    channel_id: Mapped[int] = mapped_column(Snowflake, index=True)
    started_by: Mapped[int] = mapped_column(Snowflake)
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = mapped_column(String(100))
    # [{"tn": int, "skill": str | None}, ...]
    stages: Mapped[list[Any]] = mapped_column(default=list)
    interval: Mapped[int] = mapped_column(Integer, default=1)
    unit: Mapped[str] = mapped_column(String(20), default="")
    total: Mapped[int] = mapped_column(Integer, default=0)
    stage: Mapped[int] = mapped_column(Integer, default=0)
    tests: Mapped[int] = mapped_column(Integer, default=0)
    # [{"stage": int, "tn": int, "result": int, "added": int, "degree": str}, ...]
    log: Mapped[list[Any]] = mapped_column(default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
