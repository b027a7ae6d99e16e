"""What every system's attack exchange does on Discord (``/coda attack``, ``/h90 attack``).

An exchange is one message that follows the attack: posted with the defender's buttons,
edited in place when they answer. A secret exchange shows the table who attacks whom and
what came of it; the full copies (with the dice) go to the roller, to the defender once
they answer, and to the GM. The buttons are each system's own
:class:`discord.ui.DynamicItem`; their callbacks hand the press to :func:`press`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

import discord

from bot.cogs._common import send_roll
from bot.cogs._confirm import answer_error
from bot.gateway import public_language, send_ephemeral
from bot.i18n import current_language, use_language
from bot.services.attack_exchange import ExchangeClosed
from bot.services.secrecy import Secrecy
from bot.services.sheets import ResourceChange


class Shown(Protocol):
    """What the shared code reads of any system's exchange."""

    @property
    def secrecy(self) -> Secrecy: ...

    @property
    def health(self) -> ResourceChange | None: ...


E = TypeVar("E", bound=Shown)
#: Draws an exchange; ``reveal`` False is the table's copy of a secret one (no dice).
Embedder = Callable[..., discord.Embed]


def _health_changed(exchange: Shown) -> bool:
    return exchange.health is not None


async def press(
    interaction: discord.Interaction,
    answered: Awaitable[E],
    embed: Embedder,
    *,
    tracker_changed: Callable[[E], bool] = _health_changed,
    view: Callable[[E], discord.ui.View | None] | None = None,
) -> E | None:
    """Await the service's answer to a button press and show it: the exchange's message
    edited in place (its buttons gone unless ``view`` gives new ones), the secret copies
    sent, the tracker refreshed when the answer changed what it shows. None when refused."""
    try:
        exchange = await answered
    except ExchangeClosed as closed:
        # Over or too late: take the buttons away for everyone, and say why.
        await interaction.response.edit_message(view=None)
        await send_ephemeral(interaction, str(closed))
        return None
    except Exception as error:  # a button has no command tree to answer its errors
        await answer_error(interaction, error)
        return None
    secret = exchange.secrecy.secret
    with use_language(await _table_language(interaction, exchange)):
        public, buttons = embed(exchange, reveal=not secret), view(exchange) if view else None
    await interaction.response.edit_message(embed=public, view=buttons)
    if secret:
        await send_roll(interaction, embed(exchange), exchange.secrecy)
    if tracker_changed(exchange) and not secret:
        await refresh_tracker(interaction)
    return exchange


async def refresh_tracker(interaction: discord.Interaction) -> None:
    """The channel's initiative tracker (if an encounter runs) shows the latest state."""
    tracker = interaction.client.get_cog("InitiativeCog")  # type: ignore[attr-defined]
    if tracker is not None:
        await tracker.refresh_tracker(interaction.channel, interaction.channel_id or 0)


async def _table_language(interaction: discord.Interaction, exchange: Any) -> str:
    """The language the exchange's public message is drawn in (bot.gateway._public_language): an
    exchange that keeps its creator's language (``.language``) is the table's; one that
    keeps none is drawn in the presser's, as before."""
    if not hasattr(exchange, "language"):
        return current_language()
    return await public_language(interaction.client, interaction.channel_id, exchange.language)


async def post(
    interaction: discord.Interaction,
    exchange: Shown,
    embed: Embedder,
    view: discord.ui.View | Callable[[], discord.ui.View | None] | None,
) -> None:
    """The exchange's first message (with the buttons while it waits). A secret one: the
    roller's and the GM's full copies, then the table's copy carrying the buttons.
    ``view`` may be a function: the buttons are then labelled in the table's language."""
    with use_language(await _table_language(interaction, exchange)):
        buttons = view() if callable(view) else view
        public = embed(exchange, reveal=not exchange.secrecy.secret)
    if not exchange.secrecy.secret:
        await send_roll(interaction, public, exchange.secrecy, view=buttons)
        return
    await send_roll(interaction, embed(exchange), exchange.secrecy)
    kwargs: dict[str, Any] = {"embed": public}
    if buttons is not None:
        kwargs["view"] = buttons
    await interaction.followup.send(**kwargs)
