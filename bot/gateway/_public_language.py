"""The language of a public message that several players' presses redraw.

An interaction is answered in its user's language (:mod:`bot.gateway._interactions`), but
some messages belong to the table, not to whoever pressed last: the initiative tracker, a
"Roll my side/part" request, an attack exchange. Drawn in the presser's language, they
would flip between languages at a mixed table. They are drawn instead in:

1. the channel's language, when a GM chose one (``/settings language``);
2. else the language of the player who created them (the encounter's ``/init start``, the
   request's roller, the attacker), stored with them when they were created;
3. else English (things stored before languages were).

Ephemeral answers (refusals, a presser's own copy of a secret roll) stay in the presser's
language.
"""

from __future__ import annotations

import logging
from typing import Any

from bot.i18n import SOURCE_LANGUAGE, available_languages

log = logging.getLogger(__name__)


async def public_language(client: Any, channel_id: int | None, created_in: str | None) -> str:
    """The language a table's message in ``channel_id`` is drawn in (see the module)."""
    channel: str | None = None
    choices = getattr(client, "languages", None)
    if choices is not None and channel_id is not None:
        # Cached (an expired entry too, read again beside this): no query on a redraw's way.
        cached = choices.cached(channel_id, None)
        if cached is not None:
            channel = cached[0]
        else:
            try:
                channel, _user = await choices.choices(channel_id, None)
            except Exception:  # the message is still drawn, in its creator's language
                log.warning("could not read the channel's language", exc_info=True)
    available = available_languages()
    for language in (channel, created_in):
        if language and language in available:
            return language
    return SOURCE_LANGUAGE
