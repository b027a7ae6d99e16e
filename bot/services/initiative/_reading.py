"""Reading an encounter without changing it: ``/init show``, the tracker's refresh, and
autocomplete of combatant names.

Each opens a read-only unit of work; the tracker and autocomplete read only the current
state, never parsing the undo history (docs/decisions/hot-path.md).
"""

from __future__ import annotations

from bot.actor import Actor
from bot.services.initiative._outcome import EncounterView
from bot.services.initiative._store import require_encounter, view_of
from bot.services.permissions import is_gm
from bot.storage import Database
from bot.storage.repositories import initiative as encounters
from engine import initiative as ini


async def show(db: Database, actor: Actor) -> EncounterView:
    async with db.unit_of_work(read_only=True) as session:
        row = await require_encounter(session, actor.channel_id)
        return await view_of(session, row, ini.from_dict(row.state), gm=await is_gm(session, actor))


async def latest(db: Database, channel_id: int) -> EncounterView | None:
    """The channel's running encounter as everyone sees it, or None (for the tracker)."""
    async with db.unit_of_work(read_only=True) as session:
        row = await encounters.active(session, channel_id)
        return (
            None
            if row is None
            # The tracker never shows the undo history: not parsed (docs/decisions/hot-path.md).
            else await view_of(session, row, ini.current_from_dict(row.state), gm=False)
        )


async def names(db: Database, actor: Actor, *, delayed_only: bool = False) -> list[str]:
    """Combatant names for autocomplete: hidden ones only for a GM; never raises for none."""
    async with db.unit_of_work(read_only=True) as session:
        row = await encounters.active(session, actor.channel_id)
        if row is None:
            return []
        state = ini.current_from_dict(row.state)  # names only: the history is not parsed
        gm = await is_gm(session, actor)
    pool = state.delayed if delayed_only else state.combatants
    return [c.name for c in pool if gm or not c.hidden]
