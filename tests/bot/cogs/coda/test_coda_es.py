"""A CODA evening for a Spanish table: every ``/coda`` command answers in Spanish (degrees,
NO, Defensa, Esquivar/Parar, pruebas extendidas…) and its numbers are still right."""

from __future__ import annotations

import pytest

from engine.dice import ScriptedDice
from tests.bot.cogs.coda.test_coda import hermione
from tests.bot.cogs.coda.test_coda_attack import harry_and_draco, labels
from tests.bot.cogs.coda.test_coda_turns import fight, hit, walk
from tests.bot.cogs.initiative.test_initiative import ok
from tests.bot.cogs.test_roll_your_side import challenge, hermione_and_ron
from tests.conftest import Table, embed_of, text_of


@pytest.fixture
def spanish(table: Table, as_spanish) -> Table:
    """The whole table plays with Spanish Discord clients."""
    for member in (table.gm, table.alice, table.bob, table.carol):
        as_spanish(member)
    return table


async def test_test_in_spanish(spanish: Table) -> None:
    table = spanish
    table.bot.dice = ScriptedDice([6, 6, 6, 3])
    result = await table.alice.slash(
        table.channel, "coda test", modifier=2, tn=15, label="esquivar a Filch"
    )
    embed = embed_of(result)
    assert embed.title == "🌟 Éxito superior — esquivar a Filch"
    assert "**Dados:** [6] [6] 💥[6] 💥[3]" in embed.description
    assert "2d6 (21) + 2 (modificador) = **23** contra un NO de 15" in embed.description
    assert "(margen +8) · tiempo ×0,5" in embed.description
    assert "*Mejor de lo esperado, quizá con una pequeña ventaja.*" in embed.description
    assert "Probabilidad: " in embed.description
    assert "alice · prueba de CODA" in embed.footer.text


@pytest.mark.parametrize(
    ("faces", "modifier", "title"),
    [
        ([1, 1], 0, "💀 Fracaso desastroso"),
        ([2, 3], 0, "❌ Fracaso total"),
        ([4, 6], 0, "✖️ Fracaso"),
        ([5, 5], 5, "➖ Éxito marginal"),
        ([5, 5], 10, "✅ Éxito completo"),
        ([5, 5], 16, "✨ Éxito extraordinario"),
    ],
)
async def test_every_degree_in_spanish(spanish: Table, faces, modifier, title) -> None:
    spanish.bot.dice = ScriptedDice(faces)
    result = await spanish.alice.slash(spanish.channel, "coda test", modifier=modifier, tn=15)
    assert embed_of(result).title == title


async def test_difficulty_penalties_and_refusals_in_spanish(spanish: Table) -> None:
    table = spanish
    table.bot.dice = ScriptedDice([6, 5])
    result = await table.alice.slash(
        table.channel, "coda test", difficulty="Challenging", attempt=2, extra_actions=1
    )
    text = text_of(result)
    assert "− 2 (intento 2)" in text and "− 5 (acción 3)" in text
    assert any(
        f.name == "Dificultad" and f.value == "Exigente (15)" for f in embed_of(result).fields
    )
    both = await table.alice.slash(table.channel, "coda test", tn=10, difficulty="Routine")
    assert both.ephemeral and both.response.content == "Indica un NO o una dificultad, no ambos."
    unknown = await table.alice.slash(table.channel, "coda test", tn=10, conditions="Wibble +5")
    assert unknown.ephemeral and "Condición desconocida 'Wibble'" in unknown.response.content


async def test_damage_in_spanish(spanish: Table) -> None:
    spanish.bot.dice = ScriptedDice([6, 6, 6, 2])
    embed = embed_of(await spanish.alice.slash(spanish.channel, "coda damage", dice=2, modifier=1))
    assert embed.title == "💥 21 de daño"
    assert "2d6 + 2 d6 extra (20) + 1 = **21**" in embed.description
    assert "los seises abiertos añadieron 2 dados extra" in embed.description


async def test_attack_exchange_in_spanish(spanish: Table) -> None:
    table = spanish
    await harry_and_draco(table)
    table.bot.dice = ScriptedDice([3, 2])
    result = await table.alice.slash(
        table.channel, "coda attack", skill="Melee", target="Draco", dice=2, modifier=1
    )
    embed = embed_of(result)
    assert embed.title == "⚔️ Harry alcanza a Draco: ¿defensa?"
    assert "+ 2 (rangos de Melee) = **10** contra un NO de 9" in embed.fields[0].value
    assert "NO = Defensa de Draco 9 (de la ficha)" in embed.fields[0].value
    assert f"Esperando a <@{table.bob.id}> (o el DJ): Esquivar, Parar, Encajarlo." in (
        embed.description
    )
    assert labels(result.response) == ["Esquivar", "Parar", "Encajarlo"]
    refused = await table.carol.click(result.response, label="Parar")
    assert refused.ephemeral
    assert f"Solo <@{table.bob.id}> (o el DJ) responde a este ataque contra Draco." in (
        text_of(refused)
    )
    # Bob parries: 6 + 5 + 2 = 13 against the attack's 10.
    table.bot.dice = ScriptedDice([6, 5])
    await table.bob.click(result.response, label="Parar")
    parried = table.channel.last_message.embeds[0]
    assert parried.title == "🛡️ Draco para el ataque de Harry"
    assert any(f.name == "🛡️ Parar" for f in parried.fields)


async def test_opposed_and_combined_in_spanish(spanish: Table) -> None:
    table = spanish
    table.bot.dice = ScriptedDice([3, 4, 6, 6, 2])
    opposed = embed_of(await table.gm.slash(table.channel, "coda opposed", a="+3", b="-1"))
    assert opposed.title == "✅ Gana B (modificador −1)"
    assert "B (modificador −1) gana por 3: **Éxito completo**" in opposed.description
    assert "Probabilidad: gana A" in opposed.description
    table.bot.dice = ScriptedDice([3, 4, 4, 4])
    tie = embed_of(await table.gm.slash(table.channel, "coda opposed", a="+2", b="+1"))
    assert tie.title == "⚖️ Empate" and "decide el Narrador" in tie.description
    table.bot.dice = ScriptedDice([6, 6, 3, 1, 2, 4, 5, 5, 5])
    combined = await table.gm.slash(
        table.channel, "coda combined", leader="+3", helpers="+2, -5, +1", tn=15
    )
    text = text_of(combined)
    assert "Los ayudantes prueban a NO 10; su suma es **+1**" in text
    assert "Éxito superior → **+2** (probabilidad 41.7%)" in text or "(probabilidad 41,7" in text
    assert "+ 1 (ayudantes) = **14** contra un NO de 15" in text
    assert embed_of(combined).title == "✖️ Fracaso — Prueba combinada"
    bad = await table.gm.slash(
        table.channel, "coda combined", leader="+1", helpers=" , ", difficulty="Standard"
    )
    assert bad.ephemeral and "al menos un ayudante" in bad.response.content


async def test_extended_test_in_spanish(spanish: Table) -> None:
    table = spanish
    started = await table.alice.slash(
        table.channel,
        "coda extended start",
        name="Poción multijugos",
        stages="10, 15",
        interval=2,
        unit="hours",
        participants=f"<@{table.bob.id}>",
    )
    assert embed_of(started).title == "Prueba extendida empezada: Poción multijugos"
    assert "0 / 25 (NO acumulado)" in text_of(started)
    table.bot.dice = ScriptedDice([3, 3])
    failed = text_of(await table.alice.slash(table.channel, "coda extended roll", modifier=2))
    assert "no se suma nada, pero el intervalo se gasta" in failed
    assert "**Transcurrido:** 2 horas (cada prueba 2 horas)" in failed
    table.bot.dice = ScriptedDice([5, 5])
    passed = text_of(await table.bob.slash(table.channel, "coda extended roll", modifier=2))
    assert "12 sumado al total" in passed and "**Siguiente:** etapa 2, NO 15" in passed
    status = await table.alice.slash(table.channel, "coda extended status")
    assert embed_of(status).title == "Prueba extendida: Poción multijugos"
    refused = await table.carol.slash(table.channel, "coda extended abandon")
    assert refused.ephemeral and "o el DJ del canal pueden abandonarla" in text_of(refused)
    abandoned = await table.alice.slash(table.channel, "coda extended abandon")
    assert embed_of(abandoned).title == "Prueba extendida abandonada: Poción multijugos"
    assert "**Abandonada** en la etapa 2 de 2." in text_of(abandoned)
    none = await table.alice.slash(table.channel, "coda extended status")
    assert embed_of(none).title == "Pruebas extendidas"


async def test_reference_table_in_spanish(spanish: Table) -> None:
    result = await spanish.alice.slash(spanish.channel, "coda table", name="9-8", strength=3)
    embed = embed_of(result)
    assert "**Con Fuerza 3:**" in embed.description
    assert "hasta 15 lb" in embed.description
    assert embed.footer.text.startswith("CODA · documento 000")
    missing = await spanish.alice.slash(spanish.channel, "coda table", name="zzz")
    assert missing.ephemeral and "No hay ninguna tabla de referencia `zzz`" in text_of(missing)


async def test_skill_attribute_and_reaction_tests_in_spanish(spanish: Table) -> None:
    table = spanish
    await hermione(table)
    table.bot.dice = ScriptedDice([4, 3])
    skill = embed_of(
        await table.alice.slash(
            table.channel, "coda skill", skill="stealth", tn=15, specialty="hiding", affinity=1
        )
    )
    assert skill.title == "➖ Éxito marginal — Stealth (Wits)"
    assert (
        "2d6 (7) + 3 (Wits) + 2 (rangos de Stealth) + 2 (especialidad\\: Hiding) + 1 (afinidad)"
        " = **15** contra un NO de 15"
    ) in skill.description
    assert any(f.name == "Personaje" for f in skill.fields)
    refused = await table.alice.slash(table.channel, "coda skill", skill="Potions", tn=10)
    assert refused.ephemeral
    assert "no tiene la habilidad `Potions`: un intento sin entrenar (−2) necesita" in (
        refused.response.content
    )
    table.bot.dice = ScriptedDice([4, 4])
    untrained = embed_of(
        await table.alice.slash(
            table.channel, "coda skill", skill="Potions", attribute="Wits", tn=10
        )
    )
    assert "Potions (Wits, sin entrenar)" in untrained.title
    assert "− 2 (sin entrenar) = **9** contra un NO de 10" in untrained.description
    table.bot.dice = ScriptedDice([2, 3])
    attribute = embed_of(
        await table.alice.slash(table.channel, "coda attribute", name="wits", difficulty="Standard")
    )
    assert "2d6 (5) + 3 (Wits) = **8** contra un NO de 10" in attribute.description
    assert "prueba de atributo de CODA" in attribute.footer.text
    table.bot.dice = ScriptedDice([6, 2])
    reaction = embed_of(
        await table.alice.slash(table.channel, "coda reaction", name="Willpower", tn=10, modifier=1)
    )
    assert "+ 2 (Willpower) + 1 (modificador) = **11** contra un NO de 10" in reaction.description
    not_a_reaction = await table.alice.slash(table.channel, "coda reaction", name="Wits", tn=10)
    assert "Wits no es una reacción" in not_a_reaction.response.content


async def test_the_other_player_rolls_their_side_in_spanish(table: Table, as_spanish) -> None:
    await hermione_and_ron(table)  # a Spanish table: the result is drawn in its language
    as_spanish(table.alice)
    as_spanish(table.bob)
    asked = await challenge(table)
    table.bot.dice = ScriptedDice([3, 3])  # Ron: 6 + 2 + 1 = 9
    await table.bob.click(asked.response, label="Tirar mi lado")
    embed = table.channel.last_message.embeds[0]
    assert embed.title == "✅ Gana A (Hermione · Stealth (Wits))"
    assert "A (Hermione · Stealth (Wits)) gana por 4: **Éxito completo**" in embed.description
    fields = "\n".join(f"{f.name} {f.value}" for f in embed.fields)
    assert "Bando B (Ron · Stealth (Wits))" in fields
    assert "2d6 (6) + 2 (Wits) + 1 (rangos de Stealth) = **9**" in fields
    assert "alice y bob" in embed.footer.text


async def test_an_attack_with_an_extra_actions_penalty_in_spanish(table: Table, as_spanish) -> None:
    """The tracker's −5 for a 3rd action, named in Spanish on the attack and the defence."""
    await fight(table)  # set up in English (the tracker is another area's)
    for member in (table.alice, table.bob, table.gm):
        as_spanish(member)
    first = await hit(table, [3, 2])  # 5 + 5 = 10 vs Defence 9
    assert "🏃 1.ª acción de Harry en esta ronda · quedan 1 de 2 en el marcador." in (
        embed_of(first).fields[0].value
    )
    table.bot.dice = ScriptedDice([6, 5])
    await table.bob.click(first.response, label="Esquivar")
    dodge = table.channel.last_message.embeds[0].fields[1].value
    assert "1.ª acción de Draco en esta ronda · quedan 1 de 2" in dodge
    second = await hit(table, [3, 2])
    table.bot.dice = ScriptedDice([6, 5])
    await table.bob.click(second.response, label="Parar")
    third = await hit(table, [6, 5])  # 11 + 5 − 5 = 11
    attack = embed_of(third).fields[0]
    assert attack.name == "⚔️ Ataque"
    assert "− 5 (acción adicional, 3.ª) = **11**" in attack.value
    assert "🏃 3.ª acción de Harry en esta ronda (−5) · quedan 0 de 2 en el marcador." in (
        attack.value
    )
    assert labels(third.response) == ["Esquivar", "Parar", "Encajarlo"]
    table.bot.dice = ScriptedDice([6, 5, 1, 1])  # 11 + 5 − 5 = 11: equal, a Marginal Success
    await table.bob.click(third.response, label="Esquivar")
    shown = table.channel.last_message.embeds[0]
    assert "− 5 (acción adicional, 3.ª) = **11** contra un NO de 11" in shown.fields[1].value
    assert "3.ª acción de Draco en esta ronda (−5)" in shown.fields[1].value
    assert shown.title == "🛡️ Draco esquiva el ataque de Harry"
    assert "extra action" not in str(shown.to_dict())


async def test_roll_the_test_in_spanish(table: Table, as_spanish) -> None:
    """An extra Walk's Nimbleness test: the button, its refusals and its roll in Spanish."""
    await fight(table)
    for member in (table.alice, table.carol, table.gm):
        as_spanish(member)
    await walk(table)
    await walk(table)
    third = await walk(table)
    assert labels(third.response) == ["Tirar la prueba (NO 5)"]
    stranger = await table.carol.click(third.response, label="Tirar la prueba (NO 5)")
    assert stranger.ephemeral
    assert f"Solo <@{table.alice.id}> (o el DJ) tira esta prueba." in text_of(stranger)
    table.bot.dice = ScriptedDice([2, 2])  # 4 + 1 (Nimbleness) = 5 vs TN 5
    await table.alice.click(third.response, label="Tirar la prueba (NO 5)")
    rolled = table.channel.last_message.embeds[0]
    assert "Éxito marginal" in rolled.title
    assert "Caminar más allá de lo permitido" in rolled.title
    assert "2d6 (4) + 1 (Nimbleness) = **5** contra un NO de 5" in rolled.description
    assert third.response.components == []
    # Rolled already (a stale client), then undone: the refusals are Spanish too.
    fourth = await walk(table)
    assert labels(fourth.response) == ["Tirar la prueba (NO 10)"]
    await ok(await table.gm.slash(table.channel, "init undo"))
    gone = await table.alice.click(fourth.response, label="Tirar la prueba (NO 10)")
    assert gone.followups[0].ephemeral
    assert "La acción Caminar de Harry ya no está en el marcador" in text_of(gone)
    assert fourth.response.components == []


async def test_spanish_lists_and_tns_read_as_spanish(spanish: Table) -> None:
    """ "Habilidades: todavía no hay", not "ninguno" (a feminine list); "contra un NO de 15",
    which cannot read as "against NOT 15"."""
    table = spanish
    await table.alice.slash(table.channel, "sheet create", name="Luna", system="coda")
    refused = await table.alice.slash(table.channel, "coda skill", skill="Pociones", tn=15)
    assert "Habilidades: todavía no hay." in text_of(refused)
    assert "ninguno" not in text_of(refused)
    table.bot.dice = ScriptedDice([5, 6])
    rolled = await table.alice.slash(table.channel, "coda test", modifier=0, tn=15)
    assert "= **11** contra un NO de 15" in embed_of(rolled).description
