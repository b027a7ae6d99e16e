"""Hogwarts 1990 use cases: rolls, defended and opposed rolls (``_rolls``), attacks in a
skirmish (``_attack``) and the defender's side of an exchange (``_exchange``).

This face is the package's API; its modules are private.
"""

from __future__ import annotations

from bot.services.hogwarts1990._attack import DEFAULT_DODGE as DEFAULT_DODGE
from bot.services.hogwarts1990._attack import AttackRequest as AttackRequest
from bot.services.hogwarts1990._attack import answer as answer
from bot.services.hogwarts1990._attack import attack as attack
from bot.services.hogwarts1990._exchange import Exchange as Exchange
from bot.services.hogwarts1990._rolls import MAX_DEFENSE_TERMS as MAX_DEFENSE_TERMS
from bot.services.hogwarts1990._rolls import OPPOSED_KIND as OPPOSED_KIND
from bot.services.hogwarts1990._rolls import SYSTEM as SYSTEM
from bot.services.hogwarts1990._rolls import Defense as Defense
from bot.services.hogwarts1990._rolls import OpposedOutcome as OpposedOutcome
from bot.services.hogwarts1990._rolls import Roller as Roller
from bot.services.hogwarts1990._rolls import RollOutcome as RollOutcome
from bot.services.hogwarts1990._rolls import Side as Side
from bot.services.hogwarts1990._rolls import defended as defended
from bot.services.hogwarts1990._rolls import opposed as opposed
from bot.services.hogwarts1990._rolls import roll as roll
from bot.services.hogwarts1990._rolls import roll_and_log as roll_and_log
from bot.services.hogwarts1990._rolls import roll_their_side as roll_their_side
from bot.services.hogwarts1990._rolls import side as side
