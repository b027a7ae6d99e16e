"""Who is a GM of a channel: the one reusable check, with one refusal message.

DESIGN.md: a GM holds the guild's GM role, has Manage Channels, or started the channel's
current encounter or match. The first two come from Discord (``Actor.gm_role``); features
that start things register a :data:`GmSource` so the check stays one function.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied

GmSource = Callable[[AsyncSession, Actor], Awaitable[bool]]
_gm_sources: list[GmSource] = []


def register_gm_source(source: GmSource) -> GmSource:
    """Let a feature say "this user started something here" (usable as a decorator)."""
    if source not in _gm_sources:
        _gm_sources.append(source)
    return source


async def is_gm(session: AsyncSession, actor: Actor) -> bool:
    if actor.gm_role:
        return True
    for source in _gm_sources:
        if await source(session, actor):
            return True
    return False


async def require_gm(session: AsyncSession, actor: Actor, action: str) -> None:
    """Raise :class:`PermissionDenied` unless ``actor`` is a GM of the channel."""
    if not await is_gm(session, actor):
        raise PermissionDenied(
            f"Only the channel's GM can {action}. A GM holds a GM role, has Manage Channels, "
            "or started this channel's current encounter or match."
        )
