"""Languages by their own names ("English", "Español"), from CLDR's data that Babel ships.

A language is named in itself wherever one is picked, so a reader finds theirs whatever the
bot's current language; a new catalog gets its name with no code change.
"""

from __future__ import annotations

from functools import cache

from babel import Locale, UnknownLocaleError


@cache
def native_name(language: str) -> str:
    """``"es"`` → ``"Español"``; the code itself when CLDR doesn't know it."""
    try:
        name = Locale.parse(language).get_display_name(language)
    except (UnknownLocaleError, ValueError):
        return language
    return (name or language)[:1].upper() + (name or language)[1:]
