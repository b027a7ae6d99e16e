"""A work budget for dice notation: estimated before any die is drawn, enforced while rolling.

d20 is fast for ordinary rolls, but a short expression can ask for a great deal of work:
every keep/drop/reroll/explode selector sorts or scans its whole set, repeated selectors
multiply that, and an explosion that almost always fires keeps a loop going until the dice
limit. On a bot that rolls on its event loop, that work freezes every other player's command.

Two guards, both counted in *steps* (one step is roughly one die drawn or one set element
visited; calibrated so that ``BUDGET`` steps take well under 5 ms of CPU, see
``benchmarks/abuse.py``):

- :func:`estimate` walks the parsed tree and predicts the steps (expected values for
  explosions and rerolls, whose chains are random). Over ``BUDGET`` the expression is
  refused before anything is rolled, with a message naming the part to shorten.
- :class:`Meter` counts the steps actually spent while rolling and stops a roll whose
  luck ran far beyond its estimate (a very long explosion chain), so no roll, however
  unlucky, costs more than the budget.
"""

from __future__ import annotations

import math
from contextvars import ContextVar
from dataclasses import dataclass

from d20 import diceast

from engine.errors import N_, InputError

BUDGET = 8_000
"""Steps one expression may cost (estimated, and then spent)."""

DIE_STEPS = 20
"""Steps for one die: drawing it, building its result node and writing it in the breakdown."""

_SORTING = frozenset({"h", "l"})  # selectors that sort their set
_CHAINING = frozenset({"rr", "e"})  # operators that repeat while their selector matches


class OverBudget(InputError):
    """An expression (or a roll in progress) that would cost more than ``BUDGET`` steps."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """What a node is expected to cost and to yield."""

    steps: float  # work to evaluate it once
    rolls: float  # dice expected to be drawn
    size: float  # elements of the set it yields (1 for a plain number)
    total_steps: float  # work to read its total once (a set sums its elements)
    part: str  # the text to name when this node is what makes the roll too costly


def estimate(tree: diceast.Node) -> Estimate:
    """The expected cost of rolling ``tree``; raises :class:`OverBudget` when it is too much.

    The message names the part of the expression that costs most, so the player knows what
    to shorten.
    """
    result = _walk(tree)
    if result.steps > BUDGET:
        raise OverBudget(
            N_(
                "`{part}` is too much work for one roll (about {steps} steps; the limit is "
                "{limit}). Use fewer dice, fewer keep/drop/reroll operators, or a smaller set."
            ),
            part=_clip(result.part),
            steps=_round(result.steps),
            limit=f"{BUDGET:,}",
        )
    return result


def _walk(node: diceast.Node) -> Estimate:
    if isinstance(node, diceast.Expression):
        return _walk(node.roll)
    if isinstance(node, diceast.AnnotatedNumber | diceast.Parenthetical):
        inner = _walk(node.value)
        return Estimate(inner.steps + 1, inner.rolls, inner.size, inner.total_steps, inner.part)
    if isinstance(node, diceast.Literal):
        return Estimate(1, 0, 1, 1, str(node))
    if isinstance(node, diceast.UnOp):
        inner = _walk(node.value)
        return Estimate(inner.steps + 1, inner.rolls, 1, inner.total_steps + 1, inner.part)
    if isinstance(node, diceast.BinOp):
        left, right = _walk(node.left), _walk(node.right)
        costly = left if left.steps >= right.steps else right
        return Estimate(
            left.steps + right.steps + 1,
            left.rolls + right.rolls,
            1,
            left.total_steps + right.total_steps + 1,
            costly.part,
        )
    if isinstance(node, diceast.Dice):
        return Estimate(DIE_STEPS * node.num, node.num, node.num, node.num, str(node))
    if isinstance(node, diceast.NumberSet):
        parts = [_walk(value) for value in node.values]
        return Estimate(
            sum(p.steps for p in parts) + len(parts),
            sum(p.rolls for p in parts),
            len(parts),
            sum(p.total_steps for p in parts) + len(parts),
            str(node),
        )
    if isinstance(node, diceast.OperatedSet):  # OperatedDice included
        return _operated(node)
    return Estimate(1, 0, 1, 1, str(node))  # d20 has no other node; count it as one step


def _operated(node: diceast.OperatedSet) -> Estimate:
    base = _walk(node.value)
    steps, rolls, size, total = base.steps, base.rolls, base.size, base.total_steps
    faces = _faces(node.value)
    for operation in node.operations:
        element = total / max(size, 1)  # steps to read one element's total
        select = sum(_select_steps(size, element, selector) for selector in operation.sels)
        if operation.op in {"k", "p"}:
            steps += select + size
        elif operation.op in {"mi", "ma"}:
            steps += size
        else:  # rr, ro, ra, e: draw more dice where the selector matches
            chance = _match_chance(operation, faces, size)
            if chance >= 1 and operation.op in _CHAINING:
                raise OverBudget(
                    N_(
                        "`{dice}`: `{operation}` matches every face, so it would reroll or "
                        "explode forever. Pick a selector some faces miss, e.g. `e6` on d6."
                    ),
                    dice=_clip(str(node)),
                    operation=str(operation),
                )
            if operation.op in _CHAINING:
                extra = size * chance / (1 - chance)
                rounds = 1 + math.log(max(size, 2)) / -math.log(max(chance, 1e-9))
            elif operation.op == "ro":
                extra, rounds = size * chance, 1
            else:  # ra: one die at most
                extra, rounds = min(chance * size, 1), 1
            grown = size + extra if operation.op in {"e", "ra"} else size
            steps += select * rounds * grown / max(size, 1) + DIE_STEPS * extra
            rolls += extra
            total += extra
            size = grown
    return Estimate(steps, rolls, size, total, str(node))


def _select_steps(size: float, element: float, selector: diceast.SetSelector) -> float:
    """Steps for one selector over a set: a scan, or a sort for highest/lowest."""
    scan = size * max(element, 1)
    if selector.cat in _SORTING:
        return scan * (1 + math.log2(max(size, 2)))
    return scan


def _faces(node: diceast.Node) -> list[int] | None:
    """The faces of the dice an operator applies to, or None when it is not plain dice."""
    if not isinstance(node, diceast.Dice):
        return None
    if node.size == "%":
        return list(range(0, 100, 10))
    return list(range(1, int(node.size) + 1)) if int(node.size) >= 1 else None


def _match_chance(operation: diceast.SetOperator, faces: list[int] | None, size: float) -> float:
    """The chance that one die matches an operator's selectors (for rerolls and explosions)."""
    if faces is None:
        return 1.0  # d20 refuses these operators on a set; the roll reports it
    chance = 0.0
    for selector in operation.sels:
        if selector.cat in _SORTING:
            # Highest/lowest always match someone: within a chain, that is every time.
            chance += min(selector.num, size) / max(size, 1) if operation.op == "ro" else 1.0
            continue
        matching = sum(1 for face in faces if _matches(selector, face))
        chance += matching / len(faces)
    return min(chance, 1.0)


def _matches(selector: diceast.SetSelector, face: int) -> bool:
    number: int = selector.num
    if selector.cat == "<":
        return face < number
    if selector.cat == ">":
        return face > number
    return face == number


class Meter:
    """Counts the steps a roll actually spends and stops it past the budget."""

    __slots__ = ("spent",)

    def __init__(self) -> None:
        self.spent = 0

    def charge(self, steps: int) -> None:
        self.spent += steps
        if self.spent > BUDGET:
            raise OverBudget(
                N_(
                    "This roll kept rerolling or exploding far past what it usually does and "
                    "was stopped before it finished. Nothing was rolled; try again, or use a "
                    "selector that matches fewer faces."
                )
            )


current_meter: ContextVar[Meter | None] = ContextVar("narrator_roll_meter", default=None)


def charge(steps: int) -> None:
    """Charge ``steps`` to the roll in progress, if any (d20 used outside our rolls is free)."""
    meter = current_meter.get()
    if meter is not None:
        meter.charge(steps)


def _clip(text: str, limit: int = 60) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _round(steps: float) -> str:
    return f"{int(steps):,}"
