"""Skirmish initiative as a pure state machine (RULES.md §2 skirmish rules, §1 CODA actions).

``apply(encounter, event, dice)`` returns a new :class:`Encounter`; nothing is mutated and
nothing is read or written outside the arguments, so the bot can load a stored encounter,
apply one event inside one transaction and store the result.

Split by job: :mod:`.state` (combatants, encounter), :mod:`.events`, :mod:`.turns` (the
deterministic transitions), :mod:`.rolloff` (ties, with the system's dice),
:mod:`.conditions` (durations), :mod:`.health` (NPCs' Health),
:mod:`.machine` (apply, undo, the log),
:mod:`.budget` (CODA actions, summary), :mod:`.storage` (JSON). This module is the one public face.
"""

from __future__ import annotations

from engine.initiative.budget import (
    ActionBudget,
    CombatantSummary,
    Summary,
    action_budget,
    action_spend,
    summary,
)
from engine.initiative.errors import (
    DuplicateCombatant,
    EncounterEnded,
    InitiativeError,
    InvalidName,
    NotAllowedNow,
    NothingToUndo,
    TooManyCombatants,
    UnknownCombatant,
)
from engine.initiative.events import (
    Act,
    Add,
    AddCondition,
    Defend,
    Delay,
    End,
    Event,
    NamedEvent,
    Next,
    Prev,
    Remove,
    RemoveCondition,
    Reroll,
    Reveal,
    SetHealth,
    SpendAction,
)
from engine.initiative.machine import MAX_HISTORY, Roller, apply, undo
from engine.initiative.rolloff import roll_off_value
from engine.initiative.state import (
    MAX_COMBATANTS,
    MAX_CONDITION_ROUNDS,
    MAX_HEALTH,
    MAX_NAME_LENGTH,
    MAX_NOTE_LENGTH,
    Combatant,
    Condition,
    Encounter,
    clean_name,
)
from engine.initiative.storage import (
    current_from_dict,
    event_from_dict,
    event_to_dict,
    from_dict,
    to_dict,
)
from engine.initiative.turns import skip_reason

__all__ = [
    "MAX_COMBATANTS",
    "MAX_CONDITION_ROUNDS",
    "MAX_HEALTH",
    "MAX_HISTORY",
    "MAX_NAME_LENGTH",
    "MAX_NOTE_LENGTH",
    "Act",
    "ActionBudget",
    "Add",
    "AddCondition",
    "Combatant",
    "CombatantSummary",
    "Condition",
    "Defend",
    "Delay",
    "DuplicateCombatant",
    "Encounter",
    "EncounterEnded",
    "End",
    "Event",
    "InitiativeError",
    "InvalidName",
    "NamedEvent",
    "Next",
    "NotAllowedNow",
    "NothingToUndo",
    "Prev",
    "Remove",
    "RemoveCondition",
    "Reroll",
    "Reveal",
    "Roller",
    "SetHealth",
    "SpendAction",
    "Summary",
    "TooManyCombatants",
    "UnknownCombatant",
    "action_budget",
    "action_spend",
    "apply",
    "clean_name",
    "current_from_dict",
    "event_from_dict",
    "event_to_dict",
    "from_dict",
    "roll_off_value",
    "skip_reason",
    "summary",
    "to_dict",
    "undo",
]
