"""What a web viewer may see and change: their own characters, and as a GM their channels'.

The web companion knows only who logged in (a Discord id) and the guilds they share with
Narrator. Everything else comes from what the bot stored: the members record
(:mod:`bot.services.members`: a GM role, the channels someone played in), the server's own
GM roles, who started what in a channel, and which characters are used in a channel. The
rule is Discord's (DESIGN.md, "Who may do what"): a player keeps their own sheets; a GM of a
channel may read the characters used there (``/sheet show`` for a GM); only the owner
changes a sheet. The edits themselves go through :mod:`bot.services.sheets` with an
:class:`~bot.actor.Actor` rebuilt from the record (:func:`owner_actor`), so their checks
and messages are the ones ``/sheet`` gives.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import UserError
from bot.i18n import _
from bot.services.permissions import is_gm
from bot.services.sheets import CharacterSheet, sheet_from_row
from bot.storage import Database
from bot.storage.models import Character, Member
from bot.storage.repositories import characters as characters_repo
from bot.storage.repositories import members as members_repo


class NotVisible(UserError):
    """No such character, or not one this viewer may see (the web answers 404 either way)."""


@dataclass(frozen=True, slots=True)
class CharacterRef:
    """A character in a list: whose, where, and whether the viewer owns it."""

    id: int
    name: str
    system: str
    guild_id: int
    guild_name: str
    owner_id: int
    owner_name: str
    mine: bool


@dataclass(frozen=True, slots=True)
class CharacterView:
    """A character the viewer may see: its sheet, and whether they may change it."""

    ref: CharacterRef
    sheet: CharacterSheet
    editable: bool


def _actor(user_id: int, guild_id: int, channel_id: int, member: Member | None) -> Actor:
    return Actor(
        user_id=user_id,
        channel_id=channel_id,
        guild_id=guild_id or None,
        display_name=member.display_name if member else "",
        gm_role=bool(member and member.gm_role),
        role_ids=frozenset(member.role_ids) if member else frozenset(),
    )


def owner_actor(view: CharacterView) -> Actor:
    """The owner acting on their character's guild, for the ``/sheet`` services (which then
    check ownership again, in their own unit of work)."""
    return Actor(user_id=view.ref.owner_id, channel_id=0, guild_id=view.ref.guild_id or None)


async def _gm_channels(
    session: AsyncSession, user_id: int, guild_id: int, member: Member | None
) -> list[int]:
    """The channels of ``guild_id`` the viewer played in where the GM rule makes them a GM."""
    if member is None:
        return []
    channels = []
    for channel in member.channels:
        if await is_gm(session, _actor(user_id, guild_id, int(channel), member)):
            channels.append(int(channel))
    return channels


def _ref(row: Character, viewer_id: int, names: dict[tuple[int, int], Member]) -> CharacterRef:
    owner = names.get((row.guild_id, row.owner_id))
    return CharacterRef(
        id=row.id,
        name=row.name,
        system=row.system,
        guild_id=row.guild_id,
        guild_name=owner.guild_name if owner else "",
        owner_id=row.owner_id,
        owner_name=owner.display_name if owner else str(row.owner_id),
        mine=row.owner_id == viewer_id,
    )


async def _members(
    session: AsyncSession, keys: Iterable[tuple[int, int]]
) -> dict[tuple[int, int], Member]:
    """The records of these (guild, user) pairs: the viewer's and the owners' names."""
    return {(m.guild_id, m.user_id): m for m in await members_repo.some(session, keys)}


async def characters_for(
    db: Database, user_id: int, guild_ids: frozenset[int]
) -> tuple[list[CharacterRef], list[CharacterRef]]:
    """The viewer's own characters (their guilds' and their direct messages'), and the other
    players' characters used in channels where the viewer is a GM."""
    async with db.unit_of_work(read_only=True) as session:
        viewer = await _members(session, ((guild_id, user_id) for guild_id in guild_ids))
        own_rows: list[Character] = []
        for guild_id in sorted({0, *guild_ids}):
            own_rows += await characters_repo.owned(session, guild_id, user_id)
        other_rows: dict[int, Character] = {}
        for guild_id in sorted(guild_ids):
            member = viewer.get((guild_id, user_id))
            for channel_id in await _gm_channels(session, user_id, guild_id, member):
                for row in await characters_repo.in_channel(session, guild_id, channel_id):
                    if row.owner_id != user_id:
                        other_rows[row.id] = row
        owners = ((row.guild_id, row.owner_id) for row in other_rows.values())
        names = {**viewer, **await _members(session, owners)}
    own = [_ref(row, user_id, names) for row in own_rows]
    others = [_ref(row, user_id, names) for row in other_rows.values()]
    return own, sorted(others, key=lambda ref: (ref.guild_name, ref.owner_name, ref.name))


async def character_for(
    db: Database, user_id: int, guild_ids: frozenset[int], character_id: int
) -> CharacterView:
    """One character the viewer may see; :class:`NotVisible` for any other (or none)."""
    async with db.unit_of_work(read_only=True) as session:
        row = await characters_repo.by_id(session, character_id)
        if row is None or (row.guild_id not in guild_ids and row.guild_id != 0):
            raise NotVisible(_("There is no such character, or it is not yours to see."))
        names = await _members(session, [(row.guild_id, user_id), (row.guild_id, row.owner_id)])
        if row.owner_id == user_id:
            return CharacterView(_ref(row, user_id, names), sheet_from_row(row), editable=True)
        member = names.get((row.guild_id, user_id))
        for channel_id in await _gm_channels(session, user_id, row.guild_id, member):
            used = await characters_repo.in_channel(session, row.guild_id, channel_id)
            if any(other.id == row.id for other in used):
                return CharacterView(_ref(row, user_id, names), sheet_from_row(row), editable=False)
    raise NotVisible(_("There is no such character, or it is not yours to see."))


@dataclass(frozen=True, slots=True)
class ChannelAccess:
    """A channel the viewer may open: where it is, and the viewer acting there (``actor``,
    for the services' own checks), and whether the GM rule makes them a GM of it."""

    guild_id: int
    guild_name: str
    channel_id: int
    channel_name: str
    actor: Actor
    gm: bool


async def channel_for(
    db: Database, user_id: int, guild_ids: frozenset[int], channel_id: int
) -> ChannelAccess:
    """A channel the viewer played in (or, for a GM of its guild, one anyone played in);
    :class:`NotVisible` for any other. The channel pages (``/channels/{id}``) start here."""
    async with db.unit_of_work(read_only=True) as session:
        for viewer in await members_repo.of_user(session, user_id):
            if viewer.guild_id not in guild_ids:
                continue
            name = viewer.channels.get(str(channel_id))
            actor = _actor(user_id, viewer.guild_id, channel_id, viewer)
            if name is None and await is_gm(session, actor):
                # A GM of the guild may open a channel others played in but they did not.
                for other in await members_repo.in_guild(session, viewer.guild_id):
                    name = name or other.channels.get(str(channel_id))
            if name is None:
                continue
            return ChannelAccess(
                guild_id=viewer.guild_id,
                guild_name=viewer.guild_name,
                channel_id=channel_id,
                channel_name=name,
                actor=actor,
                gm=await is_gm(session, actor),
            )
    raise NotVisible(_("There is no such channel, or it is not yours to see."))
