"""``/h90 attack``'s message and its buttons: Dodge, a delayer's dodge for the target, Take it.

The buttons are :class:`discord.ui.DynamicItem` with the exchange's id (and the delayer's
name) in the custom id, and the exchange lives in the database, so a press after a restart
finds it again. Posting, pressing and secrecy are every system's
(:mod:`bot.cogs._attack`); the answer's rules are Hogwarts 1990's
(:mod:`bot.services.hogwarts1990._attack`).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.cogs._attack import post, press
from bot.cogs._common import actor_from
from bot.i18n import _
from bot.render.hogwarts1990 import exchange_embed
from bot.render.limits import clip
from bot.services import hogwarts1990 as service
from bot.services.hogwarts1990 import AttackRequest, Exchange
from bot.text import UserText
from engine.systems.hogwarts1990 import Answer

LABEL = 80
STYLES = {
    Answer.DODGE: discord.ButtonStyle.primary,
    Answer.COVER: discord.ButtonStyle.primary,
    Answer.TAKE: discord.ButtonStyle.secondary,
}
EMOJI = {Answer.DODGE: "🏃", Answer.COVER: "🛡️", Answer.TAKE: "🩸"}


class AnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"h90-attack:(?P<attack>\d+):(?P<choice>dodge|take|cover)(?::(?P<name>.{1,64}))?",
):
    """One answer to a stored exchange; ``cover`` names the delayer who dodges for the target."""

    def __init__(self, attack_id: int, choice: Answer, cover: str | None = None) -> None:
        label = (
            _(choice.label)
            if cover is None
            else clip(_("{name} dodges for them", name=UserText(cover).plain()), LABEL)
        )
        suffix = f":{cover}" if cover is not None else ""
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=EMOJI[choice],
                style=STYLES[choice],
                custom_id=f"h90-attack:{attack_id}:{choice.value}{suffix}",
            )
        )
        self.attack_id = attack_id
        self.choice = choice
        self.cover = cover

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> AnswerButton:
        return cls(int(match["attack"]), Answer(match["choice"]), match["name"])

    async def callback(self, interaction: discord.Interaction) -> None:
        answered = service.answer(
            interaction.client.db,  # type: ignore[attr-defined]
            interaction.client.dice,  # type: ignore[attr-defined]
            actor_from(interaction),
            self.attack_id,
            self.choice,
            now=interaction.created_at,
            cover=self.cover,
        )
        await press(interaction, answered, exchange_embed, tracker_changed=_tracker_changed)


def _tracker_changed(exchange: Exchange) -> bool:
    """A dodge used up a turn, or Health changed: the tracker shows both."""
    return exchange.health is not None or exchange.defended is not None


def answer_view(exchange: Exchange) -> discord.ui.View | None:
    """The buttons while the exchange waits (none otherwise)."""
    if not exchange.waiting or exchange.id is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(AnswerButton(exchange.id, Answer.DODGE))
    for name in exchange.covers:
        view.add_item(AnswerButton(exchange.id, Answer.COVER, name.raw))
    view.add_item(AnswerButton(exchange.id, Answer.TAKE))
    return view


async def run_attack(interaction: discord.Interaction, request: AttackRequest) -> None:
    """Roll the attack and post the exchange's message (with the buttons on a hit)."""
    exchange = await service.attack(
        interaction.client.db,  # type: ignore[attr-defined]
        interaction.client.dice,  # type: ignore[attr-defined]
        actor_from(interaction),
        request,
        now=interaction.created_at,
    )
    await post(interaction, exchange, exchange_embed, lambda: answer_view(exchange))
