"""The table's messages keep one language at a mixed table (``bot.gateway._public_language``).

The initiative tracker, a "Roll my part" request and a ``/h90 attack`` exchange are redrawn
by other players' presses: they are drawn in the channel's language (``/settings
language``), else in the language of whoever created them, never in the presser's. A
presser's own answers (refusals) stay in the presser's language. Also: ``/h90 attack`` and
a Roll-my-part flow read in Spanish.
"""

from __future__ import annotations

from typing import Any

from engine.dice import ScriptedDice
from tests.bot.cogs.coda.test_coda_attack import labels
from tests.bot.cogs.hogwarts1990.test_hogwarts1990_attack import harry_hits_draco, three_students
from tests.bot.cogs.initiative.test_initiative import add, ok, tracker
from tests.bot.cogs.test_roll_your_part import arm_wrestling, rps_characters
from tests.conftest import Table, embed_of, text_of


def tracker_labels(table: Table) -> list[str]:
    return [c.label for row in tracker(table).components for c in row.children]


def tracker_title(table: Table) -> str:
    return tracker(table).embeds[0].title or ""


async def three_npcs(table: Table) -> None:
    for name, roll in (("Alice", 18), ("Bob", 12), ("Carl", 7)):
        await ok(await add(table, name, roll))


# --------------------------------------------------------------------------- the tracker


async def test_the_tracker_keeps_its_starters_language_whoever_presses(
    table: Table, as_spanish: Any
) -> None:
    as_spanish(table.gm)  # the GM starts the encounter from a Spanish client
    await ok(await table.gm.slash(table.channel, "init start"))
    await three_npcs(table)
    spanish_title = tracker_title(table)
    assert spanish_title.startswith("⚔️ Iniciativa")
    assert tracker_labels(table) == ["Siguiente", "Retrasar", "Deshacer", "Terminar"]
    # The same GM now plays from an English client: their answer is English, the tracker
    # (the table's) stays in the language it was started in.
    as_spanish(table.gm, locale="en-US")
    pressed = await table.gm.click(tracker(table), label="Siguiente")
    assert pressed.response.content == "Round 1 · **Alice**'s turn."
    assert tracker_labels(table) == ["Siguiente", "Retrasar", "Deshacer", "Terminar"]
    assert tracker_title(table).startswith("⚔️ Iniciativa")
    turn = await table.gm.slash(table.channel, "init next")
    assert turn.response.content == "Round 1 · **Bob**'s turn."
    assert tracker_title(table).startswith("⚔️ Iniciativa")
    # An English player reading it on their own gets English.
    shown = await table.alice.slash(table.channel, "init show")
    assert "Round 1" in text_of(shown) and "Asalto" not in text_of(shown)


async def test_the_channels_language_beats_the_starters(table: Table, as_spanish: Any) -> None:
    await table.gm.slash(table.channel, "settings language", language="es")
    # The GM reads their own answers in English (their own choice), the table reads Spanish.
    await table.gm.slash(table.channel, "settings my-language", language="en")
    started = await ok(await table.gm.slash(table.channel, "init start"))
    assert "Empieza un encuentro" in started.response.content
    await three_npcs(table)
    turn = await table.gm.slash(table.channel, "init next")
    assert turn.response.content == "Round 1 · **Alice**'s turn."
    assert tracker_labels(table) == ["Siguiente", "Retrasar", "Deshacer", "Terminar"]
    assert tracker_title(table).startswith("⚔️ Iniciativa")
    # Back to no channel language: the starter's (English, their own choice) from now on.
    await table.gm.slash(table.channel, "settings language", language="default")
    await table.gm.slash(table.channel, "init next")
    assert tracker_labels(table) == ["Next", "Delay", "Undo", "End"]


# --------------------------------------------------------------------------- Roll my part


async def test_roll_my_part_in_spanish_and_its_line_keeps_the_rollers_language(
    table: Table, as_spanish: Any
) -> None:
    await rps_characters(table)
    as_spanish(table.alice)
    as_spanish(table.carol)  # Bob plays from an English client
    asked = await arm_wrestling(table, label="la posada")
    content = asked.response.content
    assert content.startswith(
        f"<@{table.bob.id}> <@{table.carol.id}>: Daniela pide una acción resistida con "
        "Brute, Daniela (2 × Strength) — la posada — cada uno tira su parte"
    )
    assert "**Tirar mi parte**" in content
    assert table.channel.last_message.components[0].children[0].label == "Tirar mi parte"
    # Bob (English) presses first: the line he redraws stays Spanish.
    table.bot.dice = ScriptedDice([1, 2])  # Rupert: 12 − 3 = SL 9
    await table.bob.click(asked.response, label="Tirar mi parte")
    message = table.channel.last_message
    assert f"✅ <@{table.bob.id}>: **Rupert** (Base 12) NE 9" in message.content
    assert f"⏳ Esperando a <@{table.carol.id}>." in message.content
    assert message.components[0].children[0].label == "Tirar mi parte"
    # Bob again: his refusal is his own, in English.
    again = await table.bob.click(message, label="Tirar mi parte")
    assert again.ephemeral
    assert "You have rolled your part already" in text_of(again)
    # Carol (Spanish) completes it: the result, in Spanish.
    table.bot.dice = ScriptedDice([2, 2])  # Celia: 8 − 4 = SL 4
    await table.carol.click(message, label="Tirar mi parte")
    embed = table.channel.last_message.embeds[0]
    assert embed.title.startswith("⚔️ Rupert gana")
    assert "alice, bob y carol" in embed.footer.text
    assert table.channel.last_message.components[0].children[0].disabled


async def test_a_part_asked_of_the_roller_is_refused_in_spanish(
    table: Table, as_spanish: Any
) -> None:
    await rps_characters(table)
    as_spanish(table.alice)
    table.bot.dice = ScriptedDice([4, 4])
    refused = await table.alice.slash(
        table.channel,
        "rps resisted",
        parties=f"Brute:12, <@{table.bob.id}>",
        secret=True,
        attribute="Strength",
    )
    assert refused.ephemeral
    assert "Una tirada secreta no puede esperar a los jugadores a los que se pide" in text_of(
        refused
    )


# --------------------------------------------------------------------------- /h90 attack


async def test_h90_attack_in_spanish(table: Table, as_spanish: Any) -> None:
    await three_students(table)
    for member in (table.alice, table.bob, table.carol):
        as_spanish(member)
    result = await harry_hits_draco(table)
    embed = embed_of(result)
    assert embed.title == "⚔️ Harry impacta a Draco: ¿esquiva?"
    assert "11 + 3 (Strength) = **14** contra 12: **Éxito**" in embed.fields[0].value
    assert embed.fields[0].name == "⚔️ Ataque"
    assert f"Esperando a <@{table.bob.id}> (o el DJ): **Esquivar**" in embed.description
    assert labels(result.response) == ["Esquivar", "Encajarlo"]
    refused = await table.carol.click(result.response, label="Esquivar")
    assert refused.ephemeral
    assert f"Solo <@{table.bob.id}> (o el DJ) responde a este ataque contra Draco." in text_of(
        refused
    )
    table.bot.dice = ScriptedDice([])
    await table.bob.click(result.response, label="Esquivar")
    shown = table.channel.last_message.embeds[0]
    assert shown.title == "🛡️ Draco esquiva el ataque de Harry"
    assert "dificultad 12 + Dexterity 3 = **15**; ahora el ataque falla." in shown.fields[1].value
    assert "Aquí no hay ninguna escaramuza en curso" in shown.fields[1].value
    bad = await table.alice.slash(
        table.channel, "h90 attack", target="Draco", difficulty=12, dodge="+"
    )
    assert bad.ephemeral and "Da la esquiva como atributos" in text_of(bad)


async def test_an_attack_exchange_keeps_the_attackers_language(
    table: Table, as_spanish: Any
) -> None:
    await three_students(table)
    as_spanish(table.alice)  # Harry's player is Spanish; Draco's (Bob) English
    result = await harry_hits_draco(table, dodge="Toughness", damage=2)
    assert labels(result.response) == ["Esquivar", "Encajarlo"]
    # Carol (English) may not answer: refused in her language; the message is untouched.
    refused = await table.carol.click(result.response, label="Encajarlo")
    assert refused.ephemeral
    assert f"Only <@{table.bob.id}> (or the GM) answers this attack on Draco." in text_of(refused)
    # Bob takes it from an English client: the table's message stays Spanish.
    await table.bob.click(result.response, label="Encajarlo")
    shown = table.channel.last_message.embeds[0]
    assert shown.title == "💥 Harry impacta a Draco: −2 Health"
    assert shown.fields[1].name == "🛡️ Sin esquiva"
    assert "Salud" not in shown.title  # the sheet's resource keeps its name
    assert "Health de Draco: 4 → **2**/4" in shown.fields[2].value


async def test_a_dodge_by_an_english_defender_is_told_in_the_attackers_language(
    table: Table, as_spanish: Any
) -> None:
    await three_students(table)
    as_spanish(table.alice)
    result = await harry_hits_draco(table)
    table.bot.dice = ScriptedDice([])
    await table.bob.click(result.response, label="Esquivar")  # Bob's client is English
    shown = table.channel.last_message.embeds[0]
    assert shown.title == "🛡️ Draco esquiva el ataque de Harry"
    # The turn note is stored as a template: drawn in the table's language too.
    assert (
        "⏱️ Aquí no hay ninguna escaramuza en curso, así que no se gasta ningún turno."
        in shown.fields[1].value
    )
