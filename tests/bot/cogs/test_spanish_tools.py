"""``/help``, ``/odds``, ``/dice``, ``/macro``, ``/penalty`` and the rest of ``/sheet`` for a
player whose Discord speaks Spanish: Spanish words, the same numbers."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.cogs.dice import SINCE_CHOICES
from bot.services import dice_stats
from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of

pytestmark = pytest.mark.usefixtures("warm_charts")


# --- /help -----------------------------------------------------------------------------------


async def test_help_lists_commands_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    result = await alice.slash(table.channel, "help")
    embed = embed_of(result)
    assert embed.title == "Narrator — comandos"
    assert "**/roll** — Tira dados en notación d20, p. ej. 4d6kh3 + 2" in embed.description
    assert "Las fichas de tus personajes" in embed.description
    assert "Aquí todavía no hay sistema por defecto" in embed.footer.text
    assert len(embed) <= 6000 and len(embed.description) <= 4096


async def test_help_for_one_command_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    embed = embed_of(await alice.slash(table.channel, "help", command="roll"))
    assert embed.title == "/roll"
    fields = {f.name: f.value for f in embed.fields}
    assert "`expression` (texto 1…300, obligatoria) — Notación de dados" in fields["Opciones"]
    assert "`/roll expression:2d6+3` — dos dados de seis caras más 3" in fields["Ejemplos"]
    assert "Las opciones se escriben nombre:valor" in embed.footer.text
    gm = embed_of(await alice.slash(table.channel, "help", command="gm"))
    assert gm.title == "Quién es DJ" and "Es DJ de un canal quien:" in gm.description
    unknown = await alice.slash(table.channel, "help", command="fly")
    assert "No existe el comando `/fly`. Prueba:" in unknown.response.content


async def test_help_of_every_command_fits_in_spanish(table: Table, as_spanish: Any) -> None:
    """The worst case of the longer language: every command's page stays within the limits."""
    alice = as_spanish(table.alice)
    names = [
        c.qualified_name
        for c in table.bot.tree.walk_commands()
        if not hasattr(c, "commands")  # leaves only
    ]
    for name in names:
        embed = embed_of(await alice.slash(table.channel, "help", command=name))
        assert len(embed) <= 6000, name
        assert all(len(f.value) <= 1024 for f in embed.fields), name


# --- /odds -----------------------------------------------------------------------------------


async def test_odds_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    coda = text_of(await alice.slash(table.channel, "odds coda", modifier=3, tn=11))
    assert "CODA 2d6 +3 contra un NO de 11" in coda
    assert "Probabilidades exactas del motor de reglas" in coda
    assert re.search(r"éxito \(≥ NO; regla de unos \w+\): \*\*\d+,\d\s%\*\*", coda), coda
    h90 = text_of(await alice.slash(table.channel, "odds h90", bonus=2, difficulty=14))
    assert "Hogwarts 1990 d20 +2 contra dificultad 14" in h90 and "**fallo crítico**" in h90
    assert "estrés + ventaja: éxito" in h90
    infinity = text_of(
        await alice.slash(table.channel, "odds infinity", a_attribute=13, b_attribute=11)
    )
    assert "gana A" in infinity and "Impactos esperados de A" in infinity
    assert re.search(r"Impactos esperados de A: \*\*\d+,\d\d\*\*", infinity), infinity
    rps = text_of(await alice.slash(table.channel, "odds rps", base=12))
    assert "Tirada de RPS con Base 12" in rps and "**NE 0**" in rps
    drama = text_of(await alice.slash(table.channel, "odds drama", base=5, resistance=1))
    assert "Drama 5d − 1d de resistencia, 0 dados de drama" in drama
    assert "sin críticos: sí, pero" in drama


# --- /dice -----------------------------------------------------------------------------------


def test_since_choices_follow_the_service() -> None:
    assert [choice.value for choice in SINCE_CHOICES] == list(dice_stats.SINCE)


async def test_dice_stats_and_test_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    table.bot.dice = ScriptedDice([1, 2, 3, 4, 5, 6] * 2)
    await table.alice.slash(table.channel, "roll", expression="12d6")
    stats = await alice.slash(table.channel, "dice stats", player=table.alice.user, since="24h")
    text = text_of(stats)
    assert "🎲 Dados de alice" in text
    assert "tiradas públicas de alice en las últimas 24 horas" in text
    assert "d6 · 12 dados" in text and "Dados justos: 2,0 de cada cara." in text
    assert "muy pocas tiradas para juzgar" in text and "1 tirada leída" in text
    table.bot.dice = ScriptedDice([1, 2] * 50)
    test = text_of(await alice.slash(table.channel, "dice test", sides=2, count=100))
    assert "🎲 100 d2 de los dados del bot" in test
    assert "χ² = 0,00 con 1 grados de libertad — tan justos como pueden ser" in test


async def test_dice_verify_and_the_secret_notice_in_spanish(
    table: Table,
    as_spanish: Any,
) -> None:
    alice = as_spanish(table.alice)
    table.bot.dice = ScriptedDice([4])
    rolled = await alice.slash(table.channel, "roll", expression="1d6", secret=True)
    notice = next(f for f in rolled.followups if not f.ephemeral)
    assert "ha hecho una tirada secreta" in notice.content
    assert re.search(r"Tirada #\d+ · compromiso `[0-9a-f]{16}…`", notice.content)
    wrong = await alice.slash(
        table.channel, "dice verify", record="{}", salt="00" * 16, commitment="xyz"
    )
    assert "Un compromiso tiene de 16 a 64 dígitos hexadecimales" in wrong.response.content
    checked = await alice.slash(
        table.channel, "dice verify", record="{}", salt="00" * 16, commitment="0" * 64
    )
    embed = embed_of(checked)
    assert embed.title == "❌ El compromiso no coincide"
    assert embed.fields[0].name == "SHA-256 recalculado"


# --- /macro ----------------------------------------------------------------------------------


async def test_macros_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    saved = embed_of(
        await alice.slash(table.channel, "macro save", name="d", command="roll expression:2d6")
    )
    assert saved.title == "Macro d — guardada"
    assert saved.footer.text == "Tuyas · se ejecuta con /macro run name:d"
    listed = embed_of(await alice.slash(table.channel, "macro list"))
    assert listed.title == "Macros que puedes ejecutar aquí" and listed.fields[0].name == "Tuyas"
    table.bot.dice = ScriptedDice([3, 4])
    ran = await alice.slash(table.channel, "macro run", name="d")
    assert "alice tiró 2d6" in embed_of(ran).footer.text
    twice = await alice.slash(table.channel, "macro save", name="D", command="roll expression:1")
    assert "Ya hay una macro de ámbito `me` llamada `D`" in twice.response.content
    bad = await alice.slash(table.channel, "macro save", name="x", command="roll nope:1")
    assert "`nope`" in bad.response.content  # the words are the command line's (20a)
    edit = await alice.slash(table.channel, "macro edit", name="d")
    assert edit.modal["title"] == "Editar macro: d"
    deleted = embed_of(await alice.slash(table.channel, "macro delete", name="d"))
    assert deleted.title == "Macro d — borrada"
    gone = await alice.slash(table.channel, "macro show", name="d")
    assert "No tienes ninguna macro llamada `d` aquí" in gone.response.content


async def test_sheet_panel_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    await alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    empty = await alice.slash(table.channel, "sheet panel")
    assert "Hermione todavía no tiene macros" in empty.response.content
    await alice.slash(
        table.channel, "macro save", name="d", command="roll expression:2d6", scope="character"
    )
    panel = embed_of(await alice.slash(table.channel, "sheet panel"))
    assert panel.title == "Hermione — tiradas rápidas"


# --- /penalty --------------------------------------------------------------------------------


async def test_penalty_pool_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    await alice.slash(table.channel, "sheet create", name="William", system="drama")
    added = embed_of(
        await alice.slash(
            table.channel, "penalty add", character="William", amount=4, reason="una marcha"
        )
    )
    assert added.title == "😟 Reserva de penalización — William"
    assert "+4 dados de penalización añadidos: 0 → **4** (alterado)" in added.description
    assert "Motivo: una marcha" in added.description
    assert "**William** está ahora **alterado** (estaba ninguno)" in added.description
    rested = embed_of(
        await alice.slash(table.channel, "penalty rest", character="William", hours=7)
    )
    assert "−2 dados de penalización recuperados por 7 horas de descanso" in rested.description
    short = embed_of(await alice.slash(table.channel, "penalty rest", character="William", hours=2))
    assert "Menos de 3 horas completas de descanso no recuperan nada." in short.description
    shown = embed_of(await alice.slash(table.channel, "penalty show"))
    assert "**2 dados de penalización** · nivel **distraído**" in shown.description
    assert shown.fields[0].name == "Cambios recientes" and "descanso: 4 → 2 por <@" in (
        shown.fields[0].value
    )
    assert shown.footer.text.startswith("Niveles: 1–3 distraído")
    gm = as_spanish(table.gm)
    await table.alice.slash(table.channel, "sheet use", character="William")
    recovered = embed_of(
        await gm.slash(table.channel, "penalty recover", character="William", amount=5)
    )
    assert "la reserva se detiene en 0" in recovered.description
    assert "**William** está libre de dados de penalización." in recovered.description


# --- the rest of /sheet ----------------------------------------------------------------------


async def test_sheet_rename_copy_use_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    await alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    renamed = text_of(
        await alice.slash(table.channel, "sheet rename", character="Hermione", new_name="Granger")
    )
    assert "Granger — antes se llamaba Hermione" in renamed
    copied = text_of(await alice.slash(table.channel, "sheet copy", new_name="Jean"))
    assert "Jean — una copia; `/sheet use` la juega aquí" in copied
    used = await alice.slash(table.channel, "sheet use", character="Jean")
    # The system's title is the core's (translated once 20a's catalog is merged).
    assert used.response.content.startswith("Ahora juegas con **Jean** (CODA")
    assert used.response.content.endswith(") en este canal.")


async def test_sheet_edit_form_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    await alice.slash(table.channel, "sheet create", name="Hermione", system="coda")
    form = await alice.slash(table.channel, "sheet edit")
    assert form.modal["title"] == "Hermione: atributos"
    labels = [
        item["label"]
        for row in form.modal["components"]
        for item in row.get("components") or [row.get("component")]
    ]
    assert labels == [
        "Atributos (modificadores)",
        "Reacciones y Defensa",
        "Otros atributos",
        "Recursos (actual/máximo)",
        "Notas",
    ]
    skills = await alice.slash(table.channel, "sheet edit", part="skills")
    assert skills.modal["title"] == "Hermione: habilidades"


async def test_sheet_import_errors_in_spanish(table: Table, as_spanish: Any) -> None:
    alice = as_spanish(table.alice)
    not_json = await alice.slash(table.channel, "sheet import", file=("h.json", b"{nope"))
    assert "El archivo no es JSON" in not_json.response.content
    data = {"name": "Hermione", "system": "coda", "attributes": {"Wits": 9999}}
    too_big = await alice.slash(
        table.channel, "sheet import", file=("h.json", json.dumps(data).encode())
    )
    assert "`attributes.Wits`: debe estar entre -100 y 1000." in too_big.response.content
    data["attributes"] = {"Wits": 3}
    imported = text_of(
        await alice.slash(table.channel, "sheet import", file=("h.json", json.dumps(data).encode()))
    )
    assert "Hermione — importado" in imported and "Wits **3**" in imported
