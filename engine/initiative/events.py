"""The events an encounter takes, in resolved form (every die they drew is in the event).

An event that may start a new round (``Next``, ``Delay``, ``Remove``) carries ``rerolls``:
with the encounter's re-roll option on, :func:`engine.initiative.apply` fills it with
everyone's new initiative, so replaying the log needs no dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

__all__ = [
    "EVENT_TYPES",
    "Act",
    "Add",
    "Defend",
    "Delay",
    "End",
    "Event",
    "NamedEvent",
    "Next",
    "Prev",
    "Remove",
    "Reroll",
    "Rerolls",
    "Reveal",
    "SetHealth",
    "SpendAction",
]

#: One combatant's re-roll: name, total, how it was rolled, roll-off results.
Reroll = tuple[str, int, str, tuple[int, ...]]
Rerolls = tuple[Reroll, ...]


@dataclass(frozen=True, slots=True)
class Add:
    """A combatant joins (a player's character) or is added (an NPC by the GM).

    ``tiebreaks`` is filled in by ``apply`` with every roll-off result drawn for this
    addition (the newcomer's and any tied combatant's full tuple), so that replay needs no dice.
    """

    kind: ClassVar[str] = "add"
    name: str
    total: int
    owner_id: int | None = None
    character: str | None = None
    hidden: bool = False
    surprised: bool = False
    detail: str = ""
    tiebreaks: tuple[tuple[str, tuple[int, ...]], ...] | None = None
    modifier: int = 0
    #: Health kept on the tracker (an NPC without a sheet), or None.
    health: int | None = None


@dataclass(frozen=True, slots=True)
class NamedEvent:
    """An event about one combatant, named as the user typed it (matched ignoring case)."""

    kind: ClassVar[str]
    name: str


@dataclass(frozen=True, slots=True)
class Remove(NamedEvent):
    kind: ClassVar[str] = "remove"
    rerolls: Rerolls | None = None


@dataclass(frozen=True, slots=True)
class Next:
    """The current turn ends; the next combatant with a turn this round starts (or a new round)."""

    kind: ClassVar[str] = "next"
    rerolls: Rerolls | None = None


@dataclass(frozen=True, slots=True)
class Prev:
    """Back to the previous turn taken. Navigation, not undo: flags of a left round are lost."""

    kind: ClassVar[str] = "prev"


@dataclass(frozen=True, slots=True)
class Delay:
    """The current combatant delays: it keeps its place and may act later (RULES.md §2)."""

    kind: ClassVar[str] = "delay"
    rerolls: Rerolls | None = None


@dataclass(frozen=True, slots=True)
class Act(NamedEvent):
    """A delayed combatant acts now, right after the current one, and keeps that place."""

    kind: ClassVar[str] = "act"


@dataclass(frozen=True, slots=True)
class Defend(NamedEvent):
    """A defensive roll (a dodge), for ``name`` itself or, by a delayer only, for ``protects``.

    A combatant in the order uses up its turn this round; a delayer spends its delayed action
    and keeps its original place (RULES.md §2).
    """

    kind: ClassVar[str] = "defend"
    protects: str | None = None


@dataclass(frozen=True, slots=True)
class Reveal(NamedEvent):
    kind: ClassVar[str] = "reveal"


@dataclass(frozen=True, slots=True)
class AddCondition(NamedEvent):
    """A condition on ``name``; ``rounds`` None lasts until removed. Replaces one of that name."""

    kind: ClassVar[str] = "condition_add"
    condition: str = ""
    rounds: int | None = None
    note: str = ""
    tick: str = "start"


@dataclass(frozen=True, slots=True)
class RemoveCondition(NamedEvent):
    kind: ClassVar[str] = "condition_remove"
    condition: str = ""


@dataclass(frozen=True, slots=True)
class SpendAction(NamedEvent):
    """CODA: ``name`` takes ``action`` (Tables 9-9 to 9-11, or a custom one), spending its
    cost (``cost`` overrides the table's) of this round's actions."""

    kind: ClassVar[str] = "action"
    action: str = ""
    cost: int | None = None


@dataclass(frozen=True, slots=True)
class SetHealth(NamedEvent):
    """Health kept on the tracker for a combatant without a sheet (an NPC): ``damage`` taken
    off (negative heals), or, with ``value``, set (its maximum too, the first time)."""

    kind: ClassVar[str] = "health"
    damage: int = 0
    value: int | None = None


@dataclass(frozen=True, slots=True)
class End:
    kind: ClassVar[str] = "end"


Event = (
    Add
    | Remove
    | Next
    | Prev
    | Delay
    | Act
    | Defend
    | Reveal
    | AddCondition
    | RemoveCondition
    | SpendAction
    | SetHealth
    | End
)
EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        Add,
        Remove,
        Next,
        Prev,
        Delay,
        Act,
        Defend,
        Reveal,
        AddCondition,
        RemoveCondition,
        SpendAction,
        SetHealth,
        End,
    )
}
