"""Infinity CodeOne use cases: normal and saving rolls (``_rolls``) and face to face rolls
(``_ftf``).

This face is the package's API; its modules are private.
"""

from __future__ import annotations

from bot.services.infinity._ftf import KIND as KIND
from bot.services.infinity._ftf import face_to_face as face_to_face
from bot.services.infinity._ftf import roll_their_side as roll_their_side
from bot.services.infinity._rolls import MAX_NAME as MAX_NAME
from bot.services.infinity._rolls import REACTIVE as REACTIVE
from bot.services.infinity._rolls import SYSTEM as SYSTEM
from bot.services.infinity._rolls import Attack as Attack
from bot.services.infinity._rolls import FaceToFaceOutcome as FaceToFaceOutcome
from bot.services.infinity._rolls import NormalOutcome as NormalOutcome
from bot.services.infinity._rolls import SaveOutcome as SaveOutcome
from bot.services.infinity._rolls import Side as Side
from bot.services.infinity._rolls import Source as Source
from bot.services.infinity._rolls import SplitOutcome as SplitOutcome
from bot.services.infinity._rolls import burst_split as burst_split
from bot.services.infinity._rolls import ftf_summary as ftf_summary
from bot.services.infinity._rolls import parse_number as parse_number
from bot.services.infinity._rolls import parse_targets as parse_targets
from bot.services.infinity._rolls import read_value as read_value
from bot.services.infinity._rolls import roll as roll
from bot.services.infinity._rolls import save as save
from bot.services.infinity._rolls import shown_mods as shown_mods
from bot.services.infinity._rolls import sides_checked as sides_checked
