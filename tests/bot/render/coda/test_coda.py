"""CODA embeds: explosion dice marked, a colour per degree, and always within Discord's limits."""

from __future__ import annotations

from bot.render import coda as render
from bot.render.limits import TOTAL
from bot.services.coda import CombinedOutcome, Roller, TaskView
from bot.services.secrecy import PUBLIC
from bot.text import UserText
from engine.dice import SeededDice
from engine.systems import coda
from engine.systems.coda import Degree, Part


def test_dice_text_marks_the_rolling_sixes():
    assert render.dice_text((6, 6, 6, 3), 2) == "[6] [6] 💥[6] 💥[3]"
    assert render.dice_text((6, 5), 2) == "[6] [5]"


def test_every_degree_has_a_colour_and_an_icon():
    assert set(render.DEGREE_COLOURS) == set(Degree)
    assert set(render.DEGREE_ICONS) == set(Degree)
    assert (
        render.DEGREE_COLOURS[Degree.DISASTROUS_FAILURE]
        != render.DEGREE_COLOURS[Degree.SUPERIOR_SUCCESS]
    )


def test_twenty_helpers_with_long_names_fit_the_limits():
    helpers = [coda.Side(modifier=m % 7 - 3) for m in range(coda.MAX_HELPERS)]
    result = coda.combined(SeededDice(1), tn=30, helpers=helpers, leader_modifier=5)
    name = "N" * 64
    rollers = tuple(
        Roller(parts=(Part("x" * 64, h.modifier),), character=name, subject="S" * 64)
        for h in helpers
    )
    outcome = CombinedOutcome(
        result=result,
        leader=rollers[0],
        helpers=rollers,
        chance=0.5,
        helper_chances=(0.25,) * len(rollers),
        difficulty="Nearly Impossible",
        label=UserText("L" * 100),
        secrecy=PUBLIC,
    )
    embed = render.combined_embed(outcome, "R" * 32)
    assert len(embed) <= TOTAL
    assert len(embed.description or "") <= 4096


def test_a_long_extended_task_fits():
    task = coda.extended_start(
        name="T" * 100,
        stages=[coda.Stage(100, "K" * 100) for _ in range(coda.MAX_STAGES)],
        interval=10_000,
        unit="u" * 20,
    )
    embed = render.status_embed([TaskView(task=task, started_by=1)] * 25)
    assert len(embed) <= TOTAL
    assert all(len(f.value or "") <= 1024 for f in embed.fields)


def test_elapsed_time_reads_naturally_with_or_without_a_unit():
    task = coda.extended_start(name="Brew", stages=[10], interval=1, unit="days")
    assert (
        "**Elapsed:** 0 days (each test 1 day)"
        in render.task_embed(TaskView(task=task, started_by=1), title="T").description
    )
    bare = coda.extended_start(name="Brew", stages=[10], interval=2)
    text = render.task_embed(TaskView(task=bare, started_by=1), title="T").description
    assert "**Elapsed:** 0 units (each test 2 units)" in text
    # Neither unit nor interval: no game time at all, rather than "0 units (each test 1 unit)".
    plain = coda.extended_start(name="Brew", stages=[10])
    text = render.task_embed(TaskView(task=plain, started_by=1), title="T").description
    assert "**Tests made:** 0\n" in text and "Elapsed" not in text
