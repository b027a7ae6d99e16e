"""``/roll`` and ``/sheet`` for a player whose Discord speaks Spanish: the replies, the
notation errors and the sheet's refusals are Spanish, and the numbers stay right."""

from __future__ import annotations

from typing import Any

from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of


def button_labels(message: Any) -> list[str]:
    return [
        item.get("label", "") for row in message.components for item in row.get("components") or []
    ]


async def test_roll_answers_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    table.bot.dice = ScriptedDice([6, 2, 5, 1])
    result = await alice.slash(table.channel, "roll", expression="4d6kh3 + 2", label="fuerza")
    embed = embed_of(result)
    assert embed.title == "🎲 15 — fuerza"
    assert "alice tiró 4d6kh3 + 2" in embed.footer.text


async def test_an_english_player_still_gets_english(table: Table, as_spanish: Any) -> None:
    as_spanish(table.alice)
    table.bot.dice = ScriptedDice([3])
    result = await table.bob.slash(table.channel, "roll", expression="1d6")
    assert "bob rolled 1d6" in embed_of(result).footer.text


async def test_notation_errors_are_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    for expression, message in [
        ("1000001d6", "1000001d6: como mucho 250 dados por tirada"),
        ("1d1001", "los dados tienen de 1 a 1000 caras"),
        ("1d1e1", "repetiría o explotaría para siempre"),
        ("banana", "no es notación de dados"),
        ("1/0", "No se puede dividir entre cero."),
        ("   ", "La expresión está vacía"),
        ("1d20 x3", "Para multiplicar, escribe `*`"),
    ]:
        result = await alice.slash(table.channel, "roll", expression=expression)
        assert result.ephemeral
        assert message in result.response.content, (expression, result.response.content)


async def test_secret_roll_footer_is_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    table.bot.dice = ScriptedDice([3, 4])
    result = await alice.slash(table.channel, "roll", expression="2d6", secret=True)
    assert "tirada secreta" in text_of(result)


async def test_sheet_create_show_and_list_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    created = await alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    text = text_of(created)
    assert "Creado Hermione — CODA" in text
    assert "es ahora tu personaje activo en este canal" in text
    assert "Atributos sugeridos" in text and "Wits" in text  # names stay the system's own
    labels = button_labels(created.response)
    assert "Rellenar atributos" in labels and "Rellenar habilidades" in labels
    await alice.slash(table.channel, "sheet set", attribute="Wits", value=3)
    await alice.slash(table.channel, "sheet skill", name="Potions", ranks=2, attribute="Wits")
    shown = text_of(await alice.slash(table.channel, "sheet show"))
    assert "Atributos (1)" in shown and "Wits **3**" in shown
    assert "Habilidades (1)" in shown and "Potions **2** (Wits)" in shown
    assert "Recursos (0)" in shown and "ninguno todavía (`/sheet resource`)" in shown
    assert "lo juega <@" in shown
    listed = text_of(await alice.slash(table.channel, "sheet list"))
    assert "Personajes de alice (1)" in listed and "▶ activo en este canal" in listed


async def test_sheet_refusals_are_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    none = await alice.slash(table.channel, "sheet show")
    assert "No tienes ningún personaje aquí" in none.response.content
    await alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    twice = await alice.slash(table.channel, "sheet create", name="hermione", system="drama")
    assert "Ya tienes un personaje llamado hermione" in twice.response.content
    braces = await alice.slash(table.channel, "sheet set", attribute="W{its", value=1)
    assert "Un nombre de atributo no puede contener { ni }." in braces.response.content
    missing = await alice.slash(table.channel, "sheet skill", name="Potions")
    assert "Hermione todavía no tiene la habilidad `Potions`" in missing.response.content
    removed = await alice.slash(table.channel, "sheet set", attribute="Grit", remove=True)
    assert "Hermione no tiene atributo `Grit` que quitar." in removed.response.content
    reference = await alice.slash(table.channel, "roll", expression="1d20 + {Stealth}")
    assert "Hermione no tiene atributo, habilidad ni recurso `Stealth`" in (
        reference.response.content
    )


async def test_resources_and_notes_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    await alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    added = await alice.slash(table.channel, "sheet resource", name="Health", current=20, max=20)
    assert "Health añadido: **20/20**" in text_of(added)
    healed = await alice.slash(table.channel, "sheet resource", name="Health", change=5)
    assert "(dentro de sus límites)" in text_of(healed)
    noted = await alice.slash(table.channel, "sheet note", text="Debe un favor a Ron")
    assert "notas actualizadas" in text_of(noted)


async def test_delete_asks_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    await alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    asked = await alice.slash(table.channel, "sheet delete", character="Hermione")
    assert "¿Borrar a **Hermione**" in asked.response.content
    labels = button_labels(asked.response)
    assert "Borrar" in labels


async def test_export_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    await alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    exported = await alice.slash(table.channel, "sheet export")
    assert "Aquí tienes la ficha" in exported.response.content
