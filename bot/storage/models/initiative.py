"""Initiative encounters: at most one active per channel, the whole state as JSON.

The engine's :class:`~engine.initiative.Encounter` (order, round, turn pointer and the event
log that makes undo possible) is stored as ``engine.initiative.to_dict()`` in ``state``;
the columns every per-channel state shares come from :class:`ChannelStateMixin`.
"""

from __future__ import annotations

from sqlalchemy import String, text
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models._channel_state import ChannelStateMixin
from bot.storage.models.base import Base, Snowflake


class InitiativeEncounter(ChannelStateMixin, Base):
    __tablename__ = "initiative_encounters"

    # The sheet value every joining character adds (Hogwarts 1990: the Finesse attribute).
    attribute: Mapped[str | None] = mapped_column(String(64))
    # Dice notation that replaces the system's initiative roll, e.g. "1d20+2".
    dice: Mapped[str | None] = mapped_column(String(100))
    # The channel's tracker message, edited in place on every change.
    tracker_message_id: Mapped[int | None] = mapped_column(Snowflake)
    # The language of the player who started it: the tracker's when the channel has none
    # (bot.gateway._public_language).
    language: Mapped[str | None] = mapped_column(String(16))
    # Bumped in the same UPDATE as every change to ``state`` (repositories.initiative.store):
    # the tracker never shows a view older than the one it shows (docs/decisions/many-processes.md).
    revision: Mapped[int] = mapped_column(default=0, server_default=text("0"))
