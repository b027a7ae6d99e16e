"""Infinity CodeOne: Success Values, normal and face-to-face rolls with Burst, saving rolls.

RULES.md section 3. Dice are drawn in the order the rules give (a face to face draws all of
side A's dice, then all of side B's; a save draws one d20 per hit), so a ScriptedDice sequence
pins one exact result.

Chances are exact. A face to face is never enumerated die by die (20^(a+b) outcomes): whether a
side wins depends only on the opponent's *best* success and whether it rolled a Critical, so we
sum over the opponent's best non-critical value (at most 20 states) and treat each of our own
dice independently given that state. That answers Burst 10 against Burst 10 in well under a
millisecond, with :class:`fractions.Fraction` arithmetic so the floats returned are correctly
rounded.

This module is the public face (``infinity.X`` is the API): it re-exports (``X as X``) what
lives in the modules below it, one job each:

- :mod:`engine.systems.infinity_sv`: bounds, the error, the Success Value;
- :mod:`engine.systems.infinity_rolls`: normal and face-to-face rolls;
- :mod:`engine.systems.infinity_save`: saving rolls;
- :mod:`engine.systems.infinity_odds`: every exact chance and its caches.
"""

from __future__ import annotations

from engine.systems.infinity_odds import FaceToFaceOdds as FaceToFaceOdds
from engine.systems.infinity_odds import NormalOdds as NormalOdds
from engine.systems.infinity_odds import SaveOdds as SaveOdds

# The tests read a cache's size to check clear_caches.
from engine.systems.infinity_odds import _ftf_exact as _ftf_exact
from engine.systems.infinity_odds import chance as chance
from engine.systems.infinity_odds import clear_caches as clear_caches
from engine.systems.infinity_odds import ftf_chance as ftf_chance
from engine.systems.infinity_odds import ftf_odds as ftf_odds
from engine.systems.infinity_odds import normal_odds as normal_odds
from engine.systems.infinity_odds import save_chance as save_chance
from engine.systems.infinity_odds import save_odds as save_odds
from engine.systems.infinity_rolls import D as D
from engine.systems.infinity_rolls import Decision as Decision
from engine.systems.infinity_rolls import Die as Die
from engine.systems.infinity_rolls import DieStatus as DieStatus
from engine.systems.infinity_rolls import FaceToFaceResult as FaceToFaceResult
from engine.systems.infinity_rolls import NormalResult as NormalResult
from engine.systems.infinity_rolls import check_side as check_side
from engine.systems.infinity_rolls import face_to_face as face_to_face
from engine.systems.infinity_rolls import normal as normal
from engine.systems.infinity_rolls import resolve as resolve
from engine.systems.infinity_rolls import roll_side as roll_side
from engine.systems.infinity_save import SaveDie as SaveDie
from engine.systems.infinity_save import SaveResult as SaveResult
from engine.systems.infinity_save import attack_damage as attack_damage
from engine.systems.infinity_save import save as save
from engine.systems.infinity_sv import ARMOR_RANGE as ARMOR_RANGE
from engine.systems.infinity_sv import ATTRIBUTE_RANGE as ATTRIBUTE_RANGE
from engine.systems.infinity_sv import BURST_RANGE as BURST_RANGE
from engine.systems.infinity_sv import COVER_MOD as COVER_MOD
from engine.systems.infinity_sv import D20 as D20
from engine.systems.infinity_sv import DAMAGE_RANGE as DAMAGE_RANGE
from engine.systems.infinity_sv import HITS_RANGE as HITS_RANGE
from engine.systems.infinity_sv import MOD_CAP as MOD_CAP
from engine.systems.infinity_sv import MODS_RANGE as MODS_RANGE
from engine.systems.infinity_sv import InfinityError as InfinityError
from engine.systems.infinity_sv import Translate as Translate
from engine.systems.infinity_sv import clamp_mods as clamp_mods
from engine.systems.infinity_sv import crit_from as crit_from
from engine.systems.infinity_sv import describe_sv as describe_sv
from engine.systems.infinity_sv import plain as plain
from engine.systems.infinity_sv import success_value as success_value
