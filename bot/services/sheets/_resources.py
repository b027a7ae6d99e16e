"""Changing a character's resources (Health, Drama points …): set or adjust with the GM
rule, lower by an attack's damage, clamped to the sheet's bounds; and the checks of an
entry's name and value.

It exists to keep writes to a sheet's resources apart from reading characters
(:mod:`bot.services.sheets._lookup`). Its functions run inside the caller's unit of work.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import N_, _
from bot.services.sheets._lookup import (
    active_row,
    row_by_name,
)
from bot.services.sheets._model import (
    ENTRY_KINDS,
    MAX_RESOURCES,
    MAX_VALUE,
    MIN_VALUE,
    NAME_LENGTH,
    Resource,
    find_key,
)
from bot.storage.repositories import characters as repo
from bot.text import UserText, listed

# --- resources ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ResourceChange:
    """A resource before and after a change; ``clamped`` when a delta hit a bound. The names
    are the players' (a character's, a resource's, an NPC's), shown only escaped."""

    character: UserText
    owner_id: int
    resource: UserText
    before: Resource | None
    after: Resource
    clamped: bool = False


def check_value(what: str | UserText, value: int) -> int:
    """``value``, if a sheet holds it; ``what`` is the bot's word for it, or a user's name."""
    if not MIN_VALUE <= value <= MAX_VALUE:
        raise UserError(
            _(
                "{what} must be between {low} and {high} (got {value}).",
                what=what if isinstance(what, UserText) else _(what),
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
                    character=UserText(row.name),
                    resource=UserText(resource.strip()),
                )
            )
        if current is None:
            raise UserError(
                _(
                    "{character} has no resource `{resource}` yet: give its current value "
                    "to add it. Resources: {resources}.",
                    character=UserText(row.name),
                    resource=UserText(resource.strip()),
                    resources=listed(resources) or _("none yet"),
                )
            )
        if len(resources) >= MAX_RESOURCES:
            raise UserError(
                _(
                    "A sheet has at most {most} resources; {character} is full.",
                    most=MAX_RESOURCES,
                    character=UserText(row.name),
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
        new_current = check_value(UserText(key), old_current if current is None else current)
        if current is None and new_max is not None and new_current > new_max:
            new_current, clamped = new_max, True  # lowering the max lowers the current too
        if new_max is not None and new_current > new_max:
            raise UserError(
                _(
                    "{resource} cannot be above its max ({current} > {most}).",
                    resource=UserText(key),
                    current=new_current,
                    most=new_max,
                )
            )
    after = Resource(new_current, new_max)
    resources[key] = {"current": after.current, "max": after.max}
    row.resources = resources
    await session.flush()
    return ResourceChange(UserText(row.name), row.owner_id, UserText(key), before, after, clamped)


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
    return ResourceChange(
        UserText(row.name), row.owner_id, UserText(key), before, after, after.current != wanted
    )
