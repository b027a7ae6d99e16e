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

- :mod:`engine.systems.infinity._sv`: bounds, the error, the Success Value;
- :mod:`engine.systems.infinity._rolls`: normal and face-to-face rolls;
- :mod:`engine.systems.infinity._save`: saving rolls;
- :mod:`engine.systems.infinity._odds`: every exact chance and its caches.
"""

from __future__ import annotations

from engine.systems.infinity._burst import SplitResult as SplitResult
from engine.systems.infinity._burst import Target as Target
from engine.systems.infinity._burst import split_face_to_face as split_face_to_face
from engine.systems.infinity._burst import split_odds as split_odds
from engine.systems.infinity._mods import MAX_DISTANCE as MAX_DISTANCE
from engine.systems.infinity._mods import Band as Band
from engine.systems.infinity._mods import Mods as Mods
from engine.systems.infinity._mods import NamedMod as NamedMod
from engine.systems.infinity._mods import attack_mods as attack_mods
from engine.systems.infinity._mods import band_for as band_for
from engine.systems.infinity._mods import parse_bands as parse_bands
from engine.systems.infinity._odds import FaceToFaceOdds as FaceToFaceOdds
from engine.systems.infinity._odds import NormalOdds as NormalOdds
from engine.systems.infinity._odds import SaveOdds as SaveOdds
from engine.systems.infinity._odds import chance as chance
from engine.systems.infinity._odds import clear_caches as clear_caches
from engine.systems.infinity._odds import ftf_chance as ftf_chance

# The tests read a cache's size to check clear_caches.
from engine.systems.infinity._odds import ftf_exact as ftf_exact
from engine.systems.infinity._odds import ftf_odds as ftf_odds
from engine.systems.infinity._odds import normal_odds as normal_odds
from engine.systems.infinity._odds import save_chance as save_chance
from engine.systems.infinity._odds import save_odds as save_odds
from engine.systems.infinity._rolls import D as D
from engine.systems.infinity._rolls import Decision as Decision
from engine.systems.infinity._rolls import Die as Die
from engine.systems.infinity._rolls import DieStatus as DieStatus
from engine.systems.infinity._rolls import FaceToFaceResult as FaceToFaceResult
from engine.systems.infinity._rolls import NormalResult as NormalResult
from engine.systems.infinity._rolls import check_side as check_side
from engine.systems.infinity._rolls import face_to_face as face_to_face
from engine.systems.infinity._rolls import normal as normal
from engine.systems.infinity._rolls import resolve as resolve
from engine.systems.infinity._rolls import roll_side as roll_side
from engine.systems.infinity._save import SaveDie as SaveDie
from engine.systems.infinity._save import SaveResult as SaveResult
from engine.systems.infinity._save import attack_damage as attack_damage
from engine.systems.infinity._save import save as save
from engine.systems.infinity._sv import ARMOR_RANGE as ARMOR_RANGE
from engine.systems.infinity._sv import ATTRIBUTE_RANGE as ATTRIBUTE_RANGE
from engine.systems.infinity._sv import BURST_RANGE as BURST_RANGE
from engine.systems.infinity._sv import COVER_MOD as COVER_MOD
from engine.systems.infinity._sv import D20 as D20
from engine.systems.infinity._sv import DAMAGE_RANGE as DAMAGE_RANGE
from engine.systems.infinity._sv import HITS_RANGE as HITS_RANGE
from engine.systems.infinity._sv import MOD_CAP as MOD_CAP
from engine.systems.infinity._sv import MODS_RANGE as MODS_RANGE
from engine.systems.infinity._sv import InfinityError as InfinityError
from engine.systems.infinity._sv import Translate as Translate
from engine.systems.infinity._sv import clamp_mods as clamp_mods
from engine.systems.infinity._sv import crit_from as crit_from
from engine.systems.infinity._sv import describe_sv as describe_sv
from engine.systems.infinity._sv import plain as plain
from engine.systems.infinity._sv import success_value as success_value
