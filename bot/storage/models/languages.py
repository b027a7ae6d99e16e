"""Language choices: a GM's for a channel (``/settings language``), a user's own
(``/settings my-language``). One table for both, so one query reads both for an interaction."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models.base import Base, Snowflake, utcnow

#: ``scope`` values: whose choice a row is.
USER = "user"
CHANNEL = "channel"


class LanguageChoice(Base):
    """A chosen language (a catalog code: ``en``, ``es``…); no row means "not chosen"."""

    __tablename__ = "language_choices"
    __table_args__ = (CheckConstraint("scope IN ('user', 'channel')", name="scope"),)

    scope: Mapped[str] = mapped_column(String(8), primary_key=True)
    target_id: Mapped[int] = mapped_column(Snowflake, primary_key=True, autoincrement=False)
    language: Mapped[str] = mapped_column(String(16))
    set_by: Mapped[int] = mapped_column(Snowflake)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
