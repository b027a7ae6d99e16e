"""Infinity CodeOne use cases (``/infinity``): normal rolls, face to face rolls, saving rolls.

Each function opens one unit of work, reads the attributes it needs from a sheet (when the
player names one instead of giving a number), decides secrecy, rolls with the engine, logs
the roll, and returns a frozen outcome with the exact odds for the renderer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import N_, _, translate_error
from bot.services import secrecy, sheets
from bot.services.permissions import is_gm
from bot.storage import Database
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText
from engine.dice import Dice
from engine.errors import InputError
from engine.systems import infinity
from engine.systems.infinity import (
    ATTRIBUTE_RANGE,
    FaceToFaceOdds,
    FaceToFaceResult,
    Mods,
    NormalOdds,
    NormalResult,
    SaveOdds,
    SaveResult,
    SplitResult,
    Target,
    attack_mods,
    split_face_to_face,
    split_odds,
)

SYSTEM = "infinity"
REACTIVE = N_("Reactive")
"""The reactive side's name among a Burst split's targets (the others are named by the player)."""
_NUMBER = re.compile(r"^\s*([+\-−]?)\s*(\d{1,100})\s*$")


@dataclass(frozen=True, slots=True)
class Source:
    """Where a rolled value came from: a number typed in, or a sheet's attribute."""

    value: int
    name: str = ""
    """The sheet's spelling ("BS"), or "" for a plain number."""
    character: str | None = None

    @property
    def text(self) -> str:
        """``Fusilier's BS 12`` or ``12``, for the roll log."""
        if self.character and self.name:
            return f"{self.character}'s {self.name} {self.value}"
        if self.character:
            return f"{self.character} {self.value}"
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a face to face as typed: an attribute (number or name), MODs, Burst."""

    attribute: str
    mods: int = 0
    burst: int = 1
    character: str | None = None


@dataclass(frozen=True, slots=True)
class Attack:
    """The attacking roll's MODs by name, as typed: cover, mimetism, the weapon's range bands
    and the distance to the target (RULES.md §3, Common MODs)."""

    cover: bool = False
    mimetism: int = 0
    range: str | None = None
    distance: int | None = None

    def mods(self, plain: int) -> Mods:
        return attack_mods(
            mods=plain,
            cover=self.cover,
            mimetism=self.mimetism,
            bands=self.range if self.range and self.range.strip() else None,
            distance=self.distance,
        )


@dataclass(frozen=True, slots=True)
class NormalOutcome:
    result: NormalResult
    odds: NormalOdds
    source: Source
    label: UserText | None
    secrecy: secrecy.Secrecy
    mods: Mods | None = None
    """The MODs by name, when any has a name (else the plain number says it all)."""


@dataclass(frozen=True, slots=True)
class FaceToFaceOutcome:
    result: FaceToFaceResult
    odds: FaceToFaceOdds
    active: Source
    reactive: Source
    label: UserText | None
    secrecy: secrecy.Secrecy
    mods: Mods | None = None
    """The active side's MODs by name (see :class:`NormalOutcome`)."""
    #: Who rolled (the footer), when the reactive side's player rolled their own side.
    rollers: str | None = None


@dataclass(frozen=True, slots=True)
class SplitOutcome:
    """A Burst split: every target's face to face against its share, with its exact odds."""

    result: SplitResult
    odds: tuple[FaceToFaceOdds, ...]
    active: Source
    reactive: Source
    names: tuple[str, ...]
    label: UserText | None
    secrecy: secrecy.Secrecy
    mods: Mods | None = None


@dataclass(frozen=True, slots=True)
class SaveOutcome:
    result: SaveResult
    odds: SaveOdds
    source: Source
    """Where the armor came from."""
    label: UserText | None
    secrecy: secrecy.Secrecy


# --------------------------------------------------------------------------- reading values


def parse_number(text: str) -> int | None:
    """``"12"``, ``"+3"``, ``"-5"``, ``"−5"`` as an int; None when ``text`` is a name."""
    match = _NUMBER.match(text)
    if match is None:
        return None
    value = int(match.group(2))
    return -value if match.group(1) in ("-", "−") else value


async def read_value(
    session: AsyncSession,
    actor: Actor,
    text: str,
    *,
    character: str | None = None,
    what: str = N_("attribute"),
    bounds: tuple[int, int] = ATTRIBUTE_RANGE,
) -> Source:
    """A number as typed (``character`` then names the side), or the named attribute of a
    sheet (``character``, else the active one).

    A sheet value outside what Infinity allows is refused naming the sheet, so the player
    knows which value to fix; a typed number is left to the engine's own message.
    """
    number = parse_number(text)
    if number is not None:
        # A typed number reads no sheet: ``character`` then only names the side (an NPC,
        # "Fusilier" with BS 12), so the embed and the roll log say who rolled.
        named = character.strip()[:64] if character and character.strip() else None
        return Source(number, character=named)
    if not text.strip():
        if what == "armor":
            raise UserError(_("Give the armor as a number or as an attribute of your sheet."))
        raise UserError(_("Give the attribute as a number or as an attribute of your sheet."))
    sheet = await sheets.named_or_active(session, actor, character, system=SYSTEM)
    name, value = sheet.named_attribute(text)
    low, high = bounds
    if not low <= value <= high:
        raise UserError(
            _(
                "{character}'s {name} is {value}, but an Infinity {what} must be between "
                "{low} and {high}. Fix it with `/sheet set attribute:{name} value:…`.",
                character=UserText(sheet.name),
                name=UserText(name),
                value=value,
                what=_(what),
                low=low,
                high=high,
            )
        )
    return Source(value, name, sheet.name)


def sides_checked(label: str, attribute: int, mods: int, burst: int) -> None:
    """Validate one side up front so the message says "Reactive …" rather than "side B …"."""
    try:
        infinity.normal_odds(attribute=attribute, mods=mods, burst=burst)
    except InputError as error:
        raise UserError(f"{_(label)}: {translate_error(error)}") from error


# --------------------------------------------------------------------------- use cases


async def roll(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    attribute: str,
    mods: int = 0,
    burst: int = 1,
    character: str | None = None,
    attack: Attack | None = None,
    label: str | None = None,
    secret: bool = False,
) -> NormalOutcome:
    """A normal roll of Burst d20 against an attribute (number or sheet name) + MODs."""
    named = (attack or Attack()).mods(mods)
    mods = named.for_roll
    async with db.unit_of_work() as session:
        source = await read_value(session, actor, attribute, character=character)
        odds = infinity.normal_odds(attribute=source.value, mods=mods, burst=burst)
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        result = infinity.normal(dice, attribute=source.value, mods=mods, burst=burst)
        roll_log.add(
            session,
            actor,
            system=SYSTEM,
            input=f"roll {source.text} MOD {mods:+d} B{burst}: SV {result.sv}",
            faces=list(result.faces),
            outcome=_normal_summary(result),
            secret=visibility.secret,
            label=label,
        )
    return NormalOutcome(result, odds, source, UserText.of(label), visibility, shown_mods(named))


def shown_mods(named: Mods) -> Mods | None:
    return named if named.named_beyond_plain else None


# A split target: "Warband:1:13" or "Warband:1:13:-3:2" (name, dice aimed, attribute, MODs,
# its own Burst).
_TARGET = re.compile(
    r"^(?P<name>[^:]+):\s*(?P<aimed>\d{1,2})\s*:\s*(?P<attribute>\d{1,2})\s*"
    r"(?::\s*(?P<mods>[+\-−]?\s*\d{1,2})\s*)?(?::\s*(?P<burst>\d{1,2})\s*)?$"
)
MAX_NAME = 40


def parse_targets(text: str) -> list[tuple[str, Target]]:
    """``Warband:1:13:-3, Hacker:1:11`` as (name, target) pairs, in the order given."""
    items = [item for item in text.split(",") if item.strip()]
    if not items:
        raise UserError(_("Name the other targets as name:dice:attribute, e.g. `Warband:1:13`."))
    found: list[tuple[str, Target]] = []
    for item in items:
        match = _TARGET.match(item)
        if match is None:
            raise UserError(
                _(
                    "`{item}` is not a target: write name:dice:attribute[:MODs[:Burst]], "
                    "e.g. `Warband:1:13:-3`.",
                    item=UserText(item.strip()[:60]),
                )
            )
        name = " ".join(match["name"].split())
        if not name or parse_number(name) is not None or len(name) > MAX_NAME:
            raise UserError(
                _(
                    "Each target starts with its name (up to {most} characters, not a number), "
                    "e.g. `Warband:1:13`.",
                    most=MAX_NAME,
                )
            )
        mods = parse_number(match["mods"]) if match["mods"] else 0
        target = Target(
            attribute=int(match["attribute"]),
            mods=mods or 0,
            burst=int(match["burst"]) if match["burst"] else 1,
            aimed=int(match["aimed"]),
            name=name,
        )
        found.append((name, target))
    return found


async def _split_reads_no_other_player(session: AsyncSession, actor: Actor, side: Side) -> None:
    """A Burst split rolls every target at once, so its reactive side may be another
    player's character only for a GM (docs/decisions/other-players.md).

    The other targets (``targets``) are numbers that read no sheet; a typed attribute with
    ``reactive_character`` only names the side. Without ``targets``, the face to face asks
    that player to roll their own side (:mod:`bot.services.infinity._ftf`).
    """
    if parse_number(side.attribute) is not None or not side.character:
        return
    if await is_gm(session, actor):
        return
    other = await sheets.others_character(session, actor, side.character, system=SYSTEM)
    if other is not None:
        raise UserError(
            _(
                "{character} is {owner}'s character, and a Burst split rolls every target at "
                "once: ask a GM to run it, give its attribute as a number, or leave `targets` "
                "off so that its player rolls their own side.",
                character=UserText(other.name),
                owner=f"<@{other.owner_id}>",
            )
        )


async def burst_split(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    active: Side,
    reactive: Side,
    targets: str,
    attack: Attack | None = None,
    label: str | None = None,
    secret: bool = False,
) -> SplitOutcome:
    """The active Burst split: the reactive side gets what ``targets`` leaves of it.

    The active side's dice are drawn once, in the order of the targets (the reactive side
    first), then each target's own dice; each target faces only the dice aimed at it.
    """
    named = (attack or Attack()).mods(active.mods)
    others = parse_targets(targets)
    taken = sum(t.aimed for _, t in others)
    rest = active.burst - taken
    if rest < 1:
        raise UserError(
            _(
                "The active Burst is {burst}: the other targets take {taken}, leaving none "
                "for the reactive side. Raise `active_burst` to the whole Burst.",
                burst=active.burst,
                taken=taken,
            )
        )
    async with db.unit_of_work() as session:
        a = await read_value(session, actor, active.attribute, character=active.character)
        await _split_reads_no_other_player(session, actor, reactive)
        b = await read_value(session, actor, reactive.attribute, character=reactive.character)
        first = Target(b.value, reactive.mods, reactive.burst, rest, REACTIVE)
        chosen = (first, *(t for _, t in others))
        kwargs: dict[str, Any] = {
            "a_attribute": a.value,
            "a_mods": named.for_roll,
            "targets": chosen,
        }
        try:
            odds = split_odds(**kwargs)
        except InputError as error:
            raise UserError(_("Burst split: {error}", error=translate_error(error))) from error
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        result = split_face_to_face(dice, **kwargs)
        names = (REACTIVE, *(name for name, _target in others))
        roll_log.add(
            session,
            actor,
            system=SYSTEM,
            input=(
                f"ftf {a.text} MOD {named.for_roll:+d} B{active.burst} (SV {result.attack.sv}) "
                "split: "
                + ", ".join(
                    f"{n} {t.aimed}d vs {t.attribute} MOD {t.mods:+d} B{t.burst}"
                    for n, t in zip(names, chosen, strict=True)
                )
            ),
            faces=[list(result.attack.faces), *(list(d.b.faces) for d in result.duels)],
            outcome="; ".join(
                f"{n}: {ftf_summary(d, ('active', 'target'))}"
                for n, d in zip(names, result.duels, strict=True)
            ),
            secret=visibility.secret,
            label=label,
        )
    return SplitOutcome(
        result, odds, a, b, names, UserText.of(label), visibility, shown_mods(named)
    )


async def save(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    damage: int,
    armor: str,
    cover: bool = False,
    hits: int = 1,
    mods: int = 0,
    character: str | None = None,
    label: str | None = None,
    secret: bool = False,
) -> SaveOutcome:
    """Saving rolls, one d20 per hit, against damage − armor (a number, ARM or BTS…)."""
    async with db.unit_of_work() as session:
        source = await read_value(
            session,
            actor,
            armor,
            character=character,
            what=N_("armor"),
            bounds=infinity.ARMOR_RANGE,
        )
        args: dict[str, Any] = {
            "damage": damage,
            "armor": source.value,
            "cover": cover,
            "mods": mods,
        }
        odds = infinity.save_odds(**args, hits=hits)
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        result = infinity.save(dice, **args, hits=hits)
        roll_log.add(
            session,
            actor,
            system=SYSTEM,
            input=(
                f"save damage {damage} armor {source.text}"
                f"{' cover' if cover else ''} MOD {mods:+d} hits {hits}"
            ),
            faces=list(result.faces),
            outcome=f"{result.wounds} wound(s), {result.saved} saved",
            secret=visibility.secret,
            label=label,
        )
    return SaveOutcome(result, odds, source, UserText.of(label), visibility)


def _normal_summary(result: NormalResult) -> str:
    if result.auto_fail:
        return "automatic failure"
    text = f"{result.successes} success(es)"
    if result.criticals:
        text += f", {result.criticals} critical"
    return text


def ftf_summary(result: FaceToFaceResult, sides: tuple[str, str] = ("active", "reactive")) -> str:
    if result.winner is None:
        return f"nobody wins ({result.decision.value})"
    side = sides[0] if result.winner == "a" else sides[1]
    return f"{side} wins, {len(result.hits)} hit(s) ({result.decision.value})"
