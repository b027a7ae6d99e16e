"""Macros: saved command lines, owned by a player, a character, a channel or a server.

What a macro's line *means* is checked by the cog against the live command tree (this
module knows no Discord); here are who owns what, who may change it, the limits, and
which macro a name means for a caller: their own first, then their active character's,
then the channel's, then the server's (an earlier one shadows a later one of the same name).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import N_, _
from bot.services.permissions import is_gm, require_gm
from bot.services.sheets import SheetFileError, active_row, guild_key, name_key, storable
from bot.storage import Database
from bot.storage.models import Character, Macro
from bot.storage.models.macros import MAX_PER_SCOPE
from bot.storage.repositories import characters as characters_repo
from bot.storage.repositories import macros as repo
from bot.storage.repositories.macros import Owner
from bot.text import UserText

ME, CHARACTER, CHANNEL, SERVER = "me", "character", "channel", "server"
#: The shadowing order: a name means the first scope's macro that has it.
SCOPES = (ME, CHARACTER, CHANNEL, SERVER)
NAME_LENGTH = 32
COMMAND_LENGTH = 500


@dataclass(frozen=True, slots=True)
class MacroInfo:
    id: int
    #: The name as its owner typed it: shown only escaped, ``.raw`` for lookups.
    name: UserText
    scope: str
    command: str
    uses: int = 0
    character_id: int | None = None
    shadowed: bool = False  # an earlier scope has a macro of the same name

    @property
    def key(self) -> str:
        return name_key(self.name.raw)


def _info(row: Macro, *, shadowed: bool = False) -> MacroInfo:
    return MacroInfo(
        id=row.id,
        name=UserText(row.name),
        scope=row.scope,
        command=row.command,
        uses=row.uses,
        character_id=row.character_id,
        shadowed=shadowed,
    )


def check_name(name: str) -> str:
    cleaned = " ".join(name.split())
    if not 1 <= len(cleaned) <= NAME_LENGTH:
        raise UserError(_("A macro's name has 1 to {most} characters.", most=NAME_LENGTH))
    if "`" in cleaned:  # replies quote names in `code`: a backtick would end the quote
        raise UserError(_("A macro's name cannot hold a backtick (`)."))
    return cleaned


def check_command(command: str) -> str:
    cleaned = command.strip()
    if not cleaned:
        raise UserError(_("A macro needs a command line, e.g. `roll expression:2d6`."))
    if len(cleaned) > COMMAND_LENGTH:
        raise UserError(
            _("A macro's command line has at most {most} characters.", most=COMMAND_LENGTH)
        )
    return cleaned


def check_scope(scope: str) -> str:
    if scope not in SCOPES:
        raise UserError(_("A macro's scope is one of: {scopes}.", scopes=", ".join(SCOPES)))
    return scope


async def _writable_owner(
    session: AsyncSession, actor: Actor, scope: str
) -> tuple[Owner, Character | None]:
    """Whose macros ``scope`` means for a change by ``actor``; channel and server: GMs only."""
    if scope == ME:
        return (ME, actor.user_id), None
    if scope == CHARACTER:
        row = await active_row(session, actor, for_update=True)
        return (CHARACTER, row.id), row
    action = (
        N_("change the channel's macros") if scope == CHANNEL else N_("change the server's macros")
    )
    await require_gm(session, actor, action)
    return (scope, actor.channel_id if scope == CHANNEL else 0), None


async def _readable_owners(session: AsyncSession, actor: Actor) -> list[Owner]:
    """Every owner whose macros ``actor`` may run here, in shadowing order."""
    owners: list[Owner] = [(ME, actor.user_id)]
    try:
        character = await active_row(session, actor)
    except UserError:  # no character here, or none chosen: no character macros
        character = None
    if character is not None:
        owners.append((CHARACTER, character.id))
    owners += [(CHANNEL, actor.channel_id), (SERVER, 0)]
    return owners


def _in_order(rows: Iterable[Macro], owners: list[Owner]) -> list[MacroInfo]:
    """Rows by name, then by shadowing order; later namesakes marked shadowed."""
    rank = {owner: index for index, owner in enumerate(owners)}
    ordered = sorted(rows, key=lambda r: (r.name_key, rank[(r.scope, r.owner_id)]))
    seen: set[str] = set()
    result = []
    for row in ordered:
        result.append(_info(row, shadowed=row.name_key in seen))
        seen.add(row.name_key)
    return result


async def save(db: Database, actor: Actor, *, scope: str, name: str, command: str) -> MacroInfo:
    """Save a new macro; a name taken in the same scope is refused (edit it instead).

    Simultaneous saves may pick the same free slot: the loser tries again with the next one
    (each round at least one save wins a slot, so this ends), and reads the name anew.
    """
    name, command, scope = check_name(name), check_command(command), check_scope(scope)
    for _attempt in range(MAX_PER_SCOPE):
        try:
            return await _save(db, actor, scope, name, command)
        except IntegrityError:
            continue
    raise UserError(
        _("Too many {scope} macros are being saved at once; please try again.", scope=scope)
    )


async def _save(db: Database, actor: Actor, scope: str, name: str, command: str) -> MacroInfo:
    async with db.unit_of_work() as session:
        owner, character = await _writable_owner(session, actor, scope)
        if await repo.by_name(session, guild_key(actor), owner, name_key(name)):
            raise UserError(
                _(
                    "There is already a {scope} macro called `{name}`: "
                    "`/macro edit` changes it, `/macro delete` removes it.",
                    scope=scope,
                    name=UserText(name),
                )
            )
        return _info(await _insert(session, actor, owner, character, name, command))


async def _insert(
    session: AsyncSession,
    actor: Actor,
    owner: Owner,
    character: Character | None,
    name: str,
    command: str,
) -> Macro:
    slot = await repo.free_slot(session, guild_key(actor), owner)
    if slot is None:
        raise UserError(
            _("A {scope} scope holds at most {most} macros.", scope=owner[0], most=MAX_PER_SCOPE)
        )
    row = Macro(
        guild_id=guild_key(actor),
        scope=owner[0],
        owner_id=owner[1],
        slot=slot,
        character_id=character.id if character is not None else None,
        name=name,
        name_key=name_key(name),
        command=command,
        created_by=actor.user_id,
    )
    session.add(row)
    await session.flush()
    return row


async def _existing(session: AsyncSession, actor: Actor, scope: str, name: str) -> Macro:
    owner, _character = await _writable_owner(session, actor, check_scope(scope))
    row = await repo.by_name(session, guild_key(actor), owner, name_key(name), for_update=True)
    if row is None:
        raise UserError(
            _(
                "There is no {scope} macro called `{name}`.",
                scope=scope,
                name=UserText(" ".join(name.split())),
            )
        )
    return row


async def editable(db: Database, actor: Actor, *, scope: str, name: str) -> MacroInfo:
    """A macro ``actor`` may change (what ``/macro edit`` shows in its form)."""
    async with db.unit_of_work() as session:
        return _info(await _existing(session, actor, scope, name))


async def edit(db: Database, actor: Actor, *, scope: str, name: str, command: str) -> MacroInfo:
    command = check_command(command)
    async with db.unit_of_work() as session:
        row = await _existing(session, actor, scope, name)
        row.command = command
        await session.flush()
        return _info(row)


async def delete(db: Database, actor: Actor, *, scope: str, name: str) -> MacroInfo:
    async with db.unit_of_work() as session:
        row = await _existing(session, actor, scope, name)
        info = _info(row)
        await session.delete(row)
        await session.flush()
        return info


async def visible(db: Database, actor: Actor) -> list[MacroInfo]:
    """Every macro ``actor`` could run here, by name; shadowed namesakes marked."""
    async with db.unit_of_work(read_only=True) as session:
        owners = await _readable_owners(session, actor)
        return _in_order(await repo.owned(session, guild_key(actor), owners), owners)


async def runnable_names(session: AsyncSession, actor: Actor) -> list[MacroInfo]:
    """Autocomplete's list: what a name would run (shadowed namesakes left out)."""
    owners = await _readable_owners(session, actor)
    rows = await repo.owned(session, guild_key(actor), owners)
    return [m for m in _in_order(rows, owners) if not m.shadowed]


async def find(db: Database, actor: Actor, name: str) -> MacroInfo:
    """The macro ``name`` means for ``actor`` here (the first scope that has it)."""
    async with db.unit_of_work(read_only=True) as session:
        found = [m for m in await runnable_names(session, actor) if m.key == name_key(name)]
        if not found:
            raise UserError(
                _(
                    "You have no macro called `{name}` here. `/macro list` shows yours.",
                    name=UserText(" ".join(name.split())[:NAME_LENGTH]),
                )
            )
        return found[0]


async def count_use(db: Database, macro_id: int) -> None:
    """One more run of a macro (its panel shows the most used first)."""
    async with db.unit_of_work() as session:
        row = await repo.by_id(session, macro_id)
        if row is not None:
            row.uses += 1


# --- quick-roll panels -------------------------------------------------------------------------

MAX_PANEL_BUTTONS = 20


@dataclass(frozen=True, slots=True)
class Panel:
    character_id: int
    character: UserText
    owner_id: int
    macros: tuple[MacroInfo, ...]


async def panel(db: Database, actor: Actor) -> Panel:
    """The caller's active character's macros, most used first: every one, since the cog
    leaves off those a panel may not run before it keeps the first :data:`MAX_PANEL_BUTTONS`."""
    async with db.unit_of_work(read_only=True) as session:
        row = await active_row(session, actor)
        macros = await repo.of_character(session, row.id)
    if not macros:
        raise UserError(
            _(
                "{character} has no macros yet: save one with "
                "`/macro save name:… command:… scope:character`.",
                character=UserText(row.name),
            )
        )
    return Panel(
        character_id=row.id,
        character=UserText(row.name),
        owner_id=row.owner_id,
        macros=tuple(_info(m) for m in macros),
    )


@dataclass(frozen=True, slots=True)
class PanelMacro:
    """A panel button's macro and whose it is: its command runs as ``owner_id`` (the
    character's player), whoever pressed, and only for ``character``."""

    macro: MacroInfo
    character: str
    owner_id: int


async def panel_macro(db: Database, actor: Actor, macro_id: int) -> PanelMacro:
    """A panel button's macro, pressed by its character's owner or a GM of the channel (who
    may press it, not what it may do: it runs with the owner's rights, see the cog)."""
    async with db.unit_of_work(read_only=True) as session:
        row = await repo.by_id(session, macro_id)
        character = (
            await characters_repo.by_id(session, row.character_id)
            if row is not None and row.character_id is not None
            else None
        )
        if row is None or character is None:
            raise UserError(_("That macro is gone: post a fresh panel with `/sheet panel`."))
        if character.owner_id != actor.user_id and not await is_gm(session, actor):
            raise PermissionDenied(
                _(
                    "Only {character}'s player or a GM can use this panel.",
                    character=UserText(character.name),
                )
            )
        return PanelMacro(macro=_info(row), character=character.name, owner_id=character.owner_id)


# --- a sheet's macros in its export file -------------------------------------------------------


async def exported(session: AsyncSession, character_id: int) -> list[dict[str, str]]:
    return [
        {"name": m.name, "command": m.command}
        for m in sorted(await repo.of_character(session, character_id), key=lambda m: m.slot)
    ]


def parse_exported(value: Any) -> list[dict[str, str]]:
    """A sheet file's ``macros`` (absent in older exports): a list of {name, command}."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_PER_SCOPE:
        raise SheetFileError(
            _("`macros`: must be a list of at most {most} macros.", most=MAX_PER_SCOPE)
        )
    parsed: dict[str, dict[str, str]] = {}
    for index, item in enumerate(value):
        path = f"macros[{index}]"
        if not isinstance(item, dict) or set(item) != {"name", "command"}:
            raise SheetFileError(
                _("`{path}`: must be an object with `name` and `command`.", path=path)
            )
        if not isinstance(item["name"], str) or not isinstance(item["command"], str):
            raise SheetFileError(_("`{path}`: name and command are text.", path=path))
        try:
            name, command = check_name(item["name"]), check_command(item["command"])
        except UserError as error:
            raise SheetFileError(f"`{path}`: {error}") from None
        storable(name + command, path)
        parsed.setdefault(name_key(name), {"name": name, "command": command})
    return list(parsed.values())


async def replace_for_character(
    session: AsyncSession, actor: Actor, character: Character, macros: list[dict[str, str]]
) -> None:
    """An imported sheet's macros replace the character's own (in the import's transaction)."""
    for row in await repo.of_character(session, character.id):
        await session.delete(row)
    await session.flush()
    for macro in macros:
        await _insert(
            session, actor, (CHARACTER, character.id), character, macro["name"], macro["command"]
        )


# --- one character's macros, by id (the web companion's sheet page) ----------------------------


async def _owned_macro(
    session: AsyncSession, actor: Actor, character_id: int, macro_id: int | None
) -> tuple[Character, Macro | None]:
    """The caller's character (only its owner changes its macros) and one of its macros."""
    character = await characters_repo.by_id(session, character_id, for_update=macro_id is not None)
    if character is None or character.owner_id != actor.user_id:
        raise PermissionDenied(_("Only a character's owner can change its macros."))
    if macro_id is None:
        return character, None
    row = await repo.by_id(session, macro_id)
    if row is None or row.scope != CHARACTER or row.owner_id != character.id:
        raise UserError(_("That macro was deleted meanwhile: nothing was saved."))
    return character, row


async def of_character(db: Database, actor: Actor, character_id: int) -> list[MacroInfo]:
    """The macros of one of the caller's characters, in their panel order."""
    async with db.unit_of_work(read_only=True) as session:
        await _owned_macro(session, actor, character_id, None)
        rows = await repo.of_character(session, character_id)
        return [_info(row) for row in sorted(rows, key=lambda row: row.slot)]


async def edit_of_character(
    db: Database, actor: Actor, character_id: int, macro_id: int, command: str
) -> MacroInfo:
    """Change the command line of one of a character's macros (checked as ``/macro edit``'s
    limits are; what the line means is checked when it runs)."""
    command = check_command(command)
    async with db.unit_of_work() as session:
        _character, row = await _owned_macro(session, actor, character_id, macro_id)
        assert row is not None
        storable(row.name + command, "command")
        row.command = command
        await session.flush()
        return _info(row)


async def delete_of_character(
    db: Database, actor: Actor, character_id: int, macro_id: int
) -> MacroInfo:
    async with db.unit_of_work() as session:
        _character, row = await _owned_macro(session, actor, character_id, macro_id)
        assert row is not None
        info = _info(row)
        await session.delete(row)
        await session.flush()
        return info
