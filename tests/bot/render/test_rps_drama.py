"""RPS, Drama and penalty embeds: colours per outcome, marks, and Discord's limits always kept."""

from __future__ import annotations

import discord

from bot.render import drama as render_drama
from bot.render import penalty as render_penalty
from bot.render import rps as render_rps
from bot.render.limits import FIELDS, TOTAL
from bot.services.drama import OpposedOutcome, PriceOutcome, RollOutcome
from bot.services.rps import Base, ResistedOutcome
from bot.services.secrecy import PUBLIC
from bot.text import UserText
from engine import penalty
from engine.dice import ScriptedDice, SeededDice
from engine.penalty import PenaltyLevel
from engine.systems import drama, rps
from engine.systems.drama import Outcome, Pools


def within_limits(embed: discord.Embed) -> None:
    assert len(embed) <= TOTAL
    assert len(embed.fields) <= FIELDS


def test_every_outcome_and_level_has_a_colour_and_an_icon() -> None:
    assert set(render_drama.OUTCOME_COLOURS) == set(Outcome)
    assert set(render_drama.OUTCOME_ICONS) == set(Outcome)
    assert set(render_penalty.LEVEL_COLOURS) == set(PenaltyLevel)
    assert set(render_penalty.LEVEL_ICONS) == set(PenaltyLevel)
    assert set(render_rps.SPECIAL_LINES) == set(rps.Special)


def test_critical_colours() -> None:
    assert render_rps.colour_of(rps.check(ScriptedDice([1, 1]), base=10)) == (
        render_rps.colours.GREAT_SUCCESS
    )
    assert render_rps.colour_of(rps.check(ScriptedDice([10, 10]), base=10)) == (
        render_rps.colours.DISASTER
    )


def test_the_largest_resisted_action_fits() -> None:
    parties = [(f"A very long party name number {i:02d} " + "x" * 60, 12) for i in range(25)]
    result = rps.resisted(ScriptedDice([5, 5] * 25 * 20), parties=parties)
    assert result.winner is None and len(result.rounds) == 20
    sources = {name: "Base 12" for name, _ in parties}
    embed = render_rps.resisted_embed(
        ResistedOutcome(result, sources, UserText("l" * 100), PUBLIC), "gm"
    )
    within_limits(embed)
    assert embed.title.startswith("⚔️ Tie after 20 rounds")
    assert "Chance: shown for up to 5 parties." in embed.description


def test_the_largest_drama_test_fits_and_marks_every_kind_of_die() -> None:
    pools = Pools(60, 60, 60)
    result = drama.roll_pools(SeededDice(7), pools, criticals=True)
    change = penalty.add(0, max(1, result.penalty_gained))
    outcome = RollOutcome(
        result=result,
        pools=pools,
        net=result.net,
        outcome=result.outcome,
        chances=dict.fromkeys(Outcome, 1 / 3),
        character="W" * 64,
        penalty_dice=9,
        gained=change,
        offer_id=None,
        label=UserText("l" * 100),
        secrecy=PUBLIC,
    )
    embed = render_drama.test_embed(outcome, "alice")
    within_limits(embed)
    drama_field = next(f for f in embed.fields if f.name.startswith("Drama dice"))
    assert "💥" in drama_field.value and "⤷" in drama_field.value


def test_paying_the_price_rewrites_the_title_and_colour() -> None:
    original = discord.Embed(title="⚖️ Yes, but… — net 1 — the gate", colour=0)
    paid = render_drama.price_paid_embed(original, PriceOutcome("William", penalty.add(3, 1)))
    assert paid.title == "✅ Success (price paid) — net 1 — the gate"
    assert "3 → **4** (shaken)" in paid.fields[-1].value
    assert "**William** is now **shaken**" in paid.fields[-1].value


def test_the_largest_opposed_test_fits() -> None:
    a, b = Pools(60, 60, 60), Pools(60, 60, 60)
    result = drama.opposed(SeededDice(3), a=a, b=b, criticals=True)
    outcome = OpposedOutcome(
        result=result,
        pools=a,
        their_pools=b,
        their_name="N" * 64,
        chances={"a": 0.3, "b": 0.3, "draw": 0.1, "both fail": 0.3},
        character="W" * 64,
        penalty_dice=0,
        gained=None,
        label=UserText("l" * 100),
        secrecy=PUBLIC,
    )
    within_limits(render_drama.opposed_embed(outcome, "alice"))


def test_base_lines_and_forgone_checks() -> None:
    assert render_rps.base_line(Base(16, ("Base 16",))) == "**Base 16**"
    assert render_rps.base_line(Base(14, ("Base 16", "Tricky −2"))) == (
        "**Base 14** = Base 16 + Tricky −2"
    )
    lines = render_rps.check_lines(rps.check(ScriptedDice([]), base=16, forgo=True))
    assert lines == ["Roll forgone (Base above 15): **SL 1**, and no critical either way."]


def test_verdicts_read_the_sl() -> None:
    assert render_rps.check_lines(rps.check(ScriptedDice([4, 6]), base=10))[-1] == (
        "**SL 0** — failure, but barely (a retry is usually allowed)."
    )
    assert render_rps.check_lines(rps.check(ScriptedDice([2, 2]), base=10))[-1] == (
        "**SL 6** — success, good."
    )
    assert render_rps.check_lines(rps.check(ScriptedDice([9, 9]), base=10))[-1] == (
        "**SL −8** — failure."  # a minus sign, as everywhere
    )


def test_the_largest_working_together_fits() -> None:
    from bot.services.drama import HelperRoll

    pools = Pools(60, 60, 60)
    everyone = [pools] + [Pools(60, 60)] * drama.MAX_HELPERS
    together = drama.together(SeededDice(11), pools=everyone, criticals=True)
    outcome = RollOutcome(
        result=together.tests[0],
        pools=pools,
        net=together.net,
        outcome=together.outcome,
        chances=drama.together_chances(pools=everyone[:3]),
        character="W" * 64,
        penalty_dice=0,
        gained=None,
        offer_id=None,
        label=UserText("l" * 100),
        secrecy=PUBLIC,
        helpers=tuple(
            HelperRoll(f"Helper {i} " + "h" * 50, p, t)
            for i, (p, t) in enumerate(zip(everyone[1:], together.tests[1:], strict=True))
        ),
    )
    embed = render_drama.test_embed(outcome, "alice")
    within_limits(embed)
    assert "Working together, the nets add up" in embed.description
