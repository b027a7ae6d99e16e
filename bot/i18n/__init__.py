"""Translation of everything the bot says: one function, keyed by the English message.

English is the source language: a message id *is* its English text (gettext's convention),
with named ``{placeholders}`` filled after translation, so translators can reorder them::

    _("Rolled {total} against TN {tn}.", total=12, tn=11)
    _n("{count} die", "{count} dice", count, count=count)

The language comes from a context variable set once per interaction (the user's choice, else
the channel's, else Discord's client locale: see :mod:`bot.i18n.choice`); render code never
passes a locale around. Strings defined at import time (choices, constants) are marked with
``N_`` for extraction and translated where they are shown: ``_(CONSTANT)``.

Engine errors carry their English template and parameters (:class:`engine.errors.InputError`),
so the bot translates them the same way (:func:`translate_error`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from bot.i18n._catalogs import SOURCE_LANGUAGE, available_languages, catalog
from bot.i18n._catalogs import catalog_paths as catalog_paths
from bot.text import UserText

__all__ = [
    "N_",
    "SOURCE_LANGUAGE",
    "_",
    "_n",
    "available_languages",
    "current_language",
    "set_language",
    "translate_error",
    "use_language",
]

_language: ContextVar[str] = ContextVar("narrator_language", default=SOURCE_LANGUAGE)


def current_language() -> str:
    """The language replies are written in now (``"en"``, ``"es"``…)."""
    return _language.get()


def _known(language: str) -> str:
    """``language`` when a catalog holds it, else English (never a language without text)."""
    return language if language in available_languages() else SOURCE_LANGUAGE


def set_language(language: str) -> None:
    """Write the rest of this task's (and the tasks it starts') replies in ``language``."""
    _language.set(_known(language))


@contextmanager
def use_language(language: str) -> Iterator[None]:
    """Within the block, replies are written in ``language`` (tests, the console, DMs)."""
    token = _language.set(_known(language))
    try:
        yield
    finally:
        _language.reset(token)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it (import-time constants)."""
    return message


def _fill(text: str, params: Mapping[str, Any]) -> str:
    """``text`` with its placeholders filled. A user's text (:class:`bot.text.UserText`) is
    escaped as it is formatted; inside a code span (`` `{name}` ``, `` `/sheet use
    character:{name}` ``) only a backtick is special, so it takes its ``code`` form there,
    in whichever language the text is."""
    if not params:
        return text
    if "`" not in text:  # most messages: no code span, so no user's text to re-mark
        return text.format_map(params)
    users = [name for name, value in params.items() if isinstance(value, UserText)]
    if users:
        parts = text.split("`")
        for index in range(1, len(parts), 2):  # the odd parts stand between backticks
            for name in users:
                parts[index] = parts[index].replace(f"{{{name}}}", f"{{{name}:code}}")
        text = "`".join(parts)
    return text.format_map(params)


def _(message: str, /, **params: Any) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled from ``params``."""
    language = _language.get()
    if language != SOURCE_LANGUAGE:
        message = catalog(language).gettext(message)
    # _fill's two common cases inline: ``_`` runs about ten times per command.
    if not params:
        return message
    if "`" not in message:
        return message.format_map(params)
    return _fill(message, params)


def _n(singular: str, plural: str, count: int, /, **params: Any) -> str:
    """The singular or plural form for ``count`` in the current language, filled."""
    language = _language.get()
    if language == SOURCE_LANGUAGE:
        text = singular if count == 1 else plural
    else:
        text = catalog(language).ngettext(singular, plural, count)
    return _fill(text, params)


def translate_error(error: BaseException) -> str:
    """An engine or bot error's message in the current language.

    Errors raised with a template and parameters are translated from the template; others
    (a plain ``str`` message) are looked up as they are, which finds fixed messages. Text
    parameters are looked up too: the engine passes words such as ``what="TN"`` in English,
    and a player's own text is not a message id, so it comes back unchanged. Either way it
    is shown escaped (:class:`bot.text.UserText`): the engine cannot tell a player's names
    from its own words, and escaping a plain word changes nothing.
    """
    template = getattr(error, "template", None)
    if template is None:
        return _(str(error))
    params = {
        name: UserText(_(value)) if isinstance(value, str) else value
        for name, value in getattr(error, "params", {}).items()
    }
    return _(template, **params)
