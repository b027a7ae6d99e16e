"""``/coda attack``'s message and its defender's buttons (Dodge / Parry / Take it).

The buttons are :class:`discord.ui.DynamicItem` with the exchange's id in the custom id, and
the exchange lives in the database, so a press after a restart finds it again. A secret
exchange shows the table who attacks whom and what came of it; the attacker's and the
defender's own copies, and the GM's, carry the dice.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.cogs._attack import post, press, refresh_tracker
from bot.cogs._common import actor_from
from bot.render.coda import defence_label, exchange_embed
from bot.services import coda as service
from bot.services.coda import AttackRequest, Exchange
from engine.systems.coda import Defence

STYLES = {
    Defence.DODGE: discord.ButtonStyle.primary,
    Defence.PARRY: discord.ButtonStyle.primary,
    Defence.TAKE: discord.ButtonStyle.secondary,
}
EMOJI = {Defence.DODGE: "🏃", Defence.PARRY: "🗡️", Defence.TAKE: "🩸"}


class DefendButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"coda-attack:(?P<attack>\d+):(?P<choice>dodge|parry|take)",
):
    """One of the defender's answers to a stored exchange."""

    def __init__(self, attack_id: int, choice: Defence) -> None:
        super().__init__(
            discord.ui.Button(
                label=defence_label(choice),
                emoji=EMOJI[choice],
                style=STYLES[choice],
                custom_id=f"coda-attack:{attack_id}:{choice.value}",
            )
        )
        self.attack_id = attack_id
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> DefendButton:
        return cls(int(match["attack"]), Defence(match["choice"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        answered = service.answer(
            interaction.client.db,  # type: ignore[attr-defined]
            interaction.client.dice,  # type: ignore[attr-defined]
            actor_from(interaction),
            self.attack_id,
            self.choice,
            now=interaction.created_at,
        )
        await press(
            interaction,
            answered,
            exchange_embed,
            # a defence spends one of the defender's actions; damage changes Health
            tracker_changed=lambda exchange: exchange.health is not None or exchange.tracked,
        )


def defend_view(exchange: Exchange) -> discord.ui.View | None:
    """The defender's buttons while the exchange waits for them (none otherwise)."""
    if not exchange.waiting or exchange.id is None:
        return None
    view = discord.ui.View(timeout=None)
    for choice in exchange.options:
        view.add_item(DefendButton(exchange.id, choice))
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
    await post(interaction, exchange, exchange_embed, defend_view(exchange))
    if exchange.tracked and not exchange.secrecy.secret:
        await refresh_tracker(interaction)  # the attack spent one of the attacker's actions
