"""``/drama opposed``: the roller's pools against an opponent's; net 2 and more than them.

The opponent is a name with pools given as numbers, or a mentioned player whose side is
built from their active character's sheet (attribute, skill, backgrounds) with their own
penalty dice. A GM rolls both sides at once. A player mentioning another player rolls their
own side now and asks that player to roll theirs (:mod:`bot.services.side_requests`): their
sheet and penalty pool are read and changed only by their own press.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.services import offload, secrecy, side_requests
from bot.services.drama._rolls import (
    SYSTEM,
    PoolRequest,
    build_roller,
    faces_of,
    gain_penalty,
    pools_from,
    pools_text,
)
from bot.services.permissions import is_gm
from bot.services.rps import mentioned_user
from bot.services.sheets import CharacterSheet, named_or_active, players_active_character
from bot.services.side_requests import Challenge
from bot.storage import Database
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText
from engine.dice import Dice, RecordingDice, ReplayDice
from engine.penalty import PenaltyChange
from engine.systems import drama
from engine.systems.drama import OpposedResult, PoolPart, Pools

#: The request kind this module answers (the button's custom id carries it).
OPPOSED_KIND = "drama.opposed"
MOMENTUM_SIDES = {"me": "a", "them": "b", None: None}


@dataclass(frozen=True, slots=True)
class OpposedOutcome:
    result: OpposedResult
    pools: Pools
    their_pools: Pools
    their_name: str
    chances: dict[str, float] | None  # None: not worked out in time (offload.odds)
    character: str | None
    penalty_dice: int
    gained: PenaltyChange | None
    label: UserText | None
    secrecy: secrecy.Secrecy
    # A mentioned opponent's character: their penalty dice joined their Rd, their Dd 1s
    # went into their pool.
    their_character: str | None = None
    their_penalty_dice: int = 0
    their_gained: PenaltyChange | None = None
    #: Who rolled (the footer), when the opponent's player rolled their own side.
    rollers: str | None = None


def their_request(
    base: int | None = None,
    *,
    attribute: str | None = None,
    skill: str | None = None,
    backgrounds: int | None = None,
    indirect: bool = False,
    resistance: int = 0,
    drama_dice: int = 0,
) -> PoolRequest:
    """The opponent's side as asked: Bd as a number, or what their sheet rolls."""
    return PoolRequest(
        base=base,
        attribute=attribute,
        skill=skill,
        backgrounds=backgrounds,
        indirect=indirect,
        resistance=resistance,
        drama=drama_dice,
    )


def _opponent(actor: Actor, name: str) -> int | None:
    """The player a mention names (none for a plain name); never the roller."""
    user_id = mentioned_user(name)
    if user_id == actor.user_id:
        raise UserError(_("You cannot oppose yourself: name someone else."))
    return user_id


async def _named_sheet(session: AsyncSession, actor: Actor, name: str) -> CharacterSheet | None:
    """The Drama character a GM names as the opponent (their own, or one used here), if any."""
    try:
        return await named_or_active(session, actor, name, system=SYSTEM)
    except UserError:
        return None  # a name with pools given as numbers


def _check_their_side(request: PoolRequest, *, mentioned: bool) -> None:
    if request.base is None and not request.from_sheet:
        raise UserError(
            _(
                "Give the opponent's Base dice (`their_base`), or for a mentioned player the "
                "`their_attribute` or `their_skill` their character rolls."
            )
        )
    if request.from_sheet and not mentioned:
        raise UserError(
            _(
                "`their_attribute`, `their_skill` and `their_backgrounds` are read from a "
                "mentioned player's character (`their_name:@player`); give a named opponent's "
                "`their_base` instead."
            )
        )


async def opposed(
    db: Database,
    dice: Dice,
    actor: Actor,
    request: PoolRequest,
    their: PoolRequest,
    *,
    their_name: str | None = None,
    momentum: str | None = None,
    label: str | None = None,
    secret: bool = False,
    now: datetime,
) -> OpposedOutcome | Challenge:
    """The roller's pools (side a, rolled first) against the opponent's.

    A mentioned opponent is a player: their character's penalty dice join their Rd and
    their drama-die 1s go into their pool, as for the roller. A GM rolls them at once;
    a player asks them to roll their own side.
    """
    if momentum not in MOMENTUM_SIDES:
        raise UserError(_("Momentum goes to `me` or `them`."))
    name = (their_name or "").strip() or _("Opponent")
    async with db.unit_of_work() as session:
        user_id = _opponent(actor, name)
        gm = await is_gm(session, actor)
        # A GM's opponent named by name is a Drama character of theirs (an NPC's sheet) or
        # one used here, when there is one: its sheet and penalty dice are read like a
        # mentioned player's (RULES.md §5: each side from its own sheet when it has one).
        their_sheet = await _named_sheet(session, actor, name) if gm and user_id is None else None
        _check_their_side(their, mentioned=user_id is not None or their_sheet is not None)
        if user_id is not None and not gm:
            return await _challenge(
                session, dice, actor, request, their, user_id, momentum, label, secret, now
            )
        if user_id is not None:
            their_sheet = await players_active_character(
                session, actor, user_id, system=SYSTEM, action=_("roll the opposing side with")
            )
            if their_sheet is None:
                raise UserError(
                    _(
                        "{player} has no active Drama character here: name the opponent "
                        "instead (e.g. `their_name:Tom`).",
                        player=f"<@{user_id}>",
                    )
                )
            name = their_sheet.name
        roller, their_pool = await build_roller(session, actor, request, opponent=their_sheet)
        their_penalty = their_pool.dice if their_pool is not None else 0
        their_pools = pools_from(their, their_sheet, penalty_dice=their_penalty)
        result = drama.opposed(
            dice,
            a=roller.pools,
            b=their_pools,
            criticals=roller.criticals,
            momentum=MOMENTUM_SIDES[momentum],
        )
        gained = gain_penalty(session, actor, roller.pool, result.a)
        their_gained = gain_penalty(session, actor, their_pool, result.b)
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        _log(
            session,
            actor,
            roller.character or actor.display_name,
            name,
            result,
            roller.pools,
            their_pools,
            visibility.secret,
            label,
        )
    return OpposedOutcome(
        result=result,
        pools=roller.pools,
        their_pools=their_pools,
        their_name=name,
        chances=await offload.odds(
            drama.opposed_chances,
            actor=actor,
            heavy=offload.drama_heavy(roller.pools, their_pools),
            a=roller.pools,
            b=their_pools,
            criticals=roller.criticals,
        ),
        character=roller.character,
        penalty_dice=roller.penalty_dice,
        gained=gained,
        label=UserText.of(label),
        secrecy=visibility,
        their_character=their_sheet.name if their_sheet is not None else None,
        their_penalty_dice=their_penalty,
        their_gained=their_gained,
    )


def _log(
    session: AsyncSession,
    actor: Actor,
    me: str,
    them: str,
    result: OpposedResult,
    pools: Pools,
    their_pools: Pools,
    secret: bool,
    label: str | None,
) -> None:
    winner = {"a": me, "b": them, None: None}[result.winner]
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input=f"opposed {me} {pools_text(pools)} vs {them} {pools_text(their_pools)}",
        faces=[faces_of(result.a), faces_of(result.b)],
        outcome=(
            f"{result.a.net} vs {result.b.net}: "
            + (f"{winner} wins by {result.level}" if winner else result.outcome.value)
        ),
        secret=secret,
        label=label,
    )


async def _challenge(
    session: AsyncSession,
    dice: Dice,
    actor: Actor,
    request: PoolRequest,
    their: PoolRequest,
    user_id: int,
    momentum: str | None,
    label: str | None,
    secret: bool,
    now: datetime,
) -> Challenge:
    """Roll the roller's side now (their Dd 1s join their pool now), log it, and store the
    request the mentioned player answers with their own character."""
    side_requests.refuse_secret(secret, f"<@{user_id}>")
    if their.drama:
        raise UserError(
            _(
                "Drama dice are {player}'s own to risk (their 1s become penalty dice): leave "
                "`their_drama` off, or ask a GM to run the test.",
                player=f"<@{user_id}>",
            )
        )
    roller, _pool = await build_roller(session, actor, request)
    recording = RecordingDice(dice)
    rolled = drama.roll_pools(recording, roller.pools, criticals=roller.criticals)
    gained = gain_penalty(session, actor, roller.pool, rolled)
    me = roller.character or actor.display_name
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input=f"opposed {me} {pools_text(roller.pools)} vs <@{user_id}> (they roll their side)",
        faces=[faces_of(rolled)],
        outcome=f"net {rolled.net} · waiting for the other side",
        secret=False,
        label=label,
    )
    stored = await side_requests.create(
        session,
        actor,
        kind=OPPOSED_KIND,
        addressed_id=user_id,
        side={
            "faces": recording.faces,
            "pools": asdict(roller.pools),
            "character": roller.character,
            "penalty_dice": roller.penalty_dice,
            "gained": asdict(gained) if gained is not None else None,
            "criticals": roller.criticals,
        },
        options={
            "their": asdict(their),
            "momentum": MOMENTUM_SIDES[momentum],
            "label": label,
            "challenger": actor.display_name,
        },
        now=now,
    )
    return Challenge(
        request_id=stored.id,
        challenger=UserText(me),
        addressed_id=user_id,
        opponent=None,
        rolls=UserText(_asked(their)),
        label=UserText.of(label),
    )


def _asked(their: PoolRequest) -> str:
    """What the other side rolls, as the request says it."""
    if their.skill:
        if their.attribute:
            return _("skill {skill} with {attribute}", skill=their.skill, attribute=their.attribute)
        return _("skill {skill}", skill=their.skill)
    if their.backgrounds is not None:
        return _(
            "{attribute} + {count} backgrounds",
            attribute=their.attribute,
            count=their.backgrounds,
        )
    if their.attribute:
        return _("attribute {attribute}", attribute=their.attribute)
    return f"{their.base}Bd"


def _pools(data: dict[str, Any]) -> Pools:
    parts = tuple(PoolPart(**part) for part in data["parts"])
    return replace(Pools(**{**data, "parts": ()}), parts=parts)


async def roll_their_side(
    db: Database, dice: Dice, actor: Actor, request_id: int, *, now: datetime
) -> OpposedOutcome:
    """The mentioned player answers: their side from their own active character and penalty
    dice (their Dd 1s join their pool), the roller's stored dice replayed first, so the
    engine's opposed test gives the result."""
    async with db.unit_of_work() as session:
        request = await side_requests.claim(session, actor, request_id, kind=OPPOSED_KIND, now=now)
        side, options = request.challenger_side, request.options
        their, _pool = await build_roller(session, actor, PoolRequest(**options["their"]))
        pools = _pools(side["pools"])
        criticals = bool(side["criticals"])
        result = drama.opposed(
            ReplayDice(side["faces"], then=dice),
            a=pools,
            b=their.pools,
            criticals=criticals,
            momentum=options["momentum"],
        )
        their_gained = gain_penalty(session, actor, their.pool, result.b)
        me = side["character"] or options["challenger"]
        them = their.character or f"<@{actor.user_id}>"
        _log(session, actor, me, them, result, pools, their.pools, False, options["label"])
    gained = side["gained"]
    return OpposedOutcome(
        result=result,
        pools=pools,
        their_pools=their.pools,
        their_name=them,
        chances=await offload.odds(
            drama.opposed_chances,
            actor=actor,
            heavy=offload.drama_heavy(pools, their.pools),
            a=pools,
            b=their.pools,
            criticals=criticals,
        ),
        character=side["character"],
        penalty_dice=side["penalty_dice"],
        gained=PenaltyChange(**gained) if gained is not None else None,
        label=UserText.of(options["label"]),
        secrecy=secrecy.PUBLIC,
        their_character=their.character,
        their_penalty_dice=their.penalty_dice,
        their_gained=their_gained,
        rollers=_("{first} and {second}", first=options["challenger"], second=actor.display_name),
    )
