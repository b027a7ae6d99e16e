"""Dice sources: scripted faces in order with clear errors; seeded reproducible; secure uniform."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.dice import Dice, DiceError, ReplayDice, ScriptedDice, SecureDice, SeededDice


def test_scripted_dice_return_the_faces_in_order() -> None:
    dice = ScriptedDice([3, 6, 1])
    assert [dice.roll(6), dice.roll(6), dice.roll(20)] == [3, 6, 1]
    assert dice.remaining == 0 and dice.used == 3


def test_scripted_dice_say_when_they_run_out() -> None:
    dice = ScriptedDice([4])
    dice.roll(6)
    with pytest.raises(DiceError, match=r"exhausted: draw #2 \(a d6\)"):
        dice.roll(6)


def test_scripted_dice_refuse_a_face_the_die_cannot_show() -> None:
    with pytest.raises(DiceError, match=r"face 7 at draw #1 does not fit a d6"):
        ScriptedDice([7]).roll(6)
    with pytest.raises(DiceError, match="face 0"):
        ScriptedDice([0]).roll(6)


def test_seeded_dice_are_reproducible() -> None:
    first = [SeededDice(42).roll(20) for _ in range(1)]
    a, b = SeededDice(42), SeededDice(42)
    assert [a.roll(20) for _ in range(50)] == [b.roll(20) for _ in range(50)]
    assert first[0] == SeededDice(42).roll(20)


@pytest.mark.parametrize("dice", [SecureDice(), SeededDice(7)])
def test_sources_are_uniform_over_the_faces(dice: Dice) -> None:
    # 60,000 d6 rolls: each face's count within 5 sigma of 10,000 (sigma = sqrt(n p (1-p)) ≈ 91).
    counts = Counter(dice.roll(6) for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(count - 10_000) < 5 * 91.3 for count in counts.values())


def test_every_source_is_a_dice() -> None:
    assert all(isinstance(d, Dice) for d in (SecureDice(), SeededDice(1), ScriptedDice([1])))


def test_replay_dice_draw_the_stored_faces_then_the_live_source() -> None:
    live = ScriptedDice([2, 5])
    dice = ReplayDice([6, 1], then=live)
    assert [dice.roll(6) for _ in range(4)] == [6, 1, 2, 5]
    assert live.used == 2


def test_replay_dice_refuse_a_stored_face_the_die_cannot_show() -> None:
    with pytest.raises(DiceError, match="replayed face 8 does not fit a d6"):
        ReplayDice([8], then=ScriptedDice([])).roll(6)
