"""Every interaction is answered in its language: commands, buttons, selects and modals; every
component and modal press has its commits recorded, like a command's; and every interaction
(command, component, modal, autocomplete) is counted against the fair-use limits
(:mod:`bot.gateway._ratelimit`) before anything else is done for it: a refused one costs no
discord.py object, no command lookup and no database read.

The language (:mod:`bot.i18n`'s context variable) is set before any of the bot's code runs
for an interaction, from the user's choice, the channel's, else the Discord client's locale
(:class:`bot.services.languages.LanguageChoices`):

* commands and autocomplete: :func:`apply_language`, from the tree's ``interaction_check``
  (inside the deadline guard, before options are parsed);
* components and modals: :func:`install_interaction_hook` wraps discord.py's
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
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.gateway._admission import Admission, install_admission
from bot.gateway._fair import FairDispatch
from bot.gateway._ratelimit import (
    Who,
    admit,
    answer_raw,
    gate,
    no_suggestions,
    should_tell,
    slow_down_payload,
    suggestions_allowed,
)
from bot.i18n import SOURCE_LANGUAGE, set_language, use_language
from bot.i18n.choice import choose_language, language_of
from bot.internals import gateway_parsers
from bot.services.languages import LanguageChoices
from bot.storage.db import writes_tracked

if TYPE_CHECKING:
    from bot.hosting.metrics import BotMetrics

log = logging.getLogger(__name__)

_COMMAND = 2
_COMPONENT = 3
_AUTOCOMPLETE = 4
_MODAL_SUBMIT = 5

#: Languages already chosen, by (client locale, channel's choice, user's choice): every
#: interaction asks, the answer depends on these three alone, and they take a few dozen
#: values (Discord's locales, the catalogs' languages), so the locale's text is parsed once.
_chosen: dict[tuple[object, str | None, str | None], str] = {}
#: Bound on :data:`_chosen` (a database could hold any text as a choice): then it starts over.
MAX_CHOSEN = 1024


def chosen_language(locale: object, channel: str | None = None, user: str | None = None) -> str:
    """:func:`~bot.i18n.choice.choose_language`, remembered (see :data:`_chosen`)."""
    key = (locale, channel, user)
    language = _chosen.get(key)
    if language is None:
        if len(_chosen) >= MAX_CHOSEN:
            _chosen.clear()
        language = _chosen[key] = choose_language(locale, channel, user)
    return language


async def apply_language(interaction: discord.Interaction) -> str:
    """Set (and return) the language of ``interaction`` for the rest of its task."""
    language = interaction.extras.get("language")
    if language is None:
        choices: LanguageChoices | None = getattr(interaction.client, "languages", None)
        user_id = interaction.user.id if interaction.user is not None else None
        if choices is None:
            language = chosen_language(interaction.locale)  # language_of, remembered
        elif (cached := choices.cached(interaction.channel_id, user_id)) is not None:
            language = chosen_language(interaction.locale, *cached)  # no query, no await
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


def install_interaction_hook(
    client: discord.Client,
    choices: LanguageChoices,
    *,
    admission: Admission | None = None,
    metrics: BotMetrics | None = None,
) -> None:
    """Around every interaction dispatch of ``client``: count it against the fair-use limits
    (:mod:`bot.gateway._ratelimit`), and refuse it here, from the raw payload, when it is past
    them. For components and modals also set the language and record the commits (so that an
    error's answer can tell whether the press saved anything, with no view having to remember
    to start the record); a command gets both from the tree's ``interaction_check``.
    Autocomplete past its user's budget is answered with no suggestions here, before
    discord.py or the database sees it. What is admitted reaches discord.py in a fair order
    (:class:`~bot.gateway._fair.FairDispatch`): one user's burst never holds back another
    user's interaction.

    With ``admission`` (``narrator run``), "very busy" is decided as each interaction leaves
    the fair line for discord.py, not as it arrives: the time it waited in line counts
    towards :data:`~bot.gateway._admission.BUSY_AGE` (decided on arrival, a backlog queued
    here after the check went past Discord's 3 s unanswered)."""
    parsers = gateway_parsers(client)
    if admission is not None:
        install_admission(client, admission, metrics)  # innermost: it runs at hand-over
    original = parsers["INTERACTION_CREATE"]
    pending: set[asyncio.Task[None]] = set()
    # Admitted ones reach discord.py one per loop step, users in turn, while there is room.
    fair = FairDispatch(room=admission.room if admission is not None else None)
    if admission is not None:
        admission.room_made = fair.room_made

    def dispatch(data: dict[str, Any], language: str) -> bool | None:
        with use_language(language), writes_tracked():
            return original(data)  # admission's wrapper: whether it was handed over

    def refuse(data: dict[str, Any], who: Who, wait: float) -> None:
        if not should_tell(client, who.user_id, wait):
            return  # told already: the rest of a flood goes unanswered
        locale, channel_id, user_id = _facts(data)
        cached = choices.cached(channel_id, user_id)  # no query for a refusal
        language = chosen_language(locale, *cached) if cached else chosen_language(locale)
        with use_language(language):
            answer_raw(client, data, slow_down_payload(wait))

    def admitted(data: dict[str, Any], who: Who) -> None:
        if data.get("type") in (_COMMAND, _AUTOCOMPLETE):
            # The tree's interaction_check sets their language (and a command's write record).
            fair.submit(who.user_id, partial(original, data))
            return
        locale, channel_id, user_id = _facts(data)
        cached = choices.cached(channel_id, user_id)
        if cached is not None:
            fair.submit(who.user_id, partial(dispatch, data, chosen_language(locale, *cached)))
            return
        later(look_up_then_dispatch(data, who))

    async def look_up_then_dispatch(data: dict[str, Any], who: Who) -> None:
        locale, channel_id, user_id = _facts(data)
        language = await _safely(choices, locale, channel_id, user_id)
        fair.submit(who.user_id, partial(dispatch, data, language))

    async def admit_then_dispatch(data: dict[str, Any], who: Who) -> None:
        wait = await admit(client, who)  # the channel is crowded: is this a GM, or up?
        if wait > 0:
            refuse(data, who, wait)
        else:
            admitted(data, who)

    def later(work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        pending.add(task)
        task.add_done_callback(pending.discard)

    def parse_interaction_create(data: dict[str, Any]) -> None:
        kind = data.get("type")
        if kind not in (_COMMAND, _COMPONENT, _AUTOCOMPLETE, _MODAL_SUBMIT):
            original(data)  # a ping: nobody to limit
            return
        who = Who.of_payload(data)
        if kind == _AUTOCOMPLETE:
            if suggestions_allowed(client, who):
                admitted(data, who)
            else:
                answer_raw(client, data, no_suggestions())
            return
        wait = gate(client, who)
        if wait is None:
            later(admit_then_dispatch(data, who))
        elif wait > 0:
            refuse(data, who, wait)
        else:
            admitted(data, who)

    parsers["INTERACTION_CREATE"] = parse_interaction_create
