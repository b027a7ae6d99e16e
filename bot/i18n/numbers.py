"""Numbers as the current language writes them ("42.9%" in English, "42,9 %" in Spanish).

Babel holds every locale's number patterns (CLDR), so no separator is hand-written here.
"""

from __future__ import annotations

from babel.numbers import format_decimal, format_percent, parse_pattern

from bot.i18n import current_language


def percent(fraction: float, digits: int = 1) -> str:
    """``fraction`` (0.429) as a percentage with ``digits`` decimals, in the current language."""
    language = current_language()
    pattern = parse_pattern(_percent_pattern(language))
    pattern.frac_prec = (digits, digits)
    return format_percent(fraction, format=pattern, locale=language)


def decimal(value: float, digits: int = 1) -> str:
    """``value`` with at most ``digits`` decimals and the language's separators."""
    return format_decimal(round(value, digits), locale=current_language())


def _percent_pattern(language: str) -> str:
    from babel import Locale

    return Locale.parse(language).percent_formats[None].pattern
