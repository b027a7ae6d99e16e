"""What every system's attack exchange shares (``/coda attack``, ``/h90 attack``).

An attack that hits waits in the database for the defender's answer, pressed as a button:
the target character's owner answers, or the GM (always the GM for an NPC). The rules of
the roll, the defence and the damage belong to each system's service; this module holds the
parts that are one logic whatever the rules: who the target is, who may press and until
when, and how a Health change is kept in the stored exchange so a restart loses nothing.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import _
from bot.services import sheets
from bot.services.permissions import is_gm
from bot.services.sheets import CharacterSheet, Resource, ResourceChange, sheet_from_row
from bot.storage.repositories import characters as characters_repo
from bot.storage.repositories import initiative as encounters
from bot.text import UserText
from engine import initiative as ini

#: How long a defender has to answer; afterwards the buttons refuse.
ANSWER_WINDOW = timedelta(hours=24)
#: The sheet resource an attack's damage comes off.
HEALTH = "Health"


class ExchangeClosed(UserError):
    """A press on an exchange that is over or has expired: the buttons are greyed out."""


class ExchangeRow(Protocol):
    """What the shared checks read of a stored exchange (any system's table)."""

    defender_id: int | None
    finished_at: datetime | None
    expires_at: datetime


async def resolve_target(
    session: AsyncSession, actor: Actor, name: str
) -> tuple[str, CharacterSheet | None]:
    """The target: a character used in this channel (or one of the attacker's own) by that
    name, else an NPC known by the name alone."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise UserError(_("Name the target: a character in this channel, or an NPC."))
    key = sheets.name_key(cleaned)
    guild = sheets.guild_key(actor)
    own = await characters_repo.by_name(session, guild, actor.user_id, key)
    if own is not None:
        return own.name, sheet_from_row(own)
    found = [
        c
        for c in await characters_repo.in_channel(session, guild, actor.channel_id)
        if c.name_key == key
    ]
    if len(found) > 1:
        raise UserError(
            _(
                "{count} characters in this channel are called {name}; an attack needs one.",
                count=len(found),
                name=UserText(cleaned),
            )
        )
    if found:
        return found[0].name, sheet_from_row(found[0])
    return cleaned[: sheets.NAME_LENGTH], None


def answerer(defender_id: int | None) -> str:
    """Who may answer, as the messages say it."""
    return _("{who} (or the GM)", who=f"<@{defender_id}>") if defender_id else _("the GM")


async def claim(
    session: AsyncSession,
    actor: Actor,
    row: ExchangeRow | None,
    *,
    target: str,
    now: datetime,
    answerers: Collection[int] | None = None,
    who: str | None = None,
) -> None:
    """Refuse a press on an unknown or finished exchange, by someone else than its answerers
    (by default the defender; the GM always may), or after the answer window."""
    if row is None:
        raise ExchangeClosed(_("This attack is no longer known."))
    if row.finished_at is not None:
        raise ExchangeClosed(_("This attack is already over."))
    if answerers is None:
        answerers = {row.defender_id} if row.defender_id is not None else set()
    if actor.user_id not in answerers and not await is_gm(session, actor):
        raise PermissionDenied(
            _(
                "Only {who} answers this attack on {target}.",
                who=who or answerer(row.defender_id),
                target=UserText(target),
            )
        )
    if now > row.expires_at:
        raise ExchangeClosed(_("Too late: an attack is answered within a day."))


def change_data(change: ResourceChange) -> dict[str, Any]:
    """A Health change as the stored exchange keeps it."""
    return {
        "character": change.character.raw,
        "owner": change.owner_id,
        "resource": change.resource.raw,
        "before": [change.before.current, change.before.max] if change.before else None,
        "after": [change.after.current, change.after.max],
    }


def change_of(data: dict[str, Any] | None) -> ResourceChange | None:
    """The stored Health change back (None when nothing was taken)."""
    if data is None:
        return None
    before = sheets.Resource(*data["before"]) if data["before"] else None
    return ResourceChange(
        UserText(data["character"]),
        data["owner"],
        UserText(data["resource"]),
        before,
        sheets.Resource(*data["after"]),
    )


async def hurt_npc(
    session: AsyncSession, channel_id: int, *, target: str, damage: int, floor: int | None = None
) -> ResourceChange | None:
    """Damage to an NPC without a sheet, taken from the Health the tracker keeps for it.

    ``floor``: the lowest it goes (Hogwarts 1990 stops at 0, knocked out; CODA sets none).
    ``None`` when no encounter runs here or the NPC has no Health on the tracker (the GM
    keeps it by hand). A step of the encounter: ``/init undo`` gives it back.
    """
    row = await encounters.active(session, channel_id, for_update=True)
    if row is None:
        return None
    state = ini.from_dict(row.state)
    try:
        npc = state.find(target)
    except ini.UnknownCombatant:
        return None
    if npc.health is None or npc.owner_id is not None:
        return None
    # Health stays within the tracker's bound: a blow beyond it takes the NPC to the floor.
    lowest = -ini.MAX_HEALTH if floor is None else min(floor, npc.health)
    damage = max(0, min(damage, npc.health - lowest))
    new = ini.apply(state, ini.SetHealth(npc.name, damage=damage))
    after = new.find(npc.name)
    encounters.store(row, ini.to_dict(new))  # bumps the revision the tracker compares
    assert after.health is not None
    # An NPC has no owner: 0 stands for "nobody" (no Discord id is 0).
    return ResourceChange(
        UserText(npc.name),
        0,
        UserText(HEALTH),
        Resource(npc.health, npc.max_health),
        Resource(after.health, after.max_health),
    )
