"""The encounter's state: combatants in turn order, the round and the turn pointer.

Turn pointer: ``turn`` indexes ``order`` (every combatant, highest first, delayers kept at
their place). ``turn is None`` means there is no current turn: before the first ``Next``
(round 0), or while everyone is delaying. A delaying combatant keeps its place in ``order``
(``delaying`` holds the round its delay began) because RULES.md §2 needs that place twice:
the delay ends when it comes round again in the next round, and a delayer who dodges keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.errors import N_
from engine.initiative.errors import InvalidName, UnknownCombatant
from engine.initiative.events import Event
from engine.wording import Translate, english

__all__ = [
    "MAX_COMBATANTS",
    "MAX_CONDITIONS",
    "MAX_CONDITION_ROUNDS",
    "MAX_HEALTH",
    "MAX_NAME_LENGTH",
    "MAX_NOTE_LENGTH",
    "MAX_TOTAL",
    "TICKS",
    "Combatant",
    "Condition",
    "Encounter",
    "clean_name",
]

MAX_COMBATANTS = 50
MAX_NAME_LENGTH = 64
#: Initiative totals beyond this are typing mistakes, not characters.
MAX_TOTAL = 10_000
MAX_CONDITIONS = 10
MAX_CONDITION_ROUNDS = 100
MAX_NOTE_LENGTH = 100
#: Health kept on the tracker (an NPC without a sheet) stays within ±this.
MAX_HEALTH = 10_000
#: When a condition counts down: at the start or at the end of its bearer's turn.
TICKS = ("start", "end")


@dataclass(frozen=True, slots=True)
class Condition:
    """A named condition on a combatant, e.g. Stunned for 2 rounds.

    ``rounds`` is how many more of the bearer's turns it lasts: it counts down by one at
    each start (or end, ``tick``) of the bearer's turn. Ticking at the end it goes as it
    reaches 0; ticking at the start the turn that begins is still under it, so it reaches 0
    for its last turn and goes at the next start (:mod:`engine.initiative.conditions`).
    ``None`` lasts until removed.
    """

    name: str
    rounds: int | None = None
    note: str = ""
    tick: str = "start"

    @property
    def key(self) -> str:
        return self.name.casefold()

    @property
    def label(self) -> str:
        """``Stunned (2 rounds, ticks at start)`` / ``Prone``."""
        return self.label_in(english)

    def label_in(self, translate: Translate) -> str:
        """:attr:`label` in the language of ``translate`` (see :mod:`engine.wording`)."""
        if self.rounds is None:
            return self.name
        if self.rounds == 0:
            return translate(N_("{name} (last turn, ends as its next turn starts)"), name=self.name)
        if self.tick == "end":
            template = (
                N_("{name} (1 round, ticks at end)")
                if self.rounds == 1
                else N_("{name} ({rounds} rounds, ticks at end)")
            )
        else:
            template = (
                N_("{name} (1 round, ticks at start)")
                if self.rounds == 1
                else N_("{name} ({rounds} rounds, ticks at start)")
            )
        return translate(template, name=self.name, rounds=self.rounds)


@dataclass(frozen=True, slots=True)
class Combatant:
    """One participant. ``tiebreak`` holds its roll-off results, compared after ``total``."""

    name: str
    total: int
    owner_id: int | None = None
    character: str | None = None
    tiebreak: tuple[int, ...] = ()
    hidden: bool = False
    #: Took the initiating action: no action in round 1 (RULES.md §2).
    initiator: bool = False
    #: Surprised: H90 rolled a stress roll; CODA acts after the unsurprised in round 1 with
    #: one action fewer (RULES.md §1).
    surprised: bool = False
    #: Their turn came this round (the current combatant has acted).
    acted: bool = False
    #: Used this round's turn on a defensive roll: skipped for the rest of the round.
    defended: bool = False
    #: The round their delay began, while they are delaying (None: not delaying).
    delaying: int | None = None
    #: Turns taken in the whole encounter, for the summary.
    turns: int = 0
    #: How the total was rolled, for display (e.g. "2d6 (4, 3) + 2").
    detail: str = ""
    #: The initiative bonus they rolled with, for a re-roll each round.
    modifier: int = 0
    #: Conditions with their remaining duration, in the order they were added.
    conditions: tuple[Condition, ...] = ()
    #: CODA: actions spent this round (``/init action``), back to 0 when a round starts.
    actions: int = 0
    #: Health kept on the tracker, for a combatant without a sheet (an NPC): current and
    #: the value it was given (``None``: not kept here; a sheet's Health is read from it).
    health: int | None = None
    max_health: int | None = None

    @property
    def key(self) -> str:
        return self.name.casefold()

    @property
    def rank(self) -> tuple[int, tuple[int, ...]]:
        """Sort key, highest first: total, then the roll-off results."""
        return (self.total, self.tiebreak)


@dataclass(frozen=True, slots=True)
class Encounter:
    """One skirmish: the turn order, the round, the turn pointer, and the undo history."""

    system: str = "generic"
    initiator: str | None = None
    round: int = 0
    turn: int | None = None
    order: tuple[Combatant, ...] = ()
    ended: bool = False
    #: Everyone re-rolls initiative at the start of each round (an encounter option).
    reroll: bool = False
    #: The state the log starts from (``None``: the empty encounter with these options).
    base: Encounter | None = field(default=None, repr=False)
    #: Every applied event, resolved, oldest first.
    log: tuple[Event, ...] = field(default=(), repr=False)

    @property
    def current(self) -> Combatant | None:
        return None if self.turn is None else self.order[self.turn]

    @property
    def combatants(self) -> tuple[Combatant, ...]:
        """Everyone, in turn order (delayers at their place)."""
        return self.order

    @property
    def delayed(self) -> tuple[Combatant, ...]:
        """The combatants delaying now, in turn order."""
        return tuple(c for c in self.order if c.delaying is not None)

    @property
    def started(self) -> bool:
        return self.round >= 1

    def find(self, name: str) -> Combatant:
        """The combatant called ``name`` (case-insensitive)."""
        key = name.strip().casefold()
        for combatant in self.order:
            if combatant.key == key:
                return combatant
        names = ", ".join(c.name for c in self.order)
        if not names:
            raise UnknownCombatant(
                N_("No combatant is called {name} (in the encounter: nobody yet)."),
                name=repr(name.strip()),
            )
        raise UnknownCombatant(
            N_("No combatant is called {name} (in the encounter: {names})."),
            name=repr(name.strip()),
            names=names,
        )

    def is_delayed(self, name: str) -> bool:
        key = name.strip().casefold()
        return any(c.key == key for c in self.delayed)

    def core(self) -> Encounter:
        """The state without its history: what players see, and what undo must restore."""
        return replace(self, base=None, log=())


def clean_name(name: str) -> str:
    """The name as stored (outer spaces removed), or :class:`InvalidName` saying why not."""
    if not isinstance(name, str):
        raise InvalidName(N_("A combatant name must be text."))
    cleaned = " ".join(name.split())
    if not cleaned:
        raise InvalidName(
            N_("A combatant needs a name (1 to {high} characters)."), high=MAX_NAME_LENGTH
        )
    if len(cleaned) > MAX_NAME_LENGTH:
        raise InvalidName(
            N_("A combatant name has at most {high} characters; {start}… has {length}."),
            high=MAX_NAME_LENGTH,
            start=repr(cleaned[:20]),
            length=len(cleaned),
        )
    if not cleaned.isprintable():
        raise InvalidName(N_("{name} holds characters that cannot be shown."), name=repr(cleaned))
    return cleaned
