"""``/init`` in Spanish: every subcommand, the tracker and its buttons, refusals.

The table's users play with a Spanish Discord client (``as_spanish``); the same encounters as
in ``test_initiative.py`` must read in Spanish and stay correct (order, totals, turns).
"""

from __future__ import annotations

from typing import Any

from engine.dice import ScriptedDice
from tests.bot.cogs.initiative.test_initiative import add, ok, start, tracker, tracker_text
from tests.conftest import Table, text_of


def spanish(table: Table, as_spanish: Any) -> None:
    for user in (table.gm, table.alice, table.bob, table.carol):
        as_spanish(user)


async def trio(table: Table, **options: Any) -> None:
    await start(table, **options)
    for name, roll in (("Alice", 18), ("Bob", 12), ("Carl", 7)):
        await ok(await add(table, name, roll))


async def gm_next(table: Table) -> Any:
    return await ok(await table.gm.slash(table.channel, "init next"))


async def test_start_join_add_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await table.alice.slash(table.channel, "sheet create", name="Hermione", system="h90")
    await table.alice.slash(table.channel, "sheet set", attribute="Humor", value=3)
    started = await start(table, system="h90", attribute="Humor")
    assert "Empieza un encuentro" in started.response.content
    assert "Iniciativa — reuniendo" in tracker_text(table)
    assert "Aún no se ha unido nadie." in tracker_text(table)
    assert "iniciativa + Humor" in tracker_text(table)
    labels = [c.label for row in tracker(table).components for c in row.children]
    assert labels == ["Siguiente", "Retrasar", "Deshacer", "Terminar"]
    table.bot.dice = ScriptedDice([7, 14])
    joined = await ok(await table.alice.slash(table.channel, "init join", modifier=1))
    assert "**Hermione** se une: 2d20 (7, 14) se queda el mayor 14 + 4 = **18**" in text_of(joined)
    table.bot.dice = ScriptedDice([15, 4])
    troll = await ok(
        await table.gm.slash(table.channel, "init add", name="Troll", modifier=2, stress=True)
    )
    assert "2d20 (15, 4) se queda el menor 4 + 2 = **6**" in text_of(troll)
    set_by_gm = await ok(await add(table, "Goblin", 9))
    assert "**Goblin** se une con **9** (fijado por el DJ)." in text_of(set_by_gm)
    turn = await gm_next(table)
    assert turn.response.content == f"Asalto 1 · Turno de **Hermione** — <@{table.alice.id}>."
    assert "Iniciativa — Asalto 1" in tracker_text(table)


async def test_refusals_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    none = await table.gm.slash(table.channel, "init next")
    assert none.ephemeral and "No hay ningún encuentro en curso" in text_of(none)
    await trio(table)
    again = await table.gm.slash(table.channel, "init start")
    assert again.ephemeral and "Ya hay un encuentro en curso aquí" in text_of(again)
    duplicate = await add(table, "alice", 3)
    assert duplicate.ephemeral and "'alice' ya está en el encuentro" in text_of(duplicate)
    player = await table.alice.slash(table.channel, "init add", name="Orc", roll=3)
    assert player.ephemeral and "añadir combatientes" in text_of(player)
    unknown = await table.gm.slash(table.channel, "init remove", name="Nadie")
    assert unknown.ephemeral
    assert "Ningún combatiente se llama 'Nadie' (en el encuentro: Alice, Bob, Carl)" in text_of(
        unknown
    )
    early = await table.gm.slash(table.channel, "init prev")
    assert early.ephemeral and "no hay nada a lo que volver" in text_of(early)
    surprise = await table.gm.slash(table.channel, "init add", name="Rat", stress=True)
    assert surprise.ephemeral and "La sorpresa solo cambia la iniciativa" in text_of(surprise)


async def test_turns_delay_act_defend_remove_prev_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await trio(table)
    await gm_next(table)  # Alice
    delayed = await ok(await table.gm.slash(table.channel, "init delay"))
    assert "⏸️ **Alice** se retrasa." in delayed.response.content
    assert "Asalto 1 · Turno de **Bob**." in delayed.response.content
    assert "Retrasados (actúan con `/init act`) Alice — 18" in tracker_text(table)
    acted = await ok(await table.gm.slash(table.channel, "init act", name="alice"))
    assert "**Alice** actúa ahora y conserva este lugar en el orden." in text_of(acted)
    not_delayed = await table.gm.slash(table.channel, "init act", name="Bob")
    assert not_delayed.ephemeral and "Bob no se está retrasando" in text_of(not_delayed)
    defended = await ok(await table.gm.slash(table.channel, "init defend", name="Carl"))
    assert "🛡️ **Carl** hace una tirada defensiva" in text_of(defended)
    assert "~~Carl~~ — 7 · *se defendió en este asalto*" in tracker_text(table)
    back = await ok(await table.gm.slash(table.channel, "init prev"))
    assert back.response.content.startswith("⏪ Un turno atrás.\nAsalto 1 · Turno de **Bob**.")
    removed = await ok(await table.gm.slash(table.channel, "init remove", name="Carl"))
    assert "🚪 **Carl** abandona el encuentro." in removed.response.content


async def test_hidden_reveal_show_and_undo_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await trio(table)
    hidden = await table.gm.slash(table.channel, "init add", name="Espía", roll=15, hidden=True)
    assert hidden.ephemeral and "Oculto a los jugadores:" in text_of(hidden)
    gm_view = await table.gm.slash(table.channel, "init show")
    assert gm_view.ephemeral and "Vista del DJ · deshacer: 4 paso(s)" in text_of(gm_view)
    await gm_next(table)  # Alice
    lurking = await gm_next(table)  # the hidden one: the GM's turn
    assert lurking.response.content == "Asalto 1 · turno del DJ."
    revealed = await ok(await table.gm.slash(table.channel, "init reveal", name="Espía"))
    assert "👀 ¡**Espía** queda al descubierto!" in revealed.response.content
    undone = await ok(await table.gm.slash(table.channel, "init undo"))
    assert undone.response.content == "↩️ El DJ ha deshecho un cambio."  # it was hidden
    assert "↩️ Deshecho: la revelación de Espía." in undone.followups[0].content
    not_hidden = await table.gm.slash(table.channel, "init reveal", name="Bob")
    assert not_hidden.ephemeral and "Bob no está oculto." in text_of(not_hidden)


async def test_conditions_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await trio(table)
    await gm_next(table)  # Alice
    stunned = await ok(
        await table.gm.slash(
            table.channel, "init condition add", target="Bob", name="Aturdido", rounds=1
        )
    )
    assert "**Bob** tiene Aturdido (1 asalto, descuenta al inicio)." in text_of(stunned)
    listed = await table.alice.slash(table.channel, "init condition list")
    assert listed.ephemeral and "**Bob**: Aturdido (1 asalto" in text_of(listed)
    await gm_next(table)  # Bob's turn begins under it: his last turn stunned
    assert "Aturdido (último turno, acaba al empezar su siguiente turno)" in tracker_text(table)
    await gm_next(table)  # Carl
    await gm_next(table)  # round 2, Alice
    wore_off = await gm_next(table)  # Bob's next turn starts: the condition goes
    assert "⌛ **Bob**: Aturdido se termina." in text_of(wore_off)
    missing = await table.gm.slash(
        table.channel, "init condition remove", target="Bob", name="Aturdido"
    )
    assert missing.ephemeral and "Bob no tiene el estado 'Aturdido' (estados: ninguno)." in (
        text_of(missing)
    )
    await ok(await table.gm.slash(table.channel, "init condition add", target="Carl", name="Ciego"))
    lost = await ok(
        await table.gm.slash(table.channel, "init condition remove", target="Carl", name="ciego")
    )
    assert "**Carl** ya no tiene ciego." in text_of(lost)
    empty = await table.gm.slash(table.channel, "init condition list")
    assert "Ningún combatiente tiene estados." in text_of(empty)


async def test_coda_actions_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await table.alice.slash(table.channel, "sheet create", name="Ron", system="coda")
    await table.alice.slash(table.channel, "sheet set", attribute="Swiftness", value=0)
    await start(table, system="coda")
    table.bot.dice = ScriptedDice([6, 6, 2])
    joined = await ok(await table.alice.slash(table.channel, "init join", stress=True))
    assert "2d6 (6, 6, 2) ¡seises que explotan! = **14**" in text_of(joined)
    await ok(await add(table, "Goblin", 4))
    await gm_next(table)  # surprised, Ron acts after the Goblin in round 1 (RULES.md §1)
    turn = await gm_next(table)
    assert "1 acción (sorprendido) · 2.ª −5, 3.ª −10." in turn.response.content
    run = await ok(await table.alice.slash(table.channel, "init action", kind="Run"))
    assert "🏃 **Ron**:" in text_of(run) and "(2 acciones): **−5**." in text_of(run)
    assert "le quedan 0 de 1 acciones (sorprendido) · siguiente −10" in text_of(run)
    refused = await table.gm.slash(table.channel, "init action", kind="Walk", name="Nadie")
    assert refused.ephemeral and "Ningún combatiente se llama 'Nadie'" in text_of(refused)


async def test_buttons_and_end_in_spanish(table: Table, as_spanish: Any) -> None:
    spanish(table, as_spanish)
    await trio(table)
    pressed = await table.gm.click(tracker(table), label="Siguiente")
    assert pressed.response.content == "Asalto 1 · Turno de **Alice**."
    refused = await table.alice.click(tracker(table), label="Siguiente")
    assert refused.ephemeral and "Solo el DJ, o el jugador" in text_of(refused)
    delay = await table.gm.click(tracker(table), label="Retrasar")
    assert "⏸️ **Alice** se retrasa." in delay.response.content
    undo = await table.gm.click(tracker(table), label="Deshacer")
    assert "↩️ Deshecho: un retraso." in undo.response.content
    await gm_next(table)  # Bob
    await gm_next(table)  # Carl
    await gm_next(table)  # round 2: Alice
    asked = await table.gm.click(tracker(table), label="Terminar")
    assert asked.ephemeral and "¿Terminar este encuentro?" in text_of(asked)
    assert "Asalto 2, 3 combatiente(s)." in text_of(asked)
    kept = await table.gm.click(asked.response, label="Seguir jugando")
    assert "El encuentro continúa." in text_of(kept)
    asked = await table.gm.slash(table.channel, "init end")
    done = await table.gm.click(asked.response, label="Terminar el encuentro")
    assert done.response.content == "Encuentro terminado."
    embed = done.followups[0].embeds[0]
    assert embed.title == "⚔️ Encuentro terminado tras 2 asaltos"
    assert "**Alice** — 2 turnos" in embed.description
    assert "**Bob** — 1 turno" in embed.description
    assert embed.footer.text == "Actuaron 3 de 3 combatiente(s)"
    assert "Iniciativa — terminada" in (tracker_text_any(table))


def tracker_text_any(table: Table) -> str:
    """Every embed title in the channel (an ended tracker has no buttons to find it by)."""
    return "\n".join(e.title or "" for m in table.channel.history() for e in m.embeds)


async def test_english_users_still_read_english(table: Table, as_spanish: Any) -> None:
    as_spanish(table.alice)  # only Alice plays in Spanish; the GM's client is English
    await trio(table)
    turn = await gm_next(table)
    assert turn.response.content == "Round 1 · **Alice**'s turn."
    labels = [c.label for row in tracker(table).components for c in row.children]
    assert labels == ["Next", "Delay", "Undo", "End"]
    mine = await table.alice.slash(table.channel, "init show")
    assert "Asalto 1 · Turno de **Alice**." in text_of(mine)
