"""``/settings gm-role``: a server adds (or removes) roles whose holders are its GMs, next to
the role names every server shares (``GM_ROLE_NAMES``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.actor import Actor
from bot.errors import PermissionDenied, UserError
from bot.i18n import _
from bot.services.permissions import WHO_IS_GM, gm_changed, is_gm
from bot.storage import Database
from bot.storage.repositories import gm_roles as repo

MAX_ROLES = 20


@dataclass(frozen=True, slots=True)
class GmRoles:
    """The server's own GM roles after a change, and whether the change did anything."""

    role_ids: tuple[int, ...]
    changed: bool


async def change(db: Database, actor: Actor, role_id: int, *, remove: bool = False) -> GmRoles:
    """Add (or remove) a GM role of this server: a GM, or someone with Manage Server."""
    if actor.guild_id is None:
        raise UserError(_("GM roles belong to a server: use this in one of its channels."))
    async with db.unit_of_work() as session:
        if not actor.manage_guild and not await is_gm(session, actor):
            raise PermissionDenied(
                _(
                    "Only a GM or someone with Manage Server can change GM roles ({who}).",
                    who=_(WHO_IS_GM),
                )
            )
        if remove:
            changed = await repo.remove(session, actor.guild_id, role_id)
        else:
            if len(await repo.role_ids(session, actor.guild_id)) >= MAX_ROLES:
                raise UserError(
                    _("A server has at most {count} GM roles of its own.", count=MAX_ROLES)
                )
            changed = await repo.add(session, actor.guild_id, role_id, actor.user_id)
        roles = tuple(await repo.role_ids(session, actor.guild_id))
    if changed:
        gm_changed(db)  # committed: the role's holders are (or are no longer) GMs
    return GmRoles(roles, changed)


async def role_ids(db: Database, guild_id: int | None) -> tuple[int, ...]:
    """The server's own GM roles (none outside a server)."""
    if guild_id is None:
        return ()
    async with db.unit_of_work(read_only=True) as session:
        return tuple(await repo.role_ids(session, guild_id))
