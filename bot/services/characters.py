"""Characters: the active character, lookups by name with the GM rule, and resource changes.

This is the API every system's service uses to roll from a sheet::

    sheet = await active_character(session, actor, system="coda")
    stealth = resolve(sheet, "skill Stealth")

Functions taking a ``session`` run inside the caller's unit of work; the ``/sheet``
commands' own services (taking ``db``) live further down.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import NoSuchCharacter, PermissionDenied, UserError
from bot.i18n import N_, _
from bot.services.permissions import is_gm, not_a_gm
from bot.services.sheet import (
    ENTRY_KINDS,
    KINDS,
    MAX_ATTRIBUTES,
    MAX_RESOURCES,
    MAX_SKILLS,
    MAX_SPECIALTIES,
    MAX_VALUE,
    MIN_VALUE,
    NAME_LENGTH,
    NOTES_LENGTH,
    CharacterSheet,
    Kind,
    ResolvedValue,
    Resource,
    Skill,
    find_key,
    name_key,
    resolve,
    sheet_from_row,
)
from bot.storage import Database
from bot.storage.models import Character
from bot.storage.repositories import characters as repo
from engine.systems import SYSTEMS

__all__ = [
    "KINDS",
    "MAX_ATTRIBUTES",
    "MAX_RESOURCES",
    "MAX_SKILLS",
    "MAX_SPECIALTIES",
    "MAX_VALUE",
    "MIN_VALUE",
    "NAME_LENGTH",
    "NOTES_LENGTH",
    "CharacterSheet",
    "Kind",
    "ResolvedValue",
    "Resource",
    "ResourceChange",
    "Skill",
    "active_character",
    "adjust_resource",
    "attribute_names",
    "character_by_name",
    "character_names",
    "named_or_active",
    "resolve",
    "resource_names",
    "skill_names",
]

AUTOCOMPLETE_LIMIT = 25

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
            names = ", ".join(c.name for c in owned)
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
                name=name.strip(),
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
                    name=found,
                )
            )
    own_names = [c.name for c in await repo.owned(session, guild_id, actor.user_id)]
    message = _(
        "There is no character called `{name}` that you can use. Yours: {yours}.",
        name=name.strip(),
        yours=", ".join(own_names) if own_names else _("none yet"),
    )
    if gm:
        others = sorted({c.name for c in channel if c.owner_id != actor.user_id})
        message += " " + _(
            "In this channel: {names}.", names=", ".join(others) if others else _("none")
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
                name=name.strip(),
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
                character=row.name,
                system=_(SYSTEMS.get(row.system, row.system)),
                needed=_(SYSTEMS.get(system, system)),
            )
        )


# --- autocomplete ------------------------------------------------------------------------


def matching(names: list[str], prefix: str) -> list[str]:
    """Names starting with ``prefix`` first, then names containing it (case-insensitive)."""
    wanted = prefix.strip().casefold()
    unique = list(dict.fromkeys(names))
    starts = [n for n in unique if n.casefold().startswith(wanted)]
    contains = [n for n in unique if wanted in n.casefold() and n not in starts]
    return (starts + contains)[:AUTOCOMPLETE_LIMIT]


async def character_names(
    session: AsyncSession, actor: Actor, prefix: str, _character: str | None = None
) -> list[str]:
    """The caller's characters, and for a GM also the channel's characters (``_character``
    unused: it makes this a :data:`NameLookup` like the lookups of a sheet's names).

    Another player's character whose name the GM could not reach alone (a name shared by
    two players here, or with one of the GM's own) comes with its player
    (:func:`with_owner`), so every suggestion names exactly one character."""
    own = await repo.owned(session, guild_key(actor), actor.user_id)
    names = [c.name for c in own]
    if await is_gm(session, actor):
        others = [
            c
            for c in await repo.in_channel(session, guild_key(actor), actor.channel_id)
            if c.owner_id != actor.user_id
        ]
        taken = {c.name_key for c in own}
        counts: dict[str, int] = {}
        for c in others:
            counts[c.name_key] = counts.get(c.name_key, 0) + 1
        names += [
            with_owner(c.name, c.owner_id)
            if c.name_key in taken or counts[c.name_key] > 1
            else c.name
            for c in others
        ]
    return matching(names, split_owner(prefix)[0])


async def sheet_for_autocomplete(
    session: AsyncSession, actor: Actor, character: str | None
) -> CharacterSheet | None:
    """:func:`named_or_active`, or None where it would refuse: autocomplete offers nothing
    rather than an error while the user is still typing."""
    try:
        return await named_or_active(session, actor, character)
    except UserError:
        return None


async def attribute_names(
    session: AsyncSession, actor: Actor, prefix: str, character: str | None = None
) -> list[str]:
    """Attributes of the named character, or of the active one (empty when there is none)."""
    sheet = await sheet_for_autocomplete(session, actor, character)
    return matching(list(sheet.attributes), prefix) if sheet else []


async def skill_names(
    session: AsyncSession, actor: Actor, prefix: str, character: str | None = None
) -> list[str]:
    sheet = await sheet_for_autocomplete(session, actor, character)
    return matching(list(sheet.skills), prefix) if sheet else []


async def resource_names(
    session: AsyncSession, actor: Actor, prefix: str, character: str | None = None
) -> list[str]:
    sheet = await sheet_for_autocomplete(session, actor, character)
    return matching(list(sheet.resources), prefix) if sheet else []


# --- resources ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ResourceChange:
    """A resource before and after a change; ``clamped`` when a delta hit a bound."""

    character: str
    owner_id: int
    resource: str
    before: Resource | None
    after: Resource
    clamped: bool = False


def check_value(what: str, value: int) -> int:
    if not MIN_VALUE <= value <= MAX_VALUE:
        raise UserError(
            _(
                "{what} must be between {low} and {high} (got {value}).",
                what=_(what),
                low=MIN_VALUE,
                high=MAX_VALUE,
                value=value,
            )
        )
    return value


def check_entry_name(kind: str, name: str) -> str:
    """Attribute, skill, resource and specialty names: 1–64 characters, no braces
    (``{Name}`` is how ``/roll`` refers to them)."""
    cleaned = " ".join(name.split())
    if not cleaned:
        raise UserError(_("The {kind} name is empty.", kind=_(ENTRY_KINDS.get(kind, kind))))
    vowel = kind[:1] in "aeiou"
    shown = _(ENTRY_KINDS.get(kind, kind))
    if len(cleaned) > NAME_LENGTH:
        too_long = (
            N_("An {kind} name has at most {most} characters.")
            if vowel
            else N_("A {kind} name has at most {most} characters.")
        )
        raise UserError(_(too_long, kind=shown, most=NAME_LENGTH))
    if any(ch in cleaned for ch in "{}"):
        braces = (
            N_("An {kind} name cannot contain {{ or }}.")
            if vowel
            else N_("A {kind} name cannot contain {{ or }}.")
        )
        raise UserError(_(braces, kind=shown))
    return cleaned


async def adjust_resource(
    session: AsyncSession,
    actor: Actor,
    character_name: str | None,
    resource: str,
    *,
    current: int | None = None,
    delta: int | None = None,
    maximum: int | None = None,
) -> ResourceChange:
    """Set (``current``), change (``delta``) or re-cap (``maximum``) a resource, locked.

    Owners change their own characters' resources (and may add new ones); a GM of the
    channel changes existing resources of any character used there (damage, healing).
    A delta is clamped to the resource's max and to the sheet's value bounds.
    """
    if current is not None and delta is not None:
        raise UserError(_("Give either a new current value or a change, not both."))
    if current is None and delta is None and maximum is None:
        raise UserError(_("Give a current value, a change or a max."))
    if character_name:
        row = await row_by_name(session, actor, character_name, for_update=True)
    else:
        row = await active_row(session, actor, for_update=True)
    resources = dict(row.resources or {})
    key = find_key(resources, resource)
    owner = row.owner_id == actor.user_id
    if key is None:
        if not owner:
            raise PermissionDenied(
                _(
                    "{character} has no resource `{resource}`; only its owner can add one.",
                    character=row.name,
                    resource=resource.strip(),
                )
            )
        if current is None:
            raise UserError(
                _(
                    "{character} has no resource `{resource}` yet: give its current value "
                    "to add it. Resources: {resources}.",
                    character=row.name,
                    resource=resource.strip(),
                    resources=", ".join(resources) or _("none yet"),
                )
            )
        if len(resources) >= MAX_RESOURCES:
            raise UserError(
                _(
                    "A sheet has at most {most} resources; {character} is full.",
                    most=MAX_RESOURCES,
                    character=row.name,
                )
            )
        key = check_entry_name("resource", resource)
        before = None
        old_current, old_max = current, None
    else:
        before = Resource(int(resources[key]["current"]), resources[key].get("max"))
        old_current, old_max = before.current, before.max
    new_max = old_max if maximum is None else check_value(N_("The max"), maximum)
    clamped = False
    if delta is not None:
        wanted = old_current + delta
        upper = MAX_VALUE if new_max is None else min(new_max, MAX_VALUE)
        new_current = min(max(wanted, MIN_VALUE), upper)
        clamped = new_current != wanted
    else:
        new_current = check_value(key, old_current if current is None else current)
        if current is None and new_max is not None and new_current > new_max:
            new_current, clamped = new_max, True  # lowering the max lowers the current too
        if new_max is not None and new_current > new_max:
            raise UserError(
                _(
                    "{resource} cannot be above its max ({current} > {most}).",
                    resource=key,
                    current=new_current,
                    most=new_max,
                )
            )
    after = Resource(new_current, new_max)
    resources[key] = {"current": after.current, "max": after.max}
    row.resources = resources
    await session.flush()
    return ResourceChange(row.name, row.owner_id, key, before, after, clamped)


async def lower_resource(
    session: AsyncSession, character_id: int, resource: str, amount: int
) -> ResourceChange | None:
    """Take ``amount`` from a character's resource (damage to Health), locked, clamped at the
    sheet's lowest value; None when the sheet has no such resource. The caller has already
    decided that its actor may (the owner, or the channel's GM, answering an attack)."""
    row = await repo.by_id(session, character_id, for_update=True)
    if row is None:
        return None
    resources = dict(row.resources or {})
    key = find_key(resources, resource)
    if key is None:
        return None
    before = Resource(int(resources[key]["current"]), resources[key].get("max"))
    wanted = before.current - amount
    after = Resource(max(wanted, MIN_VALUE), before.max)
    resources[key] = {"current": after.current, "max": after.max}
    row.resources = resources
    await session.flush()
    return ResourceChange(row.name, row.owner_id, key, before, after, after.current != wanted)


NameLookup = Callable[[AsyncSession, Actor, str, str | None], Awaitable[list[str]]]


async def suggest(
    db: Database, actor: Actor, lookup: NameLookup, prefix: str, character: str | None
) -> list[str]:
    """Autocomplete's one read: ``lookup``'s names in a read-only unit of work."""
    async with db.unit_of_work(read_only=True) as session:
        return await lookup(session, actor, prefix, character)
