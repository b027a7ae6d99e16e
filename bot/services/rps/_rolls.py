"""RPS use cases: ``/rps check``, the Base every check is made of, and the parties of
``/rps resisted`` (its use case is :mod:`bot.services.rps._resisted`; sustained actions are
:mod:`bot.services.rps._sustained`).

A Base comes from a number, or from the active character's attribute (2 × attribute) or
skill (skill + parent attribute), plus a named difficulty and a modifier.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import N_, _
from bot.services import secrecy
from bot.services.permissions import is_gm
from bot.services.sheets import CharacterSheet, active_character, players_active_character
from bot.storage import Database
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText, number, signed
from engine.dice import Dice
from engine.systems import rps
from engine.systems.rps import CheckResult

SYSTEM = "rps"
PARTIES_LENGTH = 1000


@dataclass(frozen=True, slots=True)
class Base:
    """A Base and where it came from, e.g. ("Tracking 4", "Intuition 6", "Moderately hard +2")."""

    value: int
    parts: tuple[str, ...]
    character: str | None = None


@dataclass(frozen=True, slots=True)
class BaseRequest:
    """What the player asked the Base to be made of (the options of a check command)."""

    base: int | None = None
    attribute: str | None = None
    skill: str | None = None
    difficulty: str | None = None
    modifier: int = 0

    @property
    def from_sheet(self) -> bool:
        return self.attribute is not None or self.skill is not None


def base_text(base: Base) -> str:
    """For the roll log: "Base 8 (2 × Strength 5 + modifier −2)", and a plain "Base 14"
    rather than "Base 14 (Base 14)"."""
    detail = " + ".join(base.parts)
    head = f"Base {base.value}"
    return head if detail in ("", head) else f"{head} ({detail})"


def _modifier_parts(request: BaseRequest) -> tuple[str, ...]:
    parts = []
    if request.difficulty is not None:
        found = rps.difficulty(request.difficulty)
        parts.append(f"{found.name} {signed(found.modifier)}")
    if request.modifier:
        parts.append(f"modifier {signed(request.modifier)}")
    return tuple(parts)


def base_from(request: BaseRequest, sheet: CharacterSheet | None) -> Base:
    """Work out the Base (pure: the sheet, if needed, was read by the caller)."""
    if request.base is not None and request.from_sheet:
        raise UserError(_("Give either a Base or an attribute/skill of your character, not both."))
    extra = _modifier_parts(request)
    if request.base is not None:
        value = rps.modified_base(
            request.base, difficulty=request.difficulty, modifier=request.modifier
        )
        return Base(value, (f"Base {request.base}", *extra))
    if sheet is None or not request.from_sheet:
        raise UserError(
            _("Give `base` (a number), or an `attribute` or `skill` of your RPS character.")
        )
    if request.skill is None:
        assert request.attribute is not None
        name, value = sheet.named_attribute(request.attribute)
        total = rps.attribute_base(value, difficulty=request.difficulty, modifier=request.modifier)
        return Base(total, (f"2 × {name} {value}", *extra), sheet.name)
    stat = skill_stat(sheet, request.skill, request.attribute, instead=_("roll an attribute check"))
    total = rps.skill_base(
        stat.ranks, stat.attribute_value, difficulty=request.difficulty, modifier=request.modifier
    )
    parts = (f"{stat.skill} {stat.ranks}", f"{stat.attribute} {stat.attribute_value}", *extra)
    return Base(total, parts, sheet.name)


@dataclass(frozen=True, slots=True)
class SkillStat:
    """A skill and the attribute it is rolled with, as the sheet spells them."""

    skill: str
    ranks: int
    attribute: str
    attribute_value: int


def skill_stat(
    sheet: CharacterSheet, skill: str, attribute: str | None, *, instead: str
) -> SkillStat:
    """The skill and its parent attribute (or the one named), or an error saying what to do.

    RPS and Drama skill tests both read a sheet this way; ``instead`` is the other way to roll.
    """
    found = sheet.find_skill(skill)
    if found is None:
        raise UserError(
            _(
                "{character} has no skill `{skill}`: add it with "
                "`/sheet skill name:{skill} ranks:… attribute:…`, or {instead}.",
                character=UserText(sheet.name),
                skill=UserText(skill.strip()),
                instead=instead,
            )
        )
    skill_name, entry = found
    parent = attribute or entry.attribute
    if parent is None:
        raise UserError(
            _(
                "{character}'s skill {skill} has no parent attribute: name one with the "
                "`attribute` option, or set it with `/sheet skill … attribute:…`.",
                character=UserText(sheet.name),
                skill=UserText(skill_name),
            )
        )
    attribute_name, value = sheet.named_attribute(parent)
    return SkillStat(skill_name, entry.ranks, attribute_name, value)


async def resolve_base(session: AsyncSession, actor: Actor, request: BaseRequest) -> Base:
    """The Base a request asks for, reading the caller's active RPS character if it must."""
    sheet = await active_character(session, actor, system=SYSTEM) if request.from_sheet else None
    return base_from(request, sheet)


# --- /rps check -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CheckOutcome:
    result: CheckResult
    base: Base
    chance: float
    label: UserText | None
    secrecy: secrecy.Secrecy


def outcome_text(result: CheckResult) -> str:
    """The roll log's one-line outcome, e.g. "SL 4 (acceptable)" or "SL 6 critical success"."""
    text = f"SL {number(result.success_level)} ({result.label})"
    if result.special is not None:
        text += f", {result.special.label}"
    if result.forgone:
        text += ", roll forgone"
    if result.granted:
        text += ", automatic success (GM)"
    return text


async def check(
    db: Database,
    dice: Dice,
    actor: Actor,
    request: BaseRequest,
    *,
    forgo: bool = False,
    automatic: bool = False,
    label: str | None = None,
    secret: bool = False,
) -> CheckOutcome:
    """One stat check, logged; ``automatic`` is the GM's automatic success (no roll, SL 1)."""
    async with db.unit_of_work() as session:
        if automatic and not await is_gm(session, actor):
            raise PermissionDenied(
                _("Only the channel's GM can grant an automatic success (no roll, SL 1).")
            )
        base = await resolve_base(session, actor, request)
        result = rps.check(dice, base=base.value, forgo=forgo, automatic=automatic)
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        who = f"{base.character}: " if base.character else ""
        roll_log.add(
            session,
            actor,
            system=SYSTEM,
            input=f"{who}check {base_text(base)}",
            faces=list(result.faces),
            outcome=outcome_text(result),
            secret=visibility.secret,
            label=label,
        )
    return CheckOutcome(
        result=result,
        base=base,
        chance=rps.chance(base=base.value, forgo=forgo, automatic=automatic),
        label=UserText.of(label),
        secrecy=visibility,
    )


# --- /rps resisted ------------------------------------------------------------------------------

MENTION = re.compile(r"^<@!?(\d+)>$")
#: The largest id a Discord user can have: ids are stored in signed 64-bit columns.
MAX_USER_ID = 2**63 - 1


async def party_character(
    session: AsyncSession, actor: Actor, user_id: int, *, system: str
) -> CharacterSheet | None:
    """A mentioned player's active character: the roller's own, or (GMs only) another's."""
    if user_id != actor.user_id:
        return await players_active_character(
            session, actor, user_id, system=system, action=_("roll with")
        )
    try:
        return await active_character(session, actor, system=system)
    except UserError:
        return None


def mentioned_user(text: str) -> int | None:
    """The user id of a mention like ``<@123>``; None when ``text`` is not a mention.

    A typed mention can hold any number, and one beyond a 64-bit id would fail the query
    (SQLite: OverflowError) instead of being told it mentions nobody.
    """
    match = MENTION.match(text)
    if match is None:
        return None
    user_id = int(match.group(1))
    if not 0 < user_id <= MAX_USER_ID:
        raise UserError(
            _("`{text}` mentions nobody: pick a member from the list.", text=UserText(text[:40]))
        )
    return user_id


@dataclass(frozen=True, slots=True)
class PartySpec:
    """One party as typed: a name with a Base, or a player (mention) with or without one."""

    name: str | None
    base: int | None
    user_id: int | None = None


def parse_parties(
    text: str, *, what: str = N_("Base"), example: str = "Johnny:12, Franky:9, @alice"
) -> list[PartySpec]:
    """Read "Johnny:12, Franky:9, <@123>" (commas or semicolons; "name: number").

    Drama's working together reads its helpers with it too, where the number is Base dice.
    """
    what = _(what)
    if len(text) > PARTIES_LENGTH:
        raise UserError(_("The list is at most {count} characters.", count=PARTIES_LENGTH))
    specs = []
    for raw in re.split(r"[,;\n]", text):
        item = raw.strip()
        if not item:
            continue
        name, _colon, base_text = item.rpartition(":") if ":" in item else (item, "", "")
        name, base_text = name.strip(), base_text.strip()
        base: int | None = None
        if base_text:
            try:
                base = int(base_text.replace("−", "-"))
            except ValueError:
                raise UserError(
                    _(
                        "`{item}`: the {what} after the colon must be a whole number.",
                        item=UserText(item),
                        what=what,
                    )
                ) from None
        user_id = mentioned_user(name)
        if user_id is not None:
            specs.append(PartySpec(None, base, user_id))
        elif base is None:
            raise UserError(
                _(
                    "`{item}` needs a {what}, like `{name}:4` (or mention a player to roll "
                    "their active character).",
                    item=UserText(item),
                    what=what,
                    name=UserText(name),
                )
            )
        else:
            specs.append(PartySpec(name, base))
    if not specs:
        raise UserError(_("List them, e.g. `{example}`.", example=example))
    return specs
