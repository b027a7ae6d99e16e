"""Hogwarts 1990 (RULES.md §2, seed 001): two d20 rolls, keep one, add a bonus, meet a difficulty;
and attacks in a skirmish (defensive rolls, damage to Health).

The rolls live in ``_rolls``, attacks in ``_attack``; this face is the API.
"""

from __future__ import annotations

from engine.systems.hogwarts1990._attack import DAMAGE_DEFAULT as DAMAGE_DEFAULT
from engine.systems.hogwarts1990._attack import DAMAGE_MAX as DAMAGE_MAX
from engine.systems.hogwarts1990._attack import DAMAGE_MIN as DAMAGE_MIN
from engine.systems.hogwarts1990._attack import MAX_DODGE_TERMS as MAX_DODGE_TERMS
from engine.systems.hogwarts1990._attack import Answer as Answer
from engine.systems.hogwarts1990._attack import attack as attack
from engine.systems.hogwarts1990._attack import check_damage as check_damage
from engine.systems.hogwarts1990._attack import defend as defend
from engine.systems.hogwarts1990._attack import defend_chance as defend_chance
from engine.systems.hogwarts1990._attack import dodged_difficulty as dodged_difficulty
from engine.systems.hogwarts1990._attack import health_after as health_after
from engine.systems.hogwarts1990._attack import knocked_out as knocked_out
from engine.systems.hogwarts1990._rolls import BONUS_MAX as BONUS_MAX
from engine.systems.hogwarts1990._rolls import BONUS_MIN as BONUS_MIN
from engine.systems.hogwarts1990._rolls import DIFFICULTY_MAX as DIFFICULTY_MAX
from engine.systems.hogwarts1990._rolls import DIFFICULTY_MIN as DIFFICULTY_MIN
from engine.systems.hogwarts1990._rolls import SIDES as SIDES
from engine.systems.hogwarts1990._rolls import H90Error as H90Error
from engine.systems.hogwarts1990._rolls import Odds as Odds
from engine.systems.hogwarts1990._rolls import Opposed as Opposed
from engine.systems.hogwarts1990._rolls import OpposedOdds as OpposedOdds
from engine.systems.hogwarts1990._rolls import Outcome as Outcome
from engine.systems.hogwarts1990._rolls import Roll as Roll
from engine.systems.hogwarts1990._rolls import chance as chance
from engine.systems.hogwarts1990._rolls import clear_caches as clear_caches
from engine.systems.hogwarts1990._rolls import defended as defended
from engine.systems.hogwarts1990._rolls import defended_difficulty as defended_difficulty
from engine.systems.hogwarts1990._rolls import odds as odds
from engine.systems.hogwarts1990._rolls import opposed as opposed
from engine.systems.hogwarts1990._rolls import opposed_odds as opposed_odds
from engine.systems.hogwarts1990._rolls import roll as roll
