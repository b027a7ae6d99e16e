"""Glue every cog shares: who is calling, how a roll's reply is delivered, safe autocomplete."""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.actor import Actor
from bot.cogs._commitment import post_notice, roller_note
from bot.cogs._confirm import OwnedView
from bot.i18n import N_, _
from bot.render.limits import clip
from bot.services import gm_roles
from bot.services.secrecy import Secrecy
from engine.dice import Dice

if TYPE_CHECKING:  # the cogs hand the database to services; they never use storage
    from bot.storage import Database

log = logging.getLogger(__name__)

MAX_GM_DMS = 10
OPEN_MODE_NOTE = N_(
    "🔓 This roll is public: secret rolls are off in this channel's `open` mode, where every "
    "roll is shown to everyone (a GM can change that with `/settings secret`)."
)
#: ``interaction.extras`` key: the name of the macro running the interaction's command.
MACRO = "narrator.macro"

Choices = list[app_commands.Choice[str]]
F = TypeVar("F", bound=Callable[..., Awaitable[Choices]])


class NarratorCog(commands.Cog):
    """A feature's cog: the bot's database and dice, and nothing else of its own."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def db(self) -> Database:
        return self.bot.db  # type: ignore[attr-defined]

    @property
    def dice(self) -> Dice:
        return self.bot.dice  # type: ignore[attr-defined]


def holds_gm_role(member: discord.abc.User, channel: Any, role_names: Sequence[str]) -> bool:
    """The Discord half of the GM rule: a GM role by name, or Manage Channels here."""
    if not isinstance(member, discord.Member):
        return False
    return _gm_by_role_or_permission(member, member.roles, channel, role_names)


def _gm_by_role_or_permission(
    member: discord.Member, roles: Sequence[discord.Role], channel: Any, role_names: Sequence[str]
) -> bool:
    """:func:`holds_gm_role` for a member whose ``roles`` were read already (building
    ``member.roles`` looks up and sorts every role: :func:`actor_from` does it once)."""
    wanted = _folded(role_names if isinstance(role_names, tuple) else tuple(role_names))
    if any(role.name.casefold() in wanted for role in roles):
        return True
    permissions = (
        channel.permissions_for(member)
        if hasattr(channel, "permissions_for")
        else member.guild_permissions
    )
    return permissions.manage_channels or permissions.administrator


@functools.lru_cache(maxsize=8)
def _folded(role_names: tuple[str, ...]) -> frozenset[str]:
    """The GM role names, casefolded once: the configured names never change while the bot
    runs, and every command's caller is checked against them."""
    return frozenset(name.casefold() for name in role_names)


def manages_guild(member: discord.Member, roles: Sequence[discord.Role]) -> bool:
    """``member.guild_permissions.manage_guild``, from the member's ``roles`` read already:
    the same rule as discord.py's (the owner, an administrator, else the roles' permission
    unless timed out), without building and sorting ``member.roles`` a second time."""
    if member.guild.owner_id == member.id:
        return True
    value = 0
    for role in roles:
        value |= role.permissions.value
    if value & _ADMINISTRATOR:
        return True
    return bool(value & _MANAGE_GUILD) and not member.is_timed_out()


#: The two permission bits :func:`manages_guild` reads, as plain ints (a flag read through
#: ``discord.Permissions`` is two calls).
_ADMINISTRATOR = discord.Permissions(administrator=True).value
_MANAGE_GUILD = discord.Permissions(manage_guild=True).value


#: Callers' GM facts remembered per process before the memory starts again.
MAX_CALLER_FACTS = 50_000


class CallerFacts:
    """Whether a caller holds a GM role (or Manage Channels) in a channel, and manages the
    server: worked out once per channel, member and set of roles, not for every command.

    Both facts are computed from the member's roles and timeout (in the interaction) and from
    the guild's cached roles, owner and channel overwrites. The key holds the first; the second
    change only with a gateway event, and :meth:`forget` is called on each of them
    (:func:`bot.gateway.on_guild_state_change`, wired by the bot). A timed-out member (the
    answer then changes with the clock) and a channel the guild's cache does not hold (built
    from the interaction's own data) are worked out every time, as before."""

    def __init__(self) -> None:
        self._facts: dict[tuple[int, int, frozenset[int], tuple[str, ...]], tuple[bool, bool]] = {}

    def of(
        self,
        member: discord.Member,
        roles: Sequence[discord.Role],
        role_ids: frozenset[int],
        channel: Any,
        role_names: Sequence[str],
    ) -> tuple[bool, bool]:
        """``(gm_role, manage_guild)`` for ``member`` in ``channel``."""
        if member.timed_out_until is not None or channel is None:
            return _caller_facts(member, roles, channel, role_names)
        channel_id: int = channel.id
        if (
            not isinstance(role_names, tuple)
            or member.guild.get_channel_or_thread(channel_id) is not channel
        ):
            return _caller_facts(member, roles, channel, role_names)
        key = (channel_id, member.id, role_ids, role_names)
        facts = self._facts.get(key)
        if facts is None:
            if len(self._facts) >= MAX_CALLER_FACTS:
                self._facts.clear()
            facts = self._facts[key] = _caller_facts(member, roles, channel, role_names)
        return facts

    def forget(self) -> None:
        """Forget every fact: a guild's roles, owner or channels changed."""
        self._facts.clear()

    def __len__(self) -> int:
        return len(self._facts)


def _caller_facts(
    member: discord.Member, roles: Sequence[discord.Role], channel: Any, role_names: Sequence[str]
) -> tuple[bool, bool]:
    return (
        _gm_by_role_or_permission(member, roles, channel, role_names),
        manages_guild(member, roles),
    )


def actor_from(interaction: discord.Interaction) -> Actor:
    """The plain facts a service needs about whoever invoked ``interaction``."""
    client = interaction.client
    user = interaction.user
    channel = interaction.channel
    if isinstance(user, discord.Member):
        # The member's roles, looked up and sorted once for the three facts read from them.
        roles = user.roles
        role_ids = frozenset([role.id for role in roles])
        names = client.settings.gm_role_names  # type: ignore[attr-defined]
        known: CallerFacts | None = getattr(client, "caller_facts", None)
        if known is None:
            gm_role, manage_guild = _caller_facts(user, roles, channel, names)
        else:
            gm_role, manage_guild = known.of(user, roles, role_ids, channel, names)
    else:
        gm_role = manage_guild = False
        role_ids = frozenset()
    actor = Actor(
        user_id=user.id,
        channel_id=interaction.channel_id or 0,
        guild_id=interaction.guild_id,
        display_name=user.display_name,
        gm_role=gm_role,
        role_ids=role_ids,
        manage_guild=manage_guild,
        macro=interaction.extras.get(MACRO),
    )
    # The web companion's record of who plays where (a dict lookup unless it changed).
    records = getattr(client, "member_records", None)
    if records is not None and actor.guild_id is not None:
        records.saw(
            actor,
            getattr(interaction.guild, "name", "") or "",
            getattr(channel, "name", "") or "",
        )
    return actor


async def send_roll(
    interaction: discord.Interaction,
    embed: discord.Embed,
    secrecy: Secrecy,
    *,
    view: discord.ui.View | None = None,
) -> None:
    """Reply with a roll: publicly, or (secret) to the roller, then a notice to the table with
    the roll's commitment, then to the GM."""
    kwargs: dict[str, Any] = {"embed": embed}
    if view is not None:
        kwargs["view"] = view
    if not secrecy.secret:
        await _respond(interaction, **kwargs)
        if secrecy.made_public:
            await interaction.followup.send(_(OPEN_MODE_NOTE), ephemeral=True)
        return
    seals = secrecy.seals
    content = _("🔒 Secret roll.") + roller_note(seals)
    await _respond(interaction, ephemeral=True, content=content, **kwargs)
    if seals:
        await post_notice(interaction, seals)
    if not await _deliver_to_gms(interaction, embed, secrecy):
        await interaction.followup.send(
            _(
                "Nobody else could see this secret roll: no GM channel is set "
                "(`/settings gm-channel`) and no GM could be sent a direct message."
            ),
            ephemeral=True,
        )


async def _respond(interaction: discord.Interaction, **kwargs: Any) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def _deliver_to_gms(
    interaction: discord.Interaction, embed: discord.Embed, secrecy: Secrecy
) -> bool:
    settings = interaction.client.settings  # type: ignore[attr-defined]
    note = clip(
        _(
            "🔒 Secret roll by {user} in {channel}",
            user=interaction.user.mention,
            channel=f"<#{interaction.channel_id}>",
        )
        + roller_note(secrecy.seals),
        2000,
    )
    if secrecy.gm_channel_id is not None:
        channel = interaction.client.get_channel(secrecy.gm_channel_id)
        if isinstance(channel, discord.abc.Messageable):
            try:
                await channel.send(note, embed=embed)
                return True
            except discord.HTTPException:
                log.warning("could not post a secret roll to GM channel %s", secrecy.gm_channel_id)
    # The server's own GM roles (/settings gm-role), read after the roll's commit.
    db = interaction.client.db  # type: ignore[attr-defined]
    added = set(await gm_roles.role_ids(db, interaction.guild_id))

    def is_gm_member(member: discord.abc.User) -> bool:
        if holds_gm_role(member, interaction.channel, settings.gm_role_names):
            return True
        return isinstance(member, discord.Member) and any(r.id in added for r in member.roles)

    if interaction.user.id in secrecy.gm_user_ids or is_gm_member(interaction.user):
        return True  # the roller is a GM and has seen it
    guild = interaction.guild
    if guild is None:
        return False
    delivered = False
    starters = [guild.get_member(user_id) for user_id in sorted(secrecy.gm_user_ids)]
    by_role = [member for member in guild.members if not member.bot and is_gm_member(member)]
    gms = list({member.id: member for member in [*starters, *by_role] if member}.values())
    for member in gms[:MAX_GM_DMS]:
        try:
            await member.send(note, embed=embed)
            delivered = True
        except discord.HTTPException:
            log.info("could not DM a secret roll to GM %s", member.id)
    return delivered


#: "@name" typed without picking the mention: look the member up by name.
_AT_NAME = re.compile(r"(?<![<\w])@([\w.]{2,32})")


def typed_mentions(interaction: discord.Interaction, text: str) -> str:
    """``text`` with each "@name" of a member of this guild written as their mention."""
    guild = interaction.guild
    if guild is None:
        return text

    def replace(match: re.Match[str]) -> str:
        member = guild.get_member_named(match.group(1))
        return f"<@{member.id}>" if member is not None else match.group(0)

    return _AT_NAME.sub(replace, text)


def safe_autocomplete(callback: F) -> F:
    """Autocomplete that never errors at the user: a failure is logged and offers nothing."""

    @functools.wraps(callback)
    async def wrapper(*args: Any, **kwargs: Any) -> Choices:
        try:
            choices = await callback(*args, **kwargs)
        except Exception:
            interaction = next((a for a in args if isinstance(a, discord.Interaction)), None)
            log.exception(
                "autocomplete %s failed (user %s, channel %s)",
                callback.__qualname__,
                interaction.user.id if interaction else None,
                interaction.channel_id if interaction else None,
            )
            return []
        return [app_commands.Choice(name=clip(c.name, 100), value=c.value) for c in choices[:25]]

    return wrapper  # type: ignore[return-value]


class Pages(OwnedView):
    """Previous/next buttons over a list of embeds, for whoever asked for them."""

    def __init__(
        self, pages: Sequence[discord.Embed], owner_id: int, *, timeout: float = 300
    ) -> None:
        super().__init__(
            owner_id,
            refusal=_("Only whoever asked for these pages can turn them."),
            timeout=timeout,
        )
        self.previous.label = _(self.previous.label)  # type: ignore[arg-type]
        self.next.label = _(self.next.label)  # type: ignore[arg-type]
        self.pages = list(pages)
        self.index = 0
        self._sync_buttons()

    def _sync_buttons(self) -> None:
        self.previous.disabled = self.index == 0
        self.next.disabled = self.index >= len(self.pages) - 1

    @discord.ui.button(label=N_("◀ Previous"), style=discord.ButtonStyle.secondary)
    async def previous(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
        self.index = max(self.index - 1, 0)
        self._sync_buttons()
        await interaction.response.edit_message(embed=self.pages[self.index], view=self)

    @discord.ui.button(label=N_("Next ▶"), style=discord.ButtonStyle.secondary)
    async def next(self, interaction: discord.Interaction, _button: discord.ui.Button) -> None:
        self.index = min(self.index + 1, len(self.pages) - 1)
        self._sync_buttons()
        await interaction.response.edit_message(embed=self.pages[self.index], view=self)


async def send_pages(interaction: discord.Interaction, pages: Sequence[discord.Embed]) -> None:
    """Private pages: the first one, with page buttons only when there is more than one."""
    if len(pages) == 1:
        await interaction.response.send_message(embed=pages[0], ephemeral=True)
        return
    view = Pages(pages, interaction.user.id)
    await interaction.response.send_message(embed=pages[0], view=view, ephemeral=True)
