"""``/h90 roll|defended|opposed`` in Spanish: the same rolls as in
``test_hogwarts1990.py``, read in Spanish and still correct (kept die, totals, winners)."""

from __future__ import annotations

from typing import Any

from engine.dice import ScriptedDice
from tests.bot.cogs.hogwarts1990.test_hogwarts1990 import keeper
from tests.conftest import Table, embed_of, text_of


def spanish(table: Table, as_spanish: Any) -> None:
    for user in (table.gm, table.alice, table.bob, table.carol):
        as_spanish(user)


async def test_h90_roll_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    table.bot.dice = ScriptedDice([4, 15])
    result = await table.alice.slash(
        table.channel, "h90 roll", bonus=3, difficulty=18, label="subir a la torre"
    )
    embed = embed_of(result)
    assert embed.title == "✅ Éxito — subir a la torre"
    assert "**Dados:** [4] **[15]** (tirada estándar: se queda el mayor)" in embed.description
    assert "15 + 3 = **18** contra 18" in embed.description
    assert "Probabilidad:" in embed.description and "fallo crítico" in embed.description
    table.bot.dice = ScriptedDice([4, 15])
    stress = await table.alice.slash(table.channel, "h90 roll", bonus=3, difficulty=18, stress=True)
    assert embed_of(stress).title == "❌ Fracaso — Tirada de Hogwarts 1990"
    assert "(tirada de estrés: se queda el menor)" in embed_of(stress).description
    table.bot.dice = ScriptedDice([12, 12])
    doubles = await table.alice.slash(table.channel, "h90 roll", bonus=2, difficulty=14)
    assert embed_of(doubles).title.startswith("🌟 Éxito excepcional")
    assert "Dobles en un éxito" in embed_of(doubles).description
    table.bot.dice = ScriptedDice([3, 11, 17])
    advantage = await table.alice.slash(
        table.channel, "h90 roll", bonus=1, difficulty=15, advantage=True
    )
    assert "ventaja: se repitió el dado menor" in embed_of(advantage).description
    missing = await table.alice.slash(table.channel, "h90 roll", character="Oliver")
    assert missing.ephemeral and "Nombra el atributo que tira Oliver con `attribute`." in (
        text_of(missing)
    )


async def test_h90_defended_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await keeper(table)
    table.bot.dice = ScriptedDice([4, 9])
    result = await table.gm.slash(
        table.channel,
        "h90 defended",
        defense="toughness + Dexterity",
        defender="Oliver",
        bonus=3,
        label="tiro a los aros",
    )
    embed = embed_of(result)
    assert embed.title == "✅ Éxito — tiro a los aros"
    assert "9 + 3 = **12** contra 11" in embed.description
    assert (
        "🛡️ Defendida: la dificultad son los atributos de Oliver: Toughness 8 + Dexterity 3 = 11"
    ) in embed.description
    attribute = await table.alice.slash(table.channel, "h90 defended", defense="Toughness")
    assert attribute.ephemeral and "`Toughness` es un atributo" in text_of(attribute)
    joined = await table.alice.slash(table.channel, "h90 defended", defense="8 + ")
    assert joined.ephemeral and "unidos por +" in text_of(joined)
    too_hard = await table.alice.slash(table.channel, "h90 defended", defense="100 + 100 + 1")
    assert too_hard.ephemeral
    assert "La dificultad debe estar entre 0 y 200 (se recibió 201)" in text_of(too_hard)


async def test_h90_opposed_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    table.bot.dice = ScriptedDice([5, 14, 10, 2])
    result = await table.alice.slash(
        table.channel, "h90 opposed", bonus=2, vs_bonus=3, label="un pulso"
    )
    embed = embed_of(result)
    assert embed.title == "🏆 alice gana por 3 — un pulso"
    assert [f.name for f in embed.fields] == ["alice", "Rival"]
    assert "Probabilidad: alice" in embed.description and "empate" in embed.description
    assert "Tirada enfrentada de Hogwarts 1990" in embed.footer.text
    table.bot.dice = ScriptedDice([5, 14, 10, 2])
    tie = await table.alice.slash(table.channel, "h90 opposed", vs_bonus=4)
    assert embed_of(tie).title == "🤝 Empate a 14"
    no_character = await table.alice.slash(table.channel, "h90 opposed", vs_attribute="Bravery")
    assert no_character.ephemeral
    assert "Nombra el personaje cuyo atributo tira el otro lado" in text_of(no_character)


async def test_h90_roll_your_side_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await table.alice.slash(table.channel, "sheet create", name="Oliver", system="h90")
    await table.alice.slash(table.channel, "sheet set", attribute="Bravery", value=3)
    await table.bob.slash(table.channel, "sheet create", name="Percy", system="h90")
    await table.bob.slash(table.channel, "sheet set", attribute="Bravery", value=1)
    await table.bob.slash(table.channel, "sheet use", character="Percy")
    table.bot.dice = ScriptedDice([5, 14])
    asked = await table.alice.slash(
        table.channel,
        "h90 opposed",
        attribute="Bravery",
        vs_character="Percy",
        vs_attribute="Bravery",
        label="el reto",
    )
    assert asked.response.content.startswith(
        f"<@{table.bob.id}>: Oliver · Bravery desafía a **Percy** (Bravery) — el reto — tira"
    )
    secret = await table.alice.slash(
        table.channel,
        "h90 opposed",
        attribute="Bravery",
        vs_character="Percy",
        vs_attribute="Bravery",
        secret=True,
    )
    assert secret.ephemeral
    assert "Una tirada secreta no puede esperar a quien lleva a Percy" in text_of(secret)
    table.bot.dice = ScriptedDice([10, 2])  # Percy: 10 + 1 = 11
    await table.bob.click(asked.response, label="Tirar mi lado")
    embed = table.channel.last_message.embeds[0]
    assert embed.title == "🏆 Oliver · Bravery gana por 6 — el reto"
