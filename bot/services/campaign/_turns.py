"""The turn order as a campaign page shows it: the same visibility as the channel's tracker
(hidden combatants only to a GM), plus what the GM alone sees there (NPCs' Health).

Read through :func:`bot.services.initiative.show`, so the GM rule and the Health of
sheet-played combatants are the ones ``/init show`` uses; nothing here reads storage.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.services import initiative
from bot.storage import Database
from engine import initiative as ini


@dataclass(frozen=True, slots=True)
class Combatant:
    """One line of the turn order as this viewer may see it."""

    name: str
    total: int
    current: bool
    acted: bool
    delaying: bool
    hidden: bool
    #: Why the combatant's turn is skipped this round (defended, initiator, …), or "".
    skip: str
    #: Conditions as the tracker labels them ("Stunned (2 rounds)").
    conditions: tuple[str, ...]
    #: (current, max) Health: a sheet's for everyone, an NPC's only for a GM (else None).
    health: tuple[int, int | None] | None
    owner_id: int | None


@dataclass(frozen=True, slots=True)
class TurnOrder:
    """The channel's encounter for one viewer; ``revision`` is the state it shows."""

    system: str
    system_title: str
    round: int
    started: bool
    ended: bool
    combatants: tuple[Combatant, ...]
    current: Combatant | None
    gm: bool
    revision: int


async def turn_order(db: Database, actor: Actor) -> TurnOrder | None:
    """The running encounter as ``actor`` may see it, or None when nothing runs (texts in
    the current language: :func:`bot.i18n.use_language` or the web's own)."""
    try:
        view = await initiative.show(db, actor)
    except UserError:  # show() refuses only "no encounter in this channel"
        return None
    return order_of(view)


def order_of(view: initiative.EncounterView) -> TurnOrder:
    """The page's read model of an encounter view (its ``gm`` decides what is shown)."""
    state = view.state
    shown = []
    current = None
    for index, combatant in enumerate(state.combatants):
        if combatant.hidden and not view.gm:
            continue
        line = _line(view, index, combatant)
        shown.append(line)
        if line.current:
            current = line
    return TurnOrder(
        system=view.system,
        system_title=view.system_title,
        round=state.round,
        started=state.started,
        ended=state.ended,
        combatants=tuple(shown),
        current=current,
        gm=view.gm,
        revision=view.revision,
    )


def _line(view: initiative.EncounterView, index: int, combatant: ini.Combatant) -> Combatant:
    from_sheet = combatant.owner_id is not None and bool(combatant.character)
    health = view.health_of(combatant.name) if (from_sheet or view.gm) else None
    state = view.state
    skip = ""
    if state.started and not state.ended:
        skip = ini.skip_reason(state, combatant, _) or ""
    return Combatant(
        name=combatant.name,
        total=combatant.total,
        current=index == state.turn and not state.ended,
        acted=combatant.acted and state.started,
        delaying=combatant.delaying is not None,
        hidden=combatant.hidden,
        skip=skip,
        conditions=tuple(c.label_in(_) for c in combatant.conditions),
        health=health,
        owner_id=combatant.owner_id,
    )
