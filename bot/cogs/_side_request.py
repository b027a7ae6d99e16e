"""The **Roll my side** button of a "roll your side" request, for every system.

A :class:`discord.ui.DynamicItem` whose custom id carries the request's kind and id, so
the button works after a restart; each system registers how it rolls the other side
(:func:`register`) and renders the result.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.cogs._common import actor_from
from bot.cogs._confirm import answer_error
from bot.i18n import (
    _,
    set_language,  # i18n: interim hook, 20a replaces
)
from bot.i18n.choice import language_of  # i18n: interim hook, 20a replaces
from bot.ratelimit import within_limits
from bot.render.side_requests import BUTTON_LABEL, challenge_text, lapsed_text
from bot.services.side_requests import Challenge, RequestClosed
from bot.storage.db import track_writes
from bot.tree import send_ephemeral

#: A system's ``roll_their_side(db, dice, presser, request_id, now=…)`` → its outcome.
Roll = Callable[..., Awaitable[Any]]
#: The system's renderer of that outcome (``embed(outcome, presser's name)``).
Render = Callable[[Any, str], discord.Embed]
_ANSWERS: dict[str, tuple[Roll, Render]] = {}


def register(kind: str, roll: Roll, render: Render) -> None:
    """Let the button answer requests of ``kind`` (a cog module does this on import)."""
    _ANSWERS[kind] = (roll, render)


async def _roll_and_render(interaction: discord.Interaction, kind: str, request_id: int) -> Any:
    roll, render = _ANSWERS[kind]
    client: Any = interaction.client
    outcome = await roll(
        client.db, client.dice, actor_from(interaction), request_id, now=interaction.created_at
    )
    return render(outcome, interaction.user.display_name)


def side_view(kind: str, request_id: int, *, disabled: bool = False) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RollSideButton(kind, request_id, disabled=disabled))
    return view


async def send_challenge(interaction: discord.Interaction, kind: str, challenge: Challenge) -> None:
    """Post the request: its line pings exactly the player asked to roll, nobody else."""
    await interaction.response.send_message(
        challenge_text(challenge),
        view=side_view(kind, challenge.request_id),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=challenge.addressed_id)]),
    )


class RollSideButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"side:(?P<kind>[a-z0-9_.]{1,32}):(?P<request>\d{1,18})",
):
    """Rolls the presser's side of a stored request, if it is theirs and still open."""

    def __init__(self, kind: str, request_id: int, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=_(BUTTON_LABEL),
                emoji="🎲",
                style=discord.ButtonStyle.primary,
                custom_id=f"side:{kind}:{request_id}",
                disabled=disabled,
            )
        )
        self.kind = kind
        self.request_id = request_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> RollSideButton:
        return cls(match["kind"], int(match["request"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        set_language(language_of(interaction.locale))  # i18n: interim hook, 20a replaces
        return await within_limits(interaction)  # a press counts like a command

    async def callback(self, interaction: discord.Interaction) -> None:
        track_writes()  # answer_error then knows whether the press was saved
        try:
            await self._answer(interaction)
        except Exception as error:  # a button has no command tree to answer its errors
            await answer_error(interaction, error)

    async def _answer(self, interaction: discord.Interaction) -> None:
        if self.kind not in _ANSWERS:
            raise RequestClosed(_("This roll can no longer be answered."))
        try:
            embed = await _roll_and_render(interaction, self.kind, self.request_id)
        except RequestClosed as closed:
            # Rolled already or too late: grey the button out for everyone, and say why.
            message = interaction.message
            content = message.content if message is not None else ""
            edit: dict[str, Any] = {"view": side_view(self.kind, self.request_id, disabled=True)}
            if closed.lapsed and content:
                edit["content"] = lapsed_text(content)
            await interaction.response.edit_message(**edit)
            await send_ephemeral(interaction, str(closed))
            return
        await interaction.response.edit_message(
            content=None, embed=embed, view=side_view(self.kind, self.request_id, disabled=True)
        )
