"""Hogwarts 1990 use cases (``/h90 roll``, ``/h90 defended`` and ``/h90 opposed``).

A side's bonus is an attribute of a character sheet, a plain number, or both added; the
chance is worked out before the roll, and each roll is logged in the command's own
transaction.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.services import secrecy, sheets, side_requests
from bot.services.permissions import is_gm
from bot.services.side_requests import Challenge
from bot.storage import Database
from bot.storage.models import Character
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText, signed, term
from engine.dice import Dice, RecordingDice, ReplayDice
from engine.systems import hogwarts1990 as h90

SYSTEM = "h90"
#: The "roll your side" request kind ``/h90 opposed`` answers (in the button's custom id).
OPPOSED_KIND = "h90.opposed"


@dataclass(frozen=True, slots=True)
class Roller:
    """One side as the command gives it: an attribute (of whose sheet), a plain bonus, and how
    it rolls. Both /h90 commands take the same options per side, so they share this shape."""

    attribute: str | None = None
    bonus: int | None = None
    character: str | None = None
    stress: bool = False
    advantage: bool = False


@dataclass(frozen=True, slots=True)
class Side:
    """Who rolls and what is added: the attribute (from whose sheet) and any plain bonus."""

    character: str | None = None
    attribute: str | None = None
    attribute_value: int = 0
    extra: int = 0
    display: str | None = None
    """A name for a side without a sheet (``vs_name``, e.g. an NPC)."""

    @property
    def bonus(self) -> int:
        return self.attribute_value + self.extra

    @property
    def name(self) -> str:
        if self.character and self.attribute:
            return f"{self.character} · {self.attribute}"
        return self.display or self.character or _("Bonus")

    @property
    def named(self) -> bool:
        """Whether the side has a name of its own (a sheet's or ``vs_name``)."""
        return bool(self.attribute or self.display)

    def terms(self) -> str:
        """``+ 3 (Bravery) + 2`` — every term of the bonus, named (escaped) where it has a
        name."""
        parts = []
        if self.attribute:
            parts.append(f"{term(self.attribute_value)} ({UserText(self.attribute)})")
        if self.extra or not self.attribute:
            parts.append(term(self.extra))
        return " ".join(parts)


# A defended roll's difficulty adds a few of the defender's attributes (T + D is two).
MAX_DEFENSE_TERMS = 6


@dataclass(frozen=True, slots=True)
class Defense:
    """A defended roll's difficulty: the defender and each attribute (or number) it adds."""

    defender: str | None
    terms: tuple[tuple[str | None, int], ...]

    @property
    def values(self) -> tuple[int, ...]:
        return tuple(value for _, value in self.terms)

    def text(self) -> str:
        """``Toughness 8 + Dexterity 3 = 11`` (a bare number stands as itself)."""
        shown = " + ".join(f"{name} {value}" if name else str(value) for name, value in self.terms)
        return f"{shown} = {sum(self.values)}"


@dataclass(frozen=True, slots=True)
class RollOutcome:
    roll: h90.Roll
    side: Side
    odds: h90.Odds | None
    label: UserText | None
    secrecy: secrecy.Secrecy
    defense: Defense | None = None


@dataclass(frozen=True, slots=True)
class OpposedOutcome:
    result: h90.Opposed
    a: Side
    b: Side
    odds: h90.OpposedOdds
    label: UserText | None
    secrecy: secrecy.Secrecy
    #: Who rolled (the footer), when the other side's player rolled their own side.
    rollers: str | None = None


async def _side(
    session: AsyncSession, actor: Actor, roller: Roller, *, other: bool = False
) -> Side:
    """Resolve one side: an attribute of a sheet and/or a plain number.

    The caller's side reads their active character unless ``character`` names another of
    theirs (or, for a GM, any character used here); the ``other`` side must name one.
    """
    extra = roller.bonus or 0
    attribute, character = roller.attribute, roller.character
    if attribute is None:
        if character is not None:
            option = "vs_attribute" if other else "attribute"
            raise UserError(
                _(
                    "Name the attribute {character} rolls with `{option}`.",
                    character=UserText(character),
                    option=option,
                )
            )
        return Side(extra=extra)
    if character is None and other:
        raise UserError(
            _("Name the character whose attribute the other side rolls (`vs_character`).")
        )
    sheet = await sheets.named_or_active(session, actor, character, system=SYSTEM)
    name, value = sheet.named_attribute(attribute)
    return Side(character=sheet.name, attribute=name, attribute_value=value, extra=extra)


async def side(session: AsyncSession, actor: Actor, roller: Roller) -> Side:
    """The caller's side of a roll (its attribute from their sheet and/or a bonus), for the
    other Hogwarts 1990 use cases (``/h90 attack``)."""
    return await _side(session, actor, roller)


def _log_input(
    side: Side, roller: Roller, difficulty: int | None = None, *, name: str | None = None
) -> str:
    text = f"{name or side.name} {signed(side.bonus)}"
    if difficulty is not None:
        text += f" vs {difficulty}"
    if roller.stress:
        text += " stress"
    if roller.advantage:
        text += " advantage"
    return text


def _log_outcome(roll: h90.Roll) -> str:
    if roll.success is None:
        return str(roll.total)
    return f"{roll.total} {roll.outcome.label.lower()}"


async def roll(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    roller: Roller,
    difficulty: int | None = None,
    label: str | None = None,
    secret: bool = False,
) -> RollOutcome:
    async with db.unit_of_work() as session:
        side = await _side(session, actor, roller)
        return await roll_and_log(
            session, dice, actor, side, roller, difficulty, label=label, secret=secret
        )


async def defended(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    roller: Roller,
    defense: str,
    defender: str | None = None,
    defender_name: str | None = None,
    label: str | None = None,
    secret: bool = False,
) -> RollOutcome:
    """A roll whose difficulty is the sum of the defender's attributes (RULES.md §2).

    ``defense`` adds attribute names of the ``defender`` character's sheet and/or numbers
    ("Toughness + Dexterity", "8 + 3"); a defender without a sheet is ``defender_name``.
    """
    async with db.unit_of_work() as session:
        side = await _side(session, actor, roller)
        guard = await _defense(session, actor, defense, defender, defender_name)
        difficulty = h90.defended_difficulty(*guard.values)
        return await roll_and_log(
            session,
            dice,
            actor,
            side,
            roller,
            difficulty,
            label=label,
            secret=secret,
            defense=guard,
        )


async def _defense(
    session: AsyncSession,
    actor: Actor,
    text: str,
    defender: str | None,
    defender_name: str | None,
) -> Defense:
    items = [item.strip() for item in text.replace(",", "+").split("+")]
    if not any(items) or not all(items):
        raise UserError(
            _(
                "Give the defence as attributes and/or numbers joined by +, e.g. "
                "`Toughness + Dexterity` or `8 + 3`."
            )
        )
    if len(items) > MAX_DEFENSE_TERMS:
        raise UserError(
            _("A defence adds at most {count} attributes or numbers.", count=MAX_DEFENSE_TERMS)
        )
    names = [item for item in items if _number(item) is None]
    if defender and defender.strip():
        if defender_name:
            raise UserError(_("Name the defender once: a character (`defender`) or a name."))
        sheet = await sheets.character_by_name(session, actor, defender, system=SYSTEM)
        terms = [
            (None, value) if (value := _number(item)) is not None else sheet.named_attribute(item)
            for item in items
        ]
        return Defense(sheet.name, tuple(terms))
    if names:
        raise UserError(
            _(
                "`{name}` is an attribute: name the defending character (`defender`) whose "
                "sheet has it, or give numbers.",
                name=UserText(names[0]),
            )
        )
    shown = " ".join(defender_name.split()) if defender_name else None
    return Defense(shown or None, tuple((None, _number(item) or 0) for item in items))


def _number(text: str) -> int | None:
    try:
        return int(text.replace("−", "-").replace(" ", ""))
    except ValueError:
        return None


async def roll_and_log(
    session: AsyncSession,
    dice: Dice,
    actor: Actor,
    side: Side,
    roller: Roller,
    difficulty: int | None,
    *,
    label: str | None,
    secret: bool,
    defense: Defense | None = None,
) -> RollOutcome:
    """The chance (before the roll), the roll, and its line in the roll log."""
    how = {"stress": roller.stress, "advantage": roller.advantage}
    odds = None if difficulty is None else h90.odds(bonus=side.bonus, difficulty=difficulty, **how)
    visibility = await secrecy.decide(session, actor.channel_id, secret)
    if defense is None:
        result = h90.roll(dice, bonus=side.bonus, difficulty=difficulty, **how)
        text = _log_input(side, roller, difficulty)
    else:
        result = h90.defended(dice, bonus=side.bonus, defender=defense.values, **how)
        who = f" by {defense.defender}" if defense.defender else ""
        text = _log_input(side, roller, difficulty) + f" defended{who} ({defense.text()})"
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input=text,
        faces=list(result.faces),
        outcome=_log_outcome(result),
        secret=visibility.secret,
        label=label,
    )
    return RollOutcome(result, side, odds, UserText.of(label), visibility, defense)


async def opposed(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    roller: Roller,
    vs: Roller,
    vs_name: str | None = None,
    label: str | None = None,
    secret: bool = False,
    now: datetime,
) -> OpposedOutcome | Challenge:
    """Both sides at once; or, when a player's ``vs_character`` is another player's
    character, the caller's side now and a request that player answers
    (:mod:`bot.services.side_requests`). A GM rolls both sides at once."""
    async with db.unit_of_work() as session:
        a = await _side(session, actor, roller)
        if vs.character and not await is_gm(session, actor):
            other = await sheets.others_character(session, actor, vs.character, system=SYSTEM)
            if other is not None:
                return await _challenge(
                    session, dice, actor, a, roller, vs, other, label, secret=secret, now=now
                )
        b = await _side(session, actor, vs, other=True)
        if vs_name and not b.attribute:
            b = replace(b, display=" ".join(vs_name.split()))
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        return _opposed(
            session, dice, actor, (a, roller), (b, vs), label, visibility, actor.display_name
        )


def _opposed(
    session: AsyncSession,
    dice: Dice,
    actor: Actor,
    first: tuple[Side, Roller],
    second: tuple[Side, Roller],
    label: str | None,
    visibility: secrecy.Secrecy,
    challenger: str,
    rollers: str | None = None,
) -> OpposedOutcome:
    """Roll (side A's dice first: replayed when it rolled earlier) and log the roll."""
    (a, roller), (b, vs) = first, second
    sides: dict[str, Any] = {
        "a_bonus": a.bonus,
        "a_stress": roller.stress,
        "a_advantage": roller.advantage,
        "b_bonus": b.bonus,
        "b_stress": vs.stress,
        "b_advantage": vs.advantage,
    }
    odds = h90.opposed_odds(**sides)
    result = h90.opposed(dice, **sides)
    # The names the reply shows: a side without one is the roller or "Opponent".
    a_name = a.name if a.named else challenger
    b_name = b.name if b.named else "Opponent"
    winner = {"a": f"{a_name} wins", "b": f"{b_name} wins", None: "tie"}[result.winner]
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input=f"{_log_input(a, roller, name=a_name)} vs {_log_input(b, vs, name=b_name)}",
        faces=[*result.a.faces, *result.b.faces],
        outcome=f"{result.a.total} vs {result.b.total}: {winner}",
        secret=visibility.secret,
        label=label,
    )
    return OpposedOutcome(result, a, b, odds, UserText.of(label), visibility, rollers)


async def _challenge(
    session: AsyncSession,
    dice: Dice,
    actor: Actor,
    a: Side,
    roller: Roller,
    vs: Roller,
    other: Character,
    label: str | None,
    *,
    secret: bool,
    now: datetime,
) -> Challenge:
    """Roll the caller's side now, log it, and store what the other player rolls."""
    if not vs.attribute:
        raise UserError(
            _(
                "Name the attribute {character} rolls with `vs_attribute`.",
                character=UserText(other.name),
            )
        )
    side_requests.refuse_secret(secret, _("{character}'s player", character=UserText(other.name)))
    recording = RecordingDice(dice)
    rolled = h90.roll(recording, bonus=a.bonus, stress=roller.stress, advantage=roller.advantage)
    a_name = a.name if a.named else actor.display_name
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input=f"{_log_input(a, roller, name=a_name)} vs {other.name} (its player rolls)",
        faces=list(rolled.faces),
        outcome=f"{rolled.total} · waiting for the other side",
        secret=False,
        label=label,
    )
    request = await side_requests.create(
        session,
        actor,
        kind=OPPOSED_KIND,
        addressed_id=other.owner_id,
        side={
            "faces": recording.faces,
            "side": asdict(a),
            "stress": roller.stress,
            "advantage": roller.advantage,
        },
        options={
            "vs": asdict(replace(vs, character=other.name)),
            "label": label,
            "challenger": actor.display_name,
        },
        now=now,
    )
    return Challenge(
        request_id=request.id,
        challenger=UserText(a_name),
        addressed_id=other.owner_id,
        opponent=UserText(other.name),
        rolls=UserText(vs.attribute),
        label=UserText.of(label),
    )


async def roll_their_side(
    db: Database, dice: Dice, actor: Actor, request_id: int, *, now: datetime
) -> OpposedOutcome:
    """The other player answers: their character's attribute from their own sheet, the
    caller's stored dice replayed first through the engine's opposed roll."""
    async with db.unit_of_work() as session:
        request = await side_requests.claim(session, actor, request_id, kind=OPPOSED_KIND, now=now)
        side, options = request.challenger_side, request.options
        a = Side(**side["side"])
        if not a.named:  # a bare bonus: shown as the player who rolled it, not the presser
            a = replace(a, display=options["challenger"])
        roller = Roller(stress=side["stress"], advantage=side["advantage"])
        vs = Roller(**options["vs"])
        b = await _side(session, actor, vs, other=True)
        return _opposed(
            session,
            ReplayDice(side["faces"], then=dice),
            actor,
            (a, roller),
            (b, vs),
            options["label"],
            secrecy.PUBLIC,
            options["challenger"],
            rollers=_(
                "{first} and {second}", first=options["challenger"], second=actor.display_name
            ),
        )
