"""Every model, imported so that ``Base.metadata`` is complete for Alembic and the tests.

A feature adds its module here (one line) and a migration under ``migrations/versions``.
"""

from bot.storage.models.base import Base
from bot.storage.models.channels import ChannelSettings
from bot.storage.models.rolls import RollLog

__all__ = ["Base", "ChannelSettings", "RollLog"]
