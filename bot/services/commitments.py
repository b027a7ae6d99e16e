"""Revealing a secret roll's record and checking a commitment: the two halves of a roll
the table can trust without trusting the GM (see :mod:`engine.commitment`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import _
from bot.services.permissions import is_gm
from bot.storage import Database
from bot.storage.repositories import rolls as roll_log
from engine import commitment


@dataclass(frozen=True, slots=True)
class Reveal:
    """A secret roll laid open: the exact record hashed, its salt and the commitment."""

    roll_id: int
    roller_id: int
    record: str
    salt: str
    commitment: str


async def reveal(db: Database, actor: Actor, *, roll_id: int) -> Reveal:
    """The record and salt of one of this channel's secret rolls, for its roller or a GM."""
    async with db.unit_of_work(read_only=True) as session:
        entry = await roll_log.get(session, roll_id, channel_id=actor.channel_id)
        if entry is None:
            raise UserError(_("No roll #{id} in this channel's log.", id=roll_id))
        if not entry.secret or not (entry.record and entry.salt and entry.commitment):
            raise UserError(
                _(
                    "Roll #{id} has no commitment to reveal: it was public, or it was "
                    "logged before secret rolls carried one.",
                    id=roll_id,
                )
            )
        if entry.user_id != actor.user_id and not await is_gm(session, actor):
            raise PermissionDenied(_("Only whoever made a secret roll, or a GM, can reveal it."))
    return Reveal(
        roll_id=entry.id,
        roller_id=entry.user_id,
        record=entry.record,
        salt=entry.salt,
        commitment=entry.commitment,
    )


@dataclass(frozen=True, slots=True)
class Verification:
    """Whether a record and salt give a commitment, and what the record says (if it reads)."""

    matches: bool
    computed: str
    fields: dict[str, Any] | None


def verify(*, record: str, salt: str, commitment_hex: str) -> Verification:
    """Recompute a commitment for anyone; no database and no trust in the bot's log."""
    wanted = commitment_hex.strip().lower()
    if not all(c in "0123456789abcdef" for c in wanted) or not (
        commitment.SHORT <= len(wanted) <= 64
    ):
        raise UserError(
            _(
                "A commitment is {short} to 64 hex digits (0–9, a–f): "
                "copy it from the secret roll's notice.",
                short=commitment.SHORT,
            )
        )
    try:
        parsed = json.loads(record)
    except ValueError:
        parsed = None
    return Verification(
        matches=commitment.matches(record, salt, wanted),
        computed=commitment.commit(record, salt.strip().lower()),
        fields=parsed if isinstance(parsed, dict) else None,
    )
