"""Initiative encounters per channel: one use case per ``/init`` subcommand and tracker button.

The encounter lives in one row as ``engine.initiative.to_dict()``. Every change reads the
row locked (``FOR UPDATE`` on PostgreSQL; SQLite's write transactions are ``BEGIN
IMMEDIATE``), applies one engine event and writes the result back in the same transaction,
so twenty simultaneous ``next`` presses advance exactly twenty turns and a reply only ever
reports a state that is on disk. Whoever starts an encounter is a GM of the channel while it
runs (DESIGN.md).

Who may do what: the GM runs everything; a player may join, and may ``delay`` or
``next`` only while the current turn is their own combatant's.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import N_, _, current_language
from bot.i18n.numbers import decimal
from bot.services import channel_settings
from bot.services.permissions import WHO_IS_GM, is_gm, register_gm_source, require_gm
from bot.services.sheets import CharacterSheet, find_key, name_key, named_or_active
from bot.storage import Database
from bot.storage.models import InitiativeEncounter
from bot.storage.repositories import characters as characters_repo
from bot.storage.repositories import initiative as encounters
from bot.storage.repositories import rolls as roll_log
from engine import initiative as ini
from engine.dice import Dice
from engine.initiative.rolls import InitiativeRoll, canonical_system, roll_initiative
from engine.notation import BUDGET, cost
from engine.systems import SYSTEMS

NO_ENCOUNTER = N_("No encounter is running in this channel. A GM starts one with `/init start`.")
MAX_COUNT = 20
GENERIC = "generic"
#: RULES.md §1: CODA initiative adds the Swiftness reaction by default.
CODA_INITIATIVE = "Swiftness"
#: The sheet resource the tracker shows beside a combatant (damage from /coda attack).
HEALTH = "Health"
NOT_YOUR_TURN = N_("Only the GM, or the player whose combatant's turn it is, can {action} ({who}).")


#: A step run in a change's transaction after its event applied: (session, row, before, after).
Then = Callable[[AsyncSession, InitiativeEncounter, ini.Encounter, ini.Encounter], Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class EncounterView:
    """An encounter as a command shows it; ``gm`` says whether the caller may see hidden ones."""

    state: ini.Encounter
    channel_id: int
    started_by: int
    attribute: str | None
    dice: str | None
    tracker_message_id: int | None
    status: str
    gm: bool = False
    #: Health (current, max) of the combatants played from a sheet that has it, by name.
    health: tuple[tuple[str, int, int | None], ...] = ()
    #: Its starter's language: the tracker's when the channel has none
    #: (bot.gateway._public_language).
    language: str | None = None
    #: The encounter's row and the revision of its state this view shows: the tracker never
    #: replaces a view with an older revision of its encounter (docs/decisions/many-processes.md).
    encounter_id: int = 0
    revision: int = 0

    def health_of(self, name: str) -> tuple[int, int | None] | None:
        return next(((cur, top) for n, cur, top in self.health if n == name), None)

    @property
    def system(self) -> str:
        return self.state.system

    @property
    def system_title(self) -> str:
        return SYSTEMS.get(self.state.system) or _("d20 (any system)")


@dataclass(frozen=True, slots=True)
class Joined:
    """One combatant that entered: its rolled initiative (None for a total the GM gave)."""

    name: str
    total: int
    roll: InitiativeRoll | None
    hidden: bool
    owner_id: int | None = None


@dataclass(frozen=True, slots=True)
class InitOutcome:
    """What one change did, for the reply and the tracker.

    ``action`` is the event's kind (``start``, ``add``, ``next``…); ``subject`` the
    combatant it named; ``before`` the state it changed; ``undone`` the event that undo
    reverted. ``turn_changed`` says a new turn started (its player is mentioned).
    """

    view: EncounterView
    action: str
    before: ini.Encounter | None = None
    subject: str | None = None
    joined: tuple[Joined, ...] = ()
    undone: ini.Event | None = None
    summary: ini.Summary | None = None
    #: What a ``then`` step of the change returned (e.g. a CODA test waiting to be rolled).
    extra: Any = None

    @property
    def tracker(self) -> EncounterView:
        """The channel's tracker as this change left it: exactly what :func:`latest` reads
        right after the commit (everyone's view, the current state without its history), so
        the tracker is refreshed without a second transaction (docs/decisions/hot-path.md)."""
        return dataclasses.replace(self.view, gm=False, state=self.view.state.core())

    @property
    def initiator_warning(self) -> str | None:
        """Why nobody will lose round 1's action, when the initiator names no combatant.

        Said after adding numbered NPCs that share the initiator's name (``initiator:Goblin``
        then ``count:3`` gives ``Goblin 1…3``, none of them ``Goblin``) and when round 1
        starts, so a GM never finds out only from the tracker.
        """
        state = self.view.state
        initiator = state.initiator
        if not initiator or state.ended or any(c.initiator for c in state.combatants):
            return None
        key = initiator.casefold()
        numbered = [
            j.name
            for j in self.joined
            if (match := _NUMBERED.match(j.name)) and match.group(1).casefold() == key
        ]
        if self.action == "add" and numbered:
            return "⚠️ " + _(
                "The initiator is `{initiator}`, and {names} are other names: nobody loses "
                "their round-1 action. To strike the one who initiated, `/init remove` it and "
                "add it again alone as `{initiator}` (without `count`).",
                initiator=initiator,
                names=", ".join(numbered),
            )
        starting = self.before is not None and not self.before.started and state.started
        if self.action == "next" and starting:
            return "⚠️ " + _(
                "No combatant is called `{initiator}` (the initiator): nobody loses their "
                "round-1 action.",
                initiator=initiator,
            )
        return None

    @property
    def turn_changed(self) -> bool:
        before, after = self.before, self.view.state
        if before is None or after.current is None or after.ended:
            return False
        now = (after.round, after.current.name)
        then = None if before.current is None else (before.round, before.current.name)
        return now != then


@register_gm_source
async def encounter_starter(session: AsyncSession, channel_id: int) -> int | None:
    """DESIGN.md: whoever started the channel's current encounter is one of its GMs."""
    row = await encounters.active(session, channel_id)
    return row.started_by if row is not None else None


async def _view(
    session: AsyncSession, row: InitiativeEncounter, state: ini.Encounter, *, gm: bool
) -> EncounterView:
    return EncounterView(
        state=state,
        channel_id=row.channel_id,
        started_by=row.started_by,
        attribute=row.attribute,
        dice=row.dice,
        tracker_message_id=row.tracker_message_id,
        status=row.status,
        gm=gm,
        health=await _health(session, state),
        language=row.language,
        encounter_id=row.id,
        revision=row.revision,
    )


async def _health(session: AsyncSession, state: ini.Encounter) -> tuple:
    """Each combatant's Health (damage from ``/coda attack`` shows here): a sheet-played
    one's from its sheet, an NPC's as the encounter keeps it.

    A combatant names its player and character; a player with two characters of that name
    (in two guilds) shows none rather than the wrong one.
    """
    kept = tuple((c.name, c.health, c.max_health) for c in state.combatants if c.health is not None)
    played = [c for c in state.combatants if c.owner_id is not None and c.character]
    if not played:
        return kept
    rows = await characters_repo.of_owners(session, {c.owner_id for c in played if c.owner_id})
    found = []
    for combatant in played:
        key = name_key(combatant.character or "")
        matches = [r for r in rows if r.owner_id == combatant.owner_id and r.name_key == key]
        if len(matches) != 1:
            continue
        resources = matches[0].resources or {}
        health = find_key(resources, HEALTH)
        if health is not None:
            entry = resources[health]
            found.append((combatant.name, int(entry["current"]), entry.get("max")))
    return kept + tuple(found)


async def _require(session: AsyncSession, channel_id: int, *, lock: bool) -> InitiativeEncounter:
    row = await encounters.active(session, channel_id, for_update=lock)
    if row is None:
        raise UserError(_(NO_ENCOUNTER))
    return row


async def _gm_encounter(
    session: AsyncSession, actor: Actor, doing: str
) -> tuple[InitiativeEncounter, ini.Encounter]:
    """The encounter a GM is about to change, locked, with its state."""
    await require_gm(session, actor, doing)
    row = await _require(session, actor.channel_id, lock=True)
    return row, ini.from_dict(row.state)


def _save(row: InitiativeEncounter, state: ini.Encounter) -> None:
    encounters.store(row, ini.to_dict(state))  # bumps the revision the tracker compares


# --------------------------------------------------------------------------------- start


async def start(
    db: Database,
    actor: Actor,
    *,
    system: str | None = None,
    initiator: str | None = None,
    attribute: str | None = None,
    dice: str | None = None,
    reroll: bool = False,
) -> InitOutcome:
    """Start the channel's encounter (GM). The system defaults to the channel's.

    ``reroll``: everyone re-rolls initiative at the start of each round after the first.
    """
    if dice is not None:
        dice = dice.strip() or None
        if dice is not None:
            _check_initiative_dice(dice)  # refuse bad notation now, not at the first join
    if initiator is not None:
        initiator = ini.clean_name(initiator)
    if attribute is not None:
        attribute = attribute.strip()[:64] or None
    if system is not None and canonical_system(system) not in {*SYSTEMS, GENERIC}:
        raise UserError(
            _(
                "Unknown system `{system}`. Systems: {systems}, or {generic}.",
                system=system,
                systems=", ".join(SYSTEMS),
                generic=GENERIC,
            )
        )
    async with db.unit_of_work() as session:
        await require_gm(session, actor, _("start an encounter"))
        if await encounters.active(session, actor.channel_id, for_update=True) is not None:
            raise UserError(
                _("An encounter is already running here. A GM ends it with `/init end` first.")
            )
        if system is None:
            system = (await channel_settings.read(session, actor.channel_id)).default_system
        state = ini.Encounter(
            system=canonical_system(system) if system else GENERIC,
            initiator=initiator,
            reroll=reroll,
        )
        row = encounters.start(
            session,
            guild_id=actor.guild_id,
            channel_id=actor.channel_id,
            started_by=actor.user_id,
            attribute=attribute,
            dice=dice,
            state=ini.to_dict(state),
            language=current_language(),
        )
        try:
            await session.flush()
        except IntegrityError:
            # Another /init start won the race for this channel's one active encounter.
            raise UserError(_("An encounter was just started in this channel.")) from None
        return InitOutcome(await _view(session, row, state, gm=True), "start")


# --------------------------------------------------------------------------------- joining


def _roll(
    dice: Dice, row: InitiativeEncounter, state: ini.Encounter, modifier: int, stress: bool
) -> InitiativeRoll:
    """The encounter's initiative roll: its dice notation if set, else the system's."""
    return roll_initiative(
        dice,
        system=state.system,
        modifier=modifier,
        stress=stress and canonical_system(state.system) == "h90" and not row.dice,
        expression=row.dice,
    )


def _log_roll(session: AsyncSession, actor: Actor, state: ini.Encounter, joined: Joined) -> None:
    if joined.roll is None:
        return
    roll_log.add(
        session,
        actor,
        system=state.system if state.system in SYSTEMS else "dice",
        input=f"initiative {joined.name}: {joined.roll.detail}",
        faces=list(joined.roll.faces),
        outcome=str(joined.total),
        secret=joined.hidden,
        label="initiative",
    )


def _check_surprise(state: ini.Encounter, stress: bool) -> None:
    if stress and canonical_system(state.system) not in ("h90", "coda"):
        raise UserError(
            _(
                "Surprise changes initiative only in Hogwarts 1990 (a stress roll) and CODA "
                "(one action fewer in round 1)."
            )
        )


def _check_initiative_dice(dice: str) -> None:
    """Bad notation is refused at start; so is a roll that ``/init add count:20`` would make
    cost more than two rolls' budget in one command (it is rolled per combatant)."""
    steps = cost(dice)
    if steps * MAX_COUNT > 2 * BUDGET:
        raise UserError(
            _(
                "`{dice}` is rolled for every combatant (up to {count} in one `/init add`): keep "
                "it small, like `1d20+2` or `2d6kh1` (about {steps} steps each; at most {most}).",
                dice=dice[:60],
                count=MAX_COUNT,
                steps=decimal(int(steps), 0),
                most=decimal(2 * BUDGET // MAX_COUNT, 0),
            )
        )


async def join(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    character: str | None = None,
    modifier: int = 0,
    stress: bool = False,
    name: str | None = None,
) -> InitOutcome:
    """A player's character joins, rolling from the sheet (the encounter's attribute).

    ``name`` is how the tracker shows it, for a character whose name is taken already (two
    players' Hermiones); by default its own name."""
    async with db.unit_of_work() as session:
        row = await _require(session, actor.channel_id, lock=True)
        state = ini.from_dict(row.state)
        _check_surprise(state, stress)
        sheet = await named_or_active(session, actor, character)
        if sheet.owner_id != actor.user_id:
            await require_gm(session, actor, _("enter another player's character"))
        shown = ini.clean_name(name) if name is not None else sheet.name
        # A hidden holder of the name is renamed by the engine instead (never revealed).
        taken = next(
            (c for c in state.combatants if c.key == shown.casefold() and not c.hidden), None
        )
        if name is None and taken and (taken.owner_id, taken.character) != (sheet.owner_id, shown):
            raise UserError(
                _(
                    "{name} is already in the encounter: join with another `name` "
                    "(e.g. `name:{name} 2`).",
                    name=shown,
                )
            )
        bonus = modifier + _sheet_bonus(row, state, sheet)
        rolled = _roll(dice, row, state, bonus, stress)
        joined = Joined(shown, rolled.total, rolled, False, sheet.owner_id)
        new = ini.apply(
            state,
            ini.Add(
                shown,
                rolled.total,
                owner_id=sheet.owner_id,
                character=sheet.name,
                surprised=stress,
                detail=rolled.detail,
                modifier=bonus,
            ),
            dice,
        )
        _log_roll(session, actor, state, joined)
        _save(row, new)
        gm = await is_gm(session, actor)
        return InitOutcome(await _view(session, row, new, gm=gm), "add", state, shown, (joined,))


def _sheet_bonus(row: InitiativeEncounter, state: ini.Encounter, sheet: CharacterSheet) -> int:
    """The sheet's initiative bonus: the encounter's attribute, else CODA's Swiftness.

    RULES.md §1: CODA initiative is 2d6 + the Swiftness reaction unless the Narrator names
    another modifier; a sheet without Swiftness adds nothing.
    """
    if row.attribute:
        return sheet.attribute(row.attribute)
    if canonical_system(state.system) == "coda" and not row.dice:
        found = sheet.find_attribute(CODA_INITIATIVE)
        return 0 if found is None else found[1]
    return 0


_NUMBERED = re.compile(r"^(.*) (\d+)$")


def _numbered_names(state: ini.Encounter, name: str, count: int) -> list[str]:
    """``Goblin 1…n``, continuing after the highest ``Goblin k`` already there."""
    base = ini.clean_name(name)
    if count == 1:
        return [base]
    taken = 0
    for combatant in state.combatants:
        match = _NUMBERED.match(combatant.name)
        if match and match.group(1).casefold() == base.casefold():
            taken = max(taken, int(match.group(2)))
    return [f"{base} {taken + i}" for i in range(1, count + 1)]


async def add(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    name: str,
    modifier: int = 0,
    roll: int | None = None,
    hidden: bool = False,
    count: int = 1,
    stress: bool = False,
    health: int | None = None,
) -> InitOutcome:
    """The GM adds NPCs: each rolls (system roll + ``modifier``) unless ``roll`` is given.

    ``stress`` marks them surprised, as for a player's join; ``health`` is each one's Health,
    kept on the tracker (an NPC has no sheet).
    """
    if not 1 <= count <= MAX_COUNT:
        raise UserError(_("Add 1 to {count} combatants at a time.", count=MAX_COUNT))
    async with db.unit_of_work() as session:
        row, state = await _gm_encounter(session, actor, _("add combatants"))
        before = state
        _check_surprise(state, stress)
        joined: list[Joined] = []
        for combatant in _numbered_names(state, name, count):
            rolled = None if roll is not None else _roll(dice, row, state, modifier, stress)
            total = roll if rolled is None else rolled.total
            entry = Joined(combatant, total, rolled, hidden)  # type: ignore[arg-type]
            detail = "set by the GM" if rolled is None else rolled.detail
            event = ini.Add(
                combatant,
                total,  # type: ignore[arg-type]
                hidden=hidden,
                surprised=stress,
                detail=detail,
                modifier=modifier,
                health=health,
            )
            state = ini.apply(state, event, dice)
            _log_roll(session, actor, before, entry)
            joined.append(entry)
        _save(row, state)
        subject = joined[0].name if len(joined) == 1 else None
        return InitOutcome(
            await _view(session, row, state, gm=True), "add", before, subject, tuple(joined)
        )


# --------------------------------------------------------------------------------- turns


def _roller(dice: Dice, row: InitiativeEncounter, state: ini.Encounter) -> ini.Roller:
    """How a re-roll rolls each combatant: the encounter's roll + the bonus it joined with."""

    def roll(combatant: ini.Combatant) -> tuple[int, str]:
        rolled = _roll(dice, row, state, combatant.modifier, stress=False)
        return rolled.total, rolled.detail

    return roll


def _log_rerolls(session: AsyncSession, actor: Actor, state: ini.Encounter) -> None:
    """Each re-roll the last event drew goes to the roll log (secret for a hidden combatant)."""
    rerolls = getattr(state.log[-1], "rerolls", None) if state.log else None
    for name, total, detail, _tiebreak in rerolls or ():
        roll_log.add(
            session,
            actor,
            system=state.system if state.system in SYSTEMS else "dice",
            input=f"initiative {name} (round {state.round}): {detail}",
            faces=[],
            outcome=str(total),
            secret=state.find(name).hidden,
            label="initiative",
        )


async def _change(
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
    """
    async with db.unit_of_work() as session:
        row = await _require(session, actor.channel_id, lock=True)
        state = ini.from_dict(row.state)
        if isinstance(event, ini.NamedEvent) and not event.name and state.current is not None:
            # No name: whoever is up, stored by name so that undo and replay read it back.
            event = dataclasses.replace(event, name=state.current.name)
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
                        name=current.name,
                    )
                )
        roller = None if dice is None else _roller(dice, row, state)
        new = ini.apply(state, event, dice, roller)
        _log_rerolls(session, actor, new)
        _save(row, new)
        subject = None
        if isinstance(event, ini.NamedEvent):
            subject = state.find(event.name).name  # its own spelling, not what was typed
        elif isinstance(event, ini.Delay) and state.current is not None:
            subject = state.current.name
        extra = None if then is None else await then(session, row, state, new)
        view = await _view(session, row, new, gm=gm)
        return InitOutcome(view, event.kind, state, subject, extra=extra)


async def next_turn(db: Database, actor: Actor, *, dice: Dice | None = None) -> InitOutcome:
    return await _change(
        db,
        actor,
        ini.Next(),
        action=_("move to the next turn"),
        players_on_their_turn=True,
        dice=dice,
    )


async def prev_turn(db: Database, actor: Actor) -> InitOutcome:
    return await _change(db, actor, ini.Prev(), action=_("go back a turn"))


async def delay(db: Database, actor: Actor, *, dice: Dice | None = None) -> InitOutcome:
    return await _change(
        db, actor, ini.Delay(), action=_("delay this turn"), players_on_their_turn=True, dice=dice
    )


async def remove(db: Database, actor: Actor, *, name: str, dice: Dice | None = None) -> InitOutcome:
    return await _change(db, actor, ini.Remove(name), action=_("remove combatants"), dice=dice)


async def act(db: Database, actor: Actor, *, name: str) -> InitOutcome:
    return await _change(db, actor, ini.Act(name), action=_("let a delayed combatant act"))


async def defend(
    db: Database, actor: Actor, *, name: str, protects: str | None = None
) -> InitOutcome:
    """A defensive roll (GM); ``protects``: a delayer dodging on behalf of another."""
    return await _change(
        db, actor, ini.Defend(name, protects=protects), action=_("spend a turn on defence")
    )


async def add_condition(
    db: Database,
    actor: Actor,
    *,
    name: str,
    condition: str,
    rounds: int | None = None,
    note: str = "",
    tick: str = "start",
) -> InitOutcome:
    """Put a condition on a combatant (GM), counting down at the start or end of its turns."""
    event = ini.AddCondition(name, condition=condition, rounds=rounds, note=note, tick=tick)
    return await _change(db, actor, event, action=_("put conditions on combatants"))


async def remove_condition(db: Database, actor: Actor, *, name: str, condition: str) -> InitOutcome:
    event = ini.RemoveCondition(name, condition=condition)
    return await _change(db, actor, event, action=_("take conditions off combatants"))


async def spend_action(
    db: Database,
    actor: Actor,
    *,
    kind: str,
    cost: int | None = None,
    name: str | None = None,
    then: Then | None = None,
) -> InitOutcome:
    """CODA: a combatant (default: whoever is up) takes an action of Tables 9-9 to 9-11,
    spending its cost of the round's actions; its player on their turn, or the GM."""
    event = ini.SpendAction((name or "").strip(), action=kind, cost=cost)
    return await _change(
        db, actor, event, action=_("spend actions"), players_on_their_turn=True, then=then
    )


async def set_health(db: Database, actor: Actor, *, name: str, value: int) -> InitOutcome:
    """The GM sets the Health the tracker keeps for a combatant without a sheet (an NPC)."""
    event = ini.SetHealth(name, value=value)
    return await _change(db, actor, event, action=_("set Health on the tracker"))


async def reveal(db: Database, actor: Actor, *, name: str) -> InitOutcome:
    return await _change(db, actor, ini.Reveal(name), action=_("reveal combatants"))


async def undo(db: Database, actor: Actor) -> InitOutcome:
    """Revert the encounter's last change (GM), any number of times back to its start."""
    async with db.unit_of_work() as session:
        row, state = await _gm_encounter(session, actor, _("undo initiative changes"))
        new = ini.undo(state)
        _save(row, new)
        return InitOutcome(
            await _view(session, row, new, gm=True), "undo", state, undone=state.log[-1]
        )


# --------------------------------------------------------------------------------- ending


async def check_end(db: Database, actor: Actor) -> EncounterView:
    """What ``/init end`` asks to confirm: the GM's own view of the running encounter."""
    async with db.unit_of_work(read_only=True) as session:
        await require_gm(session, actor, _("end the encounter"))
        row = await _require(session, actor.channel_id, lock=False)
        return await _view(session, row, ini.from_dict(row.state), gm=True)


async def end(db: Database, actor: Actor) -> InitOutcome:
    """End the channel's encounter (GM) and sum it up: rounds, and who acted how often."""
    async with db.unit_of_work() as session:
        row, state = await _gm_encounter(session, actor, _("end the encounter"))
        new = ini.apply(state, ini.End())
        _save(row, new)
        encounters.close(row)
        return InitOutcome(
            await _view(session, row, new, gm=True), "end", state, summary=ini.summary(new)
        )


# --------------------------------------------------------------------------------- reading


async def show(db: Database, actor: Actor) -> EncounterView:
    async with db.unit_of_work(read_only=True) as session:
        row = await _require(session, actor.channel_id, lock=False)
        return await _view(session, row, ini.from_dict(row.state), gm=await is_gm(session, actor))


async def latest(db: Database, channel_id: int) -> EncounterView | None:
    """The channel's running encounter as everyone sees it, or None (for the tracker)."""
    async with db.unit_of_work(read_only=True) as session:
        row = await encounters.active(session, channel_id)
        return (
            None
            if row is None
            # The tracker never shows the undo history: not parsed (docs/decisions/hot-path.md).
            else await _view(session, row, ini.current_from_dict(row.state), gm=False)
        )


async def names(db: Database, actor: Actor, *, delayed_only: bool = False) -> list[str]:
    """Combatant names for autocomplete: hidden ones only for a GM; never raises for none."""
    async with db.unit_of_work(read_only=True) as session:
        row = await encounters.active(session, actor.channel_id)
        if row is None:
            return []
        state = ini.current_from_dict(row.state)  # names only: the history is not parsed
        gm = await is_gm(session, actor)
    pool = state.delayed if delayed_only else state.combatants
    return [c.name for c in pool if gm or not c.hidden]


async def set_tracker(db: Database, channel_id: int, message_id: int) -> None:
    """Remember the channel's new tracker message (after the old one could not be edited)."""
    async with db.unit_of_work() as session:
        row = await encounters.active(session, channel_id, for_update=True)
        if row is not None:
            row.tracker_message_id = message_id
