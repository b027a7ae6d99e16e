"""CODA actions on the tracker and the attribute test one beyond the allowance asks for.

RULES.md §1: an action without a test of its own (Walk, Run, Drop prone…) taken beyond the
allowance needs an attribute test with TN = its penalty (a 3rd Walk: a TN 5 Nimbleness
test). ``/init action`` and the tracker's action buttons spend the action
(:func:`take_action`); when such a test is needed and the combatant is played from a sheet,
the test is stored (:class:`~bot.storage.models.CodaActionTest`) in the same transaction and
its player (or a GM) rolls it from the sheet with **Roll the test** (:func:`roll_action_test`),
once. Movement actions use Nimbleness (RULES.md's example); a custom action uses the
attribute the command names, or none (the Narrator then names it at the table).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import _
from bot.services import initiative, secrecy, sheets
from bot.services.coda._roller import TestOutcome, ones_rule, roll_and_log
from bot.services.coda._sheets import attribute_roller
from bot.services.initiative import InitOutcome
from bot.services.permissions import is_gm
from bot.services.sheets import sheet_from_row
from bot.storage import Database
from bot.storage.models import CodaActionTest, InitiativeEncounter
from bot.storage.repositories import characters as characters_repo
from bot.storage.repositories import coda as coda_repo
from bot.storage.repositories import initiative as encounters
from bot.text import UserText
from engine import initiative as ini
from engine.dice import Dice
from engine.systems.coda import CUSTOM, find_action

MAX_ATTRIBUTE_LENGTH = 64


def action_name(name: str) -> str:
    """An action of Tables 9-9…9-11 in the reader's language (``Walk`` → ``Caminar``); a
    custom action is shown as its player typed it."""
    found = find_action(name)
    return _(found.name) if found is not None and found.name == name else name


class TestClosed(UserError):
    """A press on a test that was rolled already, or whose action is gone: the button goes."""

    __test__ = False  # not a pytest test class


@dataclass(frozen=True, slots=True)
class PendingTest:
    """An attribute test waiting for its player's **Roll the test**."""

    __test__ = False  # not a pytest test class

    id: int
    combatant: str
    attribute: str
    tn: int
    owner_id: int


async def take_action(
    db: Database,
    actor: Actor,
    *,
    kind: str,
    cost: int | None = None,
    name: str | None = None,
    attribute: str | None = None,
) -> InitOutcome:
    """Spend a CODA action (``/init action``, a tracker button); when it needs an attribute
    test and its combatant has a sheet, the test waits in ``outcome.extra`` (a
    :class:`PendingTest`) for its button."""
    if attribute is not None:
        attribute = " ".join(attribute.split())[:MAX_ATTRIBUTE_LENGTH] or None

    async def store_test(
        session: AsyncSession, row: encounters.Locked, before: ini.Encounter, after: ini.Encounter
    ) -> PendingTest | None:
        event = after.log[-1]
        assert isinstance(event, ini.SpendAction)
        acting = before.find(event.name)
        spend = ini.action_spend(before, acting, event.action, event.cost)
        needed = spend.attribute_test
        if needed == CUSTOM:
            needed = attribute
        if not needed or acting.owner_id is None or not acting.character:
            return None
        sheet = await characters_repo.by_name(
            session,
            sheets.guild_key(actor),
            acting.owner_id,
            sheets.name_key(acting.character),
        )
        if sheet is None:
            return None
        test = CodaActionTest(
            guild_id=actor.guild_id,
            channel_id=actor.channel_id,
            encounter_id=row.id,
            character_id=sheet.id,
            owner_id=acting.owner_id,
            combatant=acting.name,
            action=spend.action,
            attribute=needed,
            tn=spend.penalty,
            round=after.round,
            spent=after.find(acting.name).actions,
        )
        await coda_repo.add_action_test(session, test)
        return PendingTest(test.id, acting.name, needed, spend.penalty, acting.owner_id)

    return await initiative.spend_action(
        db, actor, kind=kind, cost=cost, name=name, then=store_test
    )


def _still_spent(row: CodaActionTest, encounter: InitiativeEncounter | None) -> bool:
    """Whether the action is still on the tracker: same encounter and round, not undone."""
    if encounter is None or encounter.id != row.encounter_id:
        return False
    state = ini.from_dict(encounter.state)
    try:
        combatant = state.find(row.combatant)
    except ini.UnknownCombatant:
        return False
    return state.round == row.round and not state.ended and combatant.actions >= row.spent


async def roll_action_test(
    db: Database, dice: Dice, actor: Actor, test_id: int, *, now: datetime
) -> TestOutcome:
    """**Roll the test**: the attribute test at TN = the penalty, from the sheet, once."""
    async with db.unit_of_work() as session:
        row = await coda_repo.action_test_for_update(session, test_id)
        if row is None:
            raise TestClosed(_("This test is no longer known."))
        if actor.user_id != row.owner_id and not await is_gm(session, actor):
            raise PermissionDenied(
                _(
                    "Only {who} rolls this test.",
                    who=_("{who} (or the GM)", who=f"<@{row.owner_id}>"),
                )
            )
        if row.rolled_at is not None:
            raise TestClosed(
                _(
                    "{combatant}'s test for this {action} is already rolled.",
                    combatant=UserText(row.combatant),
                    action=action_name(row.action),
                )
            )
        encounter = await encounters.active(session, row.channel_id, for_update=True)
        if not _still_spent(row, encounter):
            raise TestClosed(
                _(
                    "{combatant}'s {action} is no longer on the tracker (undone, or its "
                    "round is over): there is no test to roll.",
                    combatant=UserText(row.combatant),
                    action=action_name(row.action),
                )
            )
        found = None
        if row.character_id is not None:
            found = await characters_repo.by_id(session, row.character_id)
        if found is None:
            raise TestClosed(
                _(
                    "{combatant}'s sheet is gone: roll the test by hand.",
                    combatant=UserText(row.combatant),
                )
            )
        roller = attribute_roller(sheet_from_row(found), row.attribute)
        visibility = await secrecy.decide(session, row.channel_id, False)
        label = f"{row.action} beyond the allowance"  # the roll log's (stored) words
        result, chance = roll_and_log(
            session,
            dice,
            actor,
            roller=roller,
            tn=row.tn,
            penalties=(),
            conditions=(),
            visibility=visibility,
            label=label,
            what=f"{roller.subject} for {row.action}",
            ones=await ones_rule(session, row.channel_id),
        )
        row.rolled_at = now
        row.data = {"total": result.total, "degree": result.degree.name}
    return TestOutcome(
        result=result,
        chance=chance,
        roller=roller,
        penalties=(),
        kind="attribute test",
        difficulty=None,
        label=UserText(_("{action} beyond the allowance", action=action_name(row.action))),
        secrecy=visibility,
    )
