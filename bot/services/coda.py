"""CODA use cases (``/coda``): tests, damage, opposed, combined and extended tests.

Each function opens one unit of work, reads the channel's ``coda.ones`` rule and secrecy,
works out the chance before rolling, rolls with the engine, logs every roll and persists
any state, and returns a frozen outcome for the renderer. Bad input is refused before the
transaction starts wherever it can be.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import NoSuchCharacter, PermissionDenied, UserError
from bot.services import channel_settings, characters, secrecy
from bot.services.characters import CharacterSheet
from bot.services.coda_turn import TurnSpend, spend_on_turn
from bot.services.permissions import is_gm
from bot.storage import Database
from bot.storage.models import CodaExtendedTask
from bot.storage.repositories import coda as tasks_repo
from bot.storage.repositories import rolls as roll_log
from bot.text import signed
from engine.dice import Dice
from engine.systems import coda
from engine.systems.coda import Degree, Part
from engine.systems.coda_actions import TEST
from engine.systems.coda_tables import AppliedCondition, parse_conditions

SYSTEM = "coda"
MAX_TASKS_PER_CHANNEL = 25
#: CODA's reactions (chapter 2); the sheet keeps them among the attributes.
REACTIONS = ("Stamina", "Swiftness", "Willpower", "Wisdom")
REACTION_KEYS = frozenset(r.casefold() for r in REACTIONS)


# --------------------------------------------------------------------------- shared pieces


@dataclass(frozen=True, slots=True)
class Roller:
    """Who or what rolls one test: the named terms added, and whose sheet they came from."""

    parts: tuple[Part, ...] = ()
    character: str | None = None
    subject: str | None = None  # "Stealth (Nimbleness)", "Strength", …
    npc: str | None = None  # a side named with its modifier, no sheet: "Troll +4"

    @property
    def modifier(self) -> int:
        return sum(p.value for p in self.parts)

    @property
    def name(self) -> str:
        """How the roller is shown: the character (and what it rolls), or its modifier."""
        if self.character:
            return f"{self.character} · {self.subject}" if self.subject else self.character
        if self.npc:
            return f"{self.npc} {signed(self.modifier)}"
        return f"modifier {signed(self.modifier)}"


@dataclass(frozen=True, slots=True)
class TestRequest:
    """What every single test asks besides who rolls: its TN and what is taken off."""

    __test__ = False  # not a pytest test class

    tn: int | None = None
    difficulty: str | None = None
    penalty: int = 0
    attempt: int = 1
    #: Actions beyond the allowance, counted by hand; None: from the tracker on your turn.
    extra_actions: int | None = None
    conditions: str | None = None
    label: str | None = None
    secret: bool = False


@dataclass(frozen=True, slots=True)
class TestOutcome:
    """One test as the embed shows it."""

    __test__ = False  # not a pytest test class

    result: coda.TestResult
    chance: float
    roller: Roller
    penalties: tuple[Part, ...]
    kind: str
    difficulty: str | None
    label: str | None
    secrecy: secrecy.Secrecy
    #: The action this test spent on the tracker (a roll on the roller's turn), if any.
    turn: TurnSpend | None = None


def plain_roller(modifier: int) -> Roller:
    """A roller given by a bare modifier."""
    return Roller(parts=(Part("modifier", modifier),) if modifier else ())


def resolve_tn(tn: int | None, difficulty: str | None) -> tuple[int, str | None]:
    """Exactly one of a number and a named difficulty; the TN and the name (if any)."""
    if tn is not None and difficulty:
        raise UserError("Give either a TN or a difficulty, not both.")
    if tn is None and not difficulty:
        raise UserError("Give a TN (e.g. `tn:15`) or a difficulty (e.g. Challenging).")
    if difficulty:
        named = coda.Difficulty.parse(difficulty)
        return named.tn, named.label
    assert tn is not None
    coda.chance(tn=tn)  # the engine's bounds check and message (Discord enforces them too)
    return tn, None


def penalties_of(
    *, penalty: int = 0, attempt: int = 1, extra_actions: int | None = 0
) -> tuple[Part, ...]:
    """The named penalties of a test, refused with their sum when they exceed the bound.

    Each option is within its own range, but together they could pass the engine's bound,
    whose message would name a number the user never typed.
    """
    parts = coda.penalty_parts(penalty=penalty, attempt=attempt, extra_actions=extra_actions or 0)
    return bounded(parts)


def bounded(parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """``parts`` when their sum is within a test's bound, else a refusal naming each."""
    total = sum(p.value for p in parts)
    if total > coda.PENALTY_MAX:
        terms = " + ".join(f"{p.value} ({p.label})" for p in parts)
        raise UserError(
            f"The penalties add up to {total}: {terms}. A test takes at most "
            f"{coda.PENALTY_MAX}; lower one of them."
        )
    return parts


async def ones_rule(session: AsyncSession, channel_id: int) -> str:
    """The channel's ``coda.ones`` rule (how rolling 1s reads)."""
    return (await channel_settings.read(session, channel_id)).rule("coda.ones")


def dice_arithmetic(modifier: int, penalty: int = 0) -> str:
    """``2d6+3-2``: a test as the roll log writes it."""
    text = "2d6"
    if modifier:
        text += f"{modifier:+d}"
    if penalty:
        text += f"-{penalty}"
    return text


def log_test(
    session: AsyncSession,
    actor: Actor,
    result: coda.TestResult,
    *,
    what: str,
    visibility: secrecy.Secrecy,
    label: str | None,
) -> None:
    conditions = "".join(f"; {c.text}" for c in result.conditions)
    arithmetic = dice_arithmetic(result.modifier, result.penalty)
    roll_log.add(
        session,
        actor,
        system=SYSTEM,
        input=f"{what} {arithmetic} vs TN {result.tn}{conditions}",
        faces=result.faces,
        outcome=f"{result.total} · {result.degree.label}",
        secret=visibility.secret,
        label=label,
    )


def roll_and_log(
    session: AsyncSession,
    dice: Dice,
    actor: Actor,
    *,
    roller: Roller,
    tn: int,
    penalties: tuple[Part, ...],
    conditions: tuple[AppliedCondition, ...],
    visibility: secrecy.Secrecy,
    label: str | None,
    what: str,
    ones: str,
) -> tuple[coda.TestResult, float]:
    """Inside a unit of work: the chance, the roll and its log entry."""
    kwargs: dict[str, Any] = {
        "modifier": roller.modifier,
        "tn": tn,
        "penalty": sum(p.value for p in penalties),
        "ones": ones,
        "conditions": conditions,
    }
    chance = coda.chance(**kwargs)
    result = coda.test(dice, **kwargs)
    log_test(session, actor, result, what=what, visibility=visibility, label=label)
    return result, chance


# --------------------------------------------------------------------------- who rolls


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
        if request.extra_actions is None:
            turn = await spend_on_turn(session, actor, character=roller.character, action=TEST)
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
        label=request.label,
        secrecy=visibility,
        turn=turn,
    )


# --------------------------------------------------------------------------- /coda damage


@dataclass(frozen=True, slots=True)
class DamageOutcome:
    result: coda.DamageResult
    label: str | None
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
    return DamageOutcome(result=result, label=label, secrecy=visibility)


# --------------------------------------------------------------------------- sheets


def parse_modifier(text: str) -> int | None:
    """A side written as a number ("+5", "-2", "7"), or None when it names a character."""
    cleaned = text.strip().replace("−", "-").replace(" ", "")
    try:
        return int(cleaned)
    except ValueError:
        return None


_NAMED_MODIFIER = re.compile(r"^(?P<name>.*?\S)\s+(?P<value>[+\-−]?\s*\d{1,3})$")


def parse_named_modifier(text: str) -> tuple[str, int] | None:
    """A side written as a name and its modifier ("Troll +4", "Goblin −1"), or None."""
    match = _NAMED_MODIFIER.match(text.strip())
    if match is None:
        return None
    value = parse_modifier(match["value"])
    return None if value is None else (match["name"][:64], value)


def _checked_modifier(value: int, who: str) -> int:
    if not coda.MODIFIER_MIN <= value <= coda.MODIFIER_MAX:
        raise UserError(
            f"{who}'s modifier must be between {coda.MODIFIER_MIN} and {coda.MODIFIER_MAX}."
        )
    return value


async def resolve_roller(
    session: AsyncSession,
    actor: Actor,
    text: str,
    using: str | None,
    *,
    who: str,
    untrained: str | None = None,
) -> Roller:
    """A side of an opposed or combined test: a modifier, a character with what it rolls, or
    an NPC named with its modifier ("Troll +4") when no character goes by that name.

    ``untrained`` is the attribute a character lacking the skill ``using`` rolls instead
    (attribute − 2, RULES.md §1); a character who has the skill rolls it as usual.
    """
    value = parse_modifier(text)
    if value is not None:
        return plain_roller(_checked_modifier(value, who))
    try:
        return await character_roller(session, actor, text, using, who=who, untrained=untrained)
    except NoSuchCharacter:
        named = parse_named_modifier(text)
        if named is None:
            raise
    npc, value = named
    return Roller(parts=(Part(npc, _checked_modifier(value, who)),), npc=npc)


async def character_roller(
    session: AsyncSession,
    actor: Actor,
    character: str | None,
    using: str | None,
    *,
    who: str,
    untrained: str | None = None,
) -> Roller:
    """A character (by name, else the caller's active one) rolling a skill or attribute,
    or a skill it lacks, untrained, with the attribute ``untrained``."""
    sheet = await load_sheet(session, actor, character)
    if not using or not using.strip():
        raise UserError(f"{who}: say what {sheet.name} rolls: a skill, an attribute or a reaction.")
    if sheet.find_skill(using) is not None:
        return skill_roller(sheet, using)
    if sheet.find_attribute(using) is not None:
        return attribute_roller(sheet, using)
    if untrained and untrained.strip():
        return skill_roller(sheet, using, attribute=untrained)
    raise UserError(
        f"{sheet.name} has no skill or attribute `{using.strip()}`; an untrained attempt (−2) "
        "needs the `attribute` it uses. "
        f"Skills: {', '.join(sheet.skills) or 'none yet'}. "
        f"Attributes: {', '.join(sheet.attributes) or 'none yet'}."
    )


async def load_sheet(session: AsyncSession, actor: Actor, character: str | None) -> CharacterSheet:
    """A CODA sheet: the named character (own, or any used here for a GM), else the active one."""
    named = character if character and character.strip() else None
    return await characters.named_or_active(session, actor, named, system=SYSTEM)


def _relabel(parts: tuple[Part, ...], names: dict[str, str]) -> tuple[Part, ...]:
    return tuple(Part(names.get(p.label, p.label), p.value) for p in parts)


def skill_roller(
    sheet: CharacterSheet,
    skill: str,
    *,
    attribute: str | None = None,
    specialty: str | None = None,
    affinity: int = 0,
    modifier: int = 0,
) -> Roller:
    """Skill test: attribute + ranks (+2 specialty, + affinity); untrained: attribute − 2."""
    found = sheet.find_skill(skill)
    specialty_name = None
    if found is None:
        if not attribute:
            raise UserError(
                f"{sheet.name} has no skill `{skill.strip()}`: an untrained attempt (−2) needs "
                f"the `attribute` it uses. Skills: {', '.join(sheet.skills) or 'none yet'}."
            )
        if specialty:
            raise UserError(
                f"{sheet.name} is untrained in {skill.strip()}, so no specialty of it applies."
            )
        key, ranks, parent = skill.strip(), None, attribute
    else:
        key, data = found
        ranks, parent = data.ranks, attribute or data.attribute
        if parent is None:
            raise UserError(
                f"{sheet.name}'s skill {key} names no attribute: give one with `attribute`, or "
                f"set it with `/sheet skill name:{key} attribute:…`."
            )
        if specialty and specialty.strip():
            wanted = specialty.strip().casefold()
            specialty_name = next((s for s in data.specialties if s.casefold() == wanted), None)
            if specialty_name is None:
                listed = ", ".join(data.specialties) or "none yet"
                raise UserError(
                    f"{sheet.name}'s {key} has no specialty `{specialty.strip()}`. "
                    f"Specialties: {listed}."
                )
    attribute_name, attribute_value = sheet.named_attribute(parent)
    parts = coda.skill_parts(
        attribute=attribute_value,
        ranks=ranks,
        specialty=specialty_name is not None,
        affinity=affinity,
        misc=modifier,
    )
    untrained = any(p.label == "untrained" for p in parts)
    names = {"attribute": attribute_name, "ranks": f"{key} ranks"}
    if specialty_name:
        names["specialty"] = f"specialty: {specialty_name}"
    subject = f"{key} ({attribute_name}{', untrained' if untrained else ''})"
    return Roller(parts=_relabel(parts, names), character=sheet.name, subject=subject)


def attribute_roller(
    sheet: CharacterSheet, name: str, *, modifier: int = 0, reaction: bool = False
) -> Roller:
    """Attribute test (2d6 + attribute modifier) or reaction test (2d6 + reaction score)."""
    key, value = sheet.named_attribute(name)
    if reaction:
        if key.casefold() not in REACTION_KEYS:
            raise UserError(
                f"{key} is not a reaction; the reactions are {', '.join(REACTIONS)}. "
                f"Roll {key} with `/coda attribute`."
            )
        parts = coda.reaction_parts(reaction=value, misc=modifier)
        names = {"reaction": key}
    else:
        parts = coda.attribute_parts(attribute=value, misc=modifier)
        names = {"attribute": key}
    return Roller(parts=_relabel(parts, names), character=sheet.name, subject=key)


async def sheet_entries(
    db: Database, actor: Actor, prefix: str, *, character: str | None, kinds: tuple[str, ...]
) -> list[str]:
    """For autocomplete: skills and/or attributes of the named (else active) character."""
    async with db.unit_of_work(read_only=True) as session:
        sheet = await characters.sheet_for_autocomplete(session, actor, character)
    if sheet is None:
        return []
    names: list[str] = []
    if "skill" in kinds:
        names += characters.matching(list(sheet.skills), prefix)
    if "attribute" in kinds:
        names += characters.matching(list(sheet.attributes), prefix)
    if "reaction" in kinds:
        found = characters.matching(list(sheet.attributes), prefix)
        names += [n for n in found if n.casefold() in REACTION_KEYS]
    return list(dict.fromkeys(names))[: characters.AUTOCOMPLETE_LIMIT]


async def specialty_names(
    db: Database, actor: Actor, prefix: str, *, character: str | None, skill: str | None
) -> list[str]:
    """For autocomplete: the specialties of a skill of the named (else active) character."""
    if not skill:
        return []
    async with db.unit_of_work(read_only=True) as session:
        try:
            sheet = await load_sheet(session, actor, character)
        except UserError:
            return []
    found = sheet.find_skill(skill)
    return characters.matching(list(found[1].specialties), prefix) if found else []


# --------------------------------------------------------------------------- /coda combined


@dataclass(frozen=True, slots=True)
class CombinedOutcome:
    result: coda.CombinedResult
    leader: Roller
    helpers: tuple[Roller, ...]
    chance: float
    helper_chances: tuple[float, ...]
    difficulty: str | None
    label: str | None
    secrecy: secrecy.Secrecy
    #: The leader's own chance, with the sum the helpers actually rolled (``chance`` is the
    #: whole test's, before anyone rolled).
    leader_chance: float = 0.0
    #: Who rolled (the footer), when other players rolled their characters' help.
    rollers: str | None = None


def split_helpers(text: str) -> list[str]:
    items = [item.strip() for item in text.replace(";", ",").split(",") if item.strip()]
    if not items:
        raise UserError("A combined test needs at least one helper (e.g. `+2, +1` or names).")
    if len(items) > coda.MAX_HELPERS:
        raise UserError(f"A combined test has at most {coda.MAX_HELPERS} helpers.")
    return items


async def roll_combined(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    leader: str,
    helpers: str,
    tn: int | None = None,
    difficulty: str | None = None,
    using: str | None = None,
    untrained: str | None = None,
    conditions: str | None = None,
    label: str | None = None,
    secret: bool = False,
) -> CombinedOutcome:
    """Helpers test at TN − 5 in the order given, then the leader at TN with their sum.

    Everyone rolls the skill ``using``; whoever lacks it rolls ``untrained`` − 2.
    """
    base_tn, difficulty_label = resolve_tn(tn, difficulty)
    helper_texts = split_helpers(helpers)
    chosen = parse_conditions(conditions)
    async with db.unit_of_work() as session:
        lead = await resolve_roller(
            session, actor, leader, using, who="The leader", untrained=untrained
        )
        helping = tuple(
            [
                await resolve_roller(
                    session, actor, text, using, who=f"Helper {i}", untrained=untrained
                )
                for i, text in enumerate(helper_texts, start=1)
            ]
        )
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        ones = await ones_rule(session, actor.channel_id)
        kwargs: dict[str, Any] = {
            "tn": base_tn,
            "helpers": [h.modifier for h in helping],
            "leader_modifier": lead.modifier,
            "ones": ones,
            "conditions": chosen,
        }
        chance = coda.combined_chance(**kwargs)
        helper_chances = coda.helper_chances(
            tn=base_tn, helpers=kwargs["helpers"], ones=ones, conditions=chosen
        )
        result = coda.combined(dice, **kwargs)
        leader_chance = coda.chance(
            modifier=lead.modifier + result.bonus, tn=base_tn, ones=ones, conditions=chosen
        )
        for helper, test in zip(helping, result.helpers, strict=True):
            log_test(
                session,
                actor,
                test,
                what=f"combined helper {helper.name}",
                visibility=visibility,
                label=label,
            )
        log_test(
            session,
            actor,
            result.leader,
            what=f"combined leader {lead.name} (helpers {result.bonus:+d})",
            visibility=visibility,
            label=label,
        )
    return CombinedOutcome(
        result=result,
        leader=lead,
        helpers=helping,
        chance=chance,
        helper_chances=helper_chances,
        difficulty=difficulty_label,
        label=label,
        secrecy=visibility,
        leader_chance=leader_chance,
    )


# --------------------------------------------------------------------------- extended tests


@dataclass(frozen=True, slots=True)
class TaskView:
    """An extended test as stored: the engine state and who started it."""

    task: coda.ExtendedTask
    started_by: int
    # Given up with /coda extended abandon: there is no next stage to show.
    abandoned: bool = False


@dataclass(frozen=True, slots=True)
class ExtendedOutcome:
    step: coda.ExtendedRoll
    chance: float
    roller: Roller
    penalties: tuple[Part, ...]
    started_by: int
    label: str | None
    secrecy: secrecy.Secrecy


def task_of(row: CodaExtendedTask) -> coda.ExtendedTask:
    """The engine state of a stored task."""
    return coda.ExtendedTask(
        name=row.name,
        stages=tuple(coda.Stage(tn=int(s["tn"]), skill=s.get("skill")) for s in row.stages),
        interval=row.interval,
        unit=row.unit,
        total=row.total,
        stage=row.stage,
        tests=row.tests,
        log=tuple(
            coda.ExtendedEntry(
                stage=int(e["stage"]),
                tn=int(e["tn"]),
                result=int(e["result"]),
                added=int(e["added"]),
                degree=Degree[e["degree"]],
            )
            for e in row.log
        ),
    )


def _store(row: CodaExtendedTask, task: coda.ExtendedTask) -> None:
    # New lists, not in-place edits, so the ORM sees the JSON columns change.
    row.stages = [{"tn": s.tn, "skill": s.skill} for s in task.stages]
    row.interval = task.interval
    row.unit = task.unit
    row.total = task.total
    row.stage = task.stage
    row.tests = task.tests
    row.log = [
        {
            "stage": e.stage,
            "tn": e.tn,
            "result": e.result,
            "added": e.added,
            "degree": e.degree.name,
        }
        for e in task.log
    ]


def _pick(rows: list[CodaExtendedTask], name: str | None) -> CodaExtendedTask:
    if not rows:
        raise UserError(
            "No extended test is in progress in this channel; start one with "
            "`/coda extended start`."
        )
    if name and name.strip():
        key = tasks_repo.name_key(name)
        for row in rows:
            if row.name_key == key:
                return row
        listing = ", ".join(f"`{r.name}`" for r in rows)
        raise UserError(f"No extended test called `{name}` here. In progress: {listing}.")
    if len(rows) > 1:
        listing = ", ".join(f"`{r.name}`" for r in rows)
        raise UserError(f"Several extended tests are in progress here ({listing}); name one.")
    return rows[0]


async def start_extended(
    db: Database, actor: Actor, *, name: str, stages: str, interval: int = 1, unit: str = ""
) -> TaskView:
    """Start an extended test in this channel (its name must be new here)."""
    task = coda.extended_start(
        name=name, stages=coda.parse_stages(stages), interval=interval, unit=unit
    )
    async with db.unit_of_work() as session:
        # Locking the existing rows would not stop a concurrent start (there is no row to
        # wait on), so the channel is locked first: the name check and the limit stay exact.
        await tasks_repo.lock_channel(session, actor.channel_id)
        rows = await tasks_repo.in_channel(session, actor.channel_id, for_update=True)
        key = tasks_repo.name_key(task.name)
        if any(r.name_key == key for r in rows):
            raise UserError(f"An extended test called `{task.name}` is already in progress here.")
        if len(rows) >= MAX_TASKS_PER_CHANNEL:
            raise UserError(
                f"This channel already has {MAX_TASKS_PER_CHANNEL} extended tests in progress; "
                "finish or abandon one first."
            )
        row = CodaExtendedTask(
            guild_id=actor.guild_id,
            channel_id=actor.channel_id,
            started_by=actor.user_id,
            name=task.name,
            name_key=key,
        )
        _store(row, task)
        tasks_repo.add(session, row)
        await session.flush()
    return TaskView(task=task, started_by=actor.user_id)


async def roll_extended(
    db: Database,
    dice: Dice,
    actor: Actor,
    *,
    task: str | None = None,
    modifier: int | None = None,
    skill: str | None = None,
    attribute: str | None = None,
    character: str | None = None,
    penalty: int = 0,
    conditions: str | None = None,
    label: str | None = None,
    secret: bool = False,
) -> ExtendedOutcome:
    """The next test of an extended test, against its current stage's TN.

    The roller is a plain modifier, or a character's skill (``skill``, or the skill the
    stage names when no modifier is given) from the named (else active) character; a
    character lacking that skill rolls it untrained with ``attribute`` (− 2).
    """
    penalties = coda.penalty_parts(penalty=penalty)
    chosen = parse_conditions(conditions)
    if modifier is not None and (skill or character or attribute):
        raise UserError("Give either a modifier or a character's skill, not both.")
    async with db.unit_of_work() as session:
        rows = await tasks_repo.in_channel(session, actor.channel_id, for_update=True)
        row = _pick(rows, task)
        state = task_of(row)
        stage = state.current
        assert stage is not None  # complete tasks are deleted
        wanted_skill = skill or (stage.skill if modifier is None else None)
        if not wanted_skill and (character or attribute or modifier is None):
            # A stage without a skill never rolls a bare 2d6 by default: ask what is rolled.
            who = character.strip() if character else "your character"
            raise UserError(
                f"Stage {state.stage + 1} of `{state.name}` names no skill: say which `skill` "
                f"{who} rolls, or give a `modifier` (`modifier:0` for a bare 2d6)."
            )
        if wanted_skill:
            try:
                sheet = await load_sheet(session, actor, character)
                roller = skill_roller(sheet, wanted_skill, attribute=attribute)
            except UserError as error:
                if skill:
                    raise
                raise UserError(
                    f"Stage {state.stage + 1} of `{state.name}` is a {stage.skill} test. {error} "
                    "Or roll with a plain `modifier`."
                ) from error
        else:
            roller = plain_roller(modifier or 0)
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        result, chance = roll_and_log(
            session,
            dice,
            actor,
            roller=roller,
            tn=stage.tn,
            penalties=penalties,
            conditions=chosen,
            visibility=visibility,
            label=label or state.name,
            what=f"extended '{state.name}' stage {state.stage + 1}",
            ones=await ones_rule(session, actor.channel_id),
        )
        step = coda.extended_apply(state, result)
        if step.completed:
            await tasks_repo.delete(session, row)
        else:
            _store(row, step.after)
        started_by = row.started_by
    return ExtendedOutcome(
        step=step,
        chance=chance,
        roller=roller,
        penalties=penalties,
        started_by=started_by,
        label=label,
        secrecy=visibility,
    )


async def extended_status(db: Database, actor: Actor, *, task: str | None = None) -> list[TaskView]:
    """One task (named), or every task in progress in the channel."""
    async with db.unit_of_work(read_only=True) as session:
        rows = await tasks_repo.in_channel(session, actor.channel_id)
        if task and task.strip():
            rows = [_pick(rows, task)]
        return [TaskView(task=task_of(r), started_by=r.started_by) for r in rows]


async def abandon_extended(db: Database, actor: Actor, *, task: str | None = None) -> TaskView:
    """Give up an extended test: whoever started it, or a GM."""
    async with db.unit_of_work() as session:
        rows = await tasks_repo.in_channel(session, actor.channel_id, for_update=True)
        row = _pick(rows, task)
        if row.started_by != actor.user_id and not await is_gm(session, actor):
            raise PermissionDenied(
                f"Only whoever started `{row.name}` (<@{row.started_by}>) or the channel's GM "
                "can abandon it."
            )
        view = TaskView(task=task_of(row), started_by=row.started_by, abandoned=True)
        await tasks_repo.delete(session, row)
    return view


async def extended_names(db: Database, channel_id: int) -> list[str]:
    """For autocomplete: the names of the channel's tasks."""
    async with db.unit_of_work(read_only=True) as session:
        return await tasks_repo.names(session, channel_id)
