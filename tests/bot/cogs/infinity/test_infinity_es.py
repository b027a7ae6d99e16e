"""``/infinity roll|ftf|save`` for a Spanish table: the seed's examples with its own terms
(Valor de Éxito, Ráfaga, Crítico, MOD, Tirada Enfrentada), and the refusals in Spanish."""

from __future__ import annotations

import pytest

from bot.i18n import use_language
from bot.render.common import percent
from engine.dice import ScriptedDice
from engine.systems import infinity
from tests.bot.cogs.test_roll_your_side import ftf_challenge, fusilier_and_sniper
from tests.conftest import Table, embed_of


@pytest.fixture
def alicia(table: Table, as_spanish) -> object:
    """Alice, whose Discord client speaks Spanish."""
    return as_spanish(table.alice)


async def slash(table: Table, member, command: str, faces: list[int], **options) -> object:
    table.bot.dice = ScriptedDice(faces)
    result = await member.slash(table.channel, f"infinity {command}", **options)
    assert table.bot.dice.remaining == 0, "the command drew fewer dice than scripted"
    return result


def field(embed, name_start: str) -> str:
    return next(f.value for f in embed.fields if f.name.startswith(name_start))


async def test_normal_roll_in_spanish(table: Table, alicia) -> None:
    # Seed 002, Tirada Normal: CD 12 con MOD −3 da Valor de Éxito 9; Ráfaga 3.
    result = await slash(table, alicia, "roll", [9, 3, 15], attribute="12", mods=-3, burst=3)
    embed = embed_of(result)
    assert embed.title == "💥 2 éxitos, 1 de ellos Crítico · VE 9"
    assert "12 + MOD −3 = VE 9" in embed.description
    assert "**Dados (R3):** **9** 💥 Crítico · **3** ✅ éxito · 15 ❌ fallo" in embed.description
    chance = field(embed, "Probabilidad")
    with use_language("es"):
        expected = percent(infinity.chance(attribute=12, mods=-3, burst=3))
    assert chance.startswith(f"{expected} de al menos un éxito")
    assert "éxitos esperados 1,35" in chance  # 3 × 9/20, with a decimal comma
    assert "tirada de alice" in embed.footer.text


async def test_seed_maximum_modifier_and_automatic_failure_in_spanish(table: Table, alicia) -> None:
    # Seed 002, Modificador Máximo: −6 Mimetismo −3 Cobertura −6 distancia = −15, MOD −12.
    result = await slash(
        table,
        alicia,
        "roll",
        [1],
        attribute="13",
        cover=True,
        mimetism=-6,
        range="40:+3,80:-3,120:-6",
        distance=100,
    )
    description = embed_of(result).description
    assert (
        "**MOD:** Distancia 100 (hasta 120) −6 · Cobertura −3 · Mimetismo −6 = −15, "
        "limitado a −12 (el MOD máximo es ±12)"
    ) in description
    assert "13 + MOD −15 (limitado a −12) = VE 1" in description
    # Valor de Éxito por debajo de 1: fallo automático, no se tira.
    failed = embed_of(await slash(table, alicia, "roll", [], attribute="5", mods=-8))
    assert failed.title == "❌ Fallo automático · VE −3"
    assert "fallo automático, no se tira ningún dado" in failed.description


async def test_above_20_crits_from_17_in_spanish(table: Table, alicia) -> None:
    # Seed 002: CC 23 suma 3 a cada dado y es Crítico con 17 o más.
    embed = embed_of(await slash(table, alicia, "roll", [17], attribute="23"))
    assert "VE 23 — VE 20, +3 a cada dado, Crítico con 17+" in embed.description
    assert embed.title == "💥 1 éxito: un Crítico · VE 23"
    assert "**17+3=20** 💥 Crítico" in embed.description


async def test_seed_face_to_face_critical_wins_in_spanish(table: Table, alicia) -> None:
    # Seed 002, Tirada Enfrentada: el Fusilero (VE 12) y el Zhanshi B (VE 11) sacan 11;
    # para el Zhanshi es un Crítico, y gana.
    embed = embed_of(
        await slash(table, alicia, "ftf", [11, 11], active_attribute="12", reactive_attribute="11")
    )
    assert embed.title == "💥 Gana Reactivo con un Crítico — 1 Impacto"
    assert "Un Crítico supera cualquier éxito: se anulan todos los éxitos del activo." in (
        embed.description
    )
    assert "**Impactos:** **11** 💥 Crítico" in embed.description
    assert "~~11~~ 🚫 anulado" in field(embed, "Activo")
    chance = field(embed, "Probabilidad")
    assert "Gana el activo" in chance and "Impactos esperados: activo" in chance


async def test_seed_face_to_face_with_burst_in_spanish(table: Table, alicia) -> None:
    # Seed 002: Ráfaga 2 contra 1; el 5 anula el 4 y el 9 gana la Tirada Enfrentada.
    embed = embed_of(
        await slash(
            table,
            alicia,
            "ftf",
            [4, 9, 5],
            active_attribute="12",
            active_burst=2,
            reactive_attribute="11",
        )
    )
    assert embed.title == "🎯 Gana Activo — 1 Impacto"
    assert "~~4~~ 🚫 anulado · **9** ✅ éxito" in field(embed, "Activo")
    assert "Los éxitos del activo por encima del mejor del reactivo impactan" in embed.description
    both = embed_of(
        await slash(
            table,
            alicia,
            "ftf",
            [12, 3, 8, 11],
            active_attribute="12",
            active_burst=3,
            reactive_attribute="11",
        )
    )
    assert both.title == "⚖️ Nadie gana: ambos sacaron un Crítico"
    tie = embed_of(
        await slash(table, alicia, "ftf", [7, 7], active_attribute="12", reactive_attribute="11")
    )
    assert tie.title == "⚖️ Nadie gana: los mejores éxitos empatan"


async def test_burst_split_in_spanish(table: Table, alicia) -> None:
    result = await slash(
        table,
        alicia,
        "ftf",
        [12, 5, 9, 8, 10],
        active_attribute="13",
        active_burst=3,
        reactive_attribute="11",
        targets="Warband:1:13:-3",
    )
    embed = embed_of(result)
    assert embed.title == (
        "🎯 Ráfaga dividida entre 2 objetivos — activo 1 Impacto, "
        "1 objetivo(s) devuelve(n) el impacto"
    )
    reactive = field(embed, "→ Reactivo")
    assert "**Dirigidos (R2):** **12** ✅ éxito · ~~5~~ 🚫 anulado" in reactive
    assert "🎯 Gana Activo — 1 Impacto" in reactive
    assert "💥 Gana Objetivo con un Crítico — 1 Impacto" in field(embed, "→ Warband")


async def test_save_in_spanish(table: Table, alicia) -> None:
    embed = embed_of(
        await slash(table, alicia, "save", [3, 10], damage=13, armor="3", cover=True, hits=2)
    )
    assert embed.title == "🩸 1 Herida — Tirada de Salvación"
    assert (
        "**Daño del ataque:** 13 − ARM 3 −3 (Cobertura: +3 a la salvación) = 7 — "
        "un 7 o menos falla y cuesta una Herida"
    ) in embed.description
    assert "**Salvaciones (2 Impactos):** 3 🩸 herida · **10** ✅ salvado" in embed.description
    assert "Heridas esperadas 0,70" in field(embed, "Probabilidad")
    saved = embed_of(await slash(table, alicia, "save", [15], damage=13, armor="3"))
    assert saved.title == "🛡️ Salvado: ninguna Herida — Tirada de Salvación"


async def test_refusals_in_spanish(table: Table, alicia) -> None:
    result = await slash(table, alicia, "roll", [], attribute="-5")
    assert result.ephemeral
    assert result.response.content == "atributo debe estar entre 0 y 40 (es -5)"
    ftf = await slash(table, alicia, "ftf", [], active_attribute="12", reactive_attribute="−5")
    assert ftf.response.content == "Reactivo: atributo debe estar entre 0 y 40 (es -5)"
    far = await slash(table, alicia, "roll", [], attribute="12", range="40:+3,80:-3", distance=90)
    assert far.response.content == "A 90 el objetivo está fuera de alcance (el arma llega a 80)."
    split = await slash(
        table,
        alicia,
        "ftf",
        [],
        active_attribute="13",
        active_burst=3,
        reactive_attribute="11",
        targets="Warband",
    )
    assert "`Warband` no es un objetivo" in split.response.content


async def test_english_players_still_read_english(table: Table, alicia) -> None:
    # Alice's client speaks Spanish; Bob's does not: each reads their own language.
    spanish = embed_of(await slash(table, alicia, "roll", [8], attribute="12"))
    english = embed_of(await slash(table, table.bob, "roll", [8], attribute="12"))
    assert spanish.title == "✅ 1 éxito · VE 12"
    assert english.title == "✅ 1 success · SV 12"


async def test_largest_bursts_fit_discord_in_spanish(table: Table, alicia) -> None:
    # The longest face to face (Burst 10 against 10, every die shown) in the longer Spanish.
    faces = list(range(11, 21)) + list(range(1, 11))
    embed = embed_of(
        await slash(
            table,
            alicia,
            "ftf",
            faces,
            active_attribute="33",
            active_mods=12,
            active_burst=10,
            reactive_attribute="30",
            reactive_burst=10,
        )
    )
    assert len(embed) <= 6000 and all(len(f.value) <= 1024 for f in embed.fields)
    assert "acortad" not in (embed.footer.text or "") and "shortened" not in (
        embed.footer.text or ""
    )
    assert field(embed, "Activo").count("🚫 anulado") == 10
    assert field(embed, "Reactivo").count("🚫 anulado") == 10


async def test_the_reactive_player_rolls_their_side_in_spanish(table: Table, as_spanish) -> None:
    # A Spanish table: Alice asks, Bob rolls his Sniper's side; the result is the table's.
    await fusilier_and_sniper(table)
    as_spanish(table.alice)
    as_spanish(table.bob)
    asked = await ftf_challenge(table)
    table.bot.dice = ScriptedDice([5])  # the Sniper's 5 (SV 13) is beaten by the 7
    await table.bob.click(asked.response, label="Tirar mi lado")
    embed = table.channel.last_message.embeds[0]
    assert embed.title == "🎯 Gana Activo — 1 Impacto"
    assert "**MOD:** Mimetismo −3 = −3" in "\n".join(f.value for f in embed.fields)
    assert "tirada de alice y bob" in embed.footer.text
