"""How an encounter rolls initiative, and how each roll reaches the roll log.

Joining, adding NPCs and a round's re-rolls all roll the same way: the encounter's dice
notation if it set one, else its system's roll, plus the combatant's bonus (a sheet's
attribute, or CODA's Swiftness by default). The checks on that roll (surprise, the cost of
a notation rolled per combatant) live here with it.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.i18n.numbers import decimal
from bot.services.initiative._outcome import Joined
from bot.services.sheets import CharacterSheet
from bot.storage.repositories import initiative as encounters
from bot.storage.repositories import rolls as roll_log
from bot.text import UserText
from engine import initiative as ini
from engine.dice import Dice
from engine.initiative.rolls import InitiativeRoll, canonical_system, roll_initiative
from engine.notation import BUDGET, cost
from engine.systems import SYSTEMS

MAX_COUNT = 20
#: RULES.md §1: CODA initiative adds the Swiftness reaction by default.
CODA_INITIATIVE = "Swiftness"


def roll_for(
    dice: Dice, row: encounters.Encounter, state: ini.Encounter, modifier: int, stress: bool
) -> InitiativeRoll:
    """The encounter's initiative roll: its dice notation if set, else the system's."""
    return roll_initiative(
        dice,
        system=state.system,
        modifier=modifier,
        stress=stress and canonical_system(state.system) == "h90" and not row.dice,
        expression=row.dice,
    )


def log_roll(session: AsyncSession, actor: Actor, state: ini.Encounter, joined: Joined) -> None:
    if joined.roll is None:
        return
    roll_log.add(
        session,
        actor,
        system=state.system if state.system in SYSTEMS else "dice",
        input=f"initiative {joined.name.raw}: {joined.roll.detail}",
        faces=list(joined.roll.faces),
        outcome=str(joined.total),
        secret=joined.hidden,
        label="initiative",
    )


def check_surprise(state: ini.Encounter, stress: bool) -> None:
    if stress and canonical_system(state.system) not in ("h90", "coda"):
        raise UserError(
            _(
                "Surprise changes initiative only in Hogwarts 1990 (a stress roll) and CODA "
                "(one action fewer in round 1)."
            )
        )


def check_initiative_dice(dice: str) -> None:
    """Bad notation is refused at start; so is a roll that ``/init add count:20`` would make
    cost more than two rolls' budget in one command (it is rolled per combatant)."""
    steps = cost(dice)
    if steps * MAX_COUNT > 2 * BUDGET:
        raise UserError(
            _(
                "`{dice}` is rolled for every combatant (up to {count} in one `/init add`): keep "
                "it small, like `1d20+2` or `2d6kh1` (about {steps} steps each; at most {most}).",
                dice=UserText(dice[:60]),
                count=MAX_COUNT,
                steps=decimal(int(steps), 0),
                most=decimal(2 * BUDGET // MAX_COUNT, 0),
            )
        )


def sheet_bonus(row: encounters.Encounter, state: ini.Encounter, sheet: CharacterSheet) -> int:
    """The sheet's initiative bonus: the encounter's attribute, else CODA's Swiftness.

    RULES.md §1: CODA initiative is 2d6 + the Swiftness reaction unless the Narrator names
    another modifier; a sheet without Swiftness is refused, saying what to set (as a sheet
    without the encounter's attribute is), rather than rolling a silent +0.
    """
    if row.attribute:
        return sheet.attribute(row.attribute)
    if canonical_system(state.system) == "coda" and not row.dice:
        return sheet.attribute(CODA_INITIATIVE)
    return 0


def reroller(dice: Dice, row: encounters.Encounter, state: ini.Encounter) -> ini.Roller:
    """How a re-roll rolls each combatant: the encounter's roll + the bonus it joined with."""

    def roll(combatant: ini.Combatant) -> tuple[int, str]:
        rolled = roll_for(dice, row, state, combatant.modifier, stress=False)
        return rolled.total, rolled.detail

    return roll


def log_rerolls(session: AsyncSession, actor: Actor, state: ini.Encounter) -> None:
    """Each re-roll the last event drew goes to the roll log (secret for a hidden combatant)."""
    rerolls = getattr(state.log[-1], "rerolls", None) if state.log else None
    for name, total, detail, _tiebreak in rerolls or ():
        roll_log.add(
            session,
            actor,
            system=state.system if state.system in SYSTEMS else "dice",
            input=f"initiative {name} (round {state.round}): {detail}",
            faces=[],
            outcome=str(total),
            secret=state.find(name).hidden,
            label="initiative",
        )
