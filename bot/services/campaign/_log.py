"""The roll log as a campaign page reads it: filtered by system, roller and time, in bounded
pages, with the same secrecy rule as ``/history`` (a secret roll only for its roller and the
channel's GMs) and every commitment checked on the server, so the page can say whether each
revealed record and salt give the commitment the table saw (see :mod:`engine.commitment`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.services.dice_stats import SINCE
from bot.services.permissions import is_gm
from bot.storage import Database
from bot.storage.models.base import utcnow
from bot.storage.repositories import rolls as roll_log
from engine import commitment

#: Rolls per page, and the most a page may ask for.
PAGE_SIZE = 25
MAX_PAGE_SIZE = 100
#: A system filter is a short lowercase word (the roll log's ``system`` column).
_SYSTEM = re.compile(r"^[a-z0-9_]{1,16}$")
#: Ids fit PostgreSQL's integer and Discord's snowflakes fit 64 bits.
MAX_ROLL_ID = 2**31 - 1
MAX_SNOWFLAKE = 2**63 - 1


@dataclass(frozen=True, slots=True)
class LogFilter:
    """What the viewer asked for; every field optional. ``before`` pages back."""

    system: str | None = None
    player_id: int | None = None
    since: str | None = None
    before: int | None = None
    count: int = PAGE_SIZE

    def checked(self) -> LogFilter:
        """Itself, or a short UserError naming the field that is out of bounds."""
        if self.system is not None and not _SYSTEM.match(self.system):
            raise UserError(_("A system is a short lowercase word, e.g. coda or dice."))
        if self.since is not None and self.since not in SINCE:
            raise UserError(_("Since is one of {choices}.", choices=", ".join(SINCE)))
        if self.player_id is not None and not 0 < self.player_id <= MAX_SNOWFLAKE:
            raise UserError(_("A player is a Discord user id."))
        if self.before is not None and not 0 < self.before <= MAX_ROLL_ID:
            raise UserError(_("No roll #{id} in this channel's log.", id=self.before))
        if not 0 < self.count <= MAX_PAGE_SIZE:
            raise UserError(_("A page holds 1 to {most} rolls.", most=MAX_PAGE_SIZE))
        return self


@dataclass(frozen=True, slots=True)
class Sealed:
    """A secret roll's commitment; ``record`` and ``salt`` only for who may reveal it."""

    commitment: str
    record: str | None
    salt: str | None
    #: The record and salt give the commitment (None: not shown to this viewer).
    verified: bool | None
    #: The line that checks it with nothing but ``sha256sum`` (None: not shown).
    shell: str | None = None


@dataclass(frozen=True, slots=True)
class LogEntry:
    id: int
    roller_id: int
    system: str
    input: str
    outcome: str
    label: str | None
    macro: str | None
    secret: bool
    created_at: datetime
    sealed: Sealed | None


@dataclass(frozen=True, slots=True)
class LogPage:
    """One page, newest first; ``next_before`` continues it (None: the log ends here)."""

    entries: tuple[LogEntry, ...]
    filters: LogFilter
    includes_secret: bool
    next_before: int | None


async def roll_log_page(db: Database, actor: Actor, filters: LogFilter) -> LogPage:
    """A page of the channel's log for ``actor`` under ``filters`` (checked first)."""
    filters = filters.checked()
    start = utcnow() - SINCE[filters.since] if filters.since else None
    async with db.unit_of_work(read_only=True) as session:
        gm = await is_gm(session, actor)
        rows = await roll_log.search(
            session,
            actor.channel_id,
            include_secret=gm,
            viewer_id=actor.user_id,
            count=filters.count + 1,  # one more tells whether another page follows
            system=filters.system,
            user_id=filters.player_id,
            since=start,
            before_id=filters.before,
        )
    more = len(rows) > filters.count
    rows = rows[: filters.count]
    entries = tuple(
        LogEntry(
            id=row.id,
            roller_id=row.user_id,
            system=row.system,
            input=row.input,
            outcome=row.outcome,
            label=row.label,
            macro=row.macro,
            secret=row.secret,
            created_at=row.created_at,
            sealed=_sealed(row.record, row.salt, row.commitment),
        )
        for row in rows
    )
    return LogPage(
        entries=entries,
        filters=filters,
        includes_secret=gm,
        next_before=entries[-1].id if more and entries else None,
    )


def _sealed(record: str | None, salt: str | None, digest: str | None) -> Sealed | None:
    """The commitment of a secret roll this viewer sees (a GM's or its roller's: the query
    returns no other secret rolls), checked here so the page states the result."""
    if not digest:
        return None
    if not (record and salt):
        return Sealed(commitment=digest, record=None, salt=None, verified=None)
    return Sealed(
        commitment=digest,
        record=record,
        salt=salt,
        verified=commitment.matches(record, salt, digest),
        shell=commitment.shell_line(record, salt),
    )
