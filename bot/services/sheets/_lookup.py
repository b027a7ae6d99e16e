"""Finding a character: the caller's active character, a character by name (with its
player, ``"Hermione <@123>"``) under the GM rule, and the system check.

It exists as the bottom of the character services: autocomplete and resource changes
find their characters through it. Its functions run inside the caller's unit of work.
"""

from __future__ import annotations

import re

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import NoSuchCharacter, PermissionDenied, UserError
from bot.i18n import N_, _
from bot.services.permissions import is_gm, not_a_gm
from bot.services.sheets._model import CharacterSheet, name_key, sheet_from_row
from bot.storage.models import Character
from bot.storage.repositories import characters as repo
from bot.text import UserText, listed
from engine.systems import SYSTEMS

# "Hermione <@123>" (or "Hermione (<@123>)"): a name with its player, which is what Discord
# sends for "Hermione @alice" typed in a text option and what autocomplete offers a GM
# when several players' characters share a name.
_WITH_OWNER = re.compile(r"^(?P<name>.*?)\s*\(?\s*<@!?(?P<owner>\d{1,20})>\s*\)?\s*$", re.DOTALL)


def split_owner(name: str) -> tuple[str, int | None]:
    """``"Hermione <@123>"`` → ``("Hermione", 123)``; a plain name has no owner."""
    match = _WITH_OWNER.match(name)
    if match is None or not match["name"].strip():
        return name, None
    return match["name"], int(match["owner"])


def with_owner(name: str, owner_id: int) -> str:
    """The option value naming exactly one character: :func:`split_owner`'s inverse."""
    return f"{name} <@{owner_id}>"


def guild_key(actor: Actor) -> int:
    """Characters belong to a guild; direct messages count as guild 0."""
    return actor.guild_id or 0


# --- reading -------------------------------------------------------------------------------


async def active_character(
    session: AsyncSession, actor: Actor, *, system: str | None = None
) -> CharacterSheet:
    """The caller's active character in this channel (their only one, or the one they use)."""
    return sheet_from_row(await active_row(session, actor, system=system))


async def plays_system(session: AsyncSession, actor: Actor, system: str) -> bool:
    """Whether the caller has a character of ``system`` in this server (active or not)."""
    owned = await repo.owned(session, guild_key(actor), actor.user_id)
    return any(row.system == system for row in owned)


async def players_active_character(
    session: AsyncSession, actor: Actor, user_id: int, *, system: str, action: str
) -> CharacterSheet | None:
    """Another player's active character, read for a GM only (``/sheet show``'s rule): a
    roll may read or change only the roller's own character. None when they have none."""
    if not await is_gm(session, actor):
        raise PermissionDenied(
            _(
                "Only a GM can {action} {player}'s character: their sheet and penalty dice "
                "are theirs. Ask them to roll their own side, or give a number instead.",
                action=_(action),
                player=f"<@{user_id}>",
            )
        )
    player = Actor(user_id=user_id, channel_id=actor.channel_id, guild_id=actor.guild_id)
    try:
        return await active_character(session, player, system=system)
    except UserError:
        return None


async def active_row(
    session: AsyncSession, actor: Actor, *, system: str | None = None, for_update: bool = False
) -> Character:
    """:func:`active_character`'s row, for the ``/sheet`` services that change it (locked
    when ``for_update``)."""
    owned = await repo.owned(session, guild_key(actor), actor.user_id)
    if not owned:
        raise UserError(
            _("You have no character here: create one with `/sheet create name:… system:…`.")
        )
    if len(owned) == 1:
        row = owned[0]
    else:
        chosen = await repo.selected(session, actor.user_id, actor.channel_id)
        if chosen is None:
            names = listed(c.name for c in owned)
            raise UserError(
                _(
                    "You have {count} characters ({names}): choose one for this channel "
                    "with `/sheet use character:…`.",
                    count=len(owned),
                    names=names,
                )
            )
        row = chosen
    _check_system(row, system)
    if for_update:
        locked = await repo.by_id(session, row.id, for_update=True)
        assert locked is not None  # we just read it in this transaction
        row = locked
    return row


async def named_or_active(
    session: AsyncSession, actor: Actor, character: str | None, *, system: str | None = None
) -> CharacterSheet:
    """The sheet a command's optional ``character`` option means: that character when it is
    given (with the GM rule of :func:`character_by_name`), else the caller's active one."""
    if character:
        return await character_by_name(session, actor, character, system=system)
    return await active_character(session, actor, system=system)


async def character_by_name(
    session: AsyncSession,
    actor: Actor,
    name: str,
    *,
    system: str | None = None,
    owner_id: int | None = None,
) -> CharacterSheet:
    """The caller's own character called ``name``; for a GM of the channel, also any
    character used in this channel. ``owner_id`` picks whose character (GMs only, for
    others)."""
    return sheet_from_row(await row_by_name(session, actor, name, system=system, owner_id=owner_id))


async def row_by_name(
    session: AsyncSession,
    actor: Actor,
    name: str,
    *,
    system: str | None = None,
    owner_id: int | None = None,
    for_update: bool = False,
) -> Character:
    """:func:`character_by_name`'s row, for the services that change it (locked when
    ``for_update``). ``name`` may carry its player (:func:`split_owner`)."""
    if owner_id is None:
        name, owner_id = split_owner(name)
    guild_id = guild_key(actor)
    key = name_key(name)
    if owner_id is None or owner_id == actor.user_id:
        own = await repo.by_name(session, guild_id, actor.user_id, key, for_update=for_update)
        if own is not None:
            _check_system(own, system)
            return own
    gm = await is_gm(session, actor)  # once: it reads the channel's encounter and match
    if owner_id is not None and owner_id != actor.user_id and not gm:
        raise not_a_gm(N_("look at another player's characters"))
    channel = await repo.in_channel(session, guild_id, actor.channel_id) if gm else []
    matches = [
        c
        for c in channel
        if c.name_key == key
        and c.owner_id != actor.user_id
        and (owner_id is None or c.owner_id == owner_id)
    ]
    if len(matches) > 1:
        raise UserError(
            _(
                "{count} characters in this channel are called {name}: pick one "
                "from the suggestions, or add its player: `{name} @player`.",
                count=len(matches),
                name=UserText(name.strip()),
            )
        )
    if matches:
        row = matches[0]
        if for_update:
            locked = await repo.by_id(session, row.id, for_update=True)
            assert locked is not None
            row = locked
        _check_system(row, system)
        return row
    if gm:
        elsewhere = [
            c
            for c in await repo.named(session, guild_id, name)
            if c.owner_id != actor.user_id and (owner_id is None or c.owner_id == owner_id)
        ]
        if elsewhere:
            # DESIGN.md: a GM reads the sheets used in the channel, so say how one gets used.
            found = elsewhere[0].name
            raise UserError(
                _(
                    "{name} is not used in this channel yet: its player can choose it here "
                    "with `/sheet use character:{name}`, and then a GM can use it.",
                    name=UserText(found),
                )
            )
    own_names = [c.name for c in await repo.owned(session, guild_id, actor.user_id)]
    message = _(
        "There is no character called `{name}` that you can use. Yours: {yours}.",
        name=UserText(name.strip()),
        yours=listed(own_names) if own_names else _("none yet"),
    )
    if gm:
        others = sorted({c.name for c in channel if c.owner_id != actor.user_id})
        message += " " + _(
            "In this channel: {names}.", names=listed(others) if others else _("none")
        )
    raise NoSuchCharacter(message)


async def others_character(
    session: AsyncSession, actor: Actor, name: str, *, system: str
) -> Character | None:
    """Another player's character called ``name`` (used in this channel), for a roll whose
    other side that player rolls with a button: only its name and owner are read here.

    None when the caller has a character of that name or no other player's fits; a name
    shared by several players' characters is refused until the player is added.
    """
    name, owner_id = split_owner(name)
    if owner_id == actor.user_id:
        return None
    guild_id = guild_key(actor)
    key = name_key(name)
    if owner_id is None and await repo.by_name(session, guild_id, actor.user_id, key):
        return None
    matches = [
        c
        for c in await repo.in_channel(session, guild_id, actor.channel_id)
        if c.name_key == key
        and c.owner_id != actor.user_id
        and (owner_id is None or c.owner_id == owner_id)
    ]
    if len(matches) > 1:
        raise UserError(
            _(
                "{count} characters in this channel are called {name}: add its "
                "player, e.g. `{name} @player`.",
                count=len(matches),
                name=UserText(name.strip()),
            )
        )
    if not matches:
        return None
    _check_system(matches[0], system)
    return matches[0]


def _check_system(row: Character, system: str | None) -> None:
    if system is not None and row.system != system:
        raise UserError(
            _(
                "{character} is a {system} character; this command needs {needed}.",
                character=UserText(row.name),
                system=_(SYSTEMS.get(row.system, row.system)),
                needed=_(SYSTEMS.get(system, system)),
            )
        )
