"""Skirmish initiative as a pure state machine (RULES.md §2 skirmish rules, §1 CODA actions).

``apply(encounter, event, dice)`` returns a new :class:`Encounter`; nothing is mutated and
nothing is read or written outside the arguments, so the bot can load a stored encounter,
apply one event inside one transaction and store the result.

Why an event log and not snapshots: undo must restore the *exact* earlier state any number
of steps back. Every applied event is recorded in resolved form (an ``Add`` carries the
tie-break dice it drew), so replaying the log from its base reproduces every state without
dice. Only undo pays for the replay (milliseconds at a full log, see
``benchmarks/initiative.py``), and a log of small events stores far less than one snapshot
per step. The log is bounded (:data:`MAX_HISTORY`): beyond it the
oldest events are folded into the base, which is as far back as undo then reaches.

Turn pointer: ``turn`` indexes ``order`` (the combatants with a place, highest first).
``turn is None`` means there is no current turn: before the first ``Next`` (round 0), or
after everyone left the order or delayed. ``Next`` then opens round ``round + 1`` at the
top; ``Act`` brings a delayed combatant back at the top of the current round.
Delayed combatants are kept apart in ``delayed`` until they act.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from engine.dice import Dice
from engine.errors import InputError
from engine.systems import coda

__all__ = [
    "MAX_COMBATANTS",
    "MAX_HISTORY",
    "MAX_NAME_LENGTH",
    "Act",
    "ActionBudget",
    "Add",
    "Combatant",
    "CombatantSummary",
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
    "Reveal",
    "Summary",
    "TooManyCombatants",
    "UnknownCombatant",
    "action_budget",
    "apply",
    "clean_name",
    "event_from_dict",
    "event_to_dict",
    "from_dict",
    "skip_reason",
    "summary",
    "to_dict",
    "undo",
]

MAX_COMBATANTS = 50
MAX_NAME_LENGTH = 64
#: Undo reaches this many events back; older ones are folded into the log's base.
MAX_HISTORY = 1000
#: Initiative totals beyond this are typing mistakes, not characters.
MAX_TOTAL = 10_000
ROLL_OFF_SIDES = 20
#: A fair die settles a roll-off in about one round; this only stops a broken Dice source.
MAX_ROLL_OFF_ROUNDS = 100
STATE_VERSION = 1


class InitiativeError(InputError):
    """An event the encounter cannot take; the message is written for the player."""


class InvalidName(InitiativeError):
    """A combatant name that is empty, too long or unprintable."""


class DuplicateCombatant(InitiativeError):
    """A second combatant with a name already in the encounter."""


class UnknownCombatant(InitiativeError):
    """A name that matches no combatant of the encounter."""


class TooManyCombatants(InitiativeError):
    """More combatants than :data:`MAX_COMBATANTS`."""


class NotAllowedNow(InitiativeError):
    """An event that the rules refuse in the encounter's present state."""


class EncounterEnded(InitiativeError):
    """Any change to an encounter that has ended (undo excepted)."""


class NothingToUndo(InitiativeError):
    """Undo at the start of the encounter (or of its kept history)."""


# --------------------------------------------------------------------------------------------
# State


@dataclass(frozen=True, slots=True)
class Combatant:
    """One participant. ``tiebreak`` holds its roll-off dice, compared after ``total``."""

    name: str
    total: int
    owner_id: int | None = None
    character: str | None = None
    tiebreak: tuple[int, ...] = ()
    hidden: bool = False
    #: Took the initiating action: no action in round 1 (RULES.md §2).
    initiator: bool = False
    #: CODA: loses one action in round 1 (RULES.md §1).
    surprised: bool = False
    #: Their turn came this round (the current combatant has acted).
    acted: bool = False
    #: Used this round's turn on a defensive roll: skipped for the rest of the round.
    defended: bool = False
    #: Turns taken in the whole encounter, for the summary.
    turns: int = 0
    #: How the total was rolled, for display (e.g. "2d6 (4, 3) + 2").
    detail: str = ""

    @property
    def key(self) -> str:
        return self.name.casefold()

    @property
    def rank(self) -> tuple[int, tuple[int, ...]]:
        """Sort key, highest first: total, then the roll-off dice."""
        return (self.total, self.tiebreak)


@dataclass(frozen=True, slots=True)
class Encounter:
    """One skirmish: the turn order, the round, the turn pointer, and the undo history."""

    system: str = "generic"
    initiator: str | None = None
    round: int = 0
    turn: int | None = None
    order: tuple[Combatant, ...] = ()
    delayed: tuple[Combatant, ...] = ()
    ended: bool = False
    #: The state the log starts from (``None``: the empty encounter with this system/initiator).
    base: Encounter | None = field(default=None, repr=False)
    #: Every applied event, resolved, oldest first.
    log: tuple[Event, ...] = field(default=(), repr=False)

    @property
    def current(self) -> Combatant | None:
        return None if self.turn is None else self.order[self.turn]

    @property
    def combatants(self) -> tuple[Combatant, ...]:
        """Everyone: the order, then the delayed."""
        return self.order + self.delayed

    @property
    def started(self) -> bool:
        return self.round >= 1

    def find(self, name: str) -> Combatant:
        """The combatant called ``name`` (case-insensitive), wherever it stands."""
        key = name.strip().casefold()
        for combatant in self.combatants:
            if combatant.key == key:
                return combatant
        raise UnknownCombatant(_unknown_message(self, name))

    def is_delayed(self, name: str) -> bool:
        key = name.strip().casefold()
        return any(c.key == key for c in self.delayed)

    def core(self) -> Encounter:
        """The state without its history: what players see, and what undo must restore."""
        return replace(self, base=None, log=())


def _unknown_message(state: Encounter, name: str) -> str:
    names = ", ".join(c.name for c in state.combatants) or "nobody yet"
    return f"No combatant is called {name.strip()!r} (in the encounter: {names})."


# --------------------------------------------------------------------------------------------
# Events


@dataclass(frozen=True, slots=True)
class Add:
    """A combatant joins (a player's character) or is added (an NPC by the GM).

    ``tiebreaks`` is filled in by :func:`apply` with every roll-off die drawn for this
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


@dataclass(frozen=True, slots=True)
class NamedEvent:
    """An event about one combatant, named as the user typed it (matched ignoring case)."""

    kind: ClassVar[str]
    name: str


@dataclass(frozen=True, slots=True)
class Remove(NamedEvent):
    kind: ClassVar[str] = "remove"


@dataclass(frozen=True, slots=True)
class Next:
    """The current turn ends; the next combatant with a turn this round starts (or a new round)."""

    kind: ClassVar[str] = "next"


@dataclass(frozen=True, slots=True)
class Prev:
    """Back to the previous turn taken. Navigation, not undo: flags of a left round are lost."""

    kind: ClassVar[str] = "prev"


@dataclass(frozen=True, slots=True)
class Delay:
    """The current combatant steps out of the order until it acts."""

    kind: ClassVar[str] = "delay"


@dataclass(frozen=True, slots=True)
class Act(NamedEvent):
    """A delayed combatant acts now, right after the current one, and keeps that place."""

    kind: ClassVar[str] = "act"


@dataclass(frozen=True, slots=True)
class Defend(NamedEvent):
    """A defensive roll: uses up that combatant's turn this round; its place does not change."""

    kind: ClassVar[str] = "defend"


@dataclass(frozen=True, slots=True)
class Reveal(NamedEvent):
    kind: ClassVar[str] = "reveal"


@dataclass(frozen=True, slots=True)
class End:
    kind: ClassVar[str] = "end"


Event = Add | Remove | Next | Prev | Delay | Act | Defend | Reveal | End
_EVENT_TYPES: dict[str, type] = {
    cls.kind: cls for cls in (Add, Remove, Next, Prev, Delay, Act, Defend, Reveal, End)
}


# --------------------------------------------------------------------------------------------
# Applying events


def clean_name(name: str) -> str:
    """The name as stored (outer spaces removed), or :class:`InvalidName` saying why not."""
    if not isinstance(name, str):
        raise InvalidName("A combatant name must be text.")
    cleaned = " ".join(name.split())
    if not cleaned:
        raise InvalidName("A combatant needs a name (1 to 64 characters).")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise InvalidName(
            f"A combatant name has at most {MAX_NAME_LENGTH} characters; "
            f"{cleaned[:20]!r}… has {len(cleaned)}."
        )
    if not cleaned.isprintable():
        raise InvalidName(f"{cleaned!r} holds characters that cannot be shown.")
    return cleaned


def apply(state: Encounter, event: Event, dice: Dice | None = None) -> Encounter:
    """The encounter after ``event``. ``dice`` is needed only when an addition ties.

    Raises an :class:`InitiativeError` subclass (a ``ValueError``) when the event is refused;
    the state passed in is never changed.
    """
    if state.ended:
        raise EncounterEnded("This encounter has ended; start a new one (or undo the end).")
    if isinstance(event, Add):
        event = _resolve_add(state, event, dice)
    new = _step(state, event)
    log = (*state.log, event)
    base = state.base
    if len(log) > MAX_HISTORY:
        # Fold the oldest events into the base: undo then reaches back MAX_HISTORY steps.
        drop = len(log) - MAX_HISTORY
        base = _replay(_start(state), log[:drop])
        log = log[drop:]
    return replace(new, base=base, log=log)


def undo(state: Encounter) -> Encounter:
    """The exact state before the last applied event (ended encounters included)."""
    if not state.log:
        raise NothingToUndo("Nothing to undo: this is the start of the encounter.")
    earlier = _replay(_start(state), state.log[:-1])
    return replace(earlier, base=state.base, log=state.log[:-1])


def _start(state: Encounter) -> Encounter:
    if state.base is not None:
        return state.base
    return Encounter(system=state.system, initiator=state.initiator)


def _replay(start: Encounter, events: Iterable[Event]) -> Encounter:
    current = start
    for event in events:
        current = _step(current, event)
    return current.core()


def _step(state: Encounter, event: Event) -> Encounter:
    """The deterministic transition (``Add`` already resolved). History fields pass through."""
    if isinstance(event, Next):
        return _next(state)
    if isinstance(event, Add):
        return _add(state, event)
    if isinstance(event, Remove):
        return _remove(state, event.name)
    if isinstance(event, Prev):
        return _prev(state)
    if isinstance(event, Delay):
        return _delay(state)
    if isinstance(event, Act):
        return _act(state, event.name)
    if isinstance(event, Defend):
        return _defend(state, event.name)
    if isinstance(event, Reveal):
        return _reveal(state, event.name)
    if isinstance(event, End):
        return replace(state, ended=True)
    raise TypeError(f"not an initiative event: {event!r}")


def _resolve_add(state: Encounter, event: Add, dice: Dice | None) -> Add:
    """Validate an addition and draw its roll-off dice (RULES.md §2: ties roll off)."""
    name = clean_name(event.name)
    key = name.casefold()
    state = _make_room(state, name, hidden=event.hidden)
    if any(c.key == key for c in state.combatants):
        raise DuplicateCombatant(f"{name!r} is already in the encounter; pick another name.")
    if len(state.combatants) >= MAX_COMBATANTS:
        raise TooManyCombatants(f"An encounter holds at most {MAX_COMBATANTS} combatants.")
    if isinstance(event.total, bool) or not isinstance(event.total, int):
        raise NotAllowedNow("An initiative total must be a whole number.")
    if not -MAX_TOTAL <= event.total <= MAX_TOTAL:
        raise NotAllowedNow(f"An initiative total must be within ±{MAX_TOTAL}.")
    character = event.character
    if character is not None:
        character = character.strip()[:MAX_NAME_LENGTH] or None
    detail = event.detail[:200]
    if event.tiebreaks is not None:
        tiebreaks = event.tiebreaks
    else:
        tiebreaks = _roll_off(state, event.total, name, dice)
    return replace(event, name=name, character=character, detail=detail, tiebreaks=tiebreaks)


def _roll_off(
    state: Encounter, total: int, name: str, dice: Dice | None
) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Roll off the newcomer against the combatants with the same total.

    Invariant: among combatants with equal totals no tie-break tuple equals or prefixes
    another, so they are strictly ordered, and a tuple only ever grows, which never changes
    an order already decided. A newcomer rolls one d20 at a time until no tied tuple
    shares its prefix; a tied combatant whose tuple *is* that prefix (at most one, by the
    invariant) rolls alongside it, first. Order of draws: that combatant, then the newcomer.
    """
    tied = [c for c in state.combatants if c.total == total]
    if not tied:
        return ()
    if dice is None:
        raise TypeError(f"{name} ties on {total}: a roll-off needs dice")
    mine: tuple[int, ...] = ()
    theirs: dict[str, tuple[int, ...]] = {}
    for _ in range(MAX_ROLL_OFF_ROUNDS):
        level = len(mine)
        contenders = [c for c in tied if theirs.get(c.name, c.tiebreak)[:level] == mine]
        if not contenders:
            break
        for contender in contenders:
            current = theirs.get(contender.name, contender.tiebreak)
            if len(current) == level:
                theirs[contender.name] = (*current, dice.roll(ROLL_OFF_SIDES))
        mine = (*mine, dice.roll(ROLL_OFF_SIDES))
    else:
        raise NotAllowedNow("The roll-off did not settle; the dice source looks broken.")
    return ((name, mine), *theirs.items())


def _make_room(state: Encounter, name: str, *, hidden: bool) -> Encounter:
    """A visible newcomer whose name a hidden combatant holds takes it; the hidden one is
    renamed ``Spy (hidden)``. Refusing ("'Spy' is already in the encounter") would tell the
    players it exists. Deterministic, so an undo's replay renames it again.
    """
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

    return replace(
        state,
        order=tuple(renamed_one(c) for c in state.order),
        delayed=tuple(renamed_one(c) for c in state.delayed),
    )


def _add(state: Encounter, event: Add) -> Encounter:
    state = _make_room(state, event.name, hidden=event.hidden)
    tiebreaks = dict(event.tiebreaks or ())
    is_initiator = (
        state.initiator is not None and state.initiator.strip().casefold() == event.name.casefold()
    )
    newcomer = Combatant(
        name=event.name,
        total=event.total,
        owner_id=event.owner_id,
        character=event.character,
        tiebreak=tiebreaks.pop(event.name, ()),
        hidden=event.hidden,
        initiator=is_initiator,
        surprised=event.surprised,
        detail=event.detail,
    )

    def extended(c: Combatant) -> Combatant:
        return replace(c, tiebreak=tiebreaks[c.name]) if c.name in tiebreaks else c

    order = [extended(c) for c in state.order]
    delayed = tuple(extended(c) for c in state.delayed)
    # Before the first combatant it outranks; an order reshaped by delays stays as it is.
    position = next((i for i, c in enumerate(order) if newcomer.rank > c.rank), len(order))
    order.insert(position, newcomer)
    turn = state.turn
    if turn is not None and position <= turn:
        turn += 1  # placed above the current turn: its turn comes next round
    return replace(state, order=tuple(order), delayed=delayed, turn=turn)


def _eligible(combatant: Combatant, round_: int) -> bool:
    """Whether it has a turn in ``round_``: not defended, not the initiator in round 1."""
    return not combatant.defended and not (round_ == 1 and combatant.initiator)


def skip_reason(state: Encounter, combatant: Combatant) -> str | None:
    """Why a combatant in the order gets no turn this round, or None."""
    if state.started and state.round == 1 and combatant.initiator:
        return "no action in round 1 (initiated)"
    if combatant.defended:
        return "defended this round"
    return None


def _begin(state: Encounter, order: list[Combatant], index: int, round_: int) -> Encounter:
    combatant = order[index]
    order[index] = replace(combatant, acted=True, turns=combatant.turns + 1)
    return replace(state, order=tuple(order), turn=index, round=round_)


def _advance(state: Encounter, order: list[Combatant], start: int | None) -> Encounter:
    """Give the turn to the first combatant with one at ``start`` or later, else a new round.

    ``start=None`` goes straight to a new round. In round 2 onwards everyone in a fresh
    round has a turn, so at most two new rounds are ever needed (round 1 may have none).
    """
    if not order:
        return replace(state, order=(), turn=None)
    round_ = state.round
    if start is not None:
        for index in range(start, len(order)):
            if _eligible(order[index], round_):
                return _begin(state, order, index, round_)
    while True:
        round_ += 1
        order = [replace(c, acted=False, defended=False) for c in order]
        for index, combatant in enumerate(order):
            if _eligible(combatant, round_):
                return _begin(state, order, index, round_)


def _next(state: Encounter) -> Encounter:
    if not state.order:
        if state.delayed:
            raise NotAllowedNow("Everyone is delaying: let one of them act.")
        raise NotAllowedNow("Nobody is in the encounter yet: join or add combatants first.")
    start = None if state.turn is None else state.turn + 1
    return _advance(state, list(state.order), start)


def _prev(state: Encounter) -> Encounter:
    if not state.started:
        raise NotAllowedNow("The encounter has not started yet: nothing to go back to.")
    if state.turn is None:
        raise NotAllowedNow("There is no current turn to go back from.")
    order = list(state.order)
    leaving = order[state.turn]
    order[state.turn] = replace(leaving, acted=False, turns=max(0, leaving.turns - 1))
    for index in range(state.turn - 1, -1, -1):
        if order[index].acted and _eligible(order[index], state.round):
            return replace(state, order=tuple(order), turn=index)
    if state.round <= 1:
        raise NotAllowedNow("This is the first turn of the encounter: nothing to go back to.")
    # Into the previous round, at its last turn: everyone's turn in it has come.
    round_ = state.round - 1
    order = [replace(c, acted=True, defended=False) for c in order]
    for index in range(len(order) - 1, -1, -1):
        if _eligible(order[index], round_):
            return replace(state, order=tuple(order), turn=index, round=round_)
    raise NotAllowedNow("This is the first turn of the encounter: nothing to go back to.")


def _delay(state: Encounter) -> Encounter:
    if state.turn is None:
        raise NotAllowedNow("There is no current turn to delay.")
    order = list(state.order)
    # Stepping out gives the turn back: it is taken when the combatant acts.
    leaving = order.pop(state.turn)
    leaving = replace(leaving, acted=False, turns=max(0, leaving.turns - 1))
    stepped = replace(state, delayed=(*state.delayed, leaving))
    return _advance(stepped, order, state.turn)


def _act(state: Encounter, name: str) -> Encounter:
    key = name.strip().casefold()
    index = next((i for i, c in enumerate(state.delayed) if c.key == key), None)
    if index is None:
        combatant = state.find(name)  # raises for an unknown name
        raise NotAllowedNow(f"{combatant.name} is not delaying; only a delayed combatant can act.")
    acting = state.delayed[index]
    if not _eligible(acting, state.round):
        raise NotAllowedNow(f"{acting.name} initiated: no action in round 1.")
    delayed = state.delayed[:index] + state.delayed[index + 1 :]
    order = list(state.order)
    if state.turn is None:
        # Nobody is up (everyone else delayed or left): it acts now, at the top, this round.
        order.insert(0, acting)
        return _begin(replace(state, delayed=delayed), order, 0, state.round)
    order.insert(state.turn + 1, acting)
    return _begin(replace(state, delayed=delayed), order, state.turn + 1, state.round)


def _defend(state: Encounter, name: str) -> Encounter:
    combatant = state.find(name)
    if state.is_delayed(name):
        raise NotAllowedNow(
            f"{combatant.name} is delaying: only a combatant with a place in the order can make "
            "a defensive roll that uses up its turn."
        )
    if not state.started or state.turn is None:
        raise NotAllowedNow("No round is under way: a defensive roll uses up a turn in a round.")
    index = state.order.index(combatant)
    if index == state.turn:
        raise NotAllowedNow(
            f"It is {combatant.name}'s turn now; a defensive roll uses up a turn not yet taken."
        )
    if combatant.defended:
        raise NotAllowedNow(f"{combatant.name} has already defended this round.")
    if combatant.acted or index < state.turn:
        raise NotAllowedNow(f"{combatant.name}'s turn this round has passed.")
    if state.round == 1 and combatant.initiator:
        raise NotAllowedNow(f"{combatant.name} initiated: no action (so no defence) in round 1.")
    order = list(state.order)
    order[index] = replace(combatant, defended=True)
    return replace(state, order=tuple(order))


def _remove(state: Encounter, name: str) -> Encounter:
    combatant = state.find(name)
    if state.is_delayed(name):
        return replace(state, delayed=tuple(c for c in state.delayed if c is not combatant))
    index = state.order.index(combatant)
    order = list(state.order)
    del order[index]
    if state.turn is None or index > state.turn:
        return replace(state, order=tuple(order))
    if index < state.turn:
        return replace(state, order=tuple(order), turn=state.turn - 1)
    # The current combatant left: the turn passes on.
    return _advance(state, order, index)


def _reveal(state: Encounter, name: str) -> Encounter:
    combatant = state.find(name)
    if not combatant.hidden:
        raise NotAllowedNow(f"{combatant.name} is not hidden.")
    shown = replace(combatant, hidden=False)
    return replace(
        state,
        order=tuple(shown if c is combatant else c for c in state.order),
        delayed=tuple(shown if c is combatant else c for c in state.delayed),
    )


# --------------------------------------------------------------------------------------------
# CODA actions per round (RULES.md §1)


@dataclass(frozen=True, slots=True)
class ActionBudget:
    """A CODA combatant's actions this round: ``free`` without penalty, then −5 cumulative.

    The arithmetic is CODA's own (:mod:`engine.systems.coda`); this only ties it to a turn.
    """

    free: int
    surprised: bool

    def penalty(self, action: int, cost: int = 1) -> int:
        """The penalty (subtracted) of an action starting at slot ``action`` costing ``cost``.

        An action costing more than one takes the largest penalty it spans (RULES.md §1).
        """
        return coda.action_penalty(action=action, cost=cost, allowance=self.free)

    @property
    def label(self) -> str:
        """E.g. ``2 actions · 3rd −5, 4th −10``."""
        plural = "action" if self.free == 1 else "actions"
        extra = ", ".join(
            f"{_ordinal(self.free + k)} −{self.penalty(self.free + k)}" for k in (1, 2)
        )
        note = " (surprised)" if self.surprised else ""
        return f"{self.free} {plural}{note} · {extra}"


def action_budget(state: Encounter, combatant: Combatant) -> ActionBudget:
    """Actions this round: two, one fewer for a surprised combatant in round 1."""
    round_number = max(1, state.round)
    free = coda.actions_in_round(round_number=round_number, surprised=combatant.surprised)
    return ActionBudget(free=free, surprised=combatant.surprised and round_number == 1)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# --------------------------------------------------------------------------------------------
# Summary


@dataclass(frozen=True, slots=True)
class CombatantSummary:
    name: str
    turns: int
    hidden: bool


@dataclass(frozen=True, slots=True)
class Summary:
    """What ``/init end`` posts: rounds fought and who acted how often."""

    rounds: int
    combatants: tuple[CombatantSummary, ...]

    @property
    def acted(self) -> tuple[CombatantSummary, ...]:
        return tuple(c for c in self.combatants if c.turns > 0)


def summary(state: Encounter) -> Summary:
    return Summary(
        rounds=state.round,
        combatants=tuple(
            CombatantSummary(name=c.name, turns=c.turns, hidden=c.hidden) for c in state.combatants
        ),
    )


# --------------------------------------------------------------------------------------------
# Serialisation (plain JSON-compatible dicts, stored in the database)


def _combatant_to_dict(c: Combatant) -> dict[str, Any]:
    data = dataclasses.asdict(c)
    data["tiebreak"] = list(c.tiebreak)
    return data


def _combatant_from_dict(data: Mapping[str, Any]) -> Combatant:
    fields = {f.name for f in dataclasses.fields(Combatant)}
    values = {k: v for k, v in data.items() if k in fields}
    values["tiebreak"] = tuple(values.get("tiebreak", ()))
    return Combatant(**values)


def event_to_dict(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"type": event.kind}
    for f in dataclasses.fields(event):
        data[f.name] = getattr(event, f.name)
    if isinstance(event, Add) and event.tiebreaks is not None:
        data["tiebreaks"] = [[name, list(dice)] for name, dice in event.tiebreaks]
    return data


def event_from_dict(data: Mapping[str, Any]) -> Event:
    try:
        cls = _EVENT_TYPES[data["type"]]
    except KeyError:
        raise InitiativeError(f"Unknown initiative event {data.get('type')!r}.") from None
    values = {f.name: data[f.name] for f in dataclasses.fields(cls) if f.name in data}
    if cls is Add and values.get("tiebreaks") is not None:
        values["tiebreaks"] = tuple((name, tuple(dice)) for name, dice in values["tiebreaks"])
    return cls(**values)


def _core_to_dict(state: Encounter) -> dict[str, Any]:
    return {
        "system": state.system,
        "initiator": state.initiator,
        "round": state.round,
        "turn": state.turn,
        "order": [_combatant_to_dict(c) for c in state.order],
        "delayed": [_combatant_to_dict(c) for c in state.delayed],
        "ended": state.ended,
    }


def _core_from_dict(data: Mapping[str, Any]) -> Encounter:
    return Encounter(
        system=data["system"],
        initiator=data.get("initiator"),
        round=data["round"],
        turn=data.get("turn"),
        order=tuple(_combatant_from_dict(c) for c in data.get("order", ())),
        delayed=tuple(_combatant_from_dict(c) for c in data.get("delayed", ())),
        ended=data.get("ended", False),
    )


def to_dict(state: Encounter) -> dict[str, Any]:
    """The whole encounter, history included, as JSON-compatible data."""
    data = _core_to_dict(state)
    data["version"] = STATE_VERSION
    data["base"] = None if state.base is None else _core_to_dict(state.base)
    data["log"] = [event_to_dict(e) for e in state.log]
    return data


def from_dict(data: Mapping[str, Any]) -> Encounter:
    """The encounter :func:`to_dict` stored; a malformed record raises :class:`InitiativeError`."""
    if data.get("version") != STATE_VERSION:
        raise InitiativeError(f"Stored encounter has version {data.get('version')!r}.")
    try:
        state = _core_from_dict(data)
        base = None if data.get("base") is None else _core_from_dict(data["base"])
        log = tuple(event_from_dict(e) for e in data.get("log", ()))
    except (KeyError, TypeError) as error:
        raise InitiativeError(f"Stored encounter is malformed ({error}).") from None
    _check(state)
    return replace(state, base=base, log=log)


def _check(state: Encounter) -> None:
    """The invariants every reachable state keeps (also asserted by the tests)."""
    keys = [c.key for c in state.combatants]
    if len(set(keys)) != len(keys):
        raise InitiativeError("Stored encounter has two combatants with one name.")
    if state.turn is not None and not 0 <= state.turn < len(state.order):
        raise InitiativeError("Stored encounter's turn points outside its order.")
