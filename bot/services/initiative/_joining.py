"""Filling an encounter: ``/init start``, a player's character joining from its sheet, and
the GM adding NPCs (numbered when several share a name).

Each is one transaction on the channel's encounter row; a start refuses a second running
encounter even when two GMs race for the channel.
"""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _, current_language
from bot.services import channel_settings
from bot.services.initiative._outcome import NUMBERED, InitOutcome, Joined
from bot.services.initiative._rolls import (
    MAX_COUNT,
    check_initiative_dice,
    check_surprise,
    log_roll,
    roll_for,
    sheet_bonus,
)
from bot.services.initiative._store import gm_encounter, lock_encounter, save, view_of
from bot.services.permissions import gm_changed, is_gm, require_gm
from bot.services.sheets import TEMPLATES, guild_key, name_key, named_or_active
from bot.storage import Database
from bot.storage.repositories import characters as characters_repo
from bot.storage.repositories import initiative as encounters
from bot.text import UserText, listed
from engine import initiative as ini
from engine.dice import Dice
from engine.initiative.rolls import canonical_system
from engine.systems import SYSTEMS

GENERIC = "generic"
#: The one system whose skirmish has an initiator with no action in round 1 (RULES.md §2).
INITIATOR_SYSTEM = "h90"


async def _known_attribute(session: AsyncSession, actor: Actor, system: str, name: str) -> str:
    """``attribute`` as the system's sheets spell it, or a refusal naming the ones there are.

    Checked at start, not at the first join: the names are the system's suggested ones and
    those on its sheets in this server (any other name is a typo nobody could join with).
    Another game's encounter takes any name.
    """
    if system not in TEMPLATES:
        return name
    names = list(TEMPLATES[system]["attributes"])
    for attributes in await characters_repo.attribute_maps(session, guild_key(actor), system):
        names += [n for n in attributes if n not in names]
    found = next((n for n in names if name_key(n) == name_key(name)), None)
    if found is None:
        raise UserError(
            _(
                "No {system} sheet here has an attribute `{name}`: initiative could not be "
                "rolled. Attributes: {names}.",
                system=_(SYSTEMS[system]),
                name=UserText(name),
                names=listed(names),
            )
        )
    return found


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
            check_initiative_dice(dice)  # refuse bad notation now, not at the first join
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
        system = canonical_system(system) if system else GENERIC
        if initiator is not None and system == "coda":
            # Seed 000 has only its own surprise rule: no initiator sits out round 1.
            raise UserError(
                _(
                    "CODA has no initiator rule (it is Hogwarts 1990's): surprised characters "
                    "join with `stress:True` and act last in round 1, one action fewer."
                )
            )
        if attribute is not None:
            attribute = await _known_attribute(session, actor, system, attribute)
        state = ini.Encounter(
            system=system,
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
        outcome = InitOutcome(await view_of(session, row, state, gm=True), "start")
    gm_changed(db)  # committed: its starter is a GM of the channel now
    return outcome


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
        row = await lock_encounter(session, actor.channel_id)
        state = ini.from_dict(row.state)
        check_surprise(state, stress)
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
                    name=UserText(shown),
                )
            )
        bonus = modifier + sheet_bonus(row, state, sheet)
        rolled = roll_for(dice, row, state, bonus, stress)
        joined = Joined(UserText(shown), rolled.total, rolled, False, sheet.owner_id)
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
        log_roll(session, actor, state, joined)
        row = await save(session, row, new)
        gm = await is_gm(session, actor)
        return InitOutcome(await view_of(session, row, new, gm=gm), "add", state, shown, (joined,))


def _numbered_names(state: ini.Encounter, name: str, count: int) -> list[str]:
    """``Goblin 1…n``, continuing after the highest ``Goblin k`` already there."""
    base = ini.clean_name(name)
    if count == 1:
        return [base]
    taken = 0
    for combatant in state.combatants:
        match = NUMBERED.match(combatant.name)
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
        row, state = await gm_encounter(session, actor, _("add combatants"))
        before = state
        check_surprise(state, stress)
        joined: list[Joined] = []
        for combatant in _numbered_names(state, name, count):
            rolled = None if roll is not None else roll_for(dice, row, state, modifier, stress)
            total = roll if rolled is None else rolled.total
            entry = Joined(UserText(combatant), total, rolled, hidden)  # type: ignore[arg-type]
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
            log_roll(session, actor, before, entry)
            joined.append(entry)
        row = await save(session, row, state)
        subject = joined[0].name.raw if len(joined) == 1 else None
        return InitOutcome(
            await view_of(session, row, state, gm=True), "add", before, subject, tuple(joined)
        )
