"""Command descriptions and choice names in every catalog language, for Discord's client.

Command and option *names* stay English (commands copied between users of different
languages still work); descriptions, option descriptions and choice names are
``locale_str("English text")``, and :class:`CatalogTranslator` (set on the tree) gives
Discord their translations when ``narrator sync`` uploads the commands, for every Discord
locale whose language has a catalog (``es-ES`` and ``es-419`` both from ``es``).

A description built from parts uses :func:`locale_format`: the English text is filled for
Discord's default, and the template and its parameters are translated for the others.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.i18n import _ as translate
from bot.i18n import use_language
from bot.i18n._catalogs import SOURCE_LANGUAGE
from bot.i18n.choice import language_of


def locale_format(template: str, /, **params: Any) -> locale_str:
    """A ``locale_str`` for ``template`` filled with ``params`` (translated at sync)."""
    return locale_str(template.format(**params), template=template, params=params)


_NAMES = frozenset(
    {
        app_commands.TranslationContextLocation.command_name,
        app_commands.TranslationContextLocation.group_name,
        app_commands.TranslationContextLocation.parameter_name,
    }
)


class CatalogTranslator(app_commands.Translator):
    """Translates ``locale_str`` through the gettext catalogs (None: Discord shows English)."""

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location in _NAMES:
            return None  # names stay English: a command copied between languages still works
        language = language_of(locale)
        if language == SOURCE_LANGUAGE:
            return None
        return localised(string, language)


def localised(string: locale_str, language: str) -> str | None:
    """``string`` in ``language``; None when the catalog leaves it as it is in English."""
    template = string.extras.get("template", string.message)
    params = string.extras.get("params", {})
    with use_language(language):
        values = {
            name: translate(value) if isinstance(value, str) else value
            for name, value in params.items()
        }
        translated = translate(template, **values)
    return None if translated == string.message else translated
