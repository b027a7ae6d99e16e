"""A quidditch match for a Spanish table: every ``/quidditch`` command answers in Spanish
(Cazador, Golpeador, Guardián, Buscador, Quaffle, Snitch, faltas, penaltis…) with the same
rolls and score as in English."""

from __future__ import annotations

import pytest

from bot.render.limits import TRUNCATED_NOTE
from engine.dice import ScriptedDice, SeededDice
from tests.bot.cogs.quidditch.test_quidditch import AWAY, HOME, MISS, add, play, turn_faces
from tests.bot.cogs.quidditch.test_quidditch_table import team_values
from tests.conftest import Table, embed_of, text_of


@pytest.fixture
def spanish(table: Table, as_spanish) -> Table:
    """The GM and the players use Spanish Discord clients."""
    for member in (table.gm, table.alice, table.bob, table.carol):
        as_spanish(member)
    return table


async def new_match(table: Table, **houses: str) -> object:
    result = await table.gm.slash(
        table.channel, "quidditch new", home="Leones", away="Serpientes", **houses
    )
    assert not result.ephemeral, text_of(result)
    return result


async def ready_match(table: Table, **houses: str) -> None:
    await new_match(table, **houses)
    for team, players in (("home", HOME), ("away", AWAY)):
        for player in players:
            result = await add(table, team, player)
            assert not result.ephemeral or result.response.content.endswith(
                "El mensaje de la alineación está actualizado."
            ), text_of(result)


async def test_new_match_player_roster_and_remove_in_spanish(spanish: Table) -> None:
    table = spanish
    started = await new_match(table, home_house="Gryffindor", away_house="Slytherin")
    assert "Un partido nuevo: **Leones (Gryffindor)** (local)" in embed_of(started).description
    joined = await add(table, "home", HOME[0])
    assert "H1 entra como cazador." in embed_of(joined).description
    text = text_of(joined)
    assert "Cazador **H1** — F 5 · D 3 · A 3 · Salud 3" in text
    assert "Falta: 2 cazadores, 2 golpeadores, un guardián, un buscador" in text
    assert embed_of(joined).title == "🧹 Leones contra Serpientes — alineaciones"
    roster = await table.alice.slash(table.channel, "quidditch roster")
    assert "Leones (Gryffindor) — local" in text_of(roster)
    assert "El partido empieza cuando ambas alineaciones están completas." in text_of(roster)
    removed = await table.gm.slash(table.channel, "quidditch remove", team="home", name="H1")
    assert "H1 sale de la alineación." in text_of(removed)
    refused = await table.alice.slash(table.channel, "quidditch new", home="A", away="B")
    assert refused.ephemeral
    assert "empezar un partido de quidditch" in refused.response.content


async def test_a_turn_report_in_spanish(spanish: Table) -> None:
    table = spanish
    await ready_match(table)
    dice = turn_faces(home_chasers=[[12, 3], MISS, MISS], away_beaters=[[11, 2], MISS])
    embed = embed_of(await play(table, dice))
    assert embed.title == "🧹 Turno 1 — Leones 10 : 0 Serpientes"
    text = text_of(await table.gm.slash(table.channel, "quidditch status"))
    assert "Leones **10** – **0** Serpientes — tras el turno 1." in text
    assert "Cazador **H1** — F 5 · D 3 · A 3 · ❤️ 2/3" in text
    assert "Siguiente fase de la snitch: final del turno 10." in text
    assert [f.name for f in embed.fields] == [
        "Ataque — Leones",
        "Ataque — Serpientes",
        "Bloqueo — Leones",
        "Bloqueo — Serpientes",
    ]
    fields = "\n".join(f.value for f in embed.fields)
    assert "H1: **[12]** [3] +5 = **17** contra 11 🥅 **gol** (margen 6)" in fields
    assert "H2: [1] **[2]** +5 = **7** contra 11 ✗ fallo" in fields
    assert "AB1 → H1 (por defecto): **[11]** [2] +3 = **14** contra 8 💥 impacto (Salud 2)" in (
        fields
    )
    assert "🥅 Goles: H1 (Leones)" in embed.description
    assert "siguiente fase de la snitch: final del turno 10" in embed.footer.text


async def test_a_foul_and_its_penalty_in_spanish(spanish: Table) -> None:
    table = spanish
    await ready_match(table)
    dice = turn_faces(
        home_chasers=[[12, 3], MISS, MISS], home_beaters=[MISS], away_beaters=[MISS, [15, 2]]
    )
    text = text_of(await play(table, dice, targets="home1:keeper, away2:H1"))
    assert "HB1 → AK: [1] **[2]** +4 = **6** contra 8 ✗ fallo ⚠️ falta" in text
    assert "💥 impacto (Salud 2) 🛡️ **gol bloqueado**" in text
    assert "⚠️ HB1 (Leones) sobre AK — penalti pendiente" in text
    table.bot.dice = ScriptedDice([14, 3])
    shot = await table.gm.slash(table.channel, "quidditch penalty", team="away", chaser="A2")
    assert embed_of(shot).title == "🧹 Penalti — Leones 0 – 10 Serpientes"
    assert "A2 (Serpientes): **[14]** [3] +4 = **18** contra 10 🥅 **marca 10**" in text_of(shot)
    again = await table.gm.slash(table.channel, "quidditch penalty", team="away", chaser="A2")
    assert again.ephemeral and "No hay ninguna falta pendiente" in text_of(again)
    bad = await table.gm.slash(table.channel, "quidditch turn", targets="home1:AS")
    assert bad.ephemeral
    assert "Un golpeador apunta a un cazador rival o al guardián, no al buscador AS." in (
        text_of(bad)
    )


async def test_the_snitch_house_points_and_undo_in_spanish(spanish: Table) -> None:
    table = spanish
    await ready_match(table, home_house="Gryffindor", away_house="Slytherin")
    interfere = await table.gm.slash(table.channel, "quidditch snitch", team="away")
    assert "AS (Serpientes) estorbará en la siguiente fase de la snitch" in text_of(interfere)
    await table.gm.slash(table.channel, "quidditch snitch", team="away", interfere=False)
    for _ in range(9):
        await play(table, turn_faces(), penalties="none")
    dice = turn_faces(home_chasers=[[12, 3], MISS, MISS], rest=[18, 3, 2, 3])
    text = text_of(await play(table, dice))
    assert "HS (Leones): **[18]** [3] +5 = **23** — ✨ **¡atrapa la snitch! +150**" in text
    assert "**Leones** gana por 160." in text
    assert "🏠 Gryffindor gana **160** puntos para la casa (ahora 160)." in text
    houses = await table.alice.slash(table.channel, "quidditch houses")
    assert "1. **Gryffindor** — 160 puntos (1 victoria)" in text_of(houses)
    undone = text_of(await table.gm.slash(table.channel, "quidditch undo"))
    assert "Turno 10 queda deshecho" in undone
    assert "vuelve a estar en juego, y Gryffindor devuelve sus 160 puntos." in undone
    ended = await table.gm.slash(table.channel, "quidditch end")
    assert embed_of(ended).title.startswith("🧹 Partido abandonado — Leones 0 – 0 Serpientes")
    none = await table.alice.slash(table.channel, "quidditch status")
    assert none.ephemeral
    assert none.response.content.startswith("No se está jugando ningún partido de quidditch")


async def test_the_team_form_in_spanish(spanish: Table) -> None:
    table = spanish
    await new_match(table)
    shown = await table.gm.slash(table.channel, "quidditch team", team="home")
    assert shown.modal["title"] == "Leones — equipo local"
    labels = [row["components"][0]["label"] for row in shown.modal["components"]]
    assert labels == ["Cazadores (3)", "Golpeadores (2)", "Guardián", "Buscador"]
    values = team_values(HOME) | {"keeper": "K1 1 1 1 1\nK2 1 1 1 1"}
    refused = await table.gm.submit_modal(shown, values)
    assert "Guardián: un equipo tiene 1 guardián (el formulario da 2)." in text_of(refused)
    shown = await table.gm.slash(table.channel, "quidditch team", team="home")
    entered = await table.gm.submit_modal(shown, team_values(HOME))
    assert "Leones: 7 jugadores introducidos." in text_of(entered)


async def test_odds_in_spanish(spanish: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    table = spanish
    monkeypatch.setattr("bot.services.quidditch._match.ODDS_BUDGET", 60.0)
    await ready_match(table)
    table.bot.dice = ScriptedDice([])
    result = await table.gm.slash(table.channel, "quidditch odds")
    text = text_of(result)
    assert "2.000 partidos simulados desde el primer turno" in text
    assert "Gana Leones" in text and "Duración media" in text
    assert embed_of(result).footer.text.startswith("Simulado en ")


async def test_a_long_report_fits_discord_in_spanish(spanish: Table) -> None:
    table = spanish

    def longest(name: str) -> str:
        return name + "x" * (64 - len(name))

    await table.gm.slash(
        table.channel,
        "quidditch new",
        home=longest("Leones"),
        away=longest("Serpientes"),
        home_house=longest("Gryffindor"),
        away_house=longest("Slytherin"),
    )
    for team, players in (("home", HOME), ("away", AWAY)):
        for name, position, s, d, t, _health in players:
            await add(table, team, (longest(name), position, s, d, t, 50))
    table.bot.dice = SeededDice(3)
    for _turn in range(10):  # up to the first snitch phase, every foul given its penalty shot
        result = await table.gm.slash(table.channel, "quidditch turn", penalties="all")
        embed = embed_of(result)
        assert embed.title.startswith("🧹 Turno ")
        assert len(embed) <= 6000
        assert all(len(f.value) <= 1024 for f in embed.fields)
        footer = embed.footer.text or ""
        assert TRUNCATED_NOTE not in footer and "acortad" not in footer  # nothing was cut
    status = embed_of(await table.gm.slash(table.channel, "quidditch status"))
    assert len(status) <= 6000 and all(len(f.value) <= 1024 for f in status.fields)
