"""Who is acting, where: the plain facts a service needs about the caller."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Actor:
    """The caller of a command.

    ``gm_role`` is what Discord alone can tell (a GM role name or Manage Channels);
    the database adds the rest of the GM rule (the server's own GM roles among
    ``role_ids``, who started what: see :mod:`bot.services.permissions`).
    ``macro`` names the macro (``/macro run``, a panel button) that ran the command.
    """

    user_id: int
    channel_id: int
    guild_id: int | None = None
    display_name: str = ""
    gm_role: bool = False
    #: The caller's roles in this server, for the GM roles a server adds itself.
    role_ids: frozenset[int] = frozenset()
    #: Manage Server: may add GM roles to this server even when not a GM.
    manage_guild: bool = False
    macro: str | None = None  # the macro running this command, logged with its rolls
