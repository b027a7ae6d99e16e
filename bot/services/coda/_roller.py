"""One CODA test's pieces, shared by every ``/coda`` use case: who rolls (:class:`Roller`),
the TN and the penalties checked before the transaction, the roll with its chance, and its
line in the roll log.

It exists so that single, combined, extended, opposed and attack tests all check, roll and
log a test the same way; it knows nothing of sheets (:mod:`bot.services.coda._sheets`) or of
any one command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import N_, _
from bot.services import channel_settings, secrecy
from bot.services.coda._turn import TurnSpend, ordinal, spend_on_turn
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText, signed
from engine.dice import Dice
from engine.systems import coda
from engine.systems.coda import TEST, AppliedCondition, Part

SYSTEM = "coda"


#: The engine's and the services' fixed names of a test's terms, shown in the reader's language
#: (other labels are names from a sheet or a player: shown as they are).
_PART_LABELS = frozenset(
    {
        N_("attribute"),
        N_("reaction"),
        N_("untrained"),
        N_("ranks"),
        N_("specialty"),
        N_("affinity"),
        N_("modifier"),
        N_("penalty"),
    }
)
_NUMBERED_PART = re.compile(r"^(attempt|action) (\d{1,3})$")
#: The tracker's penalty for an action beyond the allowance (``coda_turn``): ``extra action, 3rd``.
_EXTRA_ACTION_PART = re.compile(r"^extra action, (\d{1,3})(?:st|nd|rd|th)$")


def part_label(label: str) -> str:
    """A term's name in the reader's language: ``attempt 2`` → ``intento 2``; a sheet's or a
    player's own name (``Wits``, ``Troll``) is shown as written."""
    if label in _PART_LABELS:
        return _(label)
    if match := _NUMBERED_PART.match(label):
        number_ = int(match[2])
        if match[1] == "attempt":
            return _("attempt {number}", number=number_)
        return _("action {number}", number=number_)
    if match := _EXTRA_ACTION_PART.match(label):
        return _("extra action, {ordinal}", ordinal=ordinal(int(match[1])))
    return label


@dataclass(frozen=True, slots=True)
class Roller:
    """Who or what rolls one test: the named terms added, and whose sheet they came from."""

    parts: tuple[Part, ...] = ()
    character: str | None = None
    subject: str | None = None  # "Stealth (Nimbleness)", "Strength", …
    npc: str | None = None  # a side named with its modifier, no sheet: "Troll +4"
    #: The player whose sheet it is (None without a sheet).
    owner_id: int | None = None

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
        return _("modifier {value}", value=signed(self.modifier))


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
    #: False: not an action of the turn under way (a GM's roll for someone else on an NPC's).
    action: bool = True


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
    label: UserText | None
    secrecy: secrecy.Secrecy
    #: The action this test spent on the tracker (a roll on the roller's turn), if any.
    turn: TurnSpend | None = None


async def on_turn(
    session: AsyncSession, actor: Actor, roller: Roller
) -> tuple[Roller, TurnSpend | None]:
    """The roller after its test spent an action of its own turn (RULES.md §1: every test a
    character makes on its own turn is an action), the penalty of an action beyond the
    allowance named among its terms; and the action spent (None off its turn)."""
    turn = await spend_on_turn(
        session,
        actor,
        character=roller.character,
        owner_id=roller.owner_id,
        npc=roller.npc,
        action=TEST,
    )
    if turn is None or not turn.penalties:
        return roller, turn
    taken = tuple(Part(p.label, -p.value) for p in turn.penalties)  # penalties are subtracted
    return replace(roller, parts=(*roller.parts, *taken)), turn


def plain_roller(modifier: int) -> Roller:
    """A roller given by a bare modifier."""
    return Roller(parts=(Part("modifier", modifier),) if modifier else ())


def resolve_tn(tn: int | None, difficulty: str | None) -> tuple[int, str | None]:
    """Exactly one of a number and a named difficulty; the TN and the name (if any)."""
    if tn is not None and difficulty:
        raise UserError(_("Give either a TN or a difficulty, not both."))
    if tn is None and not difficulty:
        raise UserError(_("Give a TN (e.g. `tn:15`) or a difficulty (e.g. Challenging)."))
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
        terms = " + ".join(f"{p.value} ({part_label(p.label)})" for p in parts)
        raise UserError(
            _(
                "The penalties add up to {total}: {terms}. A test takes at most {most}; "
                "lower one of them.",
                total=total,
                terms=terms,
                most=coda.PENALTY_MAX,
            )
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
