"""The deterministic transitions: one function per event (``Add`` and re-rolls already resolved).

Nothing here draws a die; :mod:`engine.initiative.machine` resolves an event's dice first,
so replaying the log reproduces every state exactly.

Rules (RULES.md §1 CODA, §2 Hogwarts 1990):

- The initiator has no turn in round 1; a defended combatant none for the rest of the round.
- A delayer keeps its place; it may act right after the current actor later in the round
  or in the next round up to its place. If its place comes round again in the next round
  the delay ends there and it takes that turn normally (the delayed action is lost).
- While everyone is delaying nobody is up (``turn is None``); ``Next`` starts a new round.
- CODA surprise: in round 1 the surprised act after every unsurprised combatant (each
  group in initiative order); from round 2 the order is by initiative alone.
"""

from __future__ import annotations

from dataclasses import replace

from engine.errors import N_
from engine.initiative.budget import spend_action
from engine.initiative.conditions import add_condition, remove_condition, tick
from engine.initiative.errors import NotAllowedNow
from engine.initiative.events import (
    Act,
    Add,
    AddCondition,
    Defend,
    Delay,
    End,
    Event,
    Next,
    Prev,
    Remove,
    RemoveCondition,
    Reroll,
    Rerolls,
    Reveal,
    SetHealth,
    SpendAction,
)
from engine.initiative.health import check_health, set_health
from engine.initiative.names import make_room
from engine.initiative.state import Combatant, Encounter
from engine.wording import Translate, english

__all__ = ["eligible", "new_round_needed", "position", "skip_reason", "step"]

CODA = "coda"


def step(state: Encounter, event: Event) -> Encounter:
    """The deterministic transition (dice already resolved). History fields pass through."""
    if isinstance(event, Next):
        return _next(state, event.rerolls)
    if isinstance(event, Add):
        return _add(state, event)
    if isinstance(event, Remove):
        return _remove(state, event.name, event.rerolls)
    if isinstance(event, Prev):
        return _prev(state)
    if isinstance(event, Delay):
        return _delay(state, event.rerolls)
    if isinstance(event, Act):
        return _act(state, event.name)
    if isinstance(event, Defend):
        return _defend(state, event.name, event.protects)
    if isinstance(event, Reveal):
        return _reveal(state, event.name)
    if isinstance(event, AddCondition):
        return add_condition(state, event)
    if isinstance(event, RemoveCondition):
        return remove_condition(state, event)
    if isinstance(event, SpendAction):
        return spend_action(state, event)
    if isinstance(event, SetHealth):
        return set_health(state, event)
    if isinstance(event, End):
        return replace(state, ended=True)
    raise TypeError(f"not an initiative event: {event!r}")


def new_round_needed(state: Encounter, event: Event) -> bool:
    """Whether ``event`` would start a new round (so a re-roll must be drawn for it)."""
    if not isinstance(event, Next | Delay | Remove):
        return False
    try:
        after = step(state, event)
    except NotAllowedNow:
        return False
    return after.round > state.round


# ------------------------------------------------------------------ ordering


_Rank = tuple[int, tuple[int, ...]]  # Combatant.rank


def _sort_key(
    state: Encounter, combatant: Combatant, round_: int
) -> tuple[bool, _Rank] | tuple[_Rank]:
    """Higher goes first: in CODA's round 1 the unsurprised before the surprised."""
    if state.system == CODA and round_ == 1:
        return (not combatant.surprised, combatant.rank)
    return (combatant.rank,)


def position(state: Encounter, order: list[Combatant], newcomer: Combatant) -> int:
    """Where a newcomer goes: before the first combatant it outranks (delays keep their shape)."""
    mine = _sort_key(state, newcomer, state.round)
    return next(
        (i for i, c in enumerate(order) if mine > _sort_key(state, c, state.round)), len(order)
    )


def _round_order(state: Encounter, order: list[Combatant], round_: int) -> list[Combatant]:
    """The order a round starts with: CODA's surprised to the end in round 1 and back in round 2."""
    if state.system != CODA or not any(c.surprised for c in order):
        return order
    if round_ == 1:
        return [c for c in order if not c.surprised] + [c for c in order if c.surprised]
    if round_ == 2:
        rest = [c for c in order if not c.surprised]
        for late in sorted((c for c in order if c.surprised), key=lambda c: c.rank, reverse=True):
            rest.insert(
                next((i for i, c in enumerate(rest) if late.rank > c.rank), len(rest)), late
            )
        return rest
    return order


def _rerolled(order: list[Combatant], rerolls: Rerolls) -> list[Combatant]:
    """Everyone's new initiative, the order sorted by it (ties already rolled off)."""
    by_name: dict[str, Reroll] = {r[0]: r for r in rerolls}
    new = []
    for c in order:
        _, total, detail, tiebreak = by_name[c.name]
        new.append(replace(c, total=total, detail=detail, tiebreak=tuple(tiebreak)))
    return sorted(new, key=lambda c: c.rank, reverse=True)


# ------------------------------------------------------------------ turns


def eligible(combatant: Combatant, round_: int) -> bool:
    """Whether it takes a turn when the pointer reaches it in ``round_``.

    Not when it defended, nor the initiator in round 1, nor a delayer in the round its
    delay began; a delayer from an earlier round does (its delay ends there).
    """
    if combatant.defended or (round_ == 1 and combatant.initiator):
        return False
    return combatant.delaying is None or combatant.delaying < round_


def skip_reason(
    state: Encounter, combatant: Combatant, translate: Translate = english
) -> str | None:
    """Why a combatant gets no turn this round when the pointer reaches it, or None
    (``translate``: the bot's ``_`` for the player's language, see :mod:`engine.wording`)."""
    if combatant.delaying is not None:
        if combatant.delaying < state.round:
            return translate(
                N_("delaying (since round {round}; ends at this place)"),
                round=combatant.delaying,
            )
        return translate(N_("delaying"))
    if state.started and state.round == 1 and combatant.initiator:
        return translate(N_("no action in round 1 (initiated)"))
    if combatant.defended:
        return translate(N_("defended this round"))
    return None


def _begin(
    state: Encounter, order: list[Combatant], index: int, round_: int, *, fresh: bool = True
) -> Encounter:
    """The combatant at ``index`` takes its turn; ``fresh``: a new turn (conditions tick)."""
    combatant = order[index]
    if fresh:
        combatant = tick(combatant, "start")
    order[index] = replace(combatant, acted=True, turns=combatant.turns + 1, delaying=None)
    return replace(state, order=tuple(order), turn=index, round=round_)


def _advance(
    state: Encounter, order: list[Combatant], start: int | None, rerolls: Rerolls | None = None
) -> Encounter:
    """Give the turn to the first combatant with one at ``start`` or later, else a new round.

    ``start=None`` goes straight to a new round. When nobody from ``start`` on has a turn
    and everyone is delaying, nobody is up (they may still act this round). In round 2
    onwards everyone in a fresh round has a turn, so at most two new rounds are needed.
    """
    if not order:
        return replace(state, order=(), turn=None)
    round_ = state.round
    if start is not None:
        for index in range(start, len(order)):
            if eligible(order[index], round_):
                return _begin(state, order, index, round_)
        if all(c.delaying is not None for c in order):
            return replace(state, order=tuple(order), turn=None)
    while True:
        round_ += 1
        order = [replace(c, acted=False, defended=False, actions=0) for c in order]
        if rerolls is not None:
            order = _rerolled(order, rerolls)
            rerolls = None  # one re-roll per event: a second new round keeps it
        order = _round_order(state, order, round_)
        for index, combatant in enumerate(order):
            if eligible(combatant, round_):
                return _begin(state, order, index, round_)


def _next(state: Encounter, rerolls: Rerolls | None) -> Encounter:
    if not state.order:
        raise NotAllowedNow(N_("Nobody is in the encounter yet: join or add combatants first."))
    order = list(state.order)
    start = None
    if state.turn is not None:
        start = state.turn + 1
        order[state.turn] = tick(order[state.turn], "end")  # the current turn ends
    return _advance(state, order, start, rerolls)


def _prev(state: Encounter) -> Encounter:
    if not state.started:
        raise NotAllowedNow(N_("The encounter has not started yet: nothing to go back to."))
    if state.turn is None:
        raise NotAllowedNow(N_("There is no current turn to go back from."))
    order = list(state.order)
    leaving = order[state.turn]
    order[state.turn] = replace(leaving, acted=False, turns=max(0, leaving.turns - 1))
    for index in range(state.turn - 1, -1, -1):
        if order[index].acted and eligible(order[index], state.round):
            return replace(state, order=tuple(order), turn=index)
    if state.round <= 1:
        raise NotAllowedNow(N_("This is the first turn of the encounter: nothing to go back to."))
    # Into the previous round, at its last turn: everyone's turn in it has come.
    round_ = state.round - 1
    # A delay begun in the round left behind is one of its flags: it is lost with them.
    order = [c if c.delaying != state.round else replace(c, delaying=None) for c in order]
    order = [replace(c, defended=False, actions=0) for c in order]
    order = [replace(c, acted=eligible(c, round_)) for c in order]
    order = _round_order(state, order, round_)
    for index in range(len(order) - 1, -1, -1):
        if eligible(order[index], round_):
            return replace(state, order=tuple(order), turn=index, round=round_)
    raise NotAllowedNow(N_("This is the first turn of the encounter: nothing to go back to."))


def _delay(state: Encounter, rerolls: Rerolls | None) -> Encounter:
    if state.turn is None:
        raise NotAllowedNow(N_("There is no current turn to delay."))
    order = list(state.order)
    # Stepping out gives the turn back: it is taken when the combatant acts.
    leaving = order[state.turn]
    order[state.turn] = replace(
        leaving, acted=False, turns=max(0, leaving.turns - 1), delaying=state.round
    )
    return _advance(state, order, state.turn + 1, rerolls)


def _act(state: Encounter, name: str) -> Encounter:
    acting = state.find(name)  # raises for an unknown name
    if acting.delaying is None:
        raise NotAllowedNow(
            N_("{name} is not delaying; only a delayed combatant can act."), name=acting.name
        )
    if state.round == 1 and acting.initiator:
        raise NotAllowedNow(N_("{name} initiated: no action in round 1."), name=acting.name)
    order = list(state.order)
    index = order.index(acting)
    del order[index]
    acting = replace(acting, delaying=None)
    if state.turn is None:
        # Nobody is up (everyone else delayed): it acts now, at the top, this round.
        order.insert(0, acting)
        return _begin(state, order, 0, state.round, fresh=False)
    turn = state.turn - 1 if index < state.turn else state.turn
    order.insert(turn + 1, acting)
    # The turn it delayed resumes: its conditions counted down when it began.
    return _begin(state, order, turn + 1, state.round, fresh=False)


def _defend(state: Encounter, name: str, protects: str | None) -> Encounter:
    combatant = state.find(name)
    protected = None if protects is None else state.find(protects)
    if protected is combatant:
        protected = None
    if not state.started:
        raise NotAllowedNow(
            N_("No round is under way: a defensive roll uses up a turn in a round.")
        )
    index = state.order.index(combatant)
    order = list(state.order)
    if combatant.delaying is not None:
        # RULES.md §2: a delayer who dodges spends the delayed action and keeps its place.
        # Delayed this round, its turn here has passed; from an earlier round, it still comes.
        spent = combatant.delaying == state.round
        order[index] = replace(combatant, delaying=None, acted=spent, defended=spent)
        return replace(state, order=tuple(order))
    if protected is not None:
        raise NotAllowedNow(
            N_("{name} is not delaying: only a delaying combatant may dodge on behalf of another."),
            name=combatant.name,
        )
    if state.turn is None:
        raise NotAllowedNow(N_("No turn is under way: a defensive roll uses up a turn in a round."))
    if index == state.turn:
        raise NotAllowedNow(
            N_("It is {name}'s turn now; a defensive roll uses up a turn not yet taken."),
            name=combatant.name,
        )
    if combatant.defended:
        raise NotAllowedNow(N_("{name} has already defended this round."), name=combatant.name)
    if combatant.acted or index < state.turn:
        raise NotAllowedNow(N_("{name}'s turn this round has passed."), name=combatant.name)
    if state.round == 1 and combatant.initiator:
        raise NotAllowedNow(
            N_("{name} initiated: no action (so no defence) in round 1."), name=combatant.name
        )
    order[index] = replace(combatant, defended=True)
    return replace(state, order=tuple(order))


def _add(state: Encounter, event: Add) -> Encounter:
    state = make_room(state, event.name, hidden=event.hidden)
    tiebreaks = dict(event.tiebreaks or ())
    initiator = state.initiator
    is_initiator = initiator is not None and initiator.strip().casefold() == event.name.casefold()
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
        modifier=event.modifier,
        health=None if event.health is None else check_health(event.health),
        max_health=None if event.health is None else event.health,
    )
    order = [
        replace(c, tiebreak=tiebreaks[c.name]) if c.name in tiebreaks else c for c in state.order
    ]
    at = position(state, order, newcomer)
    order.insert(at, newcomer)
    turn = state.turn
    if turn is not None and at <= turn:
        turn += 1  # placed above the current turn: its turn comes next round
    return replace(state, order=tuple(order), turn=turn)


def _remove(state: Encounter, name: str, rerolls: Rerolls | None) -> Encounter:
    combatant = state.find(name)
    index = state.order.index(combatant)
    order = list(state.order)
    del order[index]
    if state.turn is None or index > state.turn:
        return replace(state, order=tuple(order))
    if index < state.turn:
        return replace(state, order=tuple(order), turn=state.turn - 1)
    # The current combatant left: the turn passes on.
    return _advance(state, order, index, rerolls)


def _reveal(state: Encounter, name: str) -> Encounter:
    combatant = state.find(name)
    if not combatant.hidden:
        raise NotAllowedNow(N_("{name} is not hidden."), name=combatant.name)
    shown = replace(combatant, hidden=False)
    return replace(state, order=tuple(shown if c is combatant else c for c in state.order))
