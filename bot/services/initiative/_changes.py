"""Changing a running encounter: one engine event per use case, under the permission rules.

:func:`change` reads the row locked, applies one event and writes the result back in the
same transaction, so twenty simultaneous ``next`` presses advance exactly twenty turns and a
reply only ever reports a state that is on disk. The GM runs everything; a player may
``delay`` or ``next`` only while the current turn is their own combatant's. The turn moves,
undo and the end of an encounter live here; the changes to one combatant's conditions,
actions and Health (:mod:`bot.services.initiative._combatants`) go through :func:`change` too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import N_, _
from bot.services.initiative._outcome import EncounterView, InitOutcome
from bot.services.initiative._rolls import log_rerolls, reroller
from bot.services.initiative._store import (
    NO_ENCOUNTER,
    gm_encounter,
    health_of,
    last_committed,
    lock_encounter,
    parsed,
    remember,
    require_encounter,
    save,
    stored_form,
    view_of,
    view_with,
)
from bot.services.permissions import WHO_IS_GM, is_gm, require_gm
from bot.storage import Database
from bot.storage.repositories import initiative as encounters
from bot.text import UserText
from engine import initiative as ini
from engine.dice import Dice

NOT_YOUR_TURN = N_("Only the GM, or the player whose combatant's turn it is, can {action} ({who}).")

#: A step run in a change's transaction after its event applied: (session, row, before, after).
Then = Callable[[AsyncSession, encounters.Locked, ini.Encounter, ini.Encounter], Awaitable[Any]]


async def change(
    db: Database,
    actor: Actor,
    event: ini.Event,
    *,
    action: str,
    players_on_their_turn: bool = False,
    dice: Dice | None = None,
    then: Then | None = None,
) -> InitOutcome:
    """Apply one event to the channel's encounter under the permission rules.

    ``players_on_their_turn``: a player may also do it while the current turn is their own
    combatant's (next, delay); otherwise only a GM may. ``dice`` rolls the re-rolls of an
    encounter that re-rolls each round. ``then`` runs in the same transaction after the
    event applied (its result is the outcome's ``extra``).

    A change that needs nothing from the database but its row (a GM by Discord's word, no
    ``then``, an encounter that does not re-roll: most turn moves) runs in a transaction of
    its own around the row (:func:`_change_alone`): the unit of work around the same two
    statements cost most of ``/init next``'s CPU. The others need the unit of work's
    session, to read who is a GM and to log re-rolls with the change.
    """
    if actor.gm_role and then is None:
        outcome = await _change_seen(db, event, channel_id=actor.channel_id, dice=dice)
        if outcome is None:
            outcome = await _change_alone(db, event, channel_id=actor.channel_id, dice=dice)
        if outcome is not None:
            return outcome
    async with db.unit_of_work() as session:
        row = await lock_encounter(session, actor.channel_id)
        state, known = parsed(row)
        event = _named(event, state)
        gm = await is_gm(session, actor)
        if not gm:
            current = state.current
            if not players_on_their_turn:
                await require_gm(session, actor, action)
            elif current is None or current.owner_id != actor.user_id:
                raise PermissionDenied(_(NOT_YOUR_TURN, action=action, who=_(WHO_IS_GM)))
            elif isinstance(event, ini.NamedEvent) and event.name.strip().casefold() != current.key:
                raise PermissionDenied(
                    _(
                        "On your turn you {action} for {name} only; the GM does it for others.",
                        action=action,
                        name=UserText(current.name),
                    )
                )
        roller = None if dice is None else reroller(dice, row, state)
        new = ini.apply(state, event, dice, roller)
        log_rerolls(session, actor, new)
        data = stored_form(row.state if known else None, state, new)
        row = await save(session, row, new, data=data)
        extra = None if then is None else await then(session, row, state, new)
        view = await view_of(session, row, new, gm=gm)
    remember(row, new)  # committed
    return InitOutcome(view, event.kind, state, _subject(state, event), extra=extra)


async def _change_seen(
    db: Database, event: ini.Event, *, channel_id: int, dice: Dice | None
) -> InitOutcome | None:
    """A GM's change applied to the state this process last committed in the channel, and
    written only if the row is still at that revision (one compare-and-set statement:
    :func:`bot.storage.repositories.initiative.write_seen`), so nothing is read back. None,
    with nothing written, when that state is not known here, is not the row's any more (another
    process or change moved it on), re-rolls, or refuses the event: the locked read decides
    then, on the state as it is (a refusal is never told from a guess)."""
    known = last_committed(channel_id)
    if known is None or known[1].reroll:
        return None
    row, state = known
    try:
        event = _named(event, state)
        new = ini.apply(state, event, dice)
    except ValueError:  # ini.InitiativeError: said only after the locked read
        return None
    written = await encounters.write_seen(db, row, stored_form(row.state, state, new))
    if written is None:
        return None
    remember(written, new)  # committed
    view = view_with(written, new, gm=True, health=await health_of(db, new))
    return InitOutcome(view, event.kind, state, _subject(state, event))


async def _change_alone(
    db: Database, event: ini.Event, *, channel_id: int, dice: Dice | None
) -> InitOutcome | None:
    """A GM's change, the row read locked and written back in a transaction of its own
    (:func:`bot.storage.repositories.initiative.locked`): the same lock, revision check and
    commit before the reply as in a unit of work. None, with nothing written, for an
    encounter that re-rolls each round: its re-rolls go to the roll log in the change's
    transaction, which takes a unit of work."""
    async with encounters.locked(db, channel_id) as (locking, row):
        if row is None:
            raise UserError(_(NO_ENCOUNTER))
        state, known = parsed(row)
        if state.reroll:
            return None  # rolled back
        event = _named(event, state)
        new = ini.apply(state, event, dice)
        data = stored_form(row.state if known else None, state, new)
        row = await encounters.write_locked(locking, row, data)
    remember(row, new)  # committed
    # The sheets' Health is read after the commit (a read of its own, when anyone plays one).
    view = view_with(row, new, gm=True, health=await health_of(db, new))
    return InitOutcome(view, event.kind, state, _subject(state, event))


def _named(event: ini.Event, state: ini.Encounter) -> ini.Event:
    """No name: whoever is up, stored by name so that undo and replay read it back."""
    if isinstance(event, ini.NamedEvent) and not event.name and state.current is not None:
        return dataclasses.replace(event, name=state.current.name)
    return event


def _subject(state: ini.Encounter, event: ini.Event) -> str | None:
    """Whom the change was about, in its own spelling (not what was typed)."""
    if isinstance(event, ini.NamedEvent):
        return state.find(event.name).name
    if isinstance(event, ini.Delay) and state.current is not None:
        return state.current.name
    return None


# --------------------------------------------------------------------------------- turns


async def next_turn(db: Database, actor: Actor, *, dice: Dice | None = None) -> InitOutcome:
    return await change(
        db,
        actor,
        ini.Next(),
        action=_("move to the next turn"),
        players_on_their_turn=True,
        dice=dice,
    )


async def prev_turn(db: Database, actor: Actor) -> InitOutcome:
    return await change(db, actor, ini.Prev(), action=_("go back a turn"))


async def delay(db: Database, actor: Actor, *, dice: Dice | None = None) -> InitOutcome:
    return await change(
        db, actor, ini.Delay(), action=_("delay this turn"), players_on_their_turn=True, dice=dice
    )


async def remove(db: Database, actor: Actor, *, name: str, dice: Dice | None = None) -> InitOutcome:
    return await change(db, actor, ini.Remove(name), action=_("remove combatants"), dice=dice)


async def act(db: Database, actor: Actor, *, name: str) -> InitOutcome:
    return await change(db, actor, ini.Act(name), action=_("let a delayed combatant act"))


async def defend(
    db: Database, actor: Actor, *, name: str, protects: str | None = None
) -> InitOutcome:
    """A defensive roll (GM); ``protects``: a delayer dodging on behalf of another."""
    return await change(
        db, actor, ini.Defend(name, protects=protects), action=_("spend a turn on defence")
    )


async def reveal(db: Database, actor: Actor, *, name: str) -> InitOutcome:
    return await change(db, actor, ini.Reveal(name), action=_("reveal combatants"))


async def undo(db: Database, actor: Actor) -> InitOutcome:
    """Revert the encounter's last change (GM), any number of times back to its start."""
    async with db.unit_of_work() as session:
        row, state = await gm_encounter(session, actor, _("undo initiative changes"))
        new = ini.undo(state)
        row = await save(session, row, new)
        return InitOutcome(
            await view_of(session, row, new, gm=True), "undo", state, undone=state.log[-1]
        )


# --------------------------------------------------------------------------------- ending


async def check_end(db: Database, actor: Actor) -> EncounterView:
    """What ``/init end`` asks to confirm: the GM's own view of the running encounter."""
    async with db.unit_of_work(read_only=True) as session:
        await require_gm(session, actor, _("end the encounter"))
        row = await require_encounter(session, actor.channel_id)
        return await view_of(session, row, ini.from_dict(row.state), gm=True)


async def end(db: Database, actor: Actor) -> InitOutcome:
    """End the channel's encounter (GM) and sum it up: rounds, and who acted how often."""
    async with db.unit_of_work() as session:
        row, state = await gm_encounter(session, actor, _("end the encounter"))
        new = ini.apply(state, ini.End())
        row = await save(session, row, new, close=True)
        return InitOutcome(
            await view_of(session, row, new, gm=True), "end", state, summary=ini.summary(new)
        )
