"""The console's server inside SimCord: one guild with a GM role, its cast and channels.

Kept apart from the session because it is the one part that must stay the same from run to
run: users and channels get ids that depend only on their names, so the database recognises
``dave`` and ``#lab`` (their sheets, settings, encounters) in every console session.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import _

GUILD_ID = 1_000_000_000_000_001  # fixed, so the database recognises the console's guild
CAST = ("gm", "alice", "bob", "carol")  # created in this order so their ids are stable
GM_ROLE = "GM"


@dataclass
class World:
    """The simulated guild: who is in it (by name) and which channels it has."""

    env: Any
    guild: Any = None
    gm_role: Any = None
    users: dict[str, Any] = field(default_factory=dict)
    members: dict[str, Any] = field(default_factory=dict)
    channels: dict[str, Any] = field(default_factory=dict)
    # Roles other than GM, created when first named (``role:@Storyteller``).
    roles: dict[str, Any] = field(default_factory=dict)

    def setup(self) -> None:
        import simcord  # noqa: F401 - the console needs SimCord at run time

        self.guild = self.env.create_guild("Narrator console", id=GUILD_ID)
        self.gm_role = self.guild.create_role(GM_ROLE)
        self.channel_handle("table")
        for name in CAST:
            self.member(name, gm=name == "gm")

    def channel_handle(self, name: str) -> Any:
        if name not in self.channels:
            self.channels[name] = self._with_stable_id(
                f"channel:{name}", lambda: self.guild.create_text_channel(name)
            )
        return self.channels[name]

    def member(self, name: str, *, gm: bool = False) -> Any:
        if name not in self.users:
            self.users[name] = self._with_stable_id(
                f"user:{name}", lambda: self.env.create_user(name)
            )
        elif gm and not self.is_gm(name):
            # Same user (same id, same sheets), rejoining with the GM role.
            self.guild.remove_member(self.members.pop(name))
        if name not in self.members:
            roles = [self.gm_role] if gm else []
            self.members[name] = self.guild.add_member(self.users[name], roles=roles)
        return self.members[name]

    def role(self, name: str) -> Any:
        """The role called ``name``: GM, or another one created when first named."""
        if name == GM_ROLE:
            return self.gm_role
        if name not in self.roles:
            self.roles[name] = self._with_stable_id(
                f"role:{name}", lambda: self.guild.create_role(name)
            )
        return self.roles[name]

    def _with_stable_id(self, key: str, create: Callable[[], Any]) -> Any:
        """Create a user or channel whose id depends only on its name.

        The database keys sheets, settings and encounters by Discord ids; with ids derived
        from names, ``#lab`` and ``dave`` are the same channel and player in every session.
        SimCord numbers everything in creation order, so its next id is swapped for ours.
        """
        backend = self.env.backend
        ids = iter([stable_id(key)])
        allocate = backend.snowflake
        backend.snowflake = lambda: next(ids, None) or allocate()
        try:
            return create()
        finally:
            del backend.snowflake

    def is_gm(self, name: str) -> bool:
        member = self.members[name].member
        return member is not None and any(r.name == GM_ROLE for r in member.roles)

    def places(self) -> list[tuple[str, Any]]:
        """Every channel and existing direct-message channel, with how to say where it is."""
        places = [(f"#{name}", handle) for name, handle in self.channels.items()]
        opened = self.env.backend.dm_channels
        places += [
            (_("direct message to {name}", name=name), user.dm_channel)
            for name, user in self.users.items()
            if user.id in opened
        ]
        return places

    def names(self) -> dict[int, str]:
        """Who and where each id is, for showing mentions as names."""
        found = {user.id: f"@{name}" for name, user in self.users.items()}
        found.update({channel.id: f"#{name}" for name, channel in self.channels.items()})
        found[self.gm_role.id] = f"@{GM_ROLE}"
        found.update({role.id: f"@{name}" for name, role in self.roles.items()})
        return found


def stable_id(key: str) -> int:
    """A snowflake-shaped id that depends only on ``key`` (below 2**63, as Discord's are)."""
    digest = hashlib.sha256(key.encode()).digest()
    return (1 << 60) | int.from_bytes(digest[:7], "big")
