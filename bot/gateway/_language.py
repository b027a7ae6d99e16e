"""Every interaction is answered in its language: commands, buttons, selects and modals; and
every component and modal press has its commits recorded, like a command's.

The language (:mod:`bot.i18n`'s context variable) is set before any of the bot's code runs
for an interaction, from the user's choice, the channel's, else the Discord client's locale
(:class:`bot.services.languages.LanguageChoices`):

* commands and autocomplete: :func:`apply_language`, from the tree's ``interaction_check``
  (inside the deadline guard, before options are parsed);
* components and modals: :func:`install_component_hook` wraps discord.py's
  INTERACTION_CREATE handler, the one place every view, ``DynamicItem`` and modal is
  dispatched from, so no view can forget it. discord.py starts each callback in a new task,
  which copies the context variables of
  the moment: the language is set around the dispatch and reset right after, so the
  gateway's own task keeps no language. On a cache miss the dispatch waits for the one
  lookup in a task of its own.

Work started by an interaction (view timeouts, follow-ups, DMs to the GM) inherits its
language the same way, through the tasks it creates.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.i18n import SOURCE_LANGUAGE, set_language, use_language
from bot.i18n.choice import choose_language, language_of
from bot.internals import gateway_parsers
from bot.services.languages import LanguageChoices
from bot.storage.db import writes_tracked

log = logging.getLogger(__name__)

_COMPONENT = 3
_MODAL_SUBMIT = 5


async def apply_language(interaction: discord.Interaction) -> str:
    """Set (and return) the language of ``interaction`` for the rest of its task."""
    language = interaction.extras.get("language")
    if language is None:
        choices: LanguageChoices | None = getattr(interaction.client, "languages", None)
        user_id = interaction.user.id if interaction.user is not None else None
        if choices is None:
            language = language_of(interaction.locale)
        else:
            language = await _safely(choices, interaction.locale, interaction.channel_id, user_id)
        interaction.extras["language"] = language
    set_language(language)
    return language


async def _safely(
    choices: LanguageChoices, locale: object, channel_id: int | None, user_id: int | None
) -> str:
    """The chosen language; the client's when the database can't tell (logged): the
    interaction itself then reports the database error, in a language the user reads."""
    try:
        return await choices.language_for(locale, channel_id, user_id)
    except Exception:
        log.warning("could not read language choices", exc_info=True)
        return language_of(locale)


def _facts(data: dict[str, Any]) -> tuple[object, int | None, int | None]:
    """The client locale, channel id and user id of a raw INTERACTION_CREATE payload."""
    user = (data.get("member") or {}).get("user") or data.get("user") or {}
    channel_id = data.get("channel_id")
    return (
        data.get("locale") or SOURCE_LANGUAGE,
        int(channel_id) if channel_id is not None else None,
        int(user["id"]) if user.get("id") is not None else None,
    )


def install_component_hook(client: discord.Client, choices: LanguageChoices) -> None:
    """Around every component and modal dispatch of ``client``: set its language, and record
    its commits (so that an error's answer can tell whether the press saved anything, with no
    view having to remember to start the record)."""
    parsers = gateway_parsers(client)
    original = parsers["INTERACTION_CREATE"]
    pending: set[asyncio.Task[None]] = set()

    def dispatch(data: dict[str, Any], language: str) -> None:
        with use_language(language), writes_tracked():
            original(data)

    async def look_up_then_dispatch(data: dict[str, Any]) -> None:
        locale, channel_id, user_id = _facts(data)
        dispatch(data, await _safely(choices, locale, channel_id, user_id))

    def parse_interaction_create(data: dict[str, Any]) -> None:
        if data.get("type") not in (_COMPONENT, _MODAL_SUBMIT):
            original(data)  # commands: the tree's interaction_check sets the language
            return
        locale, channel_id, user_id = _facts(data)
        cached = choices.cached(channel_id, user_id)
        if cached is not None:
            dispatch(data, choose_language(locale, *cached))
            return
        task = asyncio.get_running_loop().create_task(look_up_then_dispatch(data))
        pending.add(task)
        task.add_done_callback(pending.discard)

    parsers["INTERACTION_CREATE"] = parse_interaction_create
