"""CODA extended tests in progress, per channel (RULES.md §1, "Extended test")."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
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
    # The players the starter named, who may roll it too (user ids; the GM always may).
    participants: Mapped[list[Any]] = mapped_column(default=list)
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


class CodaAttack(Base):
    """An attack exchange waiting for the defender (``/coda attack``, RULES.md §1 "Combat").

    Stored so that the Dodge / Parry / Take it buttons still work, and still refuse, after a
    restart. ``defender_id`` is the target character's owner, or None for an NPC (the GM
    answers). ``data`` holds what the exchange message shows (the attack's dice and terms),
    so the message is redrawn from the row alone. ``finished_at`` is set once the exchange
    is over; such rows stay to refuse late presses politely.
    """

    __tablename__ = "coda_attacks"

    id: Mapped[int] = mapped_column(primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(Snowflake)
    channel_id: Mapped[int] = mapped_column(Snowflake, index=True)
    attacker_id: Mapped[int] = mapped_column(Snowflake)
    defender_id: Mapped[int | None] = mapped_column(Snowflake)
    target_character_id: Mapped[int | None] = mapped_column(
        ForeignKey("characters.id", ondelete="SET NULL")
    )
    ranged: Mapped[bool] = mapped_column(default=False)
    secret: Mapped[bool] = mapped_column(default=False)
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    expires_at: Mapped[datetime] = mapped_column()
    finished_at: Mapped[datetime | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CodaActionTest(Base):
    """An attribute test an action beyond the allowance asks for (RULES.md §1).

    Stored when ``/init action`` (or a tracker button) spends such an action for a character
    played from a sheet, so that its player's **Roll the test** button works after a restart
    and rolls only once: ``rolled_at`` is set by the one press that rolls (the row is locked).
    ``spent`` is the combatant's actions after this one, in ``round``: a press after an undo
    or in a later round finds them changed and refuses.
    """

    __tablename__ = "coda_action_tests"

    id: Mapped[int] = mapped_column(primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(Snowflake)
    channel_id: Mapped[int] = mapped_column(Snowflake, index=True)
    encounter_id: Mapped[int] = mapped_column(
        ForeignKey("initiative_encounters.id", ondelete="CASCADE")
    )
    character_id: Mapped[int | None] = mapped_column(
        ForeignKey("characters.id", ondelete="SET NULL")
    )
    owner_id: Mapped[int] = mapped_column(Snowflake)
    combatant: Mapped[str] = mapped_column(String(64))
    action: Mapped[str] = mapped_column(String(64))
    attribute: Mapped[str] = mapped_column(String(64))
    tn: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    spent: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)
    rolled_at: Mapped[datetime | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
