"""Pending "roll your side" requests: one player's side of an opposed roll, waiting for the
player whose character stands on the other side to roll theirs with a button."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models.base import Base, Snowflake, utcnow


class SideRequest(Base):
    """A challenger's rolled side and what the other side rolls, until ``expires_at``.

    Stored (not kept in memory) so that the button still works, and still refuses, after a
    restart; ``state`` goes ``pending`` → ``done`` once, under a row lock, so a double press
    rolls once.
    """

    __tablename__ = "side_requests"

    id: Mapped[int] = mapped_column(primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(Snowflake)
    channel_id: Mapped[int] = mapped_column(Snowflake, index=True)
    #: What rolls the other side, e.g. ``coda.opposed``: which service answers the button.
    kind: Mapped[str] = mapped_column(String(32))
    challenger_id: Mapped[int] = mapped_column(Snowflake)
    addressed_id: Mapped[int] = mapped_column(Snowflake)
    #: The challenger's side as rolled: its faces and what it added.
    challenger_side: Mapped[dict[str, Any]] = mapped_column(default=dict)
    #: What the other side rolls and the roll's own options (label, …).
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    expires_at: Mapped[datetime] = mapped_column(index=True)
    state: Mapped[str] = mapped_column(String(16), default="pending")
    #: A roll waiting for several players (``options["asked"]``): each one's part, keyed by
    #: their user id (as text), once they pressed; None for a two-sided request.
    answers: Mapped[dict[str, Any] | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
