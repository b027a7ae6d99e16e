"""Attack exchanges of any game system, waiting for the defender's answer.

One table for every system's exchange (``system`` says whose rules read ``data``): the
shape is the same everywhere (an attack, a defender who answers with a button, Health taken),
only the rules differ. CODA's exchanges predate it and keep their own ``coda_attacks``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from bot.storage.models.base import Base, Snowflake, utcnow


class AttackExchange(Base):
    """One attack that hit and waits for its defender (``/h90 attack``).

    Stored so that the answer buttons still work, and still refuse, after a restart.
    ``defender_id`` is the target character's owner, or None for an NPC (the GM answers).
    ``data`` holds what the exchange message shows, so the message is redrawn from the row
    alone. ``finished_at`` is set once the exchange is over; such rows stay to refuse late
    presses politely.
    """

    __tablename__ = "attack_exchanges"

    id: Mapped[int] = mapped_column(primary_key=True)
    system: Mapped[str] = mapped_column(String(16))
    guild_id: Mapped[int | None] = mapped_column(Snowflake)
    channel_id: Mapped[int] = mapped_column(Snowflake, index=True)
    attacker_id: Mapped[int] = mapped_column(Snowflake)
    defender_id: Mapped[int | None] = mapped_column(Snowflake)
    target_character_id: Mapped[int | None] = mapped_column(
        ForeignKey("characters.id", ondelete="SET NULL")
    )
    secret: Mapped[bool] = mapped_column(default=False)
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    expires_at: Mapped[datetime] = mapped_column()
    finished_at: Mapped[datetime | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
