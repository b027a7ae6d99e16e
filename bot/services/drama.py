"""Drama in History use cases: ``/drama test``, ``/drama opposed`` and "Pay the price".

The roller's current penalty dice join the Rd of every test, and drama-die 1s go into the
roller's pool, in the roll's own transaction. A "Yes, but…" stores an offer that only the
roller can take, once, within :data:`PRICE_WINDOW`, even across a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.services import channel_settings, secrecy
from bot.services import penalty as penalty_service
from bot.services.characters import CharacterSheet, active_character
from bot.storage import Database
from bot.storage.models import DramaPriceOffer, PenaltyPool
from bot.storage.repositories import drama as offers
from bot.storage.repositories import penalty as pools_repo
from bot.storage.repositories import rolls as roll_log
from engine import penalty
from engine.dice import Dice
from engine.penalty import PenaltyChange
from engine.systems import drama
from engine.systems.drama import DramaResult, OpposedResult, Outcome, Pools

SYSTEM = "drama"
PRICE_WINDOW = timedelta(minutes=15)


@dataclass(frozen=True, slots=True)
class PoolRequest:
    """The options of a Drama test, before the sheet and the penalty pool fill them in."""

    base: int | None = None
    attribute: str | None = None
    skill: str | None = None
    backgrounds: int | None = None
    indirect: bool = False
    difficulty: str | None = None
    resistance: int = 0
    target: int = 0
    drama: int = 0

    @property
    def from_sheet(self) -> bool:
        return self.attribute is not None or self.skill is not None or self.backgrounds is not None


def pools_from(request: PoolRequest, sheet: CharacterSheet | None, *, penalty_dice: int) -> Pools:
    """Build the three pools (pure: the sheet and penalty dice were read by the caller)."""
    situation: drama.Situation = {
        "difficulty": request.difficulty,
        "resistance": request.resistance,
        "target": request.target,
        "drama": request.drama,
        "penalty": penalty_dice,
    }
    if request.base is not None:
        if request.from_sheet:
            raise UserError(
                "Give either a number of Base dice or an attribute/skill/backgrounds, not both."
            )
        return drama.given_pools(request.base, **situation)
    if sheet is None or not request.from_sheet:
        raise UserError("Give a number of Base dice, or an attribute or skill of your character.")
    if request.skill is not None:
        if request.backgrounds is not None:
            raise UserError("Backgrounds stand in for a skill you lack: use one or the other.")
        found = sheet.find_skill(request.skill)
        if found is None:
            raise UserError(
                f"{sheet.name} has no skill `{request.skill.strip()}`: add it with "
                "`/sheet skill …`, or let backgrounds stand in for it (`backgrounds:`)."
            )
        skill_name, skill = found
        parent = request.attribute or skill.attribute
        if parent is None:
            raise UserError(
                f"{sheet.name}'s skill {skill_name} has no attribute: name one with the "
                "`attribute` option, or set it with `/sheet skill … attribute:…`."
            )
        return drama.skill_pools(_attribute(sheet, parent), skill.ranks, **situation)
    if request.attribute is None:
        raise UserError("Backgrounds add to an attribute: name it with the `attribute` option.")
    value = _attribute(sheet, request.attribute)
    if request.backgrounds is not None:
        fit = drama.BackgroundFit.INDIRECT if request.indirect else drama.BackgroundFit.DIRECT
        return drama.background_pools(value, request.backgrounds, fit=fit, **situation)
    return drama.attribute_pools(value, **situation)


def _attribute(sheet: CharacterSheet, name: str) -> int:
    return sheet.attribute(name)


async def _roller(
    session: AsyncSession, actor: Actor, request: PoolRequest
) -> tuple[CharacterSheet | None, PenaltyPool | None]:
    """The active Drama character (required for sheet values) and its locked penalty pool."""
    if request.from_sheet:
        sheet: CharacterSheet | None = await active_character(session, actor, system=SYSTEM)
    else:
        try:
            sheet = await active_character(session, actor, system=SYSTEM)
        except UserError:
            sheet = None  # a bare pool rolled without a character: no penalty dice to track
    if sheet is None:
        return None, None
    return sheet, await penalty_service.lock_pool(session, actor, sheet)


def _gain(
    session: AsyncSession, actor: Actor, pool: PenaltyPool | None, result: DramaResult
) -> PenaltyChange | None:
    if pool is None or not result.penalty_gained:
        return None
    change = penalty.add(pool.dice, result.penalty_gained)
    penalty_service.apply(
        session,
        pool,
        change,
        user_id=actor.user_id,
        kind="drama",
        reason=f"{result.penalty_gained} drama-die 1s",
    )
    return change


async def _criticals(session: AsyncSession, channel_id: int) -> bool:
    return (await channel_settings.read(session, channel_id)).rule("drama.criticals") == "on"


def pools_text(pools: Pools) -> str:
    return f"{pools.base}Bd {pools.resistance}Rd {pools.drama}Dd"


def faces_of(result: DramaResult) -> list[list[int]]:
    return [list(result.base_faces), list(result.resistance_faces), list(result.drama_face_values)]


# --- /drama test ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollOutcome:
    result: DramaResult
    pools: Pools
    chance: float
    character: str | None
    penalty_dice: int
    gained: PenaltyChange | None
    offer_id: int | None
    label: str | None
    secrecy: secrecy.Secrecy


async def test(
    db: Database,
    dice: Dice,
    actor: Actor,
    request: PoolRequest,
    *,
    now: datetime,
    label: str | None = None,
    secret: bool = False,
) -> RollOutcome:
    """Build the pools, roll, add drama-die 1s to the pool, offer the price on "Yes, but…"."""
    async with db.unit_of_work() as session:
        sheet, pool = await _roller(session, actor, request)
        penalty_dice = pool.dice if pool is not None else 0
        pools = pools_from(request, sheet, penalty_dice=penalty_dice)
        criticals = await _criticals(session, actor.channel_id)
        result = drama.roll_pools(dice, pools, criticals=criticals)
        gained = _gain(session, actor, pool, result)
        offer_id = None
        if result.outcome is Outcome.YES_BUT:
            offer = await offers.add(
                session,
                DramaPriceOffer(
                    guild_id=actor.guild_id,
                    channel_id=actor.channel_id,
                    user_id=actor.user_id,
                    character_id=sheet.id if sheet else None,
                    character_name=sheet.name if sheet else None,
                    expires_at=now + PRICE_WINDOW,
                ),
            )
            offer_id = offer.id
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        who = f"{sheet.name}: " if sheet else ""
        roll_log.add(
            session,
            actor,
            system=SYSTEM,
            input=f"{who}test {pools_text(pools)}",
            faces=faces_of(result),
            outcome=f"net {result.net}: {result.outcome.label}",
            secret=visibility.secret,
            label=label,
        )
    return RollOutcome(
        result=result,
        pools=pools,
        chance=drama.chance(
            base=pools.base, resistance=pools.resistance, drama=pools.drama, criticals=criticals
        ),
        character=sheet.name if sheet else None,
        penalty_dice=penalty_dice,
        gained=gained,
        offer_id=offer_id,
        label=label,
        secrecy=visibility,
    )


test.__test__ = False  # type: ignore[attr-defined]  # not a pytest test when imported


# --- Pay the price ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PriceOutcome:
    character: str | None
    change: PenaltyChange | None


class OfferClosed(UserError):
    """The offer can no longer be taken (paid or expired): the button should be disabled."""


async def pay_price(db: Database, actor: Actor, offer_id: int, *, now: datetime) -> PriceOutcome:
    """Turn the roller's "Yes, but…" into a success for one more penalty die."""
    async with db.unit_of_work() as session:
        offer = await offers.get_for_update(session, offer_id)
        if offer is None:
            raise OfferClosed("This roll can no longer be changed.")
        if offer.user_id != actor.user_id:
            raise PermissionDenied(f"Only <@{offer.user_id}>, who rolled, can pay this price.")
        if offer.paid_at is not None:
            raise OfferClosed("The price for this roll has already been paid.")
        if now > offer.expires_at:
            minutes = int(PRICE_WINDOW.total_seconds() // 60)
            raise OfferClosed(f"Too late: the price can be paid within {minutes} minutes.")
        offer.paid_at = now
        change = None
        if offer.character_id is not None:
            pool = await pools_repo.get_for_update(
                session, offer.channel_id, offer.character_id, offer.guild_id
            )
            change = penalty.add(pool.dice, drama.PRICE_PENALTY)
            penalty_service.apply(
                session, pool, change, user_id=actor.user_id, kind="price", reason="Yes, but…"
            )
        return PriceOutcome(offer.character_name, change)


# --- /drama opposed ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpposedOutcome:
    result: OpposedResult
    pools: Pools
    their_pools: Pools
    their_name: str
    chances: dict[str, float]
    character: str | None
    penalty_dice: int
    gained: PenaltyChange | None
    label: str | None
    secrecy: secrecy.Secrecy


async def opposed(
    db: Database,
    dice: Dice,
    actor: Actor,
    request: PoolRequest,
    *,
    their_base: int,
    their_resistance: int = 0,
    their_drama: int = 0,
    their_name: str | None = None,
    momentum: str | None = None,
    label: str | None = None,
    secret: bool = False,
) -> OpposedOutcome:
    """The roller's pools (side a, rolled first) against the opponent's given pools."""
    if momentum not in (None, "me", "them"):
        raise UserError("Momentum goes to `me` or `them`.")
    their_pools = drama.given_pools(their_base, resistance=their_resistance, drama=their_drama)
    name = (their_name or "").strip() or "Opponent"
    async with db.unit_of_work() as session:
        sheet, pool = await _roller(session, actor, request)
        penalty_dice = pool.dice if pool is not None else 0
        pools = pools_from(request, sheet, penalty_dice=penalty_dice)
        criticals = await _criticals(session, actor.channel_id)
        result = drama.opposed(
            dice,
            a=pools,
            b=their_pools,
            criticals=criticals,
            momentum={"me": "a", "them": "b", None: None}[momentum],
        )
        gained = _gain(session, actor, pool, result.a)
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        me = sheet.name if sheet else actor.display_name
        winner = {"a": me, "b": name, None: None}[result.winner]
        roll_log.add(
            session,
            actor,
            system=SYSTEM,
            input=f"opposed {me} {pools_text(pools)} vs {name} {pools_text(their_pools)}",
            faces=[faces_of(result.a), faces_of(result.b)],
            outcome=(
                f"{result.a.net} vs {result.b.net}: "
                + (f"{winner} wins by {result.level}" if winner else result.outcome.value)
            ),
            secret=visibility.secret,
            label=label,
        )
    return OpposedOutcome(
        result=result,
        pools=pools,
        their_pools=their_pools,
        their_name=name,
        chances=drama.opposed_chances(a=pools, b=their_pools, criticals=criticals),
        character=sheet.name if sheet else None,
        penalty_dice=penalty_dice,
        gained=gained,
        label=label,
        secrecy=visibility,
    )
