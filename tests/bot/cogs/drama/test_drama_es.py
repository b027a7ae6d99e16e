"""``/drama test|opposed``, "Pay the price" and "Roll my side" in Spanish.

The same rolls as in ``test_drama.py`` read in Spanish and stay correct (nets, pools,
penalty dice); players on an English client still read English.
"""

from __future__ import annotations

from typing import Any

from engine.dice import ScriptedDice
from tests.bot.cogs.drama.test_drama import william
from tests.conftest import Table, embed_of, text_of


def spanish(table: Table, as_spanish: Any) -> None:
    for user in (table.gm, table.alice, table.bob, table.carol):
        as_spanish(user)


async def test_drama_test_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await william(table)
    table.bot.dice = ScriptedDice([6, 5, 5, 1, 2, 4, 4, 4, 4, 3, 3])
    result = await table.alice.slash(
        table.channel, "drama test", skill="Dancing", difficulty="Difficult"
    )
    embed = embed_of(result)
    assert embed.title == "✅ Éxito — neto 3"
    assert "**6Bd · 5Rd · 0Dd**" in embed.description
    assert "Physical 2 < Dancing 4 (1Rd)" in embed.description
    assert "Difícil (4Rd)" in embed.description
    assert "Probabilidad:" in embed.description and "de éxito" in embed.description
    text = text_of(result)
    assert "Dados base +3 **[6]** **[5]** **[5]** [1] [2] [4]" in text
    assert "Dados de resistencia +0" in text
    assert "William no tiene dados de penalización." in text
    assert "negrita = cuenta" in embed.footer.text


async def test_drama_dice_and_refusals_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await william(table)
    # 2Bd {5, 2}, 2Dd {6, 1} and the 6's extra die {4}: 1 + 1 − 1 + 1 = net 2.
    table.bot.dice = ScriptedDice([5, 2, 6, 1, 4])
    result = await table.alice.slash(table.channel, "drama test", base=2, drama=2)
    embed = embed_of(result)
    assert embed.title == "✅ Éxito — neto 2"
    fields = {f.name: f.value for f in embed.fields}
    assert "Dados de drama +1, 1 explotados" in fields
    assert "para William por los 1 de los dados de drama" in fields["Dados de penalización"]
    both = await table.alice.slash(table.channel, "drama test", base=2, attribute="Physical")
    assert both.ephemeral and "no ambos" in text_of(both)
    risk = await table.alice.slash(table.channel, "drama test", base=2, risk=True)
    assert risk.ephemeral and "Solo el DJ del canal puede convertir" in text_of(risk)
    lone = await table.alice.slash(table.channel, "drama test", backgrounds=1)
    assert lone.ephemeral and "Los trasfondos se suman a un atributo" in text_of(lone)


async def test_pay_the_price_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await william(table)
    table.bot.dice = ScriptedDice([5, 3])
    rolled = await table.alice.slash(table.channel, "drama test", base=2, label="la verja")
    embed = embed_of(rolled)
    assert embed.title == "⚖️ Sí, pero… — neto 1 — la verja"
    assert "Paga el precio (+1 dado de penalización) en 15 minutos" in embed.description
    button = rolled.response.message.components[0].children[0]
    assert button.label == "Pagar el precio"
    refused = await table.bob.click(rolled.response, label="Pagar el precio")
    assert refused.ephemeral
    assert f"Solo <@{table.alice.id}>, que hizo la tirada, puede pagar" in text_of(refused)
    await table.alice.click(rolled.response, label="Pagar el precio")
    paid = table.channel.last_message.embeds[0]
    assert paid.title.startswith("✅ Éxito (precio pagado) — neto 1")
    assert "Paga el precio" not in paid.description
    assert any(f.name == "Precio pagado" for f in paid.fields)


async def test_drama_opposed_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    table.bot.dice = ScriptedDice([5, 3, 2, 2, 6, 6, 4, 1, 5, 5, 2, 1, 1])
    result = await table.bob.slash(
        table.channel, "drama opposed", their_base=5, their_name="Tom", base=4, drama=2
    )
    embed = embed_of(result)
    assert embed.title == "🏆 bob gana por 1"
    text = text_of(result)
    assert "**bob**: neto 3 · **Tom**: neto 2" in text
    assert "Un lado necesita neto 2 o más" in text
    assert "Tom: Dados base +2" in text
    table.bot.dice = ScriptedDice([5, 5, 6, 6])
    draw = await table.bob.slash(
        table.channel, "drama opposed", their_base=2, base=2, momentum="them"
    )
    assert embed_of(draw).title == "🤝 Empate a 2"
    assert "El impulso decide el empate: se impone **Rival**" in text_of(draw)
    table.bot.dice = ScriptedDice([5, 3, 1, 1])
    fail = await table.bob.slash(table.channel, "drama opposed", their_base=2, base=2)
    assert embed_of(fail).title == "❌ Ambos fallan"
    yourself = await table.bob.slash(
        table.channel, "drama opposed", their_base=2, base=2, their_name=f"<@{table.bob.id}>"
    )
    assert yourself.ephemeral and "No puedes enfrentarte a ti mismo" in text_of(yourself)


async def test_roll_my_side_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await william(table)
    await table.bob.slash(table.channel, "sheet create", name="Peter", system="drama")
    await table.bob.slash(table.channel, "sheet set", attribute="Agility", value=2)
    await table.bob.slash(table.channel, "sheet skill", name="Riding", ranks=1, attribute="Agility")
    table.bot.dice = ScriptedDice([5, 5, 5, 3, 3])
    asked = await table.alice.slash(
        table.channel,
        "drama opposed",
        their_name=f"<@{table.bob.id}>",
        their_skill="Riding",
        skill="Riding",
        label="la carrera",
    )
    content = asked.response.content
    assert content.startswith(
        f"<@{table.bob.id}>: William te desafía (habilidad Riding) — la carrera — tira tu lado "
        "con **Tirar mi lado** (en 10 minutos)"
    )
    assert asked.response.message.components[0].children[0].label == "Tirar mi lado"
    refused = await table.carol.click(asked.response, label="Tirar mi lado")
    assert refused.ephemeral and f"Solo <@{table.bob.id}> puede tirar este lado" in text_of(refused)
    table.bot.dice = ScriptedDice([6, 3, 3])  # Peter 3Bd: net 1
    await table.bob.click(asked.response, label="Tirar mi lado")
    message = asked.response.message.id
    embed = next(m for m in table.channel.history() if m.id == message).embeds[0]
    assert embed.title == "🏆 William gana por 2 — la carrera"
    after = next(m for m in table.channel.history() if m.id == message)
    assert after.components[0].children[0].label == "Tirar mi lado"
    assert after.components[0].children[0].disabled


async def test_english_client_still_reads_english(table: Table, as_spanish: Any) -> None:
    as_spanish(table.bob)
    await william(table)
    table.bot.dice = ScriptedDice([5, 3])
    rolled = await table.alice.slash(table.channel, "drama test", base=2)
    assert embed_of(rolled).title == "⚖️ Yes, but… — net 1"


async def test_a_lapsed_request_says_so_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await william(table)
    await table.bob.slash(table.channel, "sheet create", name="Peter", system="drama")
    await table.bob.slash(table.channel, "sheet set", attribute="Agility", value=2)
    table.bot.dice = ScriptedDice([5, 5, 5, 3, 3, 1])  # William: 6Bd (2 × Agility 3)
    asked = await table.alice.slash(
        table.channel,
        "drama opposed",
        their_name=f"<@{table.bob.id}>",
        their_attribute="Agility",
        attribute="Agility",
    )
    await table.env.advance_time(11 * 60)
    late = await table.bob.click(asked.response, label="Tirar mi lado")
    assert "Demasiado tarde: este desafío caducó" in text_of(late)
    assert "⌛ Caducado: el otro lado no tiró en 10 minutos." in table.channel.last_message.content
