"""The refusals of the initiative state machine, each a ``ValueError`` written for the player."""

from __future__ import annotations

from engine.errors import InputError

__all__ = [
    "DuplicateCombatant",
    "EncounterEnded",
    "InitiativeError",
    "InvalidName",
    "NotAllowedNow",
    "NothingToUndo",
    "TooManyCombatants",
    "UnknownCombatant",
]


class InitiativeError(InputError):
    """An event the encounter cannot take; the message is written for the player."""


class InvalidName(InitiativeError):
    """A combatant name that is empty, too long or unprintable."""


class DuplicateCombatant(InitiativeError):
    """A second combatant with a name already in the encounter."""


class UnknownCombatant(InitiativeError):
    """A name that matches no combatant of the encounter."""


class TooManyCombatants(InitiativeError):
    """More combatants than ``MAX_COMBATANTS``."""


class NotAllowedNow(InitiativeError):
    """An event that the rules refuse in the encounter's present state."""


class EncounterEnded(InitiativeError):
    """Any change to an encounter that has ended (undo excepted)."""


class NothingToUndo(InitiativeError):
    """Undo at the start of the encounter (or of its kept history)."""
