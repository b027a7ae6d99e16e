"""Changes to one combatant's standing in the encounter: its conditions, the CODA actions it
spends, and the Health the tracker keeps for an NPC.

Each is one engine event through :func:`~bot.services.initiative._changes.change`, with the
permission its command needs; spending an action may run a ``then`` step (a CODA test) in
the same transaction.
"""

from __future__ import annotations

from bot.actor import Actor
from bot.i18n import _
from bot.services.initiative._changes import Then, change
from bot.services.initiative._outcome import InitOutcome
from bot.storage import Database
from engine import initiative as ini


async def add_condition(
    db: Database,
    actor: Actor,
    *,
    name: str,
    condition: str,
    rounds: int | None = None,
    note: str = "",
    tick: str = "start",
) -> InitOutcome:
    """Put a condition on a combatant (GM), counting down at the start or end of its turns."""
    event = ini.AddCondition(name, condition=condition, rounds=rounds, note=note, tick=tick)
    return await change(db, actor, event, action=_("put conditions on combatants"))


async def remove_condition(db: Database, actor: Actor, *, name: str, condition: str) -> InitOutcome:
    event = ini.RemoveCondition(name, condition=condition)
    return await change(db, actor, event, action=_("take conditions off combatants"))


async def spend_action(
    db: Database,
    actor: Actor,
    *,
    kind: str,
    cost: int | None = None,
    name: str | None = None,
    then: Then | None = None,
) -> InitOutcome:
    """CODA: a combatant (default: whoever is up) takes an action of Tables 9-9 to 9-11,
    spending its cost of the round's actions; its player on their turn, or the GM."""
    event = ini.SpendAction((name or "").strip(), action=kind, cost=cost)
    return await change(
        db, actor, event, action=_("spend actions"), players_on_their_turn=True, then=then
    )


async def set_health(db: Database, actor: Actor, *, name: str, value: int) -> InitOutcome:
    """The GM sets the Health the tracker keeps for a combatant without a sheet (an NPC)."""
    event = ini.SetHealth(name, value=value)
    return await change(db, actor, event, action=_("set Health on the tracker"))
