"""The forms Dice Maiden, Roll20 and Avrae document, read as those bots' docs say — or refused.

The table is written from each bot's documentation (Dice Maiden's roll syntax, Roll20's dice
reference, d20's README as Avrae uses it), not from our output: each row is the meaning the
doc gives, checked with scripted faces. Where the bots disagree, docs/rules.md ("Dice
notation") says which reading wins, and the reply shows it ("read as …").
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.dice import ScriptedDice, SeededDice
from engine.notation import RollError, read_command, roll_command

# bot, typed, faces, results (each roll's total, or successes − failures), reading shown
MEANINGS = [
    # Dice Maiden
    ("dicemaiden", "4d6 k3", [6, 2, 5, 1], (13,), True),  # keep the highest 3
    ("dicemaiden", "4d6 kl2", [6, 2, 5, 1], (3,), False),
    ("dicemaiden", "4d6 d1", [6, 2, 5, 1], (13,), True),  # drop the lowest 1
    ("dicemaiden", "6d10 t7", [7, 3, 10, 1, 8, 6], (3,), False),  # successes ≥ 7
    ("dicemaiden", "6d10 tl6", [7, 3, 10, 1, 8, 6], (3,), False),  # successes ≤ 6
    ("dicemaiden", "5d10 t8 f1", [8, 1, 9, 1, 3], (0,), False),  # 2 successes − 2 failures
    ("dicemaiden", "3d6 e6", [6, 6, 2, 6, 3], (23,), True),  # each 6 explodes once
    ("dicemaiden", "3d6 e", [6, 6, 2, 6, 3], (23,), True),  # on the highest face
    ("dicemaiden", "3d6 ie6", [6, 2, 3, 6, 4], (21,), True),  # explodes until
    ("dicemaiden", "3d6 ie", [6, 2, 3, 6, 4], (21,), True),
    ("dicemaiden", "4d6 r2", [1, 5, 2, 6, 2, 2], (15,), True),  # ≤ 2 rerolled once
    ("dicemaiden", "4d6 ir2", [1, 5, 6, 6, 2, 3], (20,), True),  # ≤ 2 rerolled until
    ("dicemaiden", "6 4d6", [1] * 24, (4,) * 6, True),  # six separate totals
    ("dicemaiden", "2d6 ; 3d8 ; 1d20; 4d10", [1] * 10, (2, 3, 1, 4), False),
    ("dicemaiden", "2d6 ! Fire damage", [3, 4], (7,), False),
    ("dicemaiden", "(Attack) 1d20 + 5", [11], (16,), False),
    ("dicemaiden", "+d20", [5, 17], (17,), True),  # advantage
    ("dicemaiden", "-d20", [5, 17], (5,), True),  # disadvantage
    ("dicemaiden", "dndstats", [1] * 24, (3,) * 6, True),  # 6 4d6 k3
    ("dicemaiden", "4cod", [10, 3, 8, 1, 9], (3,), True),  # 4d10 t8 ie10
    ("dicemaiden", "4wod8", [8, 1, 1, 3], (-1,), True),  # 4d10 f1 t8
    ("dicemaiden", "sr6", [5, 6, 1, 2, 3, 4], (2,), True),  # 6d6 t5
    ("dicemaiden", "6yz", [6, 6, 1, 2, 3, 4], (2,), True),  # 6d6 t6
    ("dicemaiden", "3wh4+", [4, 3, 5], (2,), True),  # 3d6 t4
    ("dicemaiden", "3df", [1, 2, 3], (0,), True),  # Fudge: −1, 0, +1
    ("dicemaiden", "ul 3d100", [1, 2, 3], (6,), True),
    ("dicemaiden", "2d6 + 1d4", [1, 2, 3], (6,), False),
    ("dicemaiden", "3d6 + 5", [1, 2, 3], (11,), False),
    # Roll20
    ("roll20", "4d6k3", [6, 2, 5, 1], (13,), True),
    ("roll20", "4d6kh3", [6, 2, 5, 1], (13,), False),
    ("roll20", "4d6kl1", [6, 2, 5, 1], (1,), False),
    ("roll20", "4d6d1", [6, 2, 5, 1], (13,), True),
    ("roll20", "4d6dl1", [6, 2, 5, 1], (13,), True),
    ("roll20", "4d6dh1", [6, 2, 5, 1], (8,), True),
    ("roll20", "3d6!", [6, 2, 3, 4], (15,), True),  # the 6 explodes into a 4
    ("roll20", "1d10!>9", [9, 10, 2], (21,), True),  # ≥ 9 explodes
    ("roll20", "3d6r<2", [1, 5, 6, 2, 3], (14,), True),  # ≤ 2 rerolled until
    ("roll20", "4dF", [1, 2, 3, 3], (1,), True),
    ("roll20", "1d20+5", [7], (12,), False),
    ("roll20", "2d6+1d4-1", [1, 2, 3], (5,), False),
    # Avrae (d20)
    ("avrae", "1d20 adv", [5, 17], (17,), True),
    ("avrae", "1d20+5 dis", [5, 17], (10,), True),
    ("avrae", "2d6e6", [6, 1, 6, 2], (15,), False),  # explodes until
    ("avrae", "2d6ro1", [1, 4, 6], (10,), False),
    ("avrae", "2d6rr1", [1, 1, 1, 5, 3], (8,), False),
    ("avrae", "2d6ra6", [6, 1, 4], (11,), False),
    ("avrae", "4d6mi2", [1, 2, 3, 4], (11,), False),
    ("avrae", "4d6ma5", [6, 2, 3, 4], (14,), False),
    ("avrae", "4d6ph1", [6, 2, 5, 1], (8,), False),
    ("avrae", "(1d6, 2d6)kh1", [6, 2, 5], (7,), False),
    ("avrae", "1d%", [5], (40,), False),
    ("avrae", "1d20 >= 15", [15], (1,), True),  # one die: the same number either way
    ("avrae", "1d20+5 > 15", [11], (1,), False),  # a comparison of the total stays d20's
    ("avrae", "4d6k=3", [3, 2, 3, 6], (6,), True),  # d20's literal k3, spelled explicitly
]


@pytest.mark.parametrize(("bot", "typed", "faces", "results", "shown"), MEANINGS)
def test_documented_forms_roll_what_their_docs_say(
    bot: str, typed: str, faces: list[int], results: tuple[int, ...], shown: bool
) -> None:
    dice = ScriptedDice(faces)
    roll = roll_command(dice, typed)
    assert roll.results == results, (bot, typed, roll.expression)
    assert roll.rewritten is shown, (bot, typed, roll.expression)
    assert dice.remaining == 0  # exactly these faces, in this order


@pytest.mark.parametrize(
    ("typed", "reading"),
    [
        ("4d6k3", "4d6kh3"),
        ("4d6 d1", "4d6pl1"),
        ("6d10 t7", "6d10 t7"),
        ("6d10>=7", "6d10 t7"),
        ("3d6 ie6", "3d6e6"),
        ("4d6 r2", "4d6ro<3"),
        ("4cod", "4d10e10 t8"),
        ("4codr", "4d10ro<8e10 t8"),
        ("6x4d6", "6x4d6"),
        ("1d20 + 5 ; 1d20 + 3", "1d20 + 5 ; 1d20 + 3"),
        ("4dF", "(4d3-8)"),
        ("2d6 e6", "(1d6ra6, 1d6ra6)"),
    ],
)
def test_the_reading_is_named(typed: str, reading: str) -> None:
    assert read_command(typed).canonical == reading


def test_pools_name_their_botches() -> None:
    roll = roll_command(ScriptedDice([1, 3, 4, 5]), "4d10 t8 f1")
    (count,) = roll.parts[0].counts
    assert (count.successes, count.failures, count.net, count.botch) == (0, 1, -1, True)


def test_explosions_count_as_dice_of_the_pool() -> None:
    roll = roll_command(ScriptedDice([10, 10, 3, 2, 2]), "3d10 t8 ie10")
    assert roll.parts[0].counts[0].successes == 2  # the 10 and the 10 it exploded into


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("3d6>3", r"means two things.*`3d6 t3`"),
        ("10d6<4", "means two things"),
        ("sw8", "`sw8` is a Dice Maiden system alias"),
        ("conan4", "Dice Maiden system alias"),
        ("4d6 km2", "keep the middle dice"),
        ("4d6 i1", "imploding dice"),
        ("5d10 t7ds10", "double successes"),
        ("4d6 adv1", "extra-die advantage"),
        ("p 3d6", "use the `secret` option"),
        ("s 4d6 k3", "simple output"),
        ("2d6!!", "compounding or penetrating"),
        ("2d6!p", "compounding or penetrating"),
        ("3d6s", "sorted dice"),
        ("1d20cs>19", "critical range"),
        ("+d%", "percentile advantage"),
        ("10d6 e6 k8 +4", "explodes each die once"),
        ("7d6 t4 + 1d6", "counts the dice of one term"),
        ("1d20 d6", "which leaves none"),
        ("3d8 gb", "Dice Maiden system word"),
        ("4d6 f1", "give a target too"),
        ("21 4d6", "from 2 to 20"),
        ("1d6;1d6;1d6;1d6;1d6", "At most 4 rolls"),
        ("20 250d1000", "too much work"),
    ],
)
def test_what_is_not_read_is_refused_by_name(typed: str, message: str) -> None:
    dice = ScriptedDice([])
    with pytest.raises(RollError, match=message):
        roll_command(dice, typed)
    assert dice.used == 0


def test_the_token_limit_counts_the_parsed_expression() -> None:
    # It used to stop counting at the first three letters (`rol`), after which anything went.
    with pytest.raises(RollError, match="numbers and operators"):
        roll_command(SeededDice(1), "1d6rol1" + "+1" * 70)


_DICE_LIKE_START = re.compile(
    r"[\d+\-*/×%<>=(),.\[\]^]|d\d|d%|x\d|[kp][hl<>]?\d|r[rao]?[hl<>]?\d|i?e[hl<>]?\d|m[ai]\d|"
    r"tl?\d|f\d|(adv|dis)",
    re.IGNORECASE,
)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="0123456789dDkKhlpPeirtfbFsu!#;xX+-*/ ()<>=adv%,ocwyz", max_size=30))
@example("0#;0")  # a roll's label (here empty) stands between its reading and the next roll's
@example("0#1;0")
def test_any_string_is_read_with_its_reading_shown_unchanged_or_refused(text: str) -> None:
    """Never an unlisted rewrite: what is rolled is the reading, and the reading reads back as
    itself; a label never starts like dice; a reading that differs is flagged to be shown."""
    try:
        roll = roll_command(SeededDice(5), text)
    except RollError as error:
        assert str(error)  # refused with a message
        return
    again = read_command(roll.expression)
    assert again.canonical == roll.expression
    assert not again.rewritten  # the canonical form is read unchanged
    for part in roll.parts:
        assert part.rolls[0].expression == part.part.notation  # what was rolled is the reading
        comment = part.part.comment
        if comment and not any(mark in text for mark in "!#("):
            assert not _DICE_LIKE_START.match(comment)
            assert comment in text  # the label is the player's own text
    if not roll.rewritten:  # each roll's reading is what was typed for it, in order
        squash = re.sub(r"\s+", "", text).lower()
        position = 0
        for part in roll.parts:
            reading = re.sub(r"\s+", "", part.part.reading).lower()
            found = squash.find(reading, position)
            assert found >= 0, (reading, squash)
            position = found + len(reading)
