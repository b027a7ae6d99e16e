"""Whether a roll is secret, decided by the channel's mode in the roll's own transaction."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy.ext.asyncio import AsyncSession

from bot.errors import UserError
from bot.i18n import _
from bot.services import channel_settings
from bot.services.permissions import channel_starters
from bot.storage.models import RollLog
from bot.storage.repositories import rolls as roll_log


@dataclass(frozen=True, slots=True)
class Seal:
    """A secret roll's id in the log and its commitment, shown before anyone sees the roll."""

    roll_id: int
    commitment: str


@dataclass(frozen=True, slots=True)
class Secrecy:
    """How a roll's reply is delivered: publicly, or to the roller and the GM only."""

    secret: bool = False
    gm_channel_id: int | None = None
    #: GMs by what they started here (an encounter, a match): Discord cannot tell who they are.
    gm_user_ids: frozenset[int] = frozenset()
    #: Asked to be secret in a channel whose secret mode is ``open``: public, and the roller
    #: is told why (they expected nobody else to see it).
    made_public: bool = False
    #: The secret entries of this roll's unit of work. The roll log commits to each as it is
    #: written (bot.storage.repositories.rolls.add), so every service that logs a secret roll
    #: gets its commitment shown without a line of its own.
    sealed: list[RollLog] = field(default_factory=list, compare=False, repr=False)

    @property
    def seals(self) -> tuple[Seal, ...]:
        """The commitments to show (read after the unit of work committed: ids are set)."""
        return tuple(Seal(entry.id, entry.commitment) for entry in self.sealed if entry.commitment)


PUBLIC = Secrecy()
OPEN_MODE = Secrecy(made_public=True)


async def decide(session: AsyncSession, channel_id: int, requested: bool) -> Secrecy:
    """Apply the channel's secret mode to a roll that asked (or not) to be secret."""
    if not requested:
        return PUBLIC
    settings = await channel_settings.read(session, channel_id)
    if settings.secret_mode == "off":
        raise UserError(
            _("Secret rolls are off in this channel (a GM can change that with /settings secret).")
        )
    if settings.secret_mode == "open":
        return OPEN_MODE
    return Secrecy(
        secret=True,
        gm_channel_id=settings.gm_channel_id,
        gm_user_ids=frozenset(await channel_starters(session, channel_id)),
        sealed=roll_log.sealed(session),
    )
