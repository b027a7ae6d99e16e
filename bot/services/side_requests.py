""" "Roll your side": a player's opposed roll against another player's character.

DESIGN.md: no player rolls or reads another player's character. So when a player names
another player's character on the other side of an opposed roll, the challenger's side is
rolled and stored (:class:`~bot.storage.models.SideRequest`), and the other player gets a
button that rolls their side from their own sheet; the result appears when both have
rolled. A GM still runs both sides at once. Each system's service (``coda_challenge``, …)
builds the sides; this module keeps the request's life: who may answer, once, in time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import _
from bot.storage.models import SideRequest
from bot.storage.repositories import side_requests as repo

#: How long the other player has to roll their side.
WINDOW = timedelta(minutes=10)
PENDING, DONE = "pending", "done"


class RequestClosed(UserError):
    """The request can no longer be answered (rolled already, or lapsed): grey the button."""

    def __init__(self, message: str, *, lapsed: bool = False) -> None:
        super().__init__(message)
        self.lapsed = lapsed


@dataclass(frozen=True, slots=True)
class Challenge:
    """A request made: what the channel is told, and the button's request id."""

    request_id: int
    challenger: str  # the challenger's side as shown ("Hermione · Stealth (Wits)")
    addressed_id: int
    opponent: str | None  # the other player's character named; None: their active one
    rolls: str  # what the other side rolls ("Stealth", "attribute Physical")
    label: str | None


def refuse_secret(secret: bool, whom: str) -> None:
    """A request is public (its line pings ``whom`` and becomes the result), so a roll asked
    to be secret is refused; a GM can still roll both sides secretly."""
    if secret:
        raise UserError(
            _(
                "A secret roll cannot wait for {whom}: leave `secret` off, or ask a GM to roll "
                "both sides.",
                whom=whom,
            )
        )


async def create(
    session: AsyncSession,
    actor: Actor,
    *,
    kind: str,
    addressed_id: int,
    side: dict[str, Any],
    options: dict[str, Any],
    now: datetime,
) -> SideRequest:
    """Store the challenger's rolled ``side`` and what the other side rolls (``options``)."""
    return await repo.add(
        session,
        SideRequest(
            guild_id=actor.guild_id,
            channel_id=actor.channel_id,
            kind=kind,
            challenger_id=actor.user_id,
            addressed_id=addressed_id,
            challenger_side=side,
            options=options,
            expires_at=now + WINDOW,
            state=PENDING,
        ),
    )


async def claim(
    session: AsyncSession, actor: Actor, request_id: int, *, kind: str, now: datetime
) -> SideRequest:
    """The request, locked and marked done, for its addressed player to roll their side.

    The caller rolls in the same transaction: if their roll is refused (no such skill, …)
    everything rolls back and the request stays pending. The row lock makes a second press
    wait for the first and then find the request done: one roll, however fast the presses.
    """
    request = await repo.get_for_update(session, request_id)
    if request is None or request.kind != kind or request.channel_id != actor.channel_id:
        raise RequestClosed(_("This roll can no longer be answered."))
    if request.addressed_id != actor.user_id:
        raise PermissionDenied(
            _(
                "Only {player} can roll this side: it is their character.",
                player=f"<@{request.addressed_id}>",
            )
        )
    if request.state != PENDING:
        raise RequestClosed(_("This side has already been rolled."))
    if now > request.expires_at:
        minutes = int(WINDOW.total_seconds() // 60)
        raise RequestClosed(
            _(
                "Too late: this challenge lapsed (a side is rolled within {minutes} minutes). "
                "Ask for a new one.",
                minutes=minutes,
            ),
            lapsed=True,
        )
    request.state = DONE
    return request
