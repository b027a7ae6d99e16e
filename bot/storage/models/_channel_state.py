"""Columns of a per-channel "thing in progress" stored as one JSON state (encounter, match).

Such a row keeps ``active_channel_id`` equal to its channel while it runs and NULL once it
has ended, so a unique constraint allows at most one running per channel on SQLite and
PostgreSQL alike (NULLs never collide) while ended ones stay on record. One mixin, so every
feature of this shape has the same columns, constraint and index names.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, declared_attr, mapped_column

from bot.storage.models.base import Snowflake, utcnow

ACTIVE = "active"


class ChannelStateMixin:
    """Mix into a ``Base`` model that sets ``__tablename__``."""

    if TYPE_CHECKING:
        # The declarative ``Base`` it is mixed into takes the columns as keywords.
        def __init__(self, **columns: Any) -> None: ...

    @declared_attr.directive
    @classmethod
    def __table_args__(cls) -> tuple[Any, ...]:
        table = cls.__tablename__  # type: ignore[attr-defined]
        return (
            UniqueConstraint("active_channel_id"),
            Index(f"ix_{table}_channel_id_id", "channel_id", "id"),
        )

    id: Mapped[int] = mapped_column(primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(Snowflake)
    channel_id: Mapped[int] = mapped_column(Snowflake)
    active_channel_id: Mapped[int | None] = mapped_column(Snowflake)
    started_by: Mapped[int] = mapped_column(Snowflake)
    # ACTIVE while it runs; each feature names its ending states.
    status: Mapped[str] = mapped_column(String(16), default=ACTIVE)
    # The engine's to_dict() of the whole state.
    state: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
