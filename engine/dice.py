"""Dice sources.

The engine never touches global random state: every roll draws from a ``Dice`` passed in,
so production uses :class:`SecureDice`, simulations :class:`SeededDice`, and tests
:class:`ScriptedDice` to pin one exact outcome.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from typing import Protocol, runtime_checkable


class DiceError(Exception):
    """A dice source was misused (a script ran out or holds a face the die cannot show)."""


@runtime_checkable
class Dice(Protocol):
    """Anything that rolls one fair die: ``roll(sides)`` is uniform over ``1..sides``."""

    def roll(self, sides: int) -> int: ...


class SecureDice:
    """The production source: the operating system's CSPRNG, so no player can predict a roll."""

    __slots__ = ()

    def roll(self, sides: int) -> int:
        return secrets.randbelow(sides) + 1

    def __repr__(self) -> str:
        return "SecureDice()"


class SeededDice:
    """A reproducible source for simulations, benchmarks and statistical tests."""

    __slots__ = ("_randrange", "seed")

    def __init__(self, seed: int | str | bytes | None = None) -> None:
        self.seed = seed
        # Bind the method once: rolling is on every hot path.
        self._randrange = random.Random(seed).randrange

    def roll(self, sides: int) -> int:
        return self._randrange(sides) + 1

    def __repr__(self) -> str:
        return f"SeededDice({self.seed!r})"


class ScriptedDice:
    """Returns the given faces in order, so a test can pin one exact outcome.

    It refuses, with a message naming the draw, to run past its script or to return a
    face the requested die cannot show: either means the test and the rule disagree on
    the order in which dice are drawn.
    """

    __slots__ = ("_faces", "_position")

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = tuple(faces)
        self._position = 0

    @property
    def remaining(self) -> int:
        """How many scripted faces have not been drawn yet."""
        return len(self._faces) - self._position

    @property
    def used(self) -> int:
        """How many faces have been drawn."""
        return self._position

    def roll(self, sides: int) -> int:
        if self._position >= len(self._faces):
            raise DiceError(
                f"ScriptedDice exhausted: draw #{self._position + 1} (a d{sides}) was asked for, "
                f"but only {len(self._faces)} faces were scripted: {list(self._faces)}"
            )
        face = self._faces[self._position]
        if not 1 <= face <= sides:
            raise DiceError(
                f"ScriptedDice face {face} at draw #{self._position + 1} does not fit a d{sides} "
                f"(faces 1..{sides})"
            )
        self._position += 1
        return face

    def __repr__(self) -> str:
        return f"ScriptedDice({list(self._faces)!r}, used={self._position})"


class ReplayDice:
    """Draws ``faces`` first, then from ``then``: one side of a roll rolled earlier.

    An opposed roll whose sides are rolled by two players at two moments (the "roll your
    side" button) stores the first side's faces; replaying them through the engine's own
    opposed function gives exactly the result the engine would have given with both sides
    rolled at once, and the second side's dice come fresh from ``then``.
    """

    __slots__ = ("_faces", "_position", "_then")

    def __init__(self, faces: Iterable[int], then: Dice) -> None:
        self._faces = tuple(faces)
        self._position = 0
        self._then = then

    def roll(self, sides: int) -> int:
        if self._position >= len(self._faces):
            return self._then.roll(sides)
        face = self._faces[self._position]
        if not 1 <= face <= sides:
            raise DiceError(f"replayed face {face} does not fit a d{sides} (faces 1..{sides})")
        self._position += 1
        return face

    def __repr__(self) -> str:
        return f"ReplayDice({list(self._faces)!r}, used={self._position}, then={self._then!r})"


class RecordingDice:
    """Draws from ``dice`` and keeps every face in order, to be replayed later
    (:class:`ReplayDice`): one side of an opposed roll rolled before the other."""

    __slots__ = ("_dice", "faces")

    def __init__(self, dice: Dice) -> None:
        self._dice = dice
        self.faces: list[int] = []

    def roll(self, sides: int) -> int:
        face = self._dice.roll(sides)
        self.faces.append(face)
        return face

    def __repr__(self) -> str:
        return f"RecordingDice({self._dice!r}, faces={self.faces!r})"
