"""CODA, as played in *Harry Potter: The Roleplaying Game* (RULES.md §1, seed 000).

A test is 2d6 + modifiers − penalties against a target number (TN); when every die shows
6 another d6 is rolled, and again while the last one shows 6 ("rolling 6s"). The margin
(result − TN) gives one of seven degrees, each with a time factor.

Order: a test draws its two dice, then each extra die of a rolling-6s run in turn; a
damage roll its N dice, then the extra dice; an opposed test side A then side B; a
combined test the helpers in the order given, then the leader. So a
:class:`~engine.dice.ScriptedDice` pins one result.

Chances are exact: this module validates a query and hands what the dice must total to
:mod:`engine.systems.coda._odds`, where every chance is a lookup in tables built once at
import. The degree table, the rolling-1s settings and the input bounds live in
:mod:`engine.systems.coda._degrees`, an extended test's task state in
:mod:`engine.systems.coda._extended`. A single test and damage live in
:mod:`engine.systems.coda._single`, the modifier builders in :mod:`engine.systems.coda._parts`,
opposed, combined and extended rolls in :mod:`engine.systems.coda._contests`; all are
re-exported here, so ``coda.X`` is the API.

Where RULES.md is silent we decide: the rolling-1s rule caps a test's degree wherever the
test appears (an opposed test's winner is still the higher result, but its degree is
capped; an extended test's capped test adds nothing); it never touches damage.
"""

from __future__ import annotations

from engine.distributions import SERIES_REMAINDER as SERIES_REMAINDER
from engine.systems.coda._actions import ACTIONS as ACTIONS
from engine.systems.coda._actions import ATTACK as ATTACK
from engine.systems.coda._actions import CUSTOM as CUSTOM
from engine.systems.coda._actions import TEST as TEST
from engine.systems.coda._actions import TEST_ACTIONS as TEST_ACTIONS
from engine.systems.coda._actions import Kind as Kind
from engine.systems.coda._actions import Spend as Spend
from engine.systems.coda._actions import find_action as find_action
from engine.systems.coda._actions import spend as spend
from engine.systems.coda._attack import Defence as Defence
from engine.systems.coda._attack import allowed as allowed
from engine.systems.coda._attack import defence_tn as defence_tn
from engine.systems.coda._attack import defend as defend
from engine.systems.coda._attack import defend_chance as defend_chance

# Re-exported (``X as X``): ``coda.Degree``, ``coda.chance`` … is the API the bot uses;
# ``roll_faces`` and ``_success_probability`` too, which the tests read.
from engine.systems.coda._contests import COMBINED_HELPER_TN_SHIFT as COMBINED_HELPER_TN_SHIFT
from engine.systems.coda._contests import MAX_HELPERS as MAX_HELPERS
from engine.systems.coda._contests import CombinedResult as CombinedResult
from engine.systems.coda._contests import OpposedResult as OpposedResult
from engine.systems.coda._contests import Side as Side
from engine.systems.coda._contests import combined as combined
from engine.systems.coda._contests import combined_chance as combined_chance
from engine.systems.coda._contests import extended_roll as extended_roll
from engine.systems.coda._contests import helper_chances as helper_chances
from engine.systems.coda._contests import opposed as opposed
from engine.systems.coda._contests import opposed_chances as opposed_chances
from engine.systems.coda._contests import side_faces as side_faces
from engine.systems.coda._degrees import DIE_SIDES as DIE_SIDES
from engine.systems.coda._degrees import MODIFIER_MAX as MODIFIER_MAX
from engine.systems.coda._degrees import MODIFIER_MIN as MODIFIER_MIN
from engine.systems.coda._degrees import ONES_SETTINGS as ONES_SETTINGS
from engine.systems.coda._degrees import PENALTY_MAX as PENALTY_MAX
from engine.systems.coda._degrees import PENALTY_MIN as PENALTY_MIN
from engine.systems.coda._degrees import TEST_DICE as TEST_DICE
from engine.systems.coda._degrees import TN_MAX as TN_MAX
from engine.systems.coda._degrees import TN_MIN as TN_MIN
from engine.systems.coda._degrees import CodaError as CodaError
from engine.systems.coda._degrees import Degree as Degree
from engine.systems.coda._degrees import Difficulty as Difficulty
from engine.systems.coda._degrees import Ones as Ones
from engine.systems.coda._extended import MAX_EXTENDED_TESTS as MAX_EXTENDED_TESTS
from engine.systems.coda._extended import MAX_INTERVAL as MAX_INTERVAL
from engine.systems.coda._extended import MAX_NAME_LENGTH as MAX_NAME_LENGTH
from engine.systems.coda._extended import MAX_STAGES as MAX_STAGES
from engine.systems.coda._extended import MAX_UNIT_LENGTH as MAX_UNIT_LENGTH
from engine.systems.coda._extended import ExtendedEntry as ExtendedEntry
from engine.systems.coda._extended import ExtendedRoll as ExtendedRoll
from engine.systems.coda._extended import ExtendedTask as ExtendedTask
from engine.systems.coda._extended import Stage as Stage
from engine.systems.coda._extended import extended_apply as extended_apply
from engine.systems.coda._extended import extended_start as extended_start
from engine.systems.coda._extended import parse_stages as parse_stages
from engine.systems.coda._odds import build_tail as build_tail
from engine.systems.coda._odds import clear_caches as clear_caches
from engine.systems.coda._odds import dice_distribution as dice_distribution
from engine.systems.coda._odds import success_probability as success_probability
from engine.systems.coda._parts import ACTIONS_PER_ROUND as ACTIONS_PER_ROUND
from engine.systems.coda._parts import AFFINITY_MAX as AFFINITY_MAX
from engine.systems.coda._parts import EXTRA_ACTION_PENALTY as EXTRA_ACTION_PENALTY
from engine.systems.coda._parts import MAX_ACTIONS as MAX_ACTIONS
from engine.systems.coda._parts import MAX_ATTEMPT as MAX_ATTEMPT
from engine.systems.coda._parts import REPEAT_PENALTY as REPEAT_PENALTY
from engine.systems.coda._parts import SPECIALTY_BONUS as SPECIALTY_BONUS
from engine.systems.coda._parts import SURPRISE_SKILL as SURPRISE_SKILL
from engine.systems.coda._parts import SURPRISE_TN as SURPRISE_TN
from engine.systems.coda._parts import UNTRAINED_PENALTY as UNTRAINED_PENALTY
from engine.systems.coda._parts import Part as Part
from engine.systems.coda._parts import action_penalty as action_penalty
from engine.systems.coda._parts import actions_in_round as actions_in_round
from engine.systems.coda._parts import attribute_parts as attribute_parts
from engine.systems.coda._parts import extra_action_penalty as extra_action_penalty
from engine.systems.coda._parts import penalty_parts as penalty_parts
from engine.systems.coda._parts import reaction_parts as reaction_parts
from engine.systems.coda._parts import repeat_penalty as repeat_penalty
from engine.systems.coda._parts import skill_parts as skill_parts
from engine.systems.coda._parts import surprise_test as surprise_test
from engine.systems.coda._reference import MAX_STRENGTH as MAX_STRENGTH
from engine.systems.coda._reference import MAX_TITANIC_X as MAX_TITANIC_X
from engine.systems.coda._reference import MIN_STRENGTH as MIN_STRENGTH
from engine.systems.coda._reference import REFERENCE_TABLES as REFERENCE_TABLES
from engine.systems.coda._reference import ReferenceError as ReferenceError
from engine.systems.coda._reference import ReferenceTable as ReferenceTable
from engine.systems.coda._reference import burdens as burdens
from engine.systems.coda._reference import find_table as find_table
from engine.systems.coda._reference import table_names as table_names
from engine.systems.coda._reference import titanic_walk as titanic_walk
from engine.systems.coda._result import TestResult as TestResult
from engine.systems.coda._single import DAMAGE_DICE_MAX as DAMAGE_DICE_MAX
from engine.systems.coda._single import DAMAGE_DICE_MIN as DAMAGE_DICE_MIN
from engine.systems.coda._single import MAX_EXTRA_DICE as MAX_EXTRA_DICE
from engine.systems.coda._single import DamageResult as DamageResult
from engine.systems.coda._single import chance as chance
from engine.systems.coda._single import damage as damage
from engine.systems.coda._single import degree_chances as degree_chances
from engine.systems.coda._single import roll_faces as roll_faces
from engine.systems.coda._single import test as test
from engine.systems.coda._tables import CONDITIONS as CONDITIONS
from engine.systems.coda._tables import MAX_CONDITIONS as MAX_CONDITIONS
from engine.systems.coda._tables import AppliedCondition as AppliedCondition
from engine.systems.coda._tables import ConditionError as ConditionError
from engine.systems.coda._tables import condition_options as condition_options
from engine.systems.coda._tables import conditions_in as conditions_in
from engine.systems.coda._tables import find_condition as find_condition
from engine.systems.coda._tables import parse_condition as parse_condition
from engine.systems.coda._tables import parse_conditions as parse_conditions
from engine.systems.coda._tables import tn_change as tn_change
