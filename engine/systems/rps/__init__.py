"""RPS stat checks (RULES.md §4): Base − 2d10, with resisted and sustained actions.

Every roll draws from the ``Dice`` it is given, die 1 then die 2 per check, so a
:class:`~engine.dice.ScriptedDice` pins one result. Chances are exact: a check has only
100 equally likely outcomes, so they are counted.

The work lives in :mod:`engine.systems.rps._checks` (one check),
:mod:`engine.systems.rps._resisted` (resisted actions) and :mod:`engine.systems.rps._sustained`
(sustained actions); this module re-exports their public names, so ``rps.X`` is the API.
"""

from __future__ import annotations

from engine.systems.rps._checks import AUTOMATIC_SUCCESS_MAX_BASE as AUTOMATIC_SUCCESS_MAX_BASE
from engine.systems.rps._checks import CRITICAL_SUCCESS_BONUS as CRITICAL_SUCCESS_BONUS
from engine.systems.rps._checks import DIE_SIDES as DIE_SIDES
from engine.systems.rps._checks import DIFFICULTIES as DIFFICULTIES
from engine.systems.rps._checks import FORGO_ABOVE as FORGO_ABOVE
from engine.systems.rps._checks import MAX_BASE as MAX_BASE
from engine.systems.rps._checks import MAX_GOAL as MAX_GOAL
from engine.systems.rps._checks import MAX_MODIFIER as MAX_MODIFIER
from engine.systems.rps._checks import MAX_NAME_LENGTH as MAX_NAME_LENGTH
from engine.systems.rps._checks import MAX_PARTIES as MAX_PARTIES
from engine.systems.rps._checks import MAX_ROUNDS as MAX_ROUNDS
from engine.systems.rps._checks import MAX_STAT as MAX_STAT
from engine.systems.rps._checks import MIN_BASE as MIN_BASE
from engine.systems.rps._checks import MIN_MODIFIER as MIN_MODIFIER
from engine.systems.rps._checks import MIN_STAT as MIN_STAT
from engine.systems.rps._checks import CheckResult as CheckResult
from engine.systems.rps._checks import Difficulty as Difficulty
from engine.systems.rps._checks import Reading as Reading
from engine.systems.rps._checks import RpsError as RpsError
from engine.systems.rps._checks import Special as Special
from engine.systems.rps._checks import attribute_base as attribute_base
from engine.systems.rps._checks import chance as chance
from engine.systems.rps._checks import check as check
from engine.systems.rps._checks import check_forgo_allowed as check_forgo_allowed
from engine.systems.rps._checks import difficulty as difficulty
from engine.systems.rps._checks import modified_base as modified_base
from engine.systems.rps._checks import skill_base as skill_base
from engine.systems.rps._checks import success_count as success_count
from engine.systems.rps._resisted import MAX_CHANCE_PARTIES as MAX_CHANCE_PARTIES
from engine.systems.rps._resisted import PartyCheck as PartyCheck
from engine.systems.rps._resisted import ResistedChances as ResistedChances
from engine.systems.rps._resisted import ResistedResult as ResistedResult
from engine.systems.rps._resisted import check_parties as check_parties
from engine.systems.rps._resisted import clear_caches as clear_caches
from engine.systems.rps._resisted import resisted as resisted
from engine.systems.rps._resisted import resisted_chances as resisted_chances
from engine.systems.rps._resisted import success_levels as success_levels
from engine.systems.rps._sustained import FailureReason as FailureReason
from engine.systems.rps._sustained import SustainedRoll as SustainedRoll
from engine.systems.rps._sustained import SustainedTask as SustainedTask
from engine.systems.rps._sustained import TaskStatus as TaskStatus
from engine.systems.rps._sustained import apply_check as apply_check
from engine.systems.rps._sustained import start_sustained as start_sustained
from engine.systems.rps._sustained import sustained_check as sustained_check
