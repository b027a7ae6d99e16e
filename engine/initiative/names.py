"""Combatant names that keep hidden combatants secret.

A visible newcomer whose name a hidden combatant already holds takes the name, and the hidden
one is renamed ``Spy (hidden)``: refusing ("'Spy' is already in the encounter") would tell
the players that a hidden combatant exists. The renaming is deterministic, so an undo's
replay renames it the same way again.
"""

from __future__ import annotations

from dataclasses import replace

from engine.initiative.state import MAX_COMBATANTS, MAX_NAME_LENGTH, Combatant, Encounter


def make_room(state: Encounter, name: str, *, hidden: bool) -> Encounter:
    """``state`` with any hidden holder of ``name`` renamed, when the newcomer is visible."""
    key = name.casefold()
    clash = next((c for c in state.combatants if c.key == key and c.hidden), None)
    if clash is None or hidden:
        return state
    taken = {c.key for c in state.combatants}
    suffixes = ("(hidden)", *(f"(hidden {n})" for n in range(2, MAX_COMBATANTS + 2)))
    new = next(
        renamed
        for suffix in suffixes
        if (renamed := f"{clash.name[: MAX_NAME_LENGTH - len(suffix) - 1]} {suffix}").casefold()
        not in taken
    )

    def renamed_one(c: Combatant) -> Combatant:
        return replace(c, name=new) if c is clash else c

    return replace(state, order=tuple(renamed_one(c) for c in state.order))
