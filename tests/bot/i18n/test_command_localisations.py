"""The synced command payload carries Spanish descriptions and choices; names stay English."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest
from discord.app_commands import locale_str

from bot.i18n.commands import CatalogTranslator, locale_format
from tests.conftest import Table

SPANISH = ("es-ES", "es-419")


def synced(table: Table, name: str) -> dict[str, Any]:
    return table.env.backend.commands[None][(name, 1)]


def option(node: dict[str, Any], name: str) -> dict[str, Any]:
    return next(o for o in node["options"] if o["name"] == name)


def nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The command, its subcommands and options, and their choices."""
    yield node
    for child in node.get("options") or []:
        yield from nodes(child)
    yield from node.get("choices") or []


async def test_descriptions_are_uploaded_in_spanish_for_both_spanish_locales(
    table: Table,
) -> None:
    settings = synced(table, "settings")
    for locale in SPANISH:
        assert settings["description_localizations"][locale] == "La configuración de este canal"
    language = option(settings, "language")
    assert language["description_localizations"]["es-ES"] == (
        "El idioma en que responde el bot en este canal (DJ)"
    )
    assert option(language, "language")["description_localizations"]["es-419"] == (
        "Un idioma, o default: el idioma de Discord de cada usuario"
    )
    assert "en-US" not in settings["description_localizations"]
    assert "en-GB" not in settings["description_localizations"]


async def test_choices_are_localised_and_built_ones_too(table: Table) -> None:
    settings = synced(table, "settings")
    systems = option(option(settings, "system"), "name")["choices"]
    coda = next(c for c in systems if c["value"] == "coda")
    assert coda["name"] == "CODA (Harry Potter RPG)"
    assert coda["name_localizations"]["es-ES"] == "CODA (juego de rol de Harry Potter)"
    rules = option(option(settings, "rule"), "name")["choices"]
    ones = next(c for c in rules if c["value"] == "coda.ones")
    assert ones["name"] == "coda.ones: CODA rolling 1s: what two 1s on a test mean"
    assert ones["name_localizations"]["es-ES"] == (
        "coda.ones: Unos en CODA: qué significan dos 1 en una prueba"
    )
    # A language is offered by its own name in every language: nothing to translate.
    languages = option(option(settings, "language"), "language")["choices"]
    assert "name_localizations" not in languages[1] or not languages[1]["name_localizations"]


async def test_command_and_option_names_stay_english(table: Table) -> None:
    for command in table.env.backend.commands[None].values():
        for node in nodes(command):
            assert not node.get("name_localizations") or "value" in node, node["name"]


async def test_every_localisation_fits_discords_limits(table: Table) -> None:
    """Descriptions and choice names are at most 100 characters in every language."""
    too_long = [
        (command["name"], node.get("name"), locale, text)
        for command in table.env.backend.commands[None].values()
        for node in nodes(command)
        for key in ("description_localizations", "name_localizations")
        for locale, text in (node.get(key) or {}).items()
        if len(text) > 100 or not text.strip()
    ]
    assert too_long == []


@pytest.mark.parametrize(
    ("string", "locale", "expected"),
    [
        (locale_str("The rule"), discord.Locale.spain_spanish, "La regla"),
        (locale_str("The rule"), discord.Locale.latin_american_spanish, "La regla"),
        (locale_str("The rule"), discord.Locale.american_english, None),
        (locale_str("The rule"), discord.Locale.french, None),  # no French catalog
        (locale_str("not a message id at all"), discord.Locale.spain_spanish, None),
        (
            locale_format("{mode} — {text}", mode="off", text="secret rolls are refused"),
            discord.Locale.spain_spanish,
            "off — las tiradas secretas se rechazan",
        ),
    ],
)
async def test_the_translator(string: locale_str, locale: discord.Locale, expected: Any) -> None:
    context = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.other, None
    )
    assert await CatalogTranslator().translate(string, locale, context) == expected


def test_a_built_string_reads_as_english_by_default() -> None:
    built = locale_format("{rule}: {help}", rule="drama.criticals", help="x")
    assert str(built) == "drama.criticals: x"
