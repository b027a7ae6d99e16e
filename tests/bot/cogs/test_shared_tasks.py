"""A channel's shared tasks (an RPS sustained action, a CODA extended test): only their
starter, the participants named at the start and the GM roll them, and a player with a sheet
rolls from it (docs/rules.md, "Shared tasks")."""

from __future__ import annotations

from engine.dice import ScriptedDice
from tests.conftest import Table, embed_of, text_of

REFUSED = "Only its starter"


async def test_a_passer_by_cannot_sink_a_sustained_action(table: Table) -> None:
    await table.alice.slash(table.channel, "rps sustained start", goal=10, label="the cart")
    for _ in range(11):  # what sank it before: every check −1, below −goal after 11
        refused = await table.bob.slash(table.channel, "rps sustained roll", base=-100)
        assert refused.ephemeral and REFUSED in refused.response.content
        assert f"<@{table.alice.id}>" in refused.response.content
    status = await table.alice.slash(table.channel, "rps sustained status")
    assert "Success Pool **0** / Goal **10** after 0 checks" in embed_of(status).description
    history = await table.alice.slash(table.channel, "history")
    assert "sustained" not in text_of(history)


async def test_participants_and_the_gm_roll_a_sustained_action(table: Table) -> None:
    started = await table.alice.slash(
        table.channel, "rps sustained start", goal=30, participants="@bob, @bob"
    )
    assert f"Participants: <@{table.bob.id}>" in embed_of(started).description
    table.bot.dice = ScriptedDice([1, 2])
    rolled = await table.bob.slash(table.channel, "rps sustained roll", base=12, modifier=5)
    assert "0 +14 → **14** / 30" in text_of(rolled)
    too_much = await table.bob.slash(table.channel, "rps sustained roll", base=12, modifier=6)
    assert too_much.ephemeral and "−5 … +5" in too_much.response.content
    # The GM rolls any numbers (an NPC's part, a ruling).
    table.bot.dice = ScriptedDice([2, 2])
    gm = await table.gm.slash(table.channel, "rps sustained roll", base=-90, modifier=-10)
    assert "14 −1 → **13** / 30" in text_of(gm)
    assert (await table.carol.slash(table.channel, "rps sustained roll", base=9)).ephemeral


async def test_a_participant_with_an_rps_character_rolls_from_it(table: Table) -> None:
    await table.bob.slash(table.channel, "sheet create", name="Franky", system="rps")
    await table.bob.slash(table.channel, "sheet set", attribute="Strength", value=6)
    await table.alice.slash(
        table.channel, "rps sustained start", goal=30, participants=f"<@{table.bob.id}>"
    )
    typed = await table.bob.slash(table.channel, "rps sustained roll", base=-100)
    assert typed.ephemeral and "You have an RPS character" in typed.response.content
    table.bot.dice = ScriptedDice([1, 2])
    rolled = await table.bob.slash(
        table.channel, "rps sustained roll", attribute="Strength", difficulty="Difficult"
    )
    assert "0 +9 → **9** / 30" in text_of(rolled)


async def test_participants_must_be_mentions(table: Table) -> None:
    refused = await table.alice.slash(
        table.channel, "rps sustained start", goal=5, participants="bob and carol"
    )
    assert refused.ephemeral and "`bob` is not a player" in refused.response.content
    nobody = await table.alice.slash(
        table.channel, "coda extended start", name="Brew", stages="10", participants="<@0>"
    )
    assert nobody.ephemeral and "mentions nobody" in nobody.response.content
    status = await table.alice.slash(table.channel, "rps sustained status")
    assert status.ephemeral  # nothing was started


async def test_a_passer_by_cannot_sink_an_extended_test(table: Table) -> None:
    await table.alice.slash(
        table.channel,
        "coda extended start",
        name="Brew",
        stages="15",
        participants=f"<@{table.carol.id}>",
    )
    refused = await table.bob.slash(table.channel, "coda extended roll", modifier=-100)
    assert refused.ephemeral and REFUSED in refused.response.content
    status = await table.alice.slash(table.channel, "coda extended status")
    assert "Tests made:** 0" in text_of(status)
    assert f"<@{table.carol.id}>" in text_of(status)
    table.bot.dice = ScriptedDice([6, 5])
    carol = await table.carol.slash(table.channel, "coda extended roll", modifier=4)
    assert "complete" in embed_of(carol).title


async def test_the_gm_rolls_an_extended_test_with_any_modifier(table: Table) -> None:
    await table.alice.slash(table.channel, "coda extended start", name="Ward", stages="10, 10")
    table.bot.dice = ScriptedDice([1, 2])
    gm = await table.gm.slash(table.channel, "coda extended roll", modifier=-100)
    assert "Disastrous Failure" in text_of(gm)
