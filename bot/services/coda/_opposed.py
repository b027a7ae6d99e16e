"""``/coda opposed``: two sides test, the higher result wins.

Each side is a modifier or a character. A GM may name any character used in the channel
and rolls both sides at once; a player naming another player's character on side B rolls
side A now and asks that player to roll side B from their own sheet
(:mod:`bot.services.side_requests`), and the result appears when both have rolled.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.services import secrecy, sheets, side_requests
from bot.services.coda._roller import SYSTEM, Roller, dice_arithmetic, on_turn, ones_rule
from bot.services.coda._sheets import character_roller, parse_modifier, resolve_roller
from bot.services.coda._turn import TurnSpend
from bot.services.permissions import is_gm
from bot.services.side_requests import Challenge
from bot.storage import Database
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText
from engine.dice import Dice, ReplayDice
from engine.systems import coda
from engine.systems.coda import Part

#: The request kind this module answers (the button's custom id carries it).
OPPOSED_KIND = "coda.opposed"


@dataclass(frozen=True, slots=True)
class OpposedOutcome:
    result: coda.OpposedResult
    a: Roller
    b: Roller
    chances: tuple[float, float, float]
    label: UserText | None
    secrecy: secrecy.Secrecy
    #: Who rolled (the footer): the caller, or both players when side B answered a request.
    rollers: str = ""
    #: The action a side's test spent on its own turn (RULES.md §1), if any.
    turn: TurnSpend | None = None


async def roll_opposed(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    a: str,
    b: str,
    a_with: str | None = None,
    b_with: str | None = None,
    a_untrained: str | None = None,
    b_untrained: str | None = None,
    label: str | None = None,
    secret: bool = False,
    now: datetime,
) -> OpposedOutcome | Challenge:
    """Two sides, side A's dice first, then side B's; or side A alone and a request to the
    player whose character side B names (see the module's docstring)."""
    async with db.unit_of_work() as session:
        side_a = await resolve_roller(
            session, actor, a, a_with, who=_("Side A"), untrained=a_untrained
        )
        # Side A is the caller's: a test on its own turn is one of its actions.
        side_a, turn = await on_turn(session, actor, side_a)
        if parse_modifier(b) is None and not await is_gm(session, actor):
            other = await sheets.others_character(session, actor, b, system=SYSTEM)
            if other is not None:
                return await _challenge(
                    session,
                    dice,
                    actor,
                    side_a,
                    character=other.name,
                    owner_id=other.owner_id,
                    # b_attribute alone is the attribute rolled (as for a character here)
                    using=b_with if b_with and b_with.strip() else b_untrained,
                    untrained=b_untrained if b_with and b_with.strip() else None,
                    label=label,
                    secret=secret,
                    now=now,
                )
        side_b = await resolve_roller(
            session, actor, b, b_with, who=_("Side B"), untrained=b_untrained
        )
        if turn is None and (side_b.character or side_b.npc):  # a GM's side B on its turn
            side_b, turn = await on_turn(session, actor, side_b)
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        outcome = await _opposed(session, dice, actor, side_a, side_b, label, visibility)
        return replace(outcome, turn=turn)


async def _opposed(
    session: AsyncSession,
    dice: Dice,
    actor: Actor,
    side_a: Roller,
    side_b: Roller,
    label: str | None,
    visibility: secrecy.Secrecy,
    rollers: str = "",
) -> OpposedOutcome:
    """Roll (or replay side A and roll side B), log and return the opposed test."""
    ones = await ones_rule(session, actor.channel_id)
    chances = coda.opposed_chances(a_modifier=side_a.modifier, b_modifier=side_b.modifier)
    result = coda.opposed(dice, a_modifier=side_a.modifier, b_modifier=side_b.modifier, ones=ones)
    winner = {"a": "A wins", "b": "B wins"}.get(result.winner or "", "tie")
    degree = f" · {result.degree.label}" if result.degree is not None else ""
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input=f"opposed {side_a.name} ({dice_arithmetic(side_a.modifier)}) vs "
        f"{side_b.name} ({dice_arithmetic(side_b.modifier)})",
        faces=[list(result.a.faces), list(result.b.faces)],
        outcome=f"{result.a.total} vs {result.b.total} · {winner}{degree}",
        secret=visibility.secret,
        label=label,
    )
    return OpposedOutcome(
        result=result,
        a=side_a,
        b=side_b,
        chances=chances,
        label=UserText.of(label),
        secrecy=visibility,
        rollers=rollers,
    )


async def _challenge(
    session: AsyncSession,
    dice: Dice,
    actor: Actor,
    side_a: Roller,
    *,
    character: str,
    owner_id: int,
    using: str | None,
    untrained: str | None,
    label: str | None,
    secret: bool,
    now: datetime,
) -> Challenge:
    """Roll side A, log it, and store the request that side B's player answers."""
    if not using or not using.strip():
        raise UserError(
            _(
                "Side B: say what {character} rolls (`b_skill`): a skill, an attribute or a "
                "reaction. Its player then rolls it from their own sheet.",
                character=UserText(character),
            )
        )
    side_requests.refuse_secret(secret, _("{character}'s player", character=UserText(character)))
    faces = coda.side_faces(dice)
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input=f"opposed {side_a.name} ({dice_arithmetic(side_a.modifier)}) vs {character} "
        "(its player rolls)",
        faces=[list(faces)],
        outcome=f"{sum(faces) + side_a.modifier} · waiting for side B",
        secret=False,
        label=label,
    )
    request = await side_requests.create(
        session,
        actor,
        kind=OPPOSED_KIND,
        addressed_id=owner_id,
        side={
            "faces": list(faces),
            "parts": [[p.label, p.value] for p in side_a.parts],
            "character": side_a.character,
            "subject": side_a.subject,
        },
        options={
            "character": character,
            "using": using.strip(),
            "untrained": untrained,
            "label": label,
            "challenger": actor.display_name,
        },
        now=now,
    )
    return Challenge(
        request_id=request.id,
        challenger=UserText(side_a.name if side_a.character else actor.display_name),
        addressed_id=owner_id,
        opponent=UserText(character),
        rolls=UserText(using.strip()),
        label=UserText.of(label),
    )


async def roll_their_side(
    db: Database, dice: Dice, actor: Actor, request_id: int, *, now: datetime
) -> OpposedOutcome:
    """Side B's player answers the request: their character's side from their own sheet,
    side A's stored dice replayed first, so the engine's opposed test gives the result."""
    async with db.unit_of_work() as session:
        request = await side_requests.claim(session, actor, request_id, kind=OPPOSED_KIND, now=now)
        side, options = request.challenger_side, request.options
        side_a = Roller(
            parts=tuple(Part(label, value) for label, value in side["parts"]),
            character=side["character"],
            subject=side["subject"],
        )
        side_b = await character_roller(
            session,
            actor,
            options["character"],
            options["using"],
            who=_("Side B"),
            untrained=options["untrained"],
        )
        return await _opposed(
            session,
            ReplayDice(side["faces"], then=dice),
            actor,
            side_a,
            side_b,
            options["label"],
            secrecy.PUBLIC,
            rollers=_(
                "{first} and {second}", first=options["challenger"], second=actor.display_name
            ),
        )
