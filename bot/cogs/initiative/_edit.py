"""The tracker's edit without building the edited message nobody reads (docs/decisions/hot-path.md).

discord.py's :meth:`discord.PartialMessage.edit` parses Discord's answer into a
:class:`discord.Message` (author, embeds, components) and returns it. The tracker never
reads it: every ``/init`` change paid for it. :func:`edit_tracker` takes discord.py 2.7's
own steps (the same request built by the same helper, the view tracked as before) and
skips that parse. ``tests/bot/cogs/initiative/test_initiative_tracker.py`` checks that the
request is byte for byte the one ``PartialMessage.edit`` sends and that the buttons still
answer.
"""

from __future__ import annotations

import discord
from discord.utils import MISSING

from bot.internals import handle_message_parameters, message_state


async def edit_tracker(
    message: discord.PartialMessage,
    *,
    embed: discord.Embed,
    view: discord.ui.View | None,
    stored: bool = False,
) -> None:
    """``message.edit(content=None, embed=embed, view=view)``, the returned message unparsed.

    ``content=None`` drops ``/init start``'s welcome line; ``view=None`` takes the buttons
    away (an ended encounter). Raises :class:`discord.HTTPException` as ``edit`` does.

    ``stored``: the caller's last edit of this message succeeded with this same ``view``
    (the tracker's views are fixed: one per language), so the message shows these buttons
    and discord.py's view store holds them for it. The store is left as it is (untracking
    and storing it again would put back the very entries it has: a walk of every button,
    twice, on each ``/init next``), and the buttons are left out of the request: Discord
    keeps the components of a message whose edit does not name them. Each ``/init next``
    then neither builds nor sends the ~1.4 KB of a CODA tracker's buttons.
    """
    state = message_state(message)
    # As PartialMessage.edit: a view given (even None) stops tracking the message's old one,
    # and content given re-sends the bot's default allowed mentions.
    if not stored:
        state.prevent_view_updates_for(message.id)
    with handle_message_parameters(
        content=None,
        embed=embed,
        view=MISSING if stored else view,
        previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        await state.http.edit_message(message.channel.id, message.id, params=params)
    if stored:
        return
    if view is not None and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message.id)
