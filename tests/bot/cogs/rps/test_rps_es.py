"""``/rps check|resisted|sustained …`` in Spanish: the same rolls as in
``test_rps.py``, read in Spanish and still correct (Base, SL, pools, winners)."""

from __future__ import annotations

from typing import Any

from engine.dice import ScriptedDice
from tests.bot.cogs.rps.test_rps import daniela
from tests.conftest import Table, embed_of, text_of


def spanish(table: Table, as_spanish: Any) -> None:
    for user in (table.gm, table.alice, table.bob, table.carol):
        as_spanish(user)


async def test_rps_check_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await daniela(table)
    table.bot.dice = ScriptedDice([1, 7])
    result = await table.alice.slash(
        table.channel, "rps check", skill="Tracking", difficulty="Moderately hard", label="rastro"
    )
    embed = embed_of(result)
    assert embed.title == "🎲 NE 4 — aceptable — rastro"
    assert "**Base 12** = Tracking 4 + Intuition 6 + Moderadamente difícil +2" in (
        embed.description
    )
    assert "2d10: [1] [7] → NE = 12 − 8 = 4" in embed.description
    assert "**NE 4** — éxito, aceptable." in embed.description
    assert "Probabilidad:" in embed.description and "de NE ≥ 1" in embed.description
    table.bot.dice = ScriptedDice([4, 9])
    low = await table.alice.slash(table.channel, "rps check", attribute="strength", modifier=-2)
    assert "**Base 8** = 2 × Strength 5 + modificador −2" in embed_of(low).description
    assert embed_of(low).title == "🎲 NE −5 — fallo"
    table.bot.dice = ScriptedDice([10, 10])
    fumble = await table.bob.slash(table.channel, "rps check", base=19)
    assert "Doble 10: **fallo crítico** (una pifia)." in text_of(fumble)


async def test_rps_check_refusals_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await daniela(table)
    both = await table.alice.slash(table.channel, "rps check", base=10, attribute="Strength")
    assert both.ephemeral and "no ambos" in text_of(both)
    forgo = await table.alice.slash(table.channel, "rps check", base=10, forgo=True)
    assert forgo.ephemeral
    assert "La tirada solo se puede omitir cuando la Base pasa de 15 (la Base es 10)." in text_of(
        forgo
    )
    granted = await table.alice.slash(table.channel, "rps check", base=10, automatic=True)
    assert granted.ephemeral and "Solo el DJ del canal puede conceder" in text_of(granted)
    missing = await table.alice.slash(table.channel, "rps check", skill="Cooking")
    assert missing.ephemeral and "Daniela no tiene la habilidad `Cooking`" in text_of(missing)
    assert "o haz una tirada de atributo." in text_of(missing)


async def test_rps_resisted_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    table.bot.dice = ScriptedDice([6, 7, 4, 4, 5, 5])
    result = await table.gm.slash(
        table.channel, "rps resisted", parties="Johnny:10, Franky:9, Richard:8", label="póquer"
    )
    embed = embed_of(result)
    assert embed.title == "⚔️ Franky gana — NE 3 — póquer"
    text = text_of(result)
    assert "Johnny: Base 10, [6] [7] → **NE −3**" in text
    assert "Probabilidad: gana Johnny" in embed.description
    assert "Ronda 1" in text and "Bases" in text
    table.bot.dice = ScriptedDice([4, 4, 3, 5, 6, 8, 6, 5, 2, 5])
    roll_off = await table.gm.slash(table.channel, "rps resisted", parties="A:10; B:10; C:10")
    assert "Desempate 1" in text_of(roll_off)
    assert embed_of(roll_off).title == "⚔️ B gana — NE 4"
    twice = await table.gm.slash(table.channel, "rps resisted", parties="A:10, a:9")
    assert twice.ephemeral and "a aparece dos veces" in text_of(twice)
    bare = await table.gm.slash(table.channel, "rps resisted", parties="Johnny, Franky:9")
    assert bare.ephemeral and "A `Johnny` le falta el valor (Base)" in text_of(bare)


async def test_rps_sustained_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    started = await table.alice.slash(
        table.channel,
        "rps sustained start",
        goal=8,
        label="empujar el carro",
        participants=f"<@{table.bob.id}>",
    )
    embed = embed_of(started)
    assert embed.title == "⏳ Acción sostenida iniciada — empujar el carro"
    assert "Reserva de éxitos **0** / Objetivo **8** tras 0 tiradas." in embed.description
    assert f"Iniciada por <@{table.alice.id}>." in embed.description
    assert f"Participantes: <@{table.bob.id}>" in embed.description
    refused = await table.carol.slash(table.channel, "rps sustained roll", base=12)
    assert refused.ephemeral and "Solo quien la inició" in refused.response.content
    table.bot.dice = ScriptedDice([3, 4])
    first = await table.alice.slash(table.channel, "rps sustained roll", base=12)
    assert embed_of(first).title.startswith("⏳ NE 5 — reserva 5/8")
    assert "0 +5 → **5** / 8" in text_of(first)
    status = await table.bob.slash(table.channel, "rps sustained status")
    assert "Últimas tiradas" in text_of(status)
    assert "/rps sustained roll añade una tirada" in embed_of(status).footer.text
    again = await table.bob.slash(table.channel, "rps sustained start", goal=3)
    assert again.ephemeral and "Ya hay una acción sostenida en curso aquí" in text_of(again)
    table.bot.dice = ScriptedDice([2, 6])
    done = await table.bob.slash(table.channel, "rps sustained roll", base=12)
    assert "✅" in embed_of(done).title and "completada" in text_of(done)
    abandon = await table.alice.slash(table.channel, "rps sustained abandon")
    assert abandon.ephemeral and "ya está completada: no hay nada que abandonar" in text_of(abandon)


async def test_rps_sustained_abandon_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    none = await table.alice.slash(table.channel, "rps sustained abandon")
    assert none.ephemeral and "No hay ninguna acción sostenida en este canal" in text_of(none)
    await table.alice.slash(table.channel, "rps sustained start", goal=10)
    not_yours = await table.bob.slash(table.channel, "rps sustained abandon")
    assert not_yours.ephemeral and "Solo quien empezó esta acción sostenida" in text_of(not_yours)
    gm = await table.gm.slash(table.channel, "rps sustained abandon")
    assert embed_of(gm).title == "⏹️ Acción sostenida abandonada"
    assert "⏹️ **abandonada**" in embed_of(gm).description
