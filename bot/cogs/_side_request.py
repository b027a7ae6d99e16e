"""The **Roll my side** button of a "roll your side" request, for every system.

A :class:`discord.ui.DynamicItem` whose custom id carries the request's kind and id, so
the button works after a restart; each system registers how it rolls the other side
(:func:`register`) and renders the result. The same button, labelled **Roll my part**,
answers a roll waiting for several players (:func:`send_parts`): until the last part is
in, a press redraws the request's line with who has rolled.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.cogs._common import actor_from
from bot.cogs._confirm import answer_error
from bot.gateway import public_language, send_ephemeral
from bot.i18n import _, current_language, use_language
from bot.render.side_requests import (
    BUTTON_LABEL,
    PART_LABEL,
    challenge_text,
    lapsed_text,
    parts_text,
)
from bot.services.side_requests import Challenge, PartsRequest, RequestClosed, Waiting

#: A system's ``roll_their_side(db, dice, presser, request_id, now=…)`` → its outcome.
Roll = Callable[..., Awaitable[Any]]
#: The system's renderer of that outcome (``embed(outcome, presser's name)``).
Render = Callable[[Any, str], discord.Embed]
#: Buttons the result carries besides the greyed one (a "Yes, but…" offer's).
Extra = Callable[[Any], list[discord.ui.Item[Any]]]


@dataclass(frozen=True, slots=True)
class _Answer:
    roll: Roll
    render: Render
    label: str
    extra: Extra | None


_ANSWERS: dict[str, _Answer] = {}


def register(
    kind: str, roll: Roll, render: Render, *, parts: bool = False, extra: Extra | None = None
) -> None:
    """Let the button answer requests of ``kind`` (a cog module does this on import);
    ``parts``: a roll waiting for several players (the button reads **Roll my part**)."""
    _ANSWERS[kind] = _Answer(roll, render, PART_LABEL if parts else BUTTON_LABEL, extra)


def side_view(
    kind: str, request_id: int, *, disabled: bool = False, language: str | None = None
) -> discord.ui.View:
    """The request's button; ``language``: its creator's, kept in the custom id so that a
    press redraws the table's message in it when the channel has no language."""
    view = discord.ui.View(timeout=None)
    view.add_item(RollSideButton(kind, request_id, disabled=disabled, language=language))
    return view


async def send_parts(interaction: discord.Interaction, kind: str, request: PartsRequest) -> None:
    """Post a roll waiting for several players: its line pings exactly them, once each."""
    created_in = current_language()
    with use_language(
        await public_language(interaction.client, interaction.channel_id, created_in)
    ):
        text = parts_text(request)
        view = side_view(kind, request.request_id, language=created_in)
    await interaction.response.send_message(
        text,
        view=view,
        allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(id=user) for user in request.asked]
        ),
    )


async def send_challenge(interaction: discord.Interaction, kind: str, challenge: Challenge) -> None:
    """Post the request: its line pings exactly the player asked to roll, nobody else."""
    created_in = current_language()
    with use_language(
        await public_language(interaction.client, interaction.channel_id, created_in)
    ):
        text = challenge_text(challenge)
        view = side_view(kind, challenge.request_id, language=created_in)
    await interaction.response.send_message(
        text,
        view=view,
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=challenge.addressed_id)]),
    )


class RollSideButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    # The language is optional: buttons posted before languages were have none.
    template=r"side:(?P<kind>[a-z0-9_.]{1,32}):(?P<request>\d{1,18})(?::(?P<lang>[a-zA-Z-]{2,16}))?",
):
    """Rolls the presser's side of a stored request, if it is theirs and still open."""

    def __init__(
        self, kind: str, request_id: int, *, disabled: bool = False, language: str | None = None
    ) -> None:
        answer = _ANSWERS.get(kind)
        suffix = f":{language}" if language else ""
        super().__init__(
            discord.ui.Button(
                label=_(answer.label if answer is not None else BUTTON_LABEL),
                emoji="🎲",
                style=discord.ButtonStyle.primary,
                custom_id=f"side:{kind}:{request_id}{suffix}",
                disabled=disabled,
            )
        )
        self.kind = kind
        self.request_id = request_id
        self.language = language

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> RollSideButton:
        return cls(match["kind"], int(match["request"]), language=match["lang"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self._answer(interaction)
        except Exception as error:  # a button has no command tree to answer its errors
            await answer_error(interaction, error)

    async def _answer(self, interaction: discord.Interaction) -> None:
        answer = _ANSWERS.get(self.kind)
        if answer is None:
            raise RequestClosed(_("This roll can no longer be answered."))
        client: Any = interaction.client
        try:
            outcome = await answer.roll(
                client.db,
                client.dice,
                actor_from(interaction),
                self.request_id,
                now=interaction.created_at,
            )
        except RequestClosed as closed:
            # Rolled already or too late: grey the button out for everyone, and say why (the
            # message in the table's language, the refusal in the presser's).
            message = interaction.message
            content = message.content if message is not None else ""
            with use_language(await self._table_language(interaction)):
                edit: dict[str, Any] = {"view": self._request_view(disabled=True)}
                if closed.lapsed and content:
                    edit["content"] = lapsed_text(content, parts=answer.label == PART_LABEL)
            await interaction.response.edit_message(**edit)
            await send_ephemeral(interaction, str(closed))
            return
        # The request's message is the table's: drawn in its language
        # (bot.gateway._public_language), whoever presses.
        with use_language(await self._table_language(interaction)):
            if isinstance(outcome, Waiting):
                # A part is in, others are awaited: the line says who has rolled (no new ping).
                text, view = parts_text(outcome.request), self._request_view()
                await interaction.response.edit_message(content=text, view=view)
                return
            view = self._request_view(disabled=True)
            for item in answer.extra(outcome) if answer.extra is not None else ():
                view.add_item(item)
            embed = answer.render(outcome, interaction.user.display_name)
        await interaction.response.edit_message(content=None, embed=embed, view=view)

    def _request_view(self, *, disabled: bool = False) -> discord.ui.View:
        return side_view(self.kind, self.request_id, disabled=disabled, language=self.language)

    async def _table_language(self, interaction: discord.Interaction) -> str:
        return await public_language(interaction.client, interaction.channel_id, self.language)
