"""``/h90 attack`` and its buttons: one Hogwarts 1990 attack in a skirmish (RULES.md §2).

The attack is the attacker's roll (an attribute of their sheet and/or a bonus, standard or
stress, maybe with advantage) against the difficulty given. A hit waits, stored as an
:class:`~bot.storage.models.AttackExchange`, for one answer:

* **Dodge** — the target (its player, or the GM; the GM for an NPC) makes a defensive roll:
  the attack becomes a defended roll, its difficulty raised by the target's dodge
  attribute(s), and the target's turn this round is used up on the channel's tracker;
* **<delayer> dodges for them** — a delaying combatant (its player, or the GM) does it on
  the target's behalf, with its own attribute(s), spending its delayed action;
* **Take it** — no defence.

The tracker's own rules (:class:`engine.initiative.Defend`) decide whether the turn may be
spent; a refusal leaves the exchange waiting. Damage (Health points, given with the attack)
comes off the target sheet's Health, or an NPC's on the tracker, stopping at 0 (knocked
out). The defended roll, the tracker's change and the Health are one unit of work.
Everything the message shows is kept in the row, so a restart in the middle of an exchange
loses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import N_, _, current_language
from bot.services import secrecy, sheets
from bot.services.attack_exchange import (
    ANSWER_WINDOW,
    HEALTH,
    ExchangeClosed,
    claim,
    cover_answerer,
    hurt_npc,
    press_guard,
    resolve_target,
)
from bot.services.hogwarts1990 import _rolls as h90_service
from bot.services.hogwarts1990._exchange import Exchange, data_of, exchange_of
from bot.services.hogwarts1990._rolls import Roller
from bot.services.sheets import CharacterSheet, ResourceChange, find_key, name_key, sheet_from_row
from bot.storage import Database
from bot.storage.models import AttackExchange
from bot.storage.repositories import attacks as attacks_repo
from bot.storage.repositories import characters as characters_repo
from bot.storage.repositories import initiative as encounters
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText
from engine import initiative as ini
from engine.dice import Dice
from engine.systems import hogwarts1990 as h90
from engine.systems.hogwarts1990 import Answer

SYSTEM = h90_service.SYSTEM
DEFAULT_DODGE = "Dexterity"
#: Buttons for delayers who may dodge on the target's behalf (Discord holds 25 in all).
MAX_COVERS = 20
TERM_LENGTH = 32

__all__ = [
    "ANSWER_WINDOW",
    "DEFAULT_DODGE",
    "AttackRequest",
    "Exchange",
    "ExchangeClosed",
    "answer",
    "attack",
    "exchange_of",
]


@dataclass(frozen=True, slots=True)
class AttackRequest:
    """What ``/h90 attack`` asks."""

    target: str
    difficulty: int
    roller: Roller = field(default_factory=Roller)
    dodge: str = DEFAULT_DODGE
    npc_dodge: int = 0
    damage: int = h90.DAMAGE_DEFAULT
    #: A name for an attacker without a sheet (an NPC the GM plays).
    attacker: str | None = None
    secret: bool = False


# --------------------------------------------------------------------------- the attack


def parse_dodge(text: str) -> tuple[str, ...]:
    """``Dexterity + Toughness`` → its terms: attribute names and/or whole numbers."""
    items = tuple(" ".join(item.split()) for item in text.replace(",", "+").split("+"))
    if not all(items):
        raise UserError(
            _(
                "Give the dodge as attributes and/or numbers joined by +, e.g. `Dexterity` or "
                "`Dexterity + Toughness`."
            )
        )
    if len(items) > h90.MAX_DODGE_TERMS:
        raise UserError(
            _(
                "A dodge adds at most {count} attributes or numbers.",
                count=h90.MAX_DODGE_TERMS,
            )
        )
    for item in items:
        if len(item) > TERM_LENGTH:
            raise UserError(
                _(
                    "`{text}…` is too long for an attribute's name.",
                    text=UserText(item[:TERM_LENGTH]),
                )
            )
        if (value := _number(item)) is not None:
            h90.defended_difficulty(value)  # the engine's bounds and message
    return items


def _number(text: str) -> int | None:
    try:
        return int(text.replace("−", "-").replace(" ", ""))
    except ValueError:
        return None


def _combatant(
    state: ini.Encounter, target: str, owner_id: int | None, character: str | None
) -> ini.Combatant | None:
    """The target on the tracker: the combatant played from its sheet, else by its name."""
    if owner_id is not None and character is not None:
        key = name_key(character)
        for combatant in state.combatants:
            if combatant.owner_id == owner_id and name_key(combatant.character or "") == key:
                return combatant
    key = name_key(target)
    return next((c for c in state.combatants if name_key(c.name) == key), None)


async def _covers(
    session: AsyncSession, channel_id: int, target: str, sheet: CharacterSheet | None
) -> tuple[tuple[str, int | None], ...]:
    """Delayers who may dodge for the target (visible ones, the target on the tracker), with
    who plays each (None: an NPC, the GM's)."""
    row = await encounters.active(session, channel_id)
    if row is None:
        return ()
    state = ini.from_dict(row.state)
    found = _combatant(
        state, target, sheet.owner_id if sheet else None, sheet.name if sheet else None
    )
    if found is None or state.ended or not state.started:
        return ()
    delayers = [(c.name, c.owner_id) for c in state.delayed if c is not found and not c.hidden]
    return tuple(delayers[:MAX_COVERS])


def _players(state: ini.Encounter | None, names: list[str]) -> tuple[tuple[str, int | None], ...]:
    """Who plays each of an exchange's delayers now (those still on the tracker)."""
    if state is None:
        return ()
    players = []
    for name in names:
        try:
            players.append((name, state.find(name).owner_id))
        except ini.UnknownCombatant:
            continue  # gone from the tracker: its button is refused by the database
    return tuple(players)


async def _own_character(session: AsyncSession, actor: Actor, roller: Roller) -> str | None:
    """Who attacks with a bare bonus: the caller's character (named, else active), if any."""
    try:
        sheet = await sheets.named_or_active(session, actor, roller.character, system=SYSTEM)
    except UserError:
        return None
    return sheet.name


async def attack(
    db: Database, dice: Dice, actor: Actor, request: AttackRequest, *, now: datetime
) -> Exchange:
    """Roll the attack; a hit is stored and waits for the defender's answer."""
    h90.check_damage(request.damage)
    if not h90.BONUS_MIN <= request.npc_dodge <= h90.BONUS_MAX:
        raise UserError(
            _(
                "The NPC's dodge must be between {low} and {high}.",
                low=h90.BONUS_MIN,
                high=h90.BONUS_MAX,
            )
        )
    dodge = parse_dodge(request.dodge)
    async with db.unit_of_work() as session:
        side = await h90_service.side(session, actor, request.roller)
        if request.attacker and not side.attribute:
            side = replace(side, display=" ".join(request.attacker.split())[:64] or None)
        elif not side.character and not side.display:
            side = replace(side, display=await _own_character(session, actor, request.roller))
        target, target_sheet = await resolve_target(session, actor, request.target)
        rolled = await h90_service.roll_and_log(
            session,
            dice,
            actor,
            side,
            request.roller,
            request.difficulty,
            label=f"attack on {target}",
            secret=request.secret,
        )
        assert rolled.odds is not None  # an attack always has a difficulty
        exchange = Exchange(
            id=None,
            attacker=UserText(side.character or side.display or actor.display_name),
            target=UserText(target),
            side=side,
            attack=rolled.roll,
            odds=rolled.odds,
            dodge=dodge,
            damage=request.damage,
            defender_id=target_sheet.owner_id if target_sheet else None,
            npc_dodge=request.npc_dodge,
            secrecy=rolled.secrecy,
            roller=actor.display_name,
            language=current_language(),
        )
        if not exchange.hit:
            return exchange
        covers = await _covers(session, actor.channel_id, target, target_sheet)
        exchange = replace(exchange, covers=tuple(UserText(name) for name, _player in covers))
        row = AttackExchange(
            system=SYSTEM,
            guild_id=actor.guild_id,
            channel_id=actor.channel_id,
            attacker_id=actor.user_id,
            defender_id=exchange.defender_id,
            target_character_id=target_sheet.id if target_sheet else None,
            secret=rolled.secrecy.secret,
            data=data_of(exchange),
            expires_at=now + ANSWER_WINDOW,
        )
        await attacks_repo.add(session, row)
        known = await press_guard(db).learn(
            session, actor, defender_id=row.defender_id, target=target, covers=covers
        )
    press_guard(db).remember((SYSTEM, row.id), known)  # committed: bystanders refused from memory
    return replace(exchange, id=row.id)


# --------------------------------------------------------------------------- the answer


@dataclass(frozen=True, slots=True)
class _Dodger:
    """Who makes the defensive roll: a name, its sheet (None for an NPC), its combatant."""

    name: str
    sheet: CharacterSheet | None
    combatant: ini.Combatant | None


async def _encounter(session: AsyncSession, channel_id: int) -> tuple[Any, ini.Encounter | None]:
    row = await encounters.active(session, channel_id, for_update=True)
    return row, (None if row is None else ini.from_dict(row.state))


async def _sheet_of(
    session: AsyncSession, actor: Actor, combatant: ini.Combatant
) -> CharacterSheet | None:
    """The sheet a combatant is played from (None for an NPC)."""
    if combatant.owner_id is None or not combatant.character:
        return None
    found = await characters_repo.by_name(
        session, sheets.guild_key(actor), combatant.owner_id, name_key(combatant.character)
    )
    return None if found is None else sheet_from_row(found)


async def _target_sheet(session: AsyncSession, row: AttackExchange) -> CharacterSheet | None:
    if row.target_character_id is None:
        return None
    found = await characters_repo.by_id(session, row.target_character_id)
    if found is None:
        target = row.data["target"]
        raise ExchangeClosed(
            _(
                "{target}'s sheet is gone: this attack can no longer be answered.",
                target=UserText(target),
            )
        )
    return sheet_from_row(found)


def _raised(dodger: _Dodger, dodge: tuple[str, ...], npc_dodge: int) -> tuple[tuple[str, int], ...]:
    """The terms the dodge adds to the difficulty: the dodger's attributes (numbers as given);
    an NPC without a sheet adds the ``npc_dodge`` given with the attack."""
    if dodger.sheet is None:
        return (("dodge", npc_dodge),)
    terms = []
    for item in dodge:
        value = _number(item)
        terms.append(("", value) if value is not None else dodger.sheet.named_attribute(item))
    return tuple(terms)


def _spend_turn(
    state: ini.Encounter | None, dodger: _Dodger, target: ini.Combatant | None, cover: bool
) -> tuple[ini.Encounter | None, str, dict[str, Any]]:
    """The defensive roll's turn on the tracker (RULES.md §2), or why there is none: the
    note as an English template and its values, stored with the exchange and translated
    where the exchange is drawn (in the table's language, not the presser's)."""
    if state is None or state.ended:
        return None, N_("No skirmish runs here, so no turn is used up."), {}
    if dodger.combatant is None:
        note = N_("{name} is not on the tracker, so no turn is used up.")
        return None, note, {"name": dodger.name}
    protects = target.name if cover and target is not None else None
    was_delaying = dodger.combatant.delaying is not None
    new = ini.apply(state, ini.Defend(dodger.combatant.name, protects=protects))
    name = dodger.combatant.name
    if was_delaying:
        note = N_("The dodge spends {name}'s delayed action; {name} keeps the place.")
        return new, note, {"name": name}
    return new, N_("The dodge uses up {name}'s turn this round."), {"name": name}


async def _dodger(
    session: AsyncSession,
    actor: Actor,
    row: AttackExchange,
    state: ini.Encounter | None,
    choice: Answer,
    cover: str | None,
) -> tuple[_Dodger, ini.Combatant | None]:
    """Who dodges (the target, or the named delayer) and the target's combatant."""
    sheet = await _target_sheet(session, row)
    target = row.data["target"]
    found = None
    if state is not None and not state.ended:
        found = _combatant(
            state, target, sheet.owner_id if sheet else None, sheet.name if sheet else None
        )
    if choice is Answer.DODGE:
        return _Dodger(sheet.name if sheet else target, sheet, found), found
    if state is None or state.ended:
        raise UserError(
            _("No skirmish runs here: only a delayer on the tracker dodges for another.")
        )
    if found is None:
        raise UserError(
            _(
                "{target} is not on the tracker: nobody can dodge on its behalf.",
                target=UserText(target),
            )
        )
    delayer = state.find(cover or "")
    if delayer.delaying is None:
        raise UserError(
            _(
                "{name} is not delaying: only a delaying combatant may dodge on behalf of another.",
                name=UserText(delayer.name),
            )
        )
    return _Dodger(delayer.name, await _sheet_of(session, actor, delayer), delayer), found


async def _take_health(
    session: AsyncSession, row: AttackExchange, damage: int
) -> ResourceChange | None:
    """The hit's damage off the target sheet's Health, stopping at 0 (knocked out); an NPC
    without a sheet loses it from the Health the tracker keeps for it, if any."""
    if row.target_character_id is None:
        return await hurt_npc(
            session, row.channel_id, target=row.data["target"], damage=damage, floor=0
        )
    found = await characters_repo.by_id(session, row.target_character_id, for_update=True)
    key = None if found is None else find_key(found.resources or {}, HEALTH)
    if found is None or key is None:
        return None
    current = int(found.resources[key]["current"])
    amount = current - h90.health_after(current, damage)
    return await sheets.lower_resource(session, row.target_character_id, HEALTH, amount)


async def answer(
    db: Database,
    dice: Dice,
    actor: Actor,
    attack_id: int,
    choice: Answer,
    *,
    now: datetime,
    cover: str | None = None,
) -> Exchange:
    """Dodge, a delayer's dodge on the target's behalf (``cover`` names it), or Take it."""
    key, guard = (SYSTEM, attack_id), press_guard(db)
    guard.refuse_early(actor, key, cover=cover if choice is Answer.COVER else None)
    async with db.unit_of_work() as session:
        row = await attacks_repo.for_update(session, SYSTEM, attack_id)
        target = row.data.get("target", "") if row is not None else ""
        encounter, state = await _encounter(session, row.channel_id if row else 0)
        covers = _players(state, list(row.data.get("covers", ()))) if row is not None else ()
        await guard.watch(session, actor, key, row, target=target, covers=covers)
        answerers, who = None, None
        if choice is Answer.COVER and row is not None:
            if state is None:
                raise UserError(_("No skirmish runs here: nobody delays, so nobody dodges for it."))
            delayer = state.find(cover or "")
            answerers = {delayer.owner_id} if delayer.owner_id is not None else set()
            who = cover_answerer(delayer.name, delayer.owner_id)
        await claim(session, actor, row, target=target, now=now, answerers=answerers, who=who)
        assert row is not None  # claim refused an unknown exchange
        visibility = await secrecy.decide(session, row.channel_id, row.secret)
        exchange = exchange_of(row, visibility)
        if choice is not Answer.TAKE:
            dodger, found = await _dodger(session, actor, row, state, choice, cover)
            raised = _raised(dodger, exchange.dodge, exchange.npc_dodge)
            values = [value for _, value in raised]
            chance = h90.defend_chance(exchange.attack, values)
            defended = h90.defend(dice, exchange.attack, values)
            new_state, turn, turn_params = _spend_turn(state, dodger, found, choice is Answer.COVER)
            if new_state is not None and encounter is not None:
                # Bumps the revision the tracker compares (docs/decisions/many-processes.md).
                encounters.store(encounter, ini.to_dict(new_state))
            drawn = defended.faces[len(exchange.attack.faces) :]
            roll_log.add(
                session,
                actor,
                system=SYSTEM,
                input=(
                    f"{dodger.name} dodges {exchange.attacker}'s attack on {target}: "
                    f"difficulty {exchange.attack.difficulty} + "
                    + " + ".join(f"{n} {v}".strip() for n, v in raised)
                    + f" = {defended.difficulty}"
                ),
                faces=list(drawn),
                outcome=f"{defended.total} {'hits' if defended.success else 'misses'}",
                secret=row.secret,
                label=f"attack on {target}",
            )
            exchange = replace(
                exchange,
                dodger=UserText(dodger.name),
                raised=raised,
                defended=defended,
                defend_chance=chance,
                turn=turn,
                turn_params=turn_params,
            )
        exchange = replace(exchange, answer=choice)
        if not exchange.avoided:
            exchange = replace(exchange, health=await _take_health(session, row, exchange.damage))
        row.data = data_of(exchange)
        row.finished_at = now
    guard.forget(key)
    return exchange
