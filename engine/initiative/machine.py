"""Applying events: validation, drawing their dice, the bounded undo log.

Why an event log and not snapshots: undo must restore the *exact* earlier state any number
of steps back. Every applied event is recorded in resolved form (an ``Add`` carries the
roll-off results it drew, a round-starting event its re-rolls), so replaying the log from
its base reproduces every state without dice. Only undo pays for the replay (milliseconds
at a full log, see ``benchmarks/initiative.py``), and a log of small events stores far less
than one snapshot per step. The log is bounded (:data:`MAX_HISTORY`): beyond it the oldest
events are folded into the base, which is as far back as undo then reaches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from engine.dice import Dice
from engine.errors import N_
from engine.initiative.errors import (
    DuplicateCombatant,
    EncounterEnded,
    NotAllowedNow,
    NothingToUndo,
    TooManyCombatants,
)
from engine.initiative.events import Add, Delay, Event, Next, Remove, Reroll
from engine.initiative.names import make_room
from engine.initiative.rolloff import roll_off
from engine.initiative.rolls import roll_initiative
from engine.initiative.state import (
    MAX_COMBATANTS,
    MAX_NAME_LENGTH,
    MAX_TOTAL,
    Combatant,
    Encounter,
    clean_name,
)
from engine.initiative.turns import new_round_needed, step

__all__ = ["MAX_HISTORY", "Roller", "apply", "undo"]

#: Undo reaches this many events back; older ones are folded into the log's base.
MAX_HISTORY = 1000
#: How a re-roll rolls one combatant: (total, detail). The bot's own honours the
#: encounter's dice notation; the default is the system's roll + the combatant's modifier.
Roller = Callable[[Combatant], tuple[int, str]]


def apply(
    state: Encounter, event: Event, dice: Dice | None = None, roller: Roller | None = None
) -> Encounter:
    """The encounter after ``event``. ``dice`` is needed when an addition ties or a round
    starts with the re-roll option on (``roller``, if given, rolls each combatant then).

    Raises an :class:`InitiativeError` subclass (a ``ValueError``) when the event is refused;
    the state passed in is never changed.
    """
    if state.ended:
        raise EncounterEnded(N_("This encounter has ended; start a new one (or undo the end)."))
    if isinstance(event, Add):
        event = _resolve_add(state, event, dice)
    elif isinstance(event, Next | Delay | Remove) and _needs_reroll(state, event):
        event = replace(event, rerolls=_reroll(state, dice, roller))
    new = step(state, event)
    log = (*state.log, event)
    base = state.base
    if len(log) > MAX_HISTORY:
        # Fold the oldest events into the base: undo then reaches back MAX_HISTORY steps.
        drop = len(log) - MAX_HISTORY
        base = _replay(_start(state), log[:drop])
        log = log[drop:]
    return replace(new, base=base, log=log)


def _needs_reroll(state: Encounter, event: Event) -> bool:
    """A round-starting event not yet resolved, in an encounter that re-rolls each round.

    Round 1 keeps the initiative rolled on joining; every later round re-rolls. Only the
    events carrying ``rerolls`` (``Next``, ``Delay``, ``Remove``) can be unresolved.
    """
    unresolved = getattr(event, "rerolls", True) is None
    return state.reroll and state.started and unresolved and new_round_needed(state, event)


def undo(state: Encounter) -> Encounter:
    """The exact state before the last applied event (ended encounters included)."""
    if not state.log:
        raise NothingToUndo(N_("Nothing to undo: this is the start of the encounter."))
    earlier = _replay(_start(state), state.log[:-1])
    return replace(earlier, base=state.base, log=state.log[:-1])


def _start(state: Encounter) -> Encounter:
    if state.base is not None:
        return state.base
    return Encounter(system=state.system, initiator=state.initiator, reroll=state.reroll)


def _replay(start: Encounter, events: Iterable[Event]) -> Encounter:
    current = start
    for event in events:
        current = step(current, event)
    return current.core()


def _resolve_add(state: Encounter, event: Add, dice: Dice | None) -> Add:
    """Validate an addition and draw its roll-off (RULES.md §2: ties roll off)."""
    name = clean_name(event.name)
    key = name.casefold()
    state = make_room(state, name, hidden=event.hidden)
    if any(c.key == key for c in state.combatants):
        raise DuplicateCombatant(
            N_("{name} is already in the encounter; pick another name."), name=repr(name)
        )
    if len(state.combatants) >= MAX_COMBATANTS:
        raise TooManyCombatants(
            N_("An encounter holds at most {high} combatants."), high=MAX_COMBATANTS
        )
    _check_total(event.total)
    character = event.character
    if character is not None:
        character = character.strip()[:MAX_NAME_LENGTH] or None
    detail = event.detail[:200]
    tiebreaks = event.tiebreaks
    if tiebreaks is None:
        tied = [(c.name, c.tiebreak) for c in state.combatants if c.total == event.total]
        tiebreaks = roll_off(tied, name, state.system, dice)
    return replace(event, name=name, character=character, detail=detail, tiebreaks=tiebreaks)


def _check_total(total: object) -> None:
    if isinstance(total, bool) or not isinstance(total, int):
        raise NotAllowedNow(N_("An initiative total must be a whole number."))
    if not -MAX_TOTAL <= total <= MAX_TOTAL:
        raise NotAllowedNow(N_("An initiative total must be within ±{high}."), high=MAX_TOTAL)


def default_roller(state: Encounter, dice: Dice) -> Roller:
    """The system's own initiative roll + each combatant's modifier (no stress after round 1)."""

    def roll(combatant: Combatant) -> tuple[int, str]:
        rolled = roll_initiative(dice, system=state.system, modifier=combatant.modifier)
        return rolled.total, rolled.detail

    return roll


def _reroll(state: Encounter, dice: Dice | None, roller: Roller | None) -> tuple[Reroll, ...]:
    """Everyone's new initiative for the next round, ties rolled off as when joining.

    Order of draws: each combatant in the present turn order, its roll then its roll-off.
    """
    if dice is None:
        raise TypeError("a re-roll needs dice")
    roll = roller or default_roller(state, dice)
    done: list[tuple[str, int, str, tuple[int, ...]]] = []
    for combatant in state.order:
        total, detail = roll(combatant)
        _check_total(total)
        tied = [(n, t) for n, tot, _, t in done if tot == total]
        grown = dict(roll_off(tied, combatant.name, state.system, dice))
        done = [(n, tot, d, grown.get(n, t)) for n, tot, d, t in done]
        done.append((combatant.name, total, detail[:200], grown.get(combatant.name, ())))
    return tuple(done)
