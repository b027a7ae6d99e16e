"""Conditions with durations on combatants: added, removed, counted down.

A condition's rounds are how many of its bearer's turns it lasts. One ticking at the *end*
counts down as each of those turns ends and goes with the last. One ticking at the *start*
counts down as each turn begins, that turn still under it, and goes at the start of the turn
after its last (at 0 it is in its last turn, or waiting for that next start). So a condition
of 1 round put on a combatant before its turn lasts through that turn either way
(docs/rules.md). A turn a delayer resumes with ``Act`` is the same turn, so it does not
count again; a delay that ends at the delayer's own place is a new turn and does.
"""

from __future__ import annotations

from dataclasses import replace

from engine.errors import N_
from engine.initiative.errors import NotAllowedNow
from engine.initiative.events import AddCondition, RemoveCondition
from engine.initiative.state import (
    MAX_CONDITION_ROUNDS,
    MAX_CONDITIONS,
    MAX_NOTE_LENGTH,
    TICKS,
    Combatant,
    Condition,
    Encounter,
    clean_name,
)

__all__ = ["add_condition", "remove_condition", "tick"]


def _replaced(state: Encounter, old: Combatant, new: Combatant) -> Encounter:
    return replace(state, order=tuple(new if c is old else c for c in state.order))


def add_condition(state: Encounter, event: AddCondition) -> Encounter:
    """Put a condition on a combatant (one of the same name is replaced)."""
    target = state.find(event.name)
    name = clean_name(event.condition)
    rounds = event.rounds
    if rounds is not None and (
        isinstance(rounds, bool)
        or not isinstance(rounds, int)
        or not 1 <= rounds <= MAX_CONDITION_ROUNDS
    ):
        raise NotAllowedNow(
            N_("A condition lasts 1 to {high} rounds (or until removed)."),
            high=MAX_CONDITION_ROUNDS,
        )
    if event.tick not in TICKS:
        raise NotAllowedNow(N_("A condition counts down at the start or at the end of a turn."))
    note = " ".join(str(event.note).split())[:MAX_NOTE_LENGTH]
    if note and not note.isprintable():
        raise NotAllowedNow(N_("A condition's note holds characters that cannot be shown."))
    kept = tuple(c for c in target.conditions if c.key != name.casefold())
    if len(kept) >= MAX_CONDITIONS:
        raise NotAllowedNow(
            N_("A combatant carries at most {high} conditions."), high=MAX_CONDITIONS
        )
    condition = Condition(name=name, rounds=rounds, note=note, tick=event.tick)
    return _replaced(state, target, replace(target, conditions=(*kept, condition)))


def remove_condition(state: Encounter, event: RemoveCondition) -> Encounter:
    target = state.find(event.name)
    key = event.condition.strip().casefold()
    kept = tuple(c for c in target.conditions if c.key != key)
    if len(kept) == len(target.conditions):
        having = ", ".join(c.name for c in target.conditions)
        if not having:
            raise NotAllowedNow(
                N_("{name} has no condition {condition} (conditions: none)."),
                name=target.name,
                condition=repr(event.condition.strip()),
            )
        raise NotAllowedNow(
            N_("{name} has no condition {condition} (conditions: {having})."),
            name=target.name,
            condition=repr(event.condition.strip()),
            having=having,
        )
    return _replaced(state, target, replace(target, conditions=kept))


def tick(combatant: Combatant, when: str) -> Combatant:
    """The combatant after the ``when`` ("start"/"end") of its turn: conditions count down."""
    if not any(c.tick == when and c.rounds is not None for c in combatant.conditions):
        return combatant
    # At the start a condition's turn begins under it: it goes only once none is left.
    last = 0 if when == "start" else 1
    kept = []
    for condition in combatant.conditions:
        if condition.tick == when and condition.rounds is not None:
            if condition.rounds <= last:
                continue
            condition = replace(condition, rounds=condition.rounds - 1)
        kept.append(condition)
    return replace(combatant, conditions=tuple(kept))
