"""``/infinity ftf`` (without a Burst split): a face to face roll, active side first.

A GM may name any character used in the channel on either side. A player whose reactive
side is another player's character (``reactive_character``, its ``reactive_attribute`` by
name) rolls the active side now and asks that player to roll the reactive side from their
own sheet (:mod:`bot.services.side_requests`); the result appears when both have rolled.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.i18n import N_, _
from bot.services import secrecy, sheets, side_requests
from bot.services.infinity._rolls import (
    SYSTEM,
    Attack,
    FaceToFaceOutcome,
    Side,
    Source,
    ftf_summary,
    parse_number,
    read_value,
    shown_mods,
    sides_checked,
)
from bot.services.permissions import is_gm
from bot.services.side_requests import Challenge
from bot.storage import Database
from bot.storage.models import Character
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText
from engine.dice import Dice, RecordingDice, ReplayDice
from engine.systems import infinity
from engine.systems.infinity import Mods, NamedMod

#: The request kind this module answers (the button's custom id carries it).
KIND = "infinity.ftf"


async def face_to_face(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    active: Side,
    reactive: Side,
    attack: Attack | None = None,
    label: str | None = None,
    secret: bool = False,
    now: datetime,
) -> FaceToFaceOutcome | Challenge:
    """A face to face roll: the active side's dice are drawn first, then the reactive side's.

    ``attack`` names the active side's MODs (added to its plain ``mods``).
    """
    named = (attack or Attack()).mods(active.mods)
    active = replace(active, mods=named.for_roll)
    async with db.unit_of_work() as session:
        a = await read_value(session, actor, active.attribute, character=active.character)
        sides_checked(N_("Active"), a.value, active.mods, active.burst)
        other = await _other_players(session, actor, reactive)
        if other is not None:
            return await _challenge(
                session, dice, actor, a, active, reactive, other, named, label, secret, now
            )
        b = await read_value(session, actor, reactive.attribute, character=reactive.character)
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        return _roll(session, dice, actor, (a, active), (b, reactive), named, label, visibility)


async def _other_players(session: AsyncSession, actor: Actor, side: Side) -> Character | None:
    """Another player's character on the reactive side, named by a player (not a GM)."""
    if side.character is None or parse_number(side.attribute) is not None:
        return None
    if await is_gm(session, actor):
        return None
    return await sheets.others_character(session, actor, side.character, system=SYSTEM)


def _roll(
    session: AsyncSession,
    dice: Dice,
    actor: Actor,
    first: tuple[Source, Side],
    second: tuple[Source, Side],
    named: Mods,
    label: str | None,
    visibility: secrecy.Secrecy,
    rollers: str | None = None,
) -> FaceToFaceOutcome:
    """Roll both sides (the active one replayed when it rolled earlier) and log the roll."""
    (a, active), (b, reactive) = first, second
    sides_checked(N_("Reactive"), b.value, reactive.mods, reactive.burst)
    sides = {
        "a_attribute": a.value,
        "a_mods": active.mods,
        "a_burst": active.burst,
        "b_attribute": b.value,
        "b_mods": reactive.mods,
        "b_burst": reactive.burst,
    }
    odds = infinity.ftf_odds(**sides)
    result = infinity.face_to_face(dice, **sides)
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input=(
            f"ftf {a.text} MOD {active.mods:+d} B{active.burst} (SV {result.a.sv}) vs "
            f"{b.text} MOD {reactive.mods:+d} B{reactive.burst} (SV {result.b.sv})"
        ),
        faces=[list(result.a.faces), list(result.b.faces)],
        outcome=ftf_summary(result),
        secret=visibility.secret,
        label=label,
    )
    return FaceToFaceOutcome(
        result, odds, a, b, UserText.of(label), visibility, shown_mods(named), rollers=rollers
    )


async def _challenge(
    session: AsyncSession,
    dice: Dice,
    actor: Actor,
    a: Source,
    active: Side,
    reactive: Side,
    other: Character,
    named: Mods,
    label: str | None,
    secret: bool,
    now: datetime,
) -> Challenge:
    """Roll the active side now, log it, and store the request the other player answers."""
    side_requests.refuse_secret(secret, _("{character}'s player", character=UserText(other.name)))
    recording = RecordingDice(dice)
    rolled = infinity.roll_side(recording, a.value, active.mods, active.burst)
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input=f"ftf {a.text} MOD {active.mods:+d} B{active.burst} (SV {rolled.sv}) vs "
        f"{other.name} (its player rolls)",
        faces=[list(rolled.faces)],
        outcome="waiting for the reactive side",
        secret=False,
        label=label,
    )
    request = await side_requests.create(
        session,
        actor,
        kind=KIND,
        addressed_id=other.owner_id,
        side={
            "faces": recording.faces,
            "source": asdict(a),
            "active": asdict(active),
            "mods": [[mod.name, mod.value, mod.distance, mod.up_to] for mod in named.named],
        },
        options={
            "reactive": asdict(replace(reactive, character=other.name)),
            "label": label,
            "challenger": actor.display_name,
        },
        now=now,
    )
    return Challenge(
        request_id=request.id,
        challenger=UserText(
            _("{character}'s {attribute}", character=a.character, attribute=a.name)
            if a.character
            else actor.display_name
        ),
        addressed_id=other.owner_id,
        opponent=UserText(other.name),
        rolls=UserText(reactive.attribute.strip()),
        label=UserText.of(label),
    )


async def roll_their_side(
    db: Database, dice: Dice, actor: Actor, request_id: int, *, now: datetime
) -> FaceToFaceOutcome:
    """The reactive side's player answers from their own sheet; the active side's stored
    dice are replayed first through the engine's face to face roll."""
    async with db.unit_of_work() as session:
        request = await side_requests.claim(session, actor, request_id, kind=KIND, now=now)
        side, options = request.challenger_side, request.options
        reactive = Side(**options["reactive"])
        b = await read_value(session, actor, reactive.attribute, character=reactive.character)
        active = Side(**side["active"])
        return _roll(
            session,
            ReplayDice(side["faces"], then=dice),
            actor,
            (Source(**side["source"]), active),
            (b, reactive),
            Mods(tuple(NamedMod(*mod) for mod in side["mods"])),
            options["label"],
            secrecy.PUBLIC,
            rollers=_(
                "{first} and {second}", first=options["challenger"], second=actor.display_name
            ),
        )
