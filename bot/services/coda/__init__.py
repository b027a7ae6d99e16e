"""CODA use cases (``/coda``): tests, damage, opposed, combined and extended tests.

Each function opens one unit of work, reads the channel's ``coda.ones`` rule and secrecy,
works out the chance before rolling, rolls with the engine, logs every roll and persists
any state, and returns a frozen outcome for the renderer. Bad input is refused before the
transaction starts wherever it can be.

This module is the public face: it re-exports (``X as X``) what lives in the modules
below it, one job each, so ``service.X`` stays the API of the cogs, the renderer and the
tests:

- :mod:`bot.services.coda._roller`: one test's pieces (who rolls, TN, penalties, roll, log);
- :mod:`bot.services.coda._sheets`: a character's or a side's terms, and autocomplete;
- :mod:`bot.services.coda._single`: ``/coda test``, ``skill``, ``attribute``, ``reaction``,
  ``damage``;
- :mod:`bot.services.coda._combined_roll`: ``/coda combined`` rolled at once;
- :mod:`bot.services.coda._extended`: extended tests and their stored tasks.
"""

from __future__ import annotations

from bot.services.coda._actions import PendingTest as PendingTest
from bot.services.coda._actions import TestClosed as TestClosed
from bot.services.coda._actions import roll_action_test as roll_action_test
from bot.services.coda._actions import take_action as take_action
from bot.services.coda._attack import AttackRequest as AttackRequest
from bot.services.coda._attack import Exchange as Exchange
from bot.services.coda._attack import Test as Test
from bot.services.coda._attack import answer as answer
from bot.services.coda._attack import attack as attack
from bot.services.coda._combined import COMBINED_KIND as COMBINED_KIND
from bot.services.coda._combined import combined as combined
from bot.services.coda._combined import roll_their_part as roll_their_part
from bot.services.coda._combined_roll import CombinedOutcome as CombinedOutcome
from bot.services.coda._combined_roll import roll_combined as roll_combined
from bot.services.coda._combined_roll import split_helpers as split_helpers
from bot.services.coda._extended import MAX_TASKS_PER_CHANNEL as MAX_TASKS_PER_CHANNEL
from bot.services.coda._extended import ExtendedOutcome as ExtendedOutcome
from bot.services.coda._extended import TaskView as TaskView
from bot.services.coda._extended import abandon_extended as abandon_extended
from bot.services.coda._extended import extended_names as extended_names
from bot.services.coda._extended import extended_status as extended_status
from bot.services.coda._extended import roll_extended as roll_extended
from bot.services.coda._extended import start_extended as start_extended
from bot.services.coda._extended import task_of as task_of
from bot.services.coda._opposed import OPPOSED_KIND as OPPOSED_KIND
from bot.services.coda._opposed import OpposedOutcome as OpposedOutcome
from bot.services.coda._opposed import roll_opposed as roll_opposed
from bot.services.coda._opposed import roll_their_side as roll_their_side
from bot.services.coda._roller import SYSTEM as SYSTEM
from bot.services.coda._roller import Roller as Roller
from bot.services.coda._roller import TestOutcome as TestOutcome
from bot.services.coda._roller import TestRequest as TestRequest
from bot.services.coda._roller import bounded as bounded
from bot.services.coda._roller import dice_arithmetic as dice_arithmetic
from bot.services.coda._roller import log_test as log_test
from bot.services.coda._roller import ones_rule as ones_rule
from bot.services.coda._roller import part_label as part_label
from bot.services.coda._roller import penalties_of as penalties_of
from bot.services.coda._roller import plain_roller as plain_roller
from bot.services.coda._roller import resolve_tn as resolve_tn
from bot.services.coda._roller import roll_and_log as roll_and_log
from bot.services.coda._sheets import REACTION_KEYS as REACTION_KEYS
from bot.services.coda._sheets import REACTIONS as REACTIONS
from bot.services.coda._sheets import attribute_roller as attribute_roller
from bot.services.coda._sheets import character_roller as character_roller
from bot.services.coda._sheets import load_sheet as load_sheet
from bot.services.coda._sheets import parse_modifier as parse_modifier
from bot.services.coda._sheets import parse_named_modifier as parse_named_modifier
from bot.services.coda._sheets import resolve_roller as resolve_roller
from bot.services.coda._sheets import sheet_entries as sheet_entries
from bot.services.coda._sheets import skill_roller as skill_roller
from bot.services.coda._sheets import specialty_names as specialty_names
from bot.services.coda._single import AttributeRoll as AttributeRoll
from bot.services.coda._single import DamageOutcome as DamageOutcome
from bot.services.coda._single import PlainRoll as PlainRoll
from bot.services.coda._single import ReactionRoll as ReactionRoll
from bot.services.coda._single import SkillRoll as SkillRoll
from bot.services.coda._single import Who as Who
from bot.services.coda._single import roll_damage as roll_damage
from bot.services.coda._single import roll_test as roll_test
from bot.services.coda._turn import TurnSpend as TurnSpend
from bot.services.coda._turn import spend_on_turn as spend_on_turn
