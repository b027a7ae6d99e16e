"""RPS use cases: checks (``_rolls``), sustained actions (``_sustained``), resisted actions
(``_resisted``).

This face is the package's API; its modules are private.
"""

from __future__ import annotations

from bot.services.rps._resisted import KIND as KIND
from bot.services.rps._resisted import ResistedOutcome as ResistedOutcome
from bot.services.rps._resisted import resisted as resisted
from bot.services.rps._resisted import roll_their_part as roll_their_part
from bot.services.rps._rolls import MAX_USER_ID as MAX_USER_ID
from bot.services.rps._rolls import MENTION as MENTION
from bot.services.rps._rolls import PARTIES_LENGTH as PARTIES_LENGTH
from bot.services.rps._rolls import SYSTEM as SYSTEM
from bot.services.rps._rolls import Base as Base
from bot.services.rps._rolls import BaseRequest as BaseRequest
from bot.services.rps._rolls import CheckOutcome as CheckOutcome
from bot.services.rps._rolls import PartySpec as PartySpec
from bot.services.rps._rolls import SkillStat as SkillStat
from bot.services.rps._rolls import base_from as base_from
from bot.services.rps._rolls import check as check
from bot.services.rps._rolls import mentioned_user as mentioned_user
from bot.services.rps._rolls import outcome_text as outcome_text
from bot.services.rps._rolls import parse_parties as parse_parties
from bot.services.rps._rolls import party_character as party_character
from bot.services.rps._rolls import skill_stat as skill_stat
from bot.services.rps._sustained import PLAYER_MODIFIER as PLAYER_MODIFIER
from bot.services.rps._sustained import SUSTAINED_LOG as SUSTAINED_LOG
from bot.services.rps._sustained import SustainedOutcome as SustainedOutcome
from bot.services.rps._sustained import SustainedView as SustainedView
from bot.services.rps._sustained import sustained_abandon as sustained_abandon
from bot.services.rps._sustained import sustained_roll as sustained_roll
from bot.services.rps._sustained import sustained_start as sustained_start
from bot.services.rps._sustained import sustained_status as sustained_status
