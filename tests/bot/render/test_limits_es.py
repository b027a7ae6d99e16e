"""Discord's embed limits still hold in Spanish, whose text runs longer: the worst
cases of initiative, Drama and RPS rendered in Spanish."""

from __future__ import annotations

import discord

from bot.i18n import use_language
from bot.render import drama as render_drama
from bot.render import initiative as render_initiative
from bot.render import rps as render_rps
from bot.render.limits import DESCRIPTION, FIELDS, TOTAL
from bot.services.drama import OpposedOutcome, RollOutcome
from bot.services.initiative import EncounterView
from bot.services.rps import ResistedOutcome
from bot.services.secrecy import PUBLIC
from bot.text import UserText
from engine import initiative as ini
from engine import penalty
from engine.dice import ScriptedDice, SeededDice
from engine.initiative.state import MAX_CONDITIONS
from engine.systems import drama, rps
from engine.systems.drama import Outcome, Pools


def within_limits(embed: discord.Embed) -> None:
    assert len(embed) <= TOTAL
    assert len(embed.fields) <= FIELDS
    assert len(embed.description or "") <= DESCRIPTION


def crowded_encounter() -> EncounterView:
    """50 combatants with 64-character names, each with the most conditions, mid-round."""
    state = ini.Encounter(system="coda", initiator="I" * 64)
    for index in range(ini.MAX_COMBATANTS):
        name = f"{index:02d}" + "Ñ" * (ini.MAX_NAME_LENGTH - 2)
        state = ini.apply(state, ini.Add(name, 1000 - index, hidden=index % 7 == 0))
    for index in range(0, ini.MAX_COMBATANTS, 3):
        name = f"{index:02d}" + "Ñ" * (ini.MAX_NAME_LENGTH - 2)
        for condition in range(MAX_CONDITIONS):
            state = ini.apply(
                state,
                ini.AddCondition(
                    name,
                    condition=f"Estado {condition} " + "e" * 50,
                    rounds=ini.MAX_CONDITION_ROUNDS,
                    note="n" * ini.MAX_NOTE_LENGTH,
                ),
            )
    state = ini.apply(state, ini.Next())
    state = ini.apply(state, ini.Delay())
    return EncounterView(
        state=state,
        channel_id=1,
        started_by=1,
        attribute=None,
        dice="1d20+" * 20 + "1",
        tracker_message_id=None,
        status="active",
        gm=True,
    )


def test_the_crowded_tracker_fits_in_spanish() -> None:
    view = crowded_encounter()
    with use_language("es"):
        for gm in (False, True):
            embed = render_initiative.tracker_embed(view, gm=gm)
            within_limits(embed)
            assert embed.title == "⚔️ Iniciativa — Asalto 1"
            assert "Asalto 1" in (embed.description or "")
        assert len(render_initiative.conditions_text(view, gm=True)) > 2000  # clipped by the cog
        within_limits(render_initiative.confirm_end_embed(view))


def test_the_largest_drama_embeds_fit_in_spanish() -> None:
    pools = Pools(60, 60, 60)
    result = drama.roll_pools(SeededDice(7), pools, criticals=True)
    outcome = RollOutcome(
        result=result,
        pools=pools,
        net=result.net,
        outcome=result.outcome,
        chances=dict.fromkeys(Outcome, 1 / 3),
        character="W" * 64,
        penalty_dice=9,
        gained=penalty.add(0, max(1, result.penalty_gained)),
        offer_id=None,
        label=UserText("l" * 100),
        secrecy=PUBLIC,
    )
    opposed = OpposedOutcome(
        result=drama.opposed(SeededDice(3), a=pools, b=pools, criticals=True),
        pools=pools,
        their_pools=pools,
        their_name="N" * 64,
        chances={"a": 0.3, "b": 0.3, "draw": 0.1, "both fail": 0.3},
        character="W" * 64,
        penalty_dice=0,
        gained=None,
        label=UserText("l" * 100),
        secrecy=PUBLIC,
    )
    with use_language("es"):
        embed = render_drama.test_embed(outcome, "alice")
        within_limits(embed)
        assert any(f.name.startswith("Dados de drama") for f in embed.fields)
        within_limits(render_drama.opposed_embed(opposed, "alice"))


def test_the_largest_resisted_action_fits_in_spanish() -> None:
    parties = [(f"A very long party name number {i:02d} " + "x" * 60, 12) for i in range(25)]
    result = rps.resisted(ScriptedDice([5, 5] * 25 * 20), parties=parties)
    sources = {name: "Base 12" for name, _ in parties}
    with use_language("es"):
        embed = render_rps.resisted_embed(
            ResistedOutcome(result, sources, UserText("l" * 100), PUBLIC), "gm"
        )
        within_limits(embed)
        assert embed.title.startswith("⚔️ Empate tras 20 rondas")
