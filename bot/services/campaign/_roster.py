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


@dataclass(frozen=True, slots=True)
class Roster:
    characters: tuple[CharacterSheet, ...]


async def player_names(db: Database, actor: Actor) -> dict[int, str]:
    """Who rolls in the channel, by the characters they play there (names only, as the table
    sees them in Discord): ``{user_id: "Hermione, Ron"}`` for the roll log's rollers."""
    async with db.unit_of_work(read_only=True) as session:
        rows = await characters_repo.in_channel(session, guild_key(actor), actor.channel_id)
    names: dict[int, list[str]] = {}
    for row in rows:
        names.setdefault(row.owner_id, []).append(row.name)
    return {owner: ", ".join(found) for owner, found in names.items()}


async def roster(db: Database, actor: Actor) -> Roster:
    """Every character of the channel with its sheet; a GM's alone (PermissionDenied else)."""
    async with db.unit_of_work(read_only=True) as session:
        await require_gm(session, actor, N_("see every character of the channel"))
        rows = await characters_repo.in_channel(session, guild_key(actor), actor.channel_id)
        return Roster(characters=tuple(sheet_from_row(row) for row in rows))
