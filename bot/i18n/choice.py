"""Which language an interaction is answered in.

The user's own choice (``/settings my-language``) wins, then the channel's (a GM's
``/settings language``), then the language of the user's Discord client. Discord's locales
are language-region codes (``es-ES``, ``es-419``, ``en-US``): the bot's catalogs are by
language, so a region falls back to its language.
"""

from __future__ import annotations

from bot.i18n._catalogs import SOURCE_LANGUAGE, available_languages


def language_of(locale: object) -> str:
    """The catalog language for a Discord locale (``discord.Locale`` or its value), or English."""
    value = str(getattr(locale, "value", locale) or "").replace("_", "-").lower()
    available = available_languages()
    if value in available:
        return value
    language = value.split("-", 1)[0]
    return language if language in available else SOURCE_LANGUAGE


def choose_language(client_locale: object, channel: str | None, user: str | None) -> str:
    """The language to answer in: the user's choice, else the channel's, else the client's."""
    available = available_languages()
    for chosen in (user, channel):
        if chosen and chosen in available:
            return chosen
    return language_of(client_locale)
