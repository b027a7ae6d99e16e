"""The encounter's row: finding it (locked for a change), showing it as a view, saving it.

Every use case reads and writes the channel's one active encounter through these, so the
locking rule (``FOR UPDATE`` on PostgreSQL; SQLite's write transactions are ``BEGIN
IMMEDIATE``) and the revision the tracker compares live in one place. Whoever starts an
encounter is a GM of the channel while it runs (DESIGN.md): :func:`encounter_starter` tells
the permission rules so. A change reads and writes the row with direct statements
(:func:`lock_encounter`, :func:`save`), and reuses the state this process last committed
while the row still holds it (:func:`parsed`, :func:`remember`).
"""

from __future__ import annotations

import dataclasses
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import N_, _
from bot.services.initiative._outcome import EncounterView
from bot.services.permissions import register_gm_source, require_gm
from bot.services.sheets import find_key, name_key
from bot.storage import Database
from bot.storage.models import InitiativeEncounter
from bot.storage.repositories import characters as characters_repo
from bot.storage.repositories import initiative as encounters
from engine import initiative as ini

NO_ENCOUNTER = N_("No encounter is running in this channel. A GM starts one with `/init start`.")
#: The sheet resource the tracker shows beside a combatant (damage from /coda attack).
HEALTH = "Health"


@register_gm_source
async def encounter_starter(session: AsyncSession, channel_id: int) -> int | None:
    """DESIGN.md: whoever started the channel's current encounter is one of its GMs."""
    row = await encounters.active(session, channel_id)
    return row.started_by if row is not None else None


async def current_player(session: AsyncSession, channel_id: int) -> int | None:
    """Whose turn it is in the channel's encounter: the current combatant's player (None
    for an NPC, between rounds, or with no encounter). Only the current state is parsed."""
    row = await encounters.active(session, channel_id)
    if row is None:
        return None
    current = ini.current_from_dict(row.state).current
    return current.owner_id if current is not None else None


async def view_of(
    session: AsyncSession, row: encounters.Encounter, state: ini.Encounter, *, gm: bool
) -> EncounterView:
    """The encounter in ``row`` at ``state``, as a command shows it."""
    return view_with(row, state, gm=gm, health=await _health(session, state))


def view_with(
    row: encounters.Encounter, state: ini.Encounter, *, gm: bool, health: tuple
) -> EncounterView:
    """:func:`view_of` with the Health already known (:func:`health_of`)."""
    return EncounterView(
        state=state,
        channel_id=row.channel_id,
        started_by=row.started_by,
        attribute=row.attribute,
        dice=row.dice,
        tracker_message_id=row.tracker_message_id,
        status=row.status,
        gm=gm,
        health=health,
        language=row.language,
        encounter_id=row.id,
        revision=row.revision,
    )


async def health_of(db: Database, state: ini.Encounter) -> tuple:
    """:func:`view_of`'s Health outside a unit of work: the sheets read in one of their own
    only when a combatant is played from one."""
    if not any(_played(c) for c in state.combatants):
        return _kept_health(state)
    async with db.unit_of_work(read_only=True) as session:
        return await _health(session, state)


def _played(combatant: ini.Combatant) -> bool:
    return combatant.owner_id is not None and bool(combatant.character)


def _kept_health(state: ini.Encounter) -> tuple:
    return tuple((c.name, c.health, c.max_health) for c in state.combatants if c.health is not None)


async def _health(session: AsyncSession, state: ini.Encounter) -> tuple:
    """Each combatant's Health (damage from ``/coda attack`` shows here): a sheet-played
    one's from its sheet, an NPC's as the encounter keeps it.

    A combatant names its player and character; a player with two characters of that name
    (in two guilds) shows none rather than the wrong one.
    """
    kept = _kept_health(state)
    played = [c for c in state.combatants if _played(c)]
    if not played:
        return kept
    rows = await characters_repo.of_owners(session, {c.owner_id for c in played if c.owner_id})
    found = []
    for combatant in played:
        key = name_key(combatant.character or "")
        matches = [r for r in rows if r.owner_id == combatant.owner_id and r.name_key == key]
        if len(matches) != 1:
            continue
        resources = matches[0].resources or {}
        health = find_key(resources, HEALTH)
        if health is not None:
            entry = resources[health]
            found.append((combatant.name, int(entry["current"]), entry.get("max")))
    return kept + tuple(found)


async def require_encounter(session: AsyncSession, channel_id: int) -> InitiativeEncounter:
    """The channel's running encounter to read, or a UserError saying none."""
    row = await encounters.active(session, channel_id)
    if row is None:
        raise UserError(_(NO_ENCOUNTER))
    return row


async def lock_encounter(session: AsyncSession, channel_id: int) -> encounters.Locked:
    """The channel's running encounter locked for a change, or a UserError saying none."""
    row = await encounters.lock(session, channel_id)
    if row is None:
        raise UserError(_(NO_ENCOUNTER))
    return row


async def gm_encounter(
    session: AsyncSession, actor: Actor, doing: str
) -> tuple[encounters.Locked, ini.Encounter]:
    """The encounter a GM is about to change, locked, with its state."""
    await require_gm(session, actor, doing)
    row = await lock_encounter(session, actor.channel_id)
    return row, ini.from_dict(row.state)


async def save(
    session: AsyncSession,
    row: encounters.Locked,
    state: ini.Encounter,
    *,
    close: bool = False,
    data: dict[str, Any] | None = None,
) -> encounters.Locked:
    """Write the change (``close``: and end the encounter); the row as written, its
    revision bumped (the one the tracker compares). ``data``: ``state`` as stored, when the
    caller has it already (:func:`stored_form`)."""
    stored = ini.to_dict(state) if data is None else data
    return await encounters.write(session, row, stored, close=close)


# --------------------------------------------------------------------------------- parsed

#: How many encounters :func:`parsed` remembers, and their undo histories' events together:
#: the tables playing now, within a bounded memory (a remembered event, parsed and as
#: stored, took about 300 bytes: at most some 30 MB).
PARSED_ENCOUNTERS = 1024
PARSED_EVENTS = 100_000


@dataclass(frozen=True, slots=True)
class _Parsed:
    row: encounters.Locked  # as committed; row.state is exactly ini.to_dict(state)
    state: ini.Encounter

    @property
    def data(self) -> dict[str, Any]:
        return self.row.state


_parsed: OrderedDict[int, _Parsed] = OrderedDict()
_parsed_events = 0
#: Each remembered encounter's channel (the one it runs in): channel id → encounter id.
_channels: dict[int, int] = {}


def last_committed(channel_id: int) -> tuple[encounters.Locked, ini.Encounter] | None:
    """The channel's encounter as this process last committed it (the row, its state), if
    remembered: a guess that :func:`bot.storage.repositories.initiative.write_seen` checks
    (another process, or another change here, may have moved it on since)."""
    known = _parsed.get(_channels.get(channel_id, 0))
    if known is None or known.row.channel_id != channel_id:
        return None
    return known.row, known.state


def parsed(row: encounters.Locked) -> tuple[ini.Encounter, bool]:
    """The encounter's state, and whether ``row.state`` is exactly ``ini.to_dict`` of it.

    Parsing the whole undo history (up to ``MAX_HISTORY`` events) was most of a change's
    CPU on a long encounter, about 0.8 ms at 1,000 events against 30 µs to compare. The
    state this process last committed is kept and reused when the row still holds exactly
    that data: compared by value, so a write by anything else (another process, an older
    path, a rolled-back change) is parsed as before.
    """
    known = _parsed.get(row.id)
    if known is not None and known.data == row.state:
        _parsed.move_to_end(row.id)
        return known.state, True
    return ini.from_dict(row.state), False


def stored_form(
    before_data: dict[str, Any] | None, before: ini.Encounter, after: ini.Encounter
) -> dict[str, Any]:
    """``ini.to_dict(after)``; when ``before_data`` is ``ini.to_dict(before)`` and ``after``
    appended one event to the history (folding its oldest into the base once the history is
    full), the stored history is reused rather than written out again."""
    dropped = len(before.log) + 1 - len(after.log)
    if before_data is None or dropped < 0 or not _appended(before, after, dropped):
        return ini.to_dict(after)
    data = ini.to_dict(dataclasses.replace(after, base=None, log=()))
    if after.base is before.base:
        data["base"] = before_data["base"]
    elif after.base is not None:
        data["base"] = _core(after.base)
    data["log"] = [*before_data["log"][dropped:], ini.event_to_dict(after.log[-1])]
    return data


def _appended(before: ini.Encounter, after: ini.Encounter, dropped: int) -> bool:
    """``after.log`` is ``before.log`` without its ``dropped`` oldest events, plus one: the
    same event objects (the engine appends to the tuple it was given)."""
    kept = before.log[dropped:]
    return len(after.log) == len(kept) + 1 and (
        not kept or (after.log[0] is kept[0] and after.log[-2] is kept[-1])
    )


def _core(state: ini.Encounter) -> dict[str, Any]:
    """A base state as ``ini.to_dict`` stores it: its own fields, no history of its own."""
    data = ini.to_dict(dataclasses.replace(state, base=None, log=()))
    for key in ("version", "base", "log"):
        del data[key]
    return data


def remember(row: encounters.Locked, state: ini.Encounter) -> None:
    """After its transaction committed: ``row.state`` (``ini.to_dict(state)``) is what the
    encounter holds now, for the next change's :func:`parsed`."""
    global _parsed_events
    old = _parsed.pop(row.id, None)
    if old is not None:
        _forget(old)
    if row.status == encounters.ENDED:
        return
    _parsed[row.id] = _Parsed(row, state)
    _channels[row.channel_id] = row.id
    _parsed_events += len(state.log)
    while len(_parsed) > PARSED_ENCOUNTERS or _parsed_events > PARSED_EVENTS:
        _, dropped = _parsed.popitem(last=False)
        _forget(dropped)


def _forget(known: _Parsed) -> None:
    global _parsed_events
    _parsed_events -= len(known.state.log)
    if _channels.get(known.row.channel_id) == known.row.id:
        del _channels[known.row.channel_id]


async def set_tracker(db: Database, channel_id: int, message_id: int) -> None:
    """Remember the channel's new tracker message (after the old one could not be edited)."""
    async with db.unit_of_work() as session:
        row = await encounters.active(session, channel_id, for_update=True)
        if row is not None:
            row.tracker_message_id = message_id
