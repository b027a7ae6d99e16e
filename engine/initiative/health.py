"""Health kept on the tracker for combatants without a sheet (NPCs).

A character played from a sheet keeps its Health there; an NPC the GM adds has no sheet,
so its Health lives on the combatant, changed by events like every other step (so ``undo``
gives it back). Damage may take it below 0: CODA sets no floor (RULES.md §1).
"""

from __future__ import annotations

from dataclasses import replace

from engine.errors import N_
from engine.initiative.errors import NotAllowedNow
from engine.initiative.events import SetHealth
from engine.initiative.state import MAX_HEALTH, Encounter

__all__ = ["check_health", "set_health"]


def check_health(value: object, what: str = N_("Health")) -> int:
    """A whole number within ±:data:`MAX_HEALTH`, or :class:`NotAllowedNow` saying why not."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotAllowedNow(N_("{what} is a whole number."), what=what)
    if not -MAX_HEALTH <= value <= MAX_HEALTH:
        raise NotAllowedNow(N_("{what} must be within ±{high}."), what=what, high=f"{MAX_HEALTH:,}")
    return value


def set_health(state: Encounter, event: SetHealth) -> Encounter:
    """Take ``damage`` off the combatant's Health, or set it to ``value``."""
    target = state.find(event.name)
    if target.owner_id is not None:
        raise NotAllowedNow(
            N_("{name} is played from a sheet: its Health is the sheet's (`/sheet resource`)."),
            name=target.name,
        )
    if event.value is not None:
        value = check_health(event.value)
        top = value if target.max_health is None else target.max_health
        changed = replace(target, health=value, max_health=top)
    else:
        damage = check_health(event.damage, N_("Damage"))
        if target.health is None:
            raise NotAllowedNow(
                N_(
                    "{name} has no Health on the tracker: the GM gives it with "
                    "`/init health` (or `/init add … health:`)."
                ),
                name=target.name,
            )
        changed = replace(target, health=check_health(target.health - damage))
    return replace(state, order=tuple(changed if c is target else c for c in state.order))
