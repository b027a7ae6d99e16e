"""Every model, imported so that ``Base.metadata`` is complete for Alembic and the tests.

A feature adds its module here (one line) and a migration under ``migrations/versions``.
"""

from bot.storage.models.attacks import AttackExchange
from bot.storage.models.base import Base
from bot.storage.models.channels import ChannelSettings, GuildGmRole
from bot.storage.models.characters import ActiveCharacter, Character
from bot.storage.models.coda import CodaActionTest, CodaAttack, CodaExtendedTask
from bot.storage.models.initiative import InitiativeEncounter
from bot.storage.models.languages import LanguageChoice
from bot.storage.models.macros import Macro
from bot.storage.models.members import Member
from bot.storage.models.quidditch import HousePoints, QuidditchMatch
from bot.storage.models.rolls import RollLog
from bot.storage.models.rps_drama import (
    DramaPriceOffer,
    PenaltyLogEntry,
    PenaltyPool,
    RpsSustainedTask,
)
from bot.storage.models.side_requests import SideRequest

__all__ = [
    "ActiveCharacter",
    "AttackExchange",
    "Base",
    "ChannelSettings",
    "Character",
    "CodaActionTest",
    "CodaAttack",
    "CodaExtendedTask",
    "DramaPriceOffer",
    "GuildGmRole",
    "HousePoints",
    "InitiativeEncounter",
    "LanguageChoice",
    "Macro",
    "Member",
    "PenaltyLogEntry",
    "PenaltyPool",
    "QuidditchMatch",
    "RollLog",
    "RpsSustainedTask",
    "SideRequest",
]
from bot.storage.models._channel_state import ACTIVE as ACTIVE
from bot.storage.models._channel_state import ChannelStateMixin as ChannelStateMixin
