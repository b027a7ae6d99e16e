"""The exact ``/roll`` embed of fixed rolls: the breakdown, faces and totals are read from
d20's result tree by ``engine.notation._rolled_tree`` rather than by d20, and these embeds
(taken from d20's own reading before that change) pin every character of the reply."""

from __future__ import annotations

from typing import Any

import pytest

from bot.render.rolls import notation_embed
from bot.services import secrecy
from bot.services.rolls import NotationOutcome
from bot.text import UserText
from engine.dice import ScriptedDice, SeededDice
from engine.notation import roll_command

NEUTRAL, GREAT, DISASTER = 5793266, 3066993, 15158332


def _embed(expression: str, label: str | None, dice: Any) -> tuple[Any, dict[str, Any]]:
    roll = roll_command(dice, expression)
    outcome = NotationOutcome(roll=roll, label=UserText.of(label), secrecy=secrecy.PUBLIC)
    return roll, notation_embed(outcome, "bob").to_dict()


def _reply(title: str, description: str, footer: str, colour: int = NEUTRAL) -> dict[str, Any]:
    return {
        "color": colour,
        "description": description,
        "flags": 0,
        "footer": {"text": footer},
        "title": title,
        "type": "rich",
    }


@pytest.mark.parametrize(
    ("expression", "label", "faces", "results", "reply"),
    [
        (
            "4d6kh3 + 2",
            "load",
            [6, 2, 5, 1],
            (15,),
            _reply(
                "🎲 15 — load",
                "4d6kh3 (**6**, 2, 5, ~~**1**~~) + 2 = `15`",
                "bob rolled 4d6kh3 + 2",
            ),
        ),
        (
            "1d20 + 5",
            None,
            [20],
            (25,),
            _reply("🎲 25", "1d20 (**20**) + 5 = `25`", "bob rolled 1d20 + 5", GREAT),
        ),
        (
            "1d20 sneak attack",
            None,
            [1],
            (1,),
            _reply("🎲 1 — sneak attack", "1d20 (**1**) = `1`", "bob rolled 1d20", DISASTER),
        ),
        (
            "2d6rr1 [fire] + (1d4, 3)kh1 - -2",
            "a *label*",
            [1, 5, 6, 4, 3],
            (17,),
            _reply(
                "🎲 17 — a \\*label\\*",
                "2d6rr1 (**~~1~~**, **6**, 5) [fire] + (1d4 (**4**), ~~3~~)kh1 - -2 = `17`",
                "bob rolled 2d6rr1 [fire] + (1d4, 3)kh1 - -2",
            ),
        ),
        (
            "3d6e6mi2",
            None,
            [6, 1, 3, 4],
            (15,),
            _reply("🎲 15", "3d6e6mi2 (**6!**, 1 -> 2, 3, 4) = `15`", "bob rolled 3d6e6mi2"),
        ),
        (
            "5d10 t8 f1",
            None,
            [10, 8, 1, 3, 5],
            (1,),
            _reply(
                "🎲 1",
                "5d10 (**10**, 8, **1**, 3, 5) → successes 2 − failures 1 = **1**",
                "bob rolled 5d10 t8 f1",
            ),
        ),
        (
            "6 4d6 k3 ; 1d20 + 5 ! to hit",
            None,
            [1, 2, 3, 4, 5, 6] * 4 + [1],
            (9, 13, 15, 9, 13, 15, 6),
            _reply(
                "🎲 9 · 13 · 15 · 9 · 13 · 15 · 6 — to hit",
                "Read as `6x4d6kh3 ; 1d20 + 5`\n"
                + "4d6kh3 (~~**1**~~, 2, 3, 4) = `9`\n"
                + "4d6kh3 (5, **6**, ~~**1**~~, 2) = `13`\n"
                + "4d6kh3 (~~3~~, 4, 5, **6**) = `15`\n"
                + "4d6kh3 (~~**1**~~, 2, 3, 4) = `9`\n"
                + "4d6kh3 (5, **6**, ~~**1**~~, 2) = `13`\n"
                + "4d6kh3 (~~3~~, 4, 5, **6**) = `15`\n"
                + "1d20 (**1**) + 5 = `6` *to hit*",
                "bob rolled 6x4d6kh3 ; 1d20 + 5",
            ),
        ),
        (
            "1d100 + 1d%",
            None,
            [42, 7],
            (102,),
            _reply("🎲 102", "1d100 (42) + 1d% (60) = `102`", "bob rolled 1d100 + 1d%"),
        ),
    ],
)
def test_a_scripted_roll_gives_this_exact_embed(
    expression: str,
    label: str | None,
    faces: list[int],
    results: tuple[int, ...],
    reply: dict[str, Any],
) -> None:
    roll, embed = _embed(expression, label, ScriptedDice(faces))
    assert embed == reply
    assert roll.results == results


def test_a_seeded_roll_gives_this_exact_embed() -> None:
    """Ties among the kept dice (three 5s for ``kh3``) are broken as d20 breaks them."""
    roll, embed = _embed("8d6kh3 + (2d4, 1d8)kl1 - 1d20ro1 * 2; 3 3d10e10 t7", None, SeededDice(3))
    assert roll.faces == (2, 5, 5, 2, 3, 5, 4, 6, 1, 1, 8, 9, 9, 4, 4, 8, 9, 9, 8, 7, 3)
    assert roll.results == (0, 1, 3, 2)
    assert embed == _reply(
        "🎲 0 · 1 · 3 · 2",
        "Read as `8d6kh3 + (2d4, 1d8)kl1 - 1d20ro1 * 2 ; 3x3d10e10 t7`\n"
        "8d6kh3 (~~2~~, 5, 5, ~~2~~, ~~3~~, ~~5~~, ~~4~~, **6**) + (2d4 (**1**, **1**), "
        "~~1d8 (**8**)~~)kl1 - 1d20ro1 (9) * 2 = `0`\n"
        "3d10e10 (9, 4, 4) → successes 1 − failures 0 = **1**\n"
        "3d10e10 (8, 9, 9) → successes 3 − failures 0 = **3**\n"
        "3d10e10 (8, 7, 3) → successes 2 − failures 0 = **2**",
        "bob rolled 8d6kh3 + (2d4, 1d8)kl1 - 1d20ro1 * 2 ; 3x3d10e10 t7",
    )
