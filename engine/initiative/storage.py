"""Serialisation: plain JSON-compatible dicts, stored in the database.

Version 1 records written before delayers kept their place list them apart under
``delayed``; they are read back into the order's end, delaying since the stored round.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.errors import N_
from engine.initiative.errors import InitiativeError
from engine.initiative.events import EVENT_TYPES, Add, Event
from engine.initiative.state import Combatant, Condition, Encounter

__all__ = ["STATE_VERSION", "event_from_dict", "event_to_dict", "from_dict", "to_dict"]

STATE_VERSION = 1
# Field names, read once: every change stores the whole encounter, history included, so
# these run for each combatant and each logged event (``dataclasses.asdict`` deep-copies
# every value and ``dataclasses.fields`` rebuilds its tuple on each call: docs/performance.md).
_COMBATANT_NAMES = tuple(f.name for f in dataclasses.fields(Combatant))
_COMBATANT_FIELDS = frozenset(_COMBATANT_NAMES)
_CONDITION_NAMES = tuple(f.name for f in dataclasses.fields(Condition))
_EVENT_NAMES: dict[type[Any], tuple[str, ...]] = {}


def _names(cls: type[Any]) -> tuple[str, ...]:
    """An event class's field names, in declaration order (computed once per class)."""
    names = _EVENT_NAMES.get(cls)
    if names is None:
        names = _EVENT_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _combatant_to_dict(c: Combatant) -> dict[str, Any]:
    # The values are str, int, bool or None, except the two tuples made lists below: the
    # same dict ``dataclasses.asdict`` gave, without its deep copies.
    data = {name: getattr(c, name) for name in _COMBATANT_NAMES}
    data["tiebreak"] = list(c.tiebreak)
    data["conditions"] = [
        {name: getattr(condition, name) for name in _CONDITION_NAMES} for condition in c.conditions
    ]
    return data


def _combatant_from_dict(data: Mapping[str, Any]) -> Combatant:
    values = {k: v for k, v in data.items() if k in _COMBATANT_FIELDS}
    values["tiebreak"] = tuple(values.get("tiebreak", ()))
    values["conditions"] = tuple(Condition(**c) for c in values.get("conditions", ()))
    return Combatant(**values)


def event_to_dict(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"type": event.kind}
    for name in _names(type(event)):
        data[name] = getattr(event, name)
    if isinstance(event, Add) and event.tiebreaks is not None:
        data["tiebreaks"] = [[name, list(dice)] for name, dice in event.tiebreaks]
    rerolls = data.pop("rerolls", None)  # most events have none: not stored
    if rerolls is not None:
        data["rerolls"] = [[n, total, detail, list(t)] for n, total, detail, t in rerolls]
    return data


def event_from_dict(data: Mapping[str, Any]) -> Event:
    try:
        cls = EVENT_TYPES[data["type"]]
    except KeyError:
        raise InitiativeError(
            N_("Unknown initiative event {kind}."), kind=repr(data.get("type"))
        ) from None
    values = {name: data[name] for name in _names(cls) if name in data}
    if cls is Add and values.get("tiebreaks") is not None:
        values["tiebreaks"] = tuple((name, tuple(dice)) for name, dice in values["tiebreaks"])
    if values.get("rerolls") is not None:
        values["rerolls"] = tuple(
            (n, total, detail, tuple(t)) for n, total, detail, t in values["rerolls"]
        )
    return cls(**values)


def _core_to_dict(state: Encounter) -> dict[str, Any]:
    return {
        "system": state.system,
        "initiator": state.initiator,
        "round": state.round,
        "turn": state.turn,
        "order": [_combatant_to_dict(c) for c in state.order],
        "ended": state.ended,
        "reroll": state.reroll,
    }


def _core_from_dict(data: Mapping[str, Any]) -> Encounter:
    order = tuple(_combatant_from_dict(c) for c in data.get("order", ()))
    # Older records: the delayed apart, after the order.
    apart = tuple(
        replace(_combatant_from_dict(c), delaying=data["round"]) for c in data.get("delayed", ())
    )
    return Encounter(
        system=data["system"],
        initiator=data.get("initiator"),
        round=data["round"],
        turn=data.get("turn"),
        order=order + apart,
        ended=data.get("ended", False),
        reroll=data.get("reroll", False),
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
    _check_version(data)
    try:
        state = _core_from_dict(data)
        base = None if data.get("base") is None else _core_from_dict(data["base"])
        log = tuple(event_from_dict(e) for e in data.get("log", ()))
    except (KeyError, TypeError, ValueError) as error:
        raise _malformed(error) from None
    _check(state)
    return replace(state, base=base, log=log)


def current_from_dict(data: Mapping[str, Any]) -> Encounter:
    """Only the current state :func:`to_dict` stored, without its history (no ``base``, an
    empty ``log``), for read-only views such as the channel's tracker and autocomplete.

    Parsing the log is most of :func:`from_dict`'s cost and grows with the encounter (about
    2 ms at :data:`~engine.initiative.machine.MAX_HISTORY` events, against 0.2 ms for the
    state alone): a view that shows the order never needs it. Never apply, undo or store
    the result: its history is gone. A malformed record raises :class:`InitiativeError`.
    """
    _check_version(data)
    try:
        state = _core_from_dict(data)
    except (KeyError, TypeError, ValueError) as error:
        raise _malformed(error) from None
    _check(state)
    return state


def _check_version(data: Mapping[str, Any]) -> None:
    if data.get("version") != STATE_VERSION:
        raise InitiativeError(
            N_("Stored encounter has version {version}."), version=repr(data.get("version"))
        )


def _malformed(error: Exception) -> InitiativeError:
    return InitiativeError(N_("Stored encounter is malformed ({error})."), error=str(error))


def _check(state: Encounter) -> None:
    """The invariants every reachable state keeps (also asserted by the tests)."""
    keys = [c.key for c in state.combatants]
    if len(set(keys)) != len(keys):
        raise InitiativeError(N_("Stored encounter has two combatants with one name."))
    if state.turn is not None and not 0 <= state.turn < len(state.order):
        raise InitiativeError(N_("Stored encounter's turn points outside its order."))
