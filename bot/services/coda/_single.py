"""``/coda test``, ``skill``, ``attribute``, ``reaction`` and ``damage``: the rolls one
user makes alone, in one unit of work, with no state kept after it.

It exists to keep the simplest use cases apart from the ones with stored or shared state
(combined, extended, opposed), which share only the pieces below it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.services import secrecy
from bot.services.coda._roller import (
    SYSTEM,
    Roller,
    TestOutcome,
    TestRequest,
    bounded,
    ones_rule,
    penalties_of,
    plain_roller,
    resolve_tn,
    roll_and_log,
)
from bot.services.coda._sheets import attribute_roller, load_sheet, skill_roller
from bot.services.coda._turn import spend_on_turn
from bot.storage import Database
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText
from engine.dice import Dice
from engine.systems import coda
from engine.systems.coda import TEST, parse_conditions


@dataclass(frozen=True, slots=True)
class PlainRoll:
    """``/coda test``: a bare modifier, no sheet."""

    modifier: int = 0

    kind: ClassVar[str] = "test"

    async def roller(self, session: AsyncSession, actor: Actor) -> Roller:
        return plain_roller(self.modifier)


@dataclass(frozen=True, slots=True)
class SkillRoll:
    """``/coda skill``: a skill of the named (else active) character."""

    skill: str
    character: str | None = None
    attribute: str | None = None
    specialty: str | None = None
    affinity: int = 0
    modifier: int = 0

    kind: ClassVar[str] = "skill test"

    async def roller(self, session: AsyncSession, actor: Actor) -> Roller:
        return skill_roller(
            await load_sheet(session, actor, self.character),
            self.skill,
            attribute=self.attribute,
            specialty=self.specialty,
            affinity=self.affinity,
            modifier=self.modifier,
        )


@dataclass(frozen=True, slots=True)
class AttributeRoll:
    """``/coda attribute``: an attribute of the named (else active) character."""

    name: str
    character: str | None = None
    modifier: int = 0

    kind: ClassVar[str] = "attribute test"
    reaction: ClassVar[bool] = False

    async def roller(self, session: AsyncSession, actor: Actor) -> Roller:
        sheet = await load_sheet(session, actor, self.character)
        return attribute_roller(sheet, self.name, modifier=self.modifier, reaction=self.reaction)


@dataclass(frozen=True, slots=True)
class ReactionRoll(AttributeRoll):
    """``/coda reaction``: a reaction score (Stamina, Swiftness, Willpower, Wisdom)."""

    kind: ClassVar[str] = "reaction test"
    reaction: ClassVar[bool] = True


Who = PlainRoll | SkillRoll | AttributeRoll


async def roll_test(
    db: Database, dice: Dice, actor: Actor, who: Who, request: TestRequest
) -> TestOutcome:
    """Every single test: ``who`` says where the modifier comes from, ``request`` the rest."""
    base_tn, difficulty_label = resolve_tn(request.tn, request.difficulty)
    penalties = penalties_of(
        penalty=request.penalty, attempt=request.attempt, extra_actions=request.extra_actions
    )
    chosen = parse_conditions(request.conditions)
    async with db.unit_of_work() as session:
        roller = await who.roller(session, actor)
        turn = None
        if request.extra_actions is None and request.action:
            turn = await spend_on_turn(
                session, actor, character=roller.character, owner_id=roller.owner_id, action=TEST
            )
            if turn is not None:
                penalties = bounded(penalties + turn.penalties)
        visibility = await secrecy.decide(session, actor.channel_id, request.secret)
        result, chance = roll_and_log(
            session,
            dice,
            actor,
            roller=roller,
            tn=base_tn,
            penalties=penalties,
            conditions=chosen,
            visibility=visibility,
            label=request.label,
            what=roller.subject or who.kind,
            ones=await ones_rule(session, actor.channel_id),
        )
    return TestOutcome(
        result=result,
        chance=chance,
        roller=roller,
        penalties=penalties,
        kind=who.kind,
        difficulty=difficulty_label,
        label=UserText.of(request.label),
        secrecy=visibility,
        turn=turn,
    )


# --------------------------------------------------------------------------- /coda damage


@dataclass(frozen=True, slots=True)
class DamageOutcome:
    result: coda.DamageResult
    label: UserText | None
    secrecy: secrecy.Secrecy


async def roll_damage(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    count: int,
    modifier: int = 0,
    label: str | None = None,
    secret: bool = False,
) -> DamageOutcome:
    async with db.unit_of_work() as session:
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        result = coda.damage(dice, count=count, modifier=modifier)
        roll_log.add(
            session,
            actor,
            system=SYSTEM,
            input=f"damage {count}d6{modifier:+d}" if modifier else f"damage {count}d6",
            faces=result.faces,
            outcome=str(result.total),
            secret=visibility.secret,
            label=label,
        )
    return DamageOutcome(result=result, label=UserText.of(label), secrecy=visibility)
