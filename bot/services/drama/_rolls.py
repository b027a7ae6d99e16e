"""Drama in History use cases: ``/drama test``, ``/drama opposed`` and "Pay the price".

The roller's current penalty dice join the Rd of every test, and drama-die 1s go into the
roller's pool, in the roll's own transaction. A "Yes, but…" stores an offer that only the
roller can take, once, within :data:`PRICE_WINDOW`, even across a restart.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import _
from bot.services import channel_settings, offload, secrecy
from bot.services import penalty as penalty_service
from bot.services.permissions import is_gm
from bot.services.rps import (
    PartySpec,
    parse_parties,
    party_character,
    skill_stat,
)
from bot.services.sheets import CharacterSheet, active_character, named_or_active
from bot.storage import Database
from bot.storage.models import DramaPriceOffer, PenaltyPool
from bot.storage.repositories import drama as offers
from bot.storage.repositories import penalty as pools_repo
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText
from engine import penalty
from engine.dice import Dice
from engine.penalty import PenaltyChange
from engine.systems import drama
from engine.systems.drama import DramaResult, Outcome, PoolPart, Pools

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
    # Lending a hand: the helpers' attributes, added to Bd.
    hand: int = 0
    # The GM turns the roller's penalty dice into a risk: Dd instead of Rd, for this test.
    risk: bool = False

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
        "risk": request.risk,
        "hands": (request.hand,) if request.hand else (),
    }
    if request.base is not None:
        if request.from_sheet:
            raise UserError(
                _("Give either a number of Base dice or an attribute/skill/backgrounds, not both.")
            )
        return drama.given_pools(request.base, **situation)
    if sheet is None or not request.from_sheet:
        raise UserError(
            _(
                "Give `base` (a number of Base dice), or an `attribute` or `skill` of your "
                "Drama character."
            )
        )
    if request.skill is not None:
        if request.backgrounds is not None:
            raise UserError(_("Backgrounds stand in for a skill you lack: use one or the other."))
        stat = skill_stat(
            sheet,
            request.skill,
            request.attribute,
            instead=_("let backgrounds stand in for it (`backgrounds:`)"),
        )
        return drama.skill_pools(
            stat.attribute_value,
            stat.ranks,
            attribute_name=stat.attribute,
            skill_name=stat.skill,
            **situation,
        )
    if request.attribute is None:
        raise UserError(_("Backgrounds add to an attribute: name it with the `attribute` option."))
    attribute_name, value = sheet.named_attribute(request.attribute)
    if request.backgrounds is not None:
        fit = drama.BackgroundFit.INDIRECT if request.indirect else drama.BackgroundFit.DIRECT
        return drama.background_pools(
            value, request.backgrounds, fit=fit, attribute_name=attribute_name, **situation
        )
    return drama.attribute_pools(value, name=attribute_name, **situation)


@dataclass(frozen=True, slots=True)
class Roller:
    """Whoever rolls: their active Drama character (if any), its locked pool, their pools."""

    sheet: CharacterSheet | None
    pool: PenaltyPool | None
    pools: Pools
    criticals: bool
    # The penalty dice in this roll's Rd, read before the roll: drama-die 1s then add to
    # ``pool.dice``, and the reply shows those apart (as "gained").
    penalty_dice: int

    @property
    def character(self) -> str | None:
        return self.sheet.name if self.sheet is not None else None


async def build_roller(
    session: AsyncSession,
    actor: Actor,
    request: PoolRequest,
    *,
    opponent: CharacterSheet | None = None,
    character: str | None = None,
) -> tuple[Roller, PenaltyPool | None]:
    """Read the roller's character (required for sheet values), lock its pool (and the
    opponent's), build the pools. ``character`` names the roller's sheet (a GM may name any
    character used here: that is how a GM runs a player's test, e.g. with a risk)."""
    sheet: CharacterSheet | None
    if character:
        sheet = await named_or_active(session, actor, character, system=SYSTEM)
    else:
        try:
            sheet = await active_character(session, actor, system=SYSTEM)
        except UserError:
            if request.from_sheet:
                raise
            sheet = None  # a bare pool rolled without a character: no penalty dice to track
    pool, their_pool = await _lock_pools(session, actor, sheet, opponent)
    penalty_dice = pool.dice if pool is not None else 0
    roller = Roller(
        sheet=sheet,
        pool=pool,
        pools=pools_from(request, sheet, penalty_dice=penalty_dice),
        criticals=await _criticals(session, actor.channel_id),
        penalty_dice=penalty_dice,
    )
    return roller, their_pool


async def _lock_pools(
    session: AsyncSession, actor: Actor, *sheets: CharacterSheet | None
) -> list[PenaltyPool | None]:
    """Lock the characters' pools in id order, so that two players opposing each other at
    the same moment cannot deadlock (each holding one pool and waiting for the other)."""
    locked: dict[int, PenaltyPool] = {}
    for sheet in sorted({s.id: s for s in sheets if s is not None}.values(), key=lambda s: s.id):
        locked[sheet.id] = await penalty_service.lock_pool(session, actor, sheet)
    return [locked[s.id] if s is not None else None for s in sheets]


def gain_penalty(
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


def pools_of(data: dict[str, Any]) -> Pools:
    """Pools stored as JSON (``dataclasses.asdict``) read back, for a roll finished later."""
    parts = tuple(PoolPart(**part) for part in data["parts"])
    return replace(Pools(**{**data, "parts": ()}), parts=parts)


def faces_of(result: DramaResult) -> list[list[int]]:
    return [list(result.base_faces), list(result.resistance_faces), list(result.drama_face_values)]


# --- working together -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Helper:
    """Someone working together with the roller: their own pools, with the full resistance."""

    name: str
    pools: Pools


@dataclass(frozen=True, slots=True)
class HelperRoll:
    name: str
    pools: Pools
    result: DramaResult


async def _helpers(
    session: AsyncSession, actor: Actor, request: PoolRequest, text: str | None
) -> tuple[Helper, ...]:
    """Read "Tom:3, @bob" into helpers: a name with Bd, or a player rolling their character.

    Each helper's test keeps the difficulty, situational Rd and target (the full resistance)
    and adds their own penalty dice; the roller's Dd and helping hands are the roller's own.
    """
    if not text:
        return ()
    helpers = [await helper_of(session, actor, request, spec) for spec in helper_specs(text)]
    names = [h.name.casefold() for h in helpers]
    if len(set(names)) != len(names):
        raise UserError(_("Each helper can be named only once."))
    return tuple(helpers)


def helper_specs(text: str) -> list[PartySpec]:
    """The ``helpers`` option read: "Tom:3, @bob", at most :data:`drama.MAX_HELPERS`."""
    specs = parse_parties(text, what=_("number of Base dice"), example="Tom:3, @bob")
    if len(specs) > drama.MAX_HELPERS:
        raise UserError(
            _("At most {count} helpers can work together with you.", count=drama.MAX_HELPERS)
        )
    return specs


def helper_request(request: PoolRequest) -> PoolRequest:
    """What a helper rolls: the roller's attribute/skill/backgrounds with the full
    resistance; the roller's Dd, helping hands and risk are the roller's own."""
    return replace(request, base=None, drama=0, hand=0, risk=False)


async def helper_of(
    session: AsyncSession, actor: Actor, request: PoolRequest, spec: PartySpec
) -> Helper:
    """One helper as the caller may roll them: a name with Bd, a number for a mentioned
    player, or a mentioned player's active character (the caller's own; others' for a GM)."""
    if spec.user_id == actor.user_id:
        raise UserError(_("You roll your own test already: helpers are the others."))
    own = helper_request(request)
    sheet: CharacterSheet | None = None
    dice = 0
    if spec.user_id is not None:
        sheet, dice = await _helper_character(session, actor, spec, request)
    if spec.base is not None:  # the Bd given: the same pools as for a bare number
        given = replace(own, base=spec.base, attribute=None, skill=None, backgrounds=None)
        pools = pools_from(given, None, penalty_dice=dice)
    else:
        pools = pools_from(own, sheet, penalty_dice=dice)
    name = sheet.name if sheet is not None else spec.name or f"<@{spec.user_id}>"
    return Helper(name, pools)


async def _helper_character(
    session: AsyncSession, actor: Actor, spec: PartySpec, request: PoolRequest
) -> tuple[CharacterSheet | None, int]:
    """A mentioned helper's active Drama character and its penalty dice (none without one).

    Only a GM rolls another player's character; anyone may give a helper's Base dice as a
    number (``@bob:4``), which reads nothing of their sheet.
    """
    assert spec.user_id is not None
    try:
        sheet = await party_character(session, actor, spec.user_id, system=SYSTEM)
    except PermissionDenied:
        if spec.base is None:
            raise
        return None, 0
    if sheet is None:
        if spec.base is not None:
            return None, 0
        raise UserError(
            _(
                "{player} has no active Drama character here: give their Base dice instead, "
                "like `{player}:4`.",
                player=f"<@{spec.user_id}>",
            )
        )
    if spec.base is None and not request.from_sheet:
        raise UserError(
            _(
                "Say which `attribute` or `skill` {player} rolls, or give their Base dice, "
                "like `{player}:4`.",
                player=f"<@{spec.user_id}>",
            )
        )
    return sheet, await penalty_service.current_dice(session, sheet.id)


# --- /drama test ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollOutcome:
    """A test; with helpers working together, ``net`` and ``outcome`` are the summed ones."""

    result: DramaResult
    pools: Pools
    net: int
    outcome: Outcome
    chances: dict[Outcome, float] | None  # None: not worked out in time (offload.odds)
    character: str | None
    penalty_dice: int
    gained: PenaltyChange | None
    offer_id: int | None
    label: UserText | None
    secrecy: secrecy.Secrecy
    helpers: tuple[HelperRoll, ...] = ()
    risk: bool = False
    """The penalty dice were rolled as a risk (Dd), by the GM's decision."""
    rollers: str | None = None
    """Who rolled (the footer), when helpers' players rolled their own parts."""

    @property
    def chance(self) -> float | None:
        return self.chances[Outcome.SUCCESS] if self.chances is not None else None


async def test(
    db: Database,
    dice: Dice,
    actor: Actor,
    request: PoolRequest,
    *,
    now: datetime,
    helpers: str | None = None,
    label: str | None = None,
    secret: bool = False,
    character: str | None = None,
) -> RollOutcome:
    """Build the pools, roll (helpers after the roller), add drama-die 1s to the roller's
    pool, and offer the price on a "Yes, but…".

    ``request.risk`` is the GM's: the roller's penalty dice become drama dice for this test.
    ``character`` is the roller's sheet when not the active one (a GM may run a player's).
    """
    async with db.unit_of_work() as session:
        if request.risk and not await is_gm(session, actor):
            raise PermissionDenied(
                _("Only the channel's GM can turn penalty dice into a risk (Rd → Dd for one test).")
            )
        roller, _pool = await build_roller(session, actor, request, character=character)
        if request.risk and roller.sheet is None:
            raise UserError(_("A risk turns your character's penalty dice into Dd: you have none."))
        team = await _helpers(session, actor, request, helpers)
        everyone = [roller.pools, *(h.pools for h in team)]
        together = drama.together(dice, pools=everyone, criticals=roller.criticals)
        result = together.tests[0]
        gained = gain_penalty(session, actor, roller.pool, result)
        offer_id = None
        if together.outcome is Outcome.YES_BUT:
            offer_id = await _offer(session, actor, roller.sheet, now)
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        who = f"{roller.character}: " if roller.character else ""
        with_helpers = "".join(f" + {h.name} {pools_text(h.pools)}" for h in team)
        roll_log.add(
            session,
            actor,
            system=SYSTEM,
            input=f"{who}test {pools_text(roller.pools)}{with_helpers}",
            faces=faces_of(result) if not team else [faces_of(t) for t in together.tests],
            outcome=f"net {together.net}: {together.outcome.label}",
            secret=visibility.secret,
            label=label,
        )
    return RollOutcome(
        result=result,
        pools=roller.pools,
        net=together.net,
        outcome=together.outcome,
        chances=await offload.odds(
            drama.together_chances,
            actor=actor,
            heavy=offload.drama_heavy(*everyone),
            pools=everyone,
            criticals=roller.criticals,
        ),
        character=roller.character,
        penalty_dice=roller.penalty_dice,
        gained=gained,
        offer_id=offer_id,
        label=UserText.of(label),
        secrecy=visibility,
        helpers=tuple(
            HelperRoll(h.name, h.pools, t) for h, t in zip(team, together.tests[1:], strict=True)
        ),
        risk=request.risk,
    )


test.__test__ = False  # type: ignore[attr-defined]  # not a pytest test when imported


async def _offer(
    session: AsyncSession, actor: Actor, sheet: CharacterSheet | None, now: datetime
) -> int:
    return await offer_price(
        session, actor, sheet.id if sheet else None, sheet.name if sheet else None, now
    )


async def offer_price(
    session: AsyncSession,
    actor: Actor,
    character_id: int | None,
    character_name: str | None,
    now: datetime,
) -> int:
    """Store a "Yes, but…" offer that only ``actor`` (the roller) can take, once."""
    offer = await offers.add(
        session,
        DramaPriceOffer(
            guild_id=actor.guild_id,
            channel_id=actor.channel_id,
            user_id=actor.user_id,
            character_id=character_id,
            character_name=character_name,
            expires_at=now + PRICE_WINDOW,
        ),
    )
    return offer.id


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
            raise OfferClosed(_("This roll can no longer be changed."))
        if offer.user_id != actor.user_id:
            raise PermissionDenied(
                _("Only {player}, who rolled, can pay this price.", player=f"<@{offer.user_id}>")
            )
        if offer.paid_at is not None:
            raise OfferClosed(_("The price for this roll has already been paid."))
        if now > offer.expires_at:
            minutes = int(PRICE_WINDOW.total_seconds() // 60)
            raise OfferClosed(
                _("Too late: the price can be paid within {minutes} minutes.", minutes=minutes)
            )
        offer.paid_at = now
        change = None
        if offer.character_id is not None:
            pool = await pools_repo.get_for_update(session, offer.character_id, offer.guild_id)
            change = penalty.add(pool.dice, drama.PRICE_PENALTY)
            penalty_service.apply(
                session, pool, change, user_id=actor.user_id, kind="price", reason="Yes, but…"
            )
        return PriceOutcome(offer.character_name, change)
