"""``/coda attack`` and its defender's buttons: one CODA combat exchange (RULES.md §1).

The attack is a combat skill test from the attacker's sheet against the target's Defence.
A hit is stored as a :class:`~bot.storage.models.CodaAttack` row and waits for the
defender (the target character's owner, or the GM for an NPC): Dodge, Parry (melee only)
or Take it. The defence test, the damage and the Health it takes happen in the defender's
one unit of work. Everything the exchange message shows is kept in the row, so a restart
in the middle of an exchange loses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.services import secrecy, sheets
from bot.services.attack_exchange import (
    ANSWER_WINDOW,
    HEALTH,
    ExchangeClosed,
    change_data,
    change_of,
    claim,
    hurt_npc,
    press_guard,
    resolve_target,
)
from bot.services.coda._roller import (
    SYSTEM,
    Roller,
    log_test,
    ones_rule,
    penalties_of,
    plain_roller,
    roll_and_log,
)
from bot.services.coda._sheets import load_sheet, skill_roller
from bot.services.coda._turn import spend_defence, spend_on_turn
from bot.services.permissions import require_gm
from bot.services.sheets import CharacterSheet, ResourceChange, sheet_from_row
from bot.storage import Database
from bot.storage.models import CodaAttack
from bot.storage.repositories import characters as characters_repo
from bot.storage.repositories import coda as coda_repo
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText
from engine.dice import Dice
from engine.systems import coda
from engine.systems.coda import (
    ATTACK,
    Defence,
    Degree,
    Part,
    allowed,
    defend,
    defend_chance,
    parse_conditions,
)

DEFENCE = "Defence"
#: The attribute of an untrained Dodge (RULES.md §1's decision, seed 000 Table 9-6).
UNTRAINED_DODGE = "Swiftness"
#: The sheet's skills each defence rolls, in the order tried.
DEFENCE_SKILLS: dict[Defence, tuple[str, ...]] = {
    Defence.DODGE: ("Dodge",),
    Defence.PARRY: ("Parry", "Block", "Parry/Block"),
}


@dataclass(frozen=True, slots=True)
class AttackRequest:
    """What ``/coda attack`` asks."""

    skill: str
    target: str
    dice: int = 1
    modifier: int = 0
    ranged: bool = False
    defence: int | None = None
    npc_defend: int = 0
    conditions: str | None = None
    attribute: str | None = None
    character: str | None = None
    secret: bool = False
    #: Actions beyond the allowance counted by hand; None: from the tracker on your turn.
    extra_actions: int | None = None
    #: A name for an attacker without a sheet (an NPC the GM plays), rolling ``bonus``.
    attacker: str | None = None
    bonus: int = 0


@dataclass(frozen=True, slots=True)
class Test:
    """One test of the exchange as shown: the result, its named terms, its chance."""

    __test__ = False  # not a pytest test class

    result: coda.TestResult
    parts: tuple[Part, ...]
    chance: float
    who: UserText
    #: The named penalties (an extra action's −5) and what the tracker says of the action.
    penalties: tuple[Part, ...] = ()
    note: UserText | None = None


@dataclass(frozen=True, slots=True)
class Exchange:
    """An exchange as the message shows it, at whatever stage it has reached."""

    id: int | None
    attacker: UserText
    target: UserText
    defence: int
    defence_from: str  # "sheet" or "given"
    ranged: bool
    weapon: tuple[int, int]  # dice, modifier
    attack: Test
    defender_id: int | None
    choice: Defence | None = None
    defence_test: Test | None = None
    damage: coda.DamageResult | None = None
    health: ResourceChange | None = None
    secrecy: secrecy.Secrecy = secrecy.PUBLIC
    roller: str = ""  # who attacked, as Discord shows them (for the footer)
    #: This step spent an action or Health on the channel's tracker (not stored).
    tracked: bool = False

    @property
    def hit(self) -> bool:
        return self.attack.result.success

    @property
    def avoided(self) -> bool:
        return self.defence_test is not None and self.defence_test.result.success

    @property
    def waiting(self) -> bool:
        """The attack hit and the defender has not answered yet."""
        return self.hit and self.choice is None

    @property
    def options(self) -> tuple[Defence, ...]:
        return allowed(ranged=self.ranged)


# --------------------------------------------------------------------------- storage


def _test_data(test: Test) -> dict[str, Any]:
    r = test.result
    return {
        "faces": list(r.faces),
        "modifier": r.modifier,
        "penalty": r.penalty,
        "tn": r.tn,
        "base_tn": r.base_tn,
        "degree": r.degree.name,
        "ones": r.ones.value,
        "conditions": ", ".join(c.text for c in r.conditions),
        "parts": [[p.label, p.value] for p in test.parts],
        "chance": test.chance,
        "who": test.who.raw,
        "penalties": [[p.label, p.value] for p in test.penalties],
        "note": test.note.raw if test.note else "",
    }


def _test_of(data: dict[str, Any]) -> Test:
    result = coda.TestResult(
        tuple(int(f) for f in data["faces"]),
        int(data["modifier"]),
        int(data["penalty"]),
        int(data["tn"]),
        Degree[data["degree"]],
        coda.Ones.parse(data["ones"]),
        int(data["base_tn"]),
        parse_conditions(data.get("conditions")),
    )
    parts = tuple(Part(str(label), int(value)) for label, value in data["parts"])
    penalties = tuple(Part(str(label), int(value)) for label, value in data.get("penalties", ()))
    who, note = UserText(str(data["who"])), UserText.of(str(data.get("note", "")))
    return Test(result, parts, float(data["chance"]), who, penalties, note)


def _data(exchange: Exchange) -> dict[str, Any]:
    data: dict[str, Any] = {
        "attacker": exchange.attacker.raw,
        "target": exchange.target.raw,
        "defence": exchange.defence,
        "defence_from": exchange.defence_from,
        "weapon": list(exchange.weapon),
        "attack": _test_data(exchange.attack),
        "roller": exchange.roller,
    }
    if exchange.choice is not None:
        data["choice"] = exchange.choice.value
    if exchange.defence_test is not None:
        data["defence_test"] = _test_data(exchange.defence_test)
    if exchange.damage is not None:
        data["damage"] = {"faces": list(exchange.damage.faces), "total": exchange.damage.total}
    if exchange.health is not None:
        data["health"] = change_data(exchange.health)
    return data


def exchange_of(row: CodaAttack, visibility: secrecy.Secrecy = secrecy.PUBLIC) -> Exchange:
    """The stored exchange, ready to be drawn again."""
    data = row.data
    count, modifier = (int(v) for v in data["weapon"])
    damage = None
    if "damage" in data:
        faces = tuple(int(f) for f in data["damage"]["faces"])
        damage = coda.DamageResult(faces, count, modifier, int(data["damage"]["total"]))
    health = change_of(data.get("health"))
    return Exchange(
        id=row.id,
        attacker=UserText(data["attacker"]),
        target=UserText(data["target"]),
        defence=int(data["defence"]),
        defence_from=data["defence_from"],
        ranged=row.ranged,
        weapon=(count, modifier),
        attack=_test_of(data["attack"]),
        defender_id=row.defender_id,
        choice=Defence(data["choice"]) if "choice" in data else None,
        defence_test=_test_of(data["defence_test"]) if "defence_test" in data else None,
        damage=damage,
        health=health,
        secrecy=visibility,
        roller=str(data.get("roller", "")),
    )


# --------------------------------------------------------------------------- the attack


def _defence_of(sheet: CharacterSheet | None, target: str, given: int | None) -> tuple[int, str]:
    """The TN: a given Defence, else the target sheet's Defence (attribute or resource)."""
    if given is not None:
        coda.chance(tn=given)  # the engine's bounds check and message
        return given, "given"
    if sheet is None:
        raise UserError(
            _(
                "No character called `{target}` is used in this channel: for an NPC, give its "
                "`defence`.",
                target=UserText(target),
            )
        )
    if (attribute := sheet.find_attribute(DEFENCE)) is not None:
        return attribute[1], "sheet"
    if (resource := sheet.find_resource(DEFENCE)) is not None:
        return resource[1].current, "sheet"
    raise UserError(
        _(
            "{character}'s sheet has no Defence: give the `defence` to attack against, or add "
            "it with `/sheet set attribute:Defence value:…`.",
            character=UserText(sheet.name),
        )
    )


async def _attacker(session: AsyncSession, actor: Actor, request: AttackRequest) -> Roller:
    """Who attacks: an NPC the GM names with its bonus (no sheet), else a character's skill."""
    if request.attacker is None or not request.attacker.strip():
        sheet = await load_sheet(session, actor, request.character)
        return skill_roller(sheet, request.skill, attribute=request.attribute)
    if request.character or request.attribute:
        raise UserError(
            _(
                "`attacker` names an NPC without a sheet, rolling its `bonus`: give it without "
                "`character` or `attribute`."
            )
        )
    await require_gm(session, actor, _("attack as an NPC"))
    if not coda.MODIFIER_MIN <= request.bonus <= coda.MODIFIER_MAX:
        raise UserError(
            _(
                "The NPC's bonus must be between {low} and {high}.",
                low=coda.MODIFIER_MIN,
                high=coda.MODIFIER_MAX,
            )
        )
    name = " ".join(request.attacker.split())[:64]
    parts = (Part(name, request.bonus),) if request.bonus else ()
    return Roller(parts=parts, npc=name, subject=" ".join(request.skill.split())[:64])


async def attack(
    db: Database, dice: Dice, actor: Actor, request: AttackRequest, *, now: datetime
) -> Exchange:
    """Roll the attack; a hit is stored and waits for the defender's answer."""
    if not coda.DAMAGE_DICE_MIN <= request.dice <= coda.DAMAGE_DICE_MAX:
        raise UserError(
            _(
                "A weapon deals {low}–{high} dice of damage.",
                low=coda.DAMAGE_DICE_MIN,
                high=coda.DAMAGE_DICE_MAX,
            )
        )
    if not coda.MODIFIER_MIN <= request.npc_defend <= coda.MODIFIER_MAX:
        raise UserError(
            _(
                "The NPC's Dodge/Parry modifier must be between {low} and {high}.",
                low=coda.MODIFIER_MIN,
                high=coda.MODIFIER_MAX,
            )
        )
    chosen = parse_conditions(request.conditions)
    penalties = penalties_of(extra_actions=request.extra_actions)
    async with db.unit_of_work() as session:
        roller = await _attacker(session, actor, request)
        target, target_sheet = await resolve_target(session, actor, request.target)
        defence, source = _defence_of(target_sheet, target, request.defence)
        turn = None
        if request.extra_actions is None:  # on the attacker's turn: one of its actions
            turn = await spend_on_turn(
                session,
                actor,
                character=roller.character,
                owner_id=roller.owner_id,
                npc=roller.npc,
                action=ATTACK,
            )
            penalties = turn.penalties if turn is not None else ()
        visibility = await secrecy.decide(session, actor.channel_id, request.secret)
        result, chance = roll_and_log(
            session,
            dice,
            actor,
            roller=roller,
            tn=defence,
            penalties=penalties,
            conditions=chosen,
            visibility=visibility,
            label=f"attack on {target}",
            what=f"attack {roller.subject} on {target}",
            ones=await ones_rule(session, actor.channel_id),
        )
        note = turn.note if turn else None
        exchange = Exchange(
            id=None,
            attacker=UserText(roller.character or roller.npc or roller.name),
            target=UserText(target),
            defence=defence,
            defence_from=source,
            ranged=request.ranged,
            weapon=(request.dice, request.modifier),
            attack=Test(result, roller.parts, chance, UserText(roller.name), penalties, note),
            defender_id=target_sheet.owner_id if target_sheet else None,
            secrecy=visibility,
            roller=actor.display_name,
            tracked=turn is not None,
        )
        if not exchange.hit:
            return exchange
        row = CodaAttack(
            guild_id=actor.guild_id,
            channel_id=actor.channel_id,
            attacker_id=actor.user_id,
            defender_id=exchange.defender_id,
            target_character_id=target_sheet.id if target_sheet else None,
            ranged=request.ranged,
            secret=visibility.secret,
            data={**_data(exchange), "npc_defend": request.npc_defend},
            expires_at=now + ANSWER_WINDOW,
        )
        await coda_repo.add_attack(session, row)
        exchange = replace(exchange, id=row.id)
        known = await press_guard(db).learn(
            session, actor, defender_id=row.defender_id, target=target
        )
    press_guard(db).remember((SYSTEM, row.id), known)  # committed: bystanders refused from memory
    return exchange


# --------------------------------------------------------------------------- the answer


async def _defender_roller(
    session: AsyncSession, row: CodaAttack, choice: Defence, target: str
) -> Roller:
    """Who rolls the defence: the target's Dodge/Parry skill, or the NPC's modifier."""
    if row.target_character_id is None:
        return plain_roller(int(row.data.get("npc_defend", 0)))
    found = await characters_repo.by_id(session, row.target_character_id)
    if found is None:
        raise ExchangeClosed(
            _(
                "{target}'s sheet is gone: this attack can no longer be answered.",
                target=UserText(target),
            )
        )
    sheet = sheet_from_row(found)
    for skill in DEFENCE_SKILLS[choice]:
        if sheet.find_skill(skill) is not None:
            return skill_roller(sheet, skill)
    if choice is Defence.DODGE:
        # RULES.md §1: an untrained Dodge is Swiftness − 2 (Table 9-6 pairs dodging with it).
        return skill_roller(sheet, DEFENCE_SKILLS[choice][0], attribute=UNTRAINED_DODGE)
    names = _(" or ").join(DEFENCE_SKILLS[choice][:2])
    raise UserError(
        _(
            "{character} has no {skills} skill on the sheet (add it with `/sheet skill`), so "
            "cannot roll it; press another button.",
            character=UserText(sheet.name),
            skills=names,
        )
    )


async def answer(
    db: Database, dice: Dice, actor: Actor, attack_id: int, choice: Defence, *, now: datetime
) -> Exchange:
    """The defender's Dodge, Parry or Take it; then the damage, taken from Health."""
    key, guard = (SYSTEM, attack_id), press_guard(db)
    guard.refuse_early(actor, key)
    async with db.unit_of_work() as session:
        row = await coda_repo.attack_for_update(session, attack_id)
        data = dict(row.data) if row is not None else {}
        target = data.get("target", "")
        await guard.watch(session, actor, key, row, target=target)
        await claim(session, actor, row, target=target, now=now)
        assert row is not None  # claim refused an unknown exchange
        if choice not in allowed(ranged=row.ranged):
            raise UserError(_("Only Dodge avoids a ranged attack."))
        visibility = await secrecy.decide(session, row.channel_id, row.secret)
        exchange = exchange_of(row, visibility)
        ones = await ones_rule(session, row.channel_id)
        defence_test = None
        tracked = False
        if choice is not Defence.TAKE:
            roller = await _defender_roller(session, row, choice, target)
            # RULES.md §1: a Dodge or Parry is one of the defender's actions this round.
            turn = await spend_defence(
                session,
                row.channel_id,
                target=target,
                owner_id=row.defender_id if roller.character else None,
                character=roller.character,
                action=choice.label,
            )
            tracked = turn is not None
            penalties = () if turn is None else turn.penalties
            penalty = sum(p.value for p in penalties)
            attack_result = exchange.attack.result
            chance = defend_chance(
                attack_result, modifier=roller.modifier, ones=ones, penalty=penalty
            )
            result = defend(
                dice, attack_result, modifier=roller.modifier, ones=ones, penalty=penalty
            )
            who = roller.name if roller.character else target
            note = turn.note if turn else None
            defence_test = Test(result, roller.parts, chance, UserText(who), penalties, note)
            log_test(
                session,
                actor,
                result,
                what=f"{choice.label} of {target} ({roller.name})",
                visibility=visibility,
                label=f"attack on {target}",
            )
        exchange = replace(exchange, choice=choice, defence_test=defence_test)
        if not exchange.avoided:
            count, modifier = exchange.weapon
            damage = coda.damage(dice, count=count, modifier=modifier)
            roll_log.add(
                session,
                actor,
                system=SYSTEM,
                input=f"damage {count}d6{modifier:+d} to {target}",
                faces=damage.faces,
                outcome=str(damage.total),
                secret=row.secret,
                label=f"attack on {target}",
            )
            if row.target_character_id is not None:
                health = await sheets.lower_resource(
                    session, row.target_character_id, HEALTH, damage.total
                )
            else:  # an NPC: the Health the tracker keeps for it, if any
                health = await hurt_npc(session, row.channel_id, target=target, damage=damage.total)
                tracked = tracked or health is not None
            exchange = replace(exchange, damage=damage, health=health)
        exchange = replace(exchange, tracked=tracked)
        row.data = {**_data(exchange), "npc_defend": data.get("npc_defend", 0)}
        row.finished_at = now
    guard.forget(key)
    return exchange
