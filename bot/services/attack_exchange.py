"""What every system's attack exchange shares (``/coda attack``, ``/h90 attack``).

An attack that hits waits in the database for the defender's answer, pressed as a button:
the target character's owner answers, or the GM (always the GM for an NPC). The rules of
the roll, the defence and the damage belong to each system's service; this module holds the
parts that are one logic whatever the rules: who the target is, who may press and until
when, and how a Health change is kept in the stored exchange so a restart loses nothing.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol
from weakref import WeakKeyDictionary

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import _
from bot.services import sheets
from bot.services.permissions import channel_starters, is_gm, watch_gm_changes
from bot.services.sheets import CharacterSheet, Resource, ResourceChange, sheet_from_row
from bot.storage import Database
from bot.storage.repositories import characters as characters_repo
from bot.storage.repositories import gm_roles
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


@dataclass(frozen=True, slots=True)
class KnownExchange:
    """What :class:`PressGuard` remembers of an open exchange: who defends, the target's name
    for the refusal, who plays each delayer that may dodge for the target (``/h90 attack``'s
    cover buttons), and the channel's GMs as read then, trusted until ``until`` and while no
    change of GMs made by this process came after the read (``epoch``)."""

    defender_id: int | None
    target: str
    gm_roles: frozenset[int]
    starters: frozenset[int]
    until: float  # time.monotonic() after which the GM facts are too old to refuse by
    epoch: int = 0  # the guard's count of GM changes when these facts were read
    covers: tuple[tuple[str, int | None], ...] = ()  # (delayer, its player; None: an NPC)


def cover_answerer(name: str, owner_id: int | None) -> str:
    """Who may press "<delayer> dodges for them", as the messages say it."""
    if owner_id is None:
        return _("the GM")
    return _("{name}'s player (or the GM)", name=UserText(name))


class PressGuard:
    """Open exchanges this process has posted or read, with who could answer them then: a
    press by someone who may not press that button (neither the defender, or the delayer's
    player for a cover button, nor a GM by Discord's roles, the server's GM roles or the
    channel's starters, as read at most :attr:`seconds` ago) is refused from memory, with no
    read of the database (a flood of presses by bystanders costs nothing).

    Only refusals come from memory: the defender's or a possible GM's press always goes to
    the database, which decides. A change of GMs this process commits (``/settings
    gm-role``, an encounter or a match started: :func:`bot.services.permissions.gm_changed`)
    makes it distrust everything it remembers at once, so a GM made by a command here is
    never refused. The residual window is another process's change (a role set, an
    encounter started through another bot process sharing the database), or a delayer
    re-added under the same name by another player: such a new answerer may be refused for
    up to :attr:`seconds`; pressing again after that reads the database (docs/hosting.md).
    """

    def __init__(self, *, seconds: float = 60.0, entries: int = 1024) -> None:
        self.seconds, self.entries = seconds, entries
        self._known: OrderedDict[tuple[str, int], KnownExchange] = OrderedDict()
        self._epoch = 0

    def __contains__(self, key: tuple[str, int]) -> bool:
        return key in self._known

    async def learn(
        self,
        session: AsyncSession,
        actor: Actor,
        *,
        defender_id: int | None,
        target: str,
        covers: tuple[tuple[str, int | None], ...] = (),
    ) -> KnownExchange:
        """Read the channel's GMs now, for :meth:`remember` once the exchange is committed."""
        epoch = self._epoch  # taken before the read: a change committed meanwhile outdates it
        roles = await gm_roles.role_ids(session, actor.guild_id) if actor.guild_id else set()
        starters = await channel_starters(session, actor.channel_id)
        return KnownExchange(
            defender_id,
            target,
            frozenset(roles),
            frozenset(starters),
            time.monotonic() + self.seconds,
            epoch,
            covers,
        )

    async def watch(
        self,
        session: AsyncSession,
        actor: Actor,
        key: tuple[str, int],
        row: ExchangeRow | None,
        *,
        target: str,
        covers: tuple[tuple[str, int | None], ...] = (),
    ) -> None:
        """A bystander pressed an open exchange this process does not remember (it restarted,
        or another process posted it): remember it, so their next presses read nothing. The
        row was read, so it is committed: safe to remember before this transaction ends."""
        if row is None or row.finished_at is not None or key in self:
            return
        if actor.user_id != row.defender_id:
            known = await self.learn(
                session, actor, defender_id=row.defender_id, target=target, covers=covers
            )
            self.remember(key, known)

    def remember(self, key: tuple[str, int], known: KnownExchange) -> None:
        if known.epoch != self._epoch:
            return  # GMs changed since it was read: the next bystander's press reads again
        self._known[key] = known
        self._known.move_to_end(key)
        while len(self._known) > self.entries:
            self._known.popitem(last=False)

    def forget(self, key: tuple[str, int]) -> None:
        self._known.pop(key, None)

    def gm_changed(self) -> None:
        """This process committed a change of who is a GM: distrust every fact read before
        (all exchanges, not one channel's: such changes are rare, and each exchange's next
        bystander press reads once), including reads still in flight (:attr:`_epoch`)."""
        self._epoch += 1
        self._known.clear()

    def refuse_early(self, actor: Actor, key: tuple[str, int], *, cover: str | None = None) -> None:
        """Raise :func:`claim`'s refusal when memory alone says ``actor`` may not press the
        exchange's button (``cover``: the delayer's "dodges for them" button)."""
        known = self._known.get(key)
        if known is None or actor.gm_role:
            return
        if cover is None:
            answerer_id, who = known.defender_id, answerer(known.defender_id)
        else:
            players = dict(known.covers)
            if cover not in players:
                return  # not a delayer it knows: the database decides
            answerer_id, who = players[cover], cover_answerer(cover, players[cover])
        if answerer_id is not None and actor.user_id == answerer_id:
            return
        if time.monotonic() > known.until or known.epoch != self._epoch:
            self.forget(key)
            return
        if actor.role_ids.intersection(known.gm_roles) or actor.user_id in known.starters:
            return
        raise PermissionDenied(
            _(
                "Only {who} answers this attack on {target}.",
                who=who,
                target=UserText(known.target),
            )
        )


_GUARDS: WeakKeyDictionary[Database, PressGuard] = WeakKeyDictionary()


def press_guard(db: Database) -> PressGuard:
    """``db``'s :class:`PressGuard` (one per database: exchange ids are the database's)."""
    guard = _GUARDS.get(db)
    if guard is None:
        guard = _GUARDS[db] = PressGuard()
    return guard


@watch_gm_changes
def _distrust_gms(db: Database) -> None:
    """:func:`~bot.services.permissions.gm_changed`: ``db``'s guard drops what it read."""
    guard = _GUARDS.get(db)
    if guard is not None:
        guard.gm_changed()


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
