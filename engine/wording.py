"""Words the engine builds for display (labels, reasons), in any language the bot asks for.

The engine must not import the bot, yet some of its labels are shown to players ("1 of 2
actions left", "delaying"). Functions that build such a label take a ``translate`` callable
with the bot's ``_`` signature (an English template, then named parameters); the default
fills the English template, so the engine and its tests read as before. Templates are
marked with :func:`engine.errors.N_` so that extraction finds them.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Translate", "english"]

#: ``translate(template, **params)``: the bot's ``bot.i18n._``, or :func:`english`.
Translate = Callable[..., str]


def english(template: str, /, **params: object) -> str:
    """``template`` filled as it is: the engine's source language."""
    return template.format_map(params) if params else template
