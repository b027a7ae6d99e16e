"""Who is acting, where: the plain facts a service needs about the caller."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Actor:
    """The caller of a command.

    ``gm_role`` is what Discord alone can tell (a GM role name or Manage Channels);
    the database adds the rest of the GM rule (see :mod:`bot.services.permissions`).
    ``macro`` names the macro (``/macro run``, a panel button) that ran the command.
    """

    user_id: int
    channel_id: int
    guild_id: int | None = None
    display_name: str = ""
    gm_role: bool = False
    macro: str | None = None  # the macro running this command, logged with its rolls
