"""The GM's view of a channel: every character used there (chosen with ``/sheet use``, or
the only character of a player who rolled there: the rule the GM's ``/sheet`` lookups use)
with its whole sheet, and the encounter's NPCs with their Health."""

from __future__ import annotations

from dataclasses import dataclass

from bot.actor import Actor
from bot.i18n import N_
from bot.services.permissions import require_gm
from bot.services.sheets import CharacterSheet, guild_key, sheet_from_row
from bot.storage import Database
from bot.storage.repositories import characters as characters_repo
from bot.storage.repositories import members as members_repo


@dataclass(frozen=True, slots=True)
class Roster:
    characters: tuple[CharacterSheet, ...]


@dataclass(frozen=True, slots=True)
class People:
    """Who rolls in the channel, by name, and what the channel is called (as the bot last
    saw them in Discord: bot.services.members), for the roll log and the page's title."""

    #: ``{user_id: "alice (Hermione, Ron)"}``: the member's name and the characters they
    #: play here (names only, as the table sees them in Discord).
    names: dict[int, str]
    channel_name: str | None


async def people(db: Database, actor: Actor) -> People:
    """The channel's players and its name, from the member records and its characters."""
    channel = str(actor.channel_id)
    async with db.unit_of_work(read_only=True) as session:
        rows = await characters_repo.in_channel(session, guild_key(actor), actor.channel_id)
        seen = [
            m
            for m in await members_repo.in_guild(session, guild_key(actor))
            if channel in m.channels
        ]
    names = {member.user_id: member.display_name for member in seen}
    playing: dict[int, list[str]] = {}
    for row in rows:
        playing.setdefault(row.owner_id, []).append(row.name)
    for owner, characters in playing.items():
        listed = ", ".join(characters)
        names[owner] = f"{names[owner]} ({listed})" if owner in names else listed
    channel_name = next((m.channels[channel] for m in seen if m.channels.get(channel)), None)
    return People(names=names, channel_name=channel_name)


async def roster(db: Database, actor: Actor) -> Roster:
    """Every character of the channel with its sheet; a GM's alone (PermissionDenied else)."""
    async with db.unit_of_work(read_only=True) as session:
        await require_gm(session, actor, N_("see every character of the channel"))
        rows = await characters_repo.in_channel(session, guild_key(actor), actor.channel_id)
        return Roster(characters=tuple(sheet_from_row(row) for row in rows))
