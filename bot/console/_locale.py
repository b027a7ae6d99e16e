"""The console's Discord client language: ``narrator console --locale es-ES`` and ``/locale``.

SimCord writes ``"locale": "en-US"`` into every interaction it builds; the console replaces
it with the locale chosen for the terminal, so the bot picks the language exactly as it does
for a Discord client set to that language (a ``/settings my-language`` choice still wins).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import discord

from bot.i18n import _

DEFAULT_LOCALE = "en-US"


class LocaleError(ValueError):
    """Not a Discord locale; the message lists some."""


def parse_locale(value: str) -> str:
    """A Discord locale from what was typed: ``es-ES``, ``es_es``, ``es`` (its first region)."""
    wanted = value.strip().replace("_", "-").casefold()
    locales = [locale.value for locale in discord.Locale]
    for locale in locales:
        if locale.casefold() == wanted:
            return locale
    # A language alone: its own country's variant first (es → es-ES), else the first one.
    regional = [locale for locale in locales if locale.casefold().split("-", 1)[0] == wanted]
    home = f"{wanted}-{wanted}"
    for locale in sorted(regional, key=lambda locale: locale.casefold() != home):
        return locale
    raise LocaleError(
        _(
            "`{locale}` is not a Discord locale. For example: {examples}.",
            locale=value[:20],
            examples="en-US, es-ES, es-419, fr, de",
        )
    )


@contextmanager
def client_locale(current: Callable[[], str]) -> Iterator[None]:
    """While the block runs, SimCord's interactions carry ``current()`` as their locale."""
    from simcord import interactions

    original = interactions.base_payload

    def base_payload(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        payload["locale"] = current()
        return record, payload

    interactions.base_payload = base_payload
    try:
        yield
    finally:
        interactions.base_payload = original
