"""Generic dice notation rolls (``/roll``) and the channel's roll history."""

from __future__ import annotations

from dataclasses import dataclass

from bot.actor import Actor
from bot.services import secrecy
from bot.services.permissions import is_gm
from bot.services.sheets import ResolvedValue, active_character, substitute
from bot.storage import Database
from bot.storage.models import RollLog
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText
from engine.dice import Dice
from engine.notation import CommandRoll, roll_command


@dataclass(frozen=True, slots=True)
class NotationOutcome:
    roll: CommandRoll
    label: UserText | None
    secrecy: secrecy.Secrecy
    character: str | None = None  # whose sheet filled in {references}
    sheet_values: tuple[ResolvedValue, ...] = ()


async def roll_notation(
    db: Database, dice: Dice, actor: Actor, *, expression: str, label: str | None, secret: bool
) -> NotationOutcome:
    """Roll an expression and log it in one transaction."""
    character: str | None = None
    values: tuple[ResolvedValue, ...] = ()
    if "{" in expression:  # "2d6 + {Stealth}": numbers from the active character's sheet
        async with db.unit_of_work(read_only=True) as session:
            sheet = await active_character(session, actor)
        character = sheet.name
        expression, values = substitute(sheet, expression)
    result = roll_command(dice, expression)  # bad input fails before any transaction
    if not secret:  # the log entry is the only write: one statement, no unit of work
        await roll_log.append_public(
            db,
            actor,
            system="dice",
            input=result.expression,
            faces=result.faces,
            outcome=_outcome(result),
            label=label,
        )
        return NotationOutcome(
            roll=result,
            label=UserText.of(label),
            secrecy=secrecy.PUBLIC,
            character=character,
            sheet_values=values,
        )
    async with db.unit_of_work() as session:
        visibility = await secrecy.decide(session, actor.channel_id, secret)
        roll_log.add(
            session,
            actor,
            system="dice",
            input=result.expression,
            faces=result.faces,
            outcome=_outcome(result),
            secret=visibility.secret,
            label=label,
        )
    return NotationOutcome(
        roll=result,
        label=UserText.of(label),
        secrecy=visibility,
        character=character,
        sheet_values=values,
    )


def _outcome(result: CommandRoll) -> str:
    """What the roll log keeps as the outcome: each result, a pool's as successes − failures."""
    return ", ".join(map(str, result.results))


@dataclass(frozen=True, slots=True)
class History:
    entries: list[RollLog]
    includes_secret: bool


async def history(db: Database, actor: Actor, *, count: int) -> History:
    """The channel's latest rolls, newest first; secret ones for its GMs, and each roller's
    own secret rolls for that roller (they saw the result already)."""
    async with db.unit_of_work(read_only=True) as session:
        gm = await is_gm(session, actor)
        entries = await roll_log.latest(
            session, actor.channel_id, count=count, include_secret=gm, viewer_id=actor.user_id
        )
    return History(entries=entries, includes_secret=gm)
