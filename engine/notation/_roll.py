"""Generic dice notation (``4d6kh3 + 2``) through the d20 library, drawn from our ``Dice``.

d20 draws its dice from the ``random`` module it imported. Rather than reseeding globals,
we swap that module reference for a small router that asks the ``Dice`` source of the
current roll (held in a context variable, so concurrent rolls never share a source) and
falls back to the real ``random`` module for callers outside :func:`roll_expression`.
"""

from __future__ import annotations

import random as _stdlib_random
import re
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache

import d20
import d20.expression as _d20_expression
from d20 import diceast

from engine.dice import Dice
from engine.errors import N_, InputError
from engine.notation import _budget as roll_budget
from engine.notation import _rolled_tree as rolled_tree

MAX_DICE = 250
MAX_SIDES = 1000
MAX_EXPRESSION_LENGTH = 300
MAX_TOKENS = 100
"""Numbers, dice and operators of one parsed expression (each keep/drop/… selector counts)."""


class RollError(InputError):
    """An expression that cannot be rolled; the message is written for the player."""


#: A message of d20's own, after the expression; its ``detail`` is d20's English text, and the
#: ones a player meets are listed below so that the catalog translates them too.
_D20 = N_("{expression}: {detail}")
D20_MESSAGES = (N_("Cannot divide by zero."), N_("Cannot roll a 0-sided die."))
_TOO_MANY = N_("{expression}: at most {most} dice per roll")

_current_dice: ContextVar[Dice | None] = ContextVar("narrator_current_dice", default=None)


class _DiceRouter:
    """Stands in for the ``random`` module inside d20, forwarding to the current ``Dice``."""

    __slots__ = ()

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        dice = _current_dice.get()
        if dice is None:
            return _stdlib_random.randrange(start, stop, step)
        if stop is None:  # randrange(size) + 1 is d20's ordinary die
            return dice.roll(start) - 1
        # randrange(0, 100, 10) is d20's percentile die: ten faces 0, 10, ..., 90.
        return start + (dice.roll((stop - start) // step) - 1) * step

    def __getattr__(self, name: str) -> object:
        return getattr(_stdlib_random, name)


_d20_expression.random = _DiceRouter()


class _MeteredContext(d20.RollContext):  # type: ignore[misc]  # d20 is untyped (Any)
    """d20's dice counter, also charging each die to the roll's work meter."""

    def count_roll(self, n: int = 1) -> None:
        """d20's count (``TooManyRolls`` past ``max_rolls``), then the meter's charge; written
        out rather than through ``super()`` and :func:`roll_budget.charge`, as every die
        drawn comes through here."""
        self.rolls += n
        if self.rolls > self.max_rolls:
            raise d20.TooManyRolls("Too many dice rolled.")
        meter = roll_budget.current_meter.get()
        if meter is not None:
            meter.charge(roll_budget.DIE_STEPS * n)


_select = _d20_expression.SetSelector.select


def _metered_select(
    self: _d20_expression.SetSelector,
    target: _d20_expression.Number,
    max_targets: int | None = None,
) -> set[_d20_expression.Number]:
    """d20's selector, charging the scan (or sort) of its set to the roll's work meter.

    The highest or lowest N (``kh3``, ``pl1``: most selections) are ranked here as d20 ranks
    them, a stable sort on each value's total, with :func:`rolled_tree.total` giving d20's
    total for a fraction of its calls; the face tests are d20's own.
    """
    kept = target.keptset
    size = len(kept)
    if self.cat == "h" or self.cat == "l":
        roll_budget.charge(size * (1 + size.bit_length()))
        ranked = sorted(kept, key=rolled_tree.total, reverse=self.cat == "h")[: self.num]
        return set(ranked if max_targets is None else ranked[:max_targets])
    roll_budget.charge(size)
    selected: set[_d20_expression.Number] = _select(self, target, max_targets)
    return selected


def _keep(self: _d20_expression.SetOperator, target: _d20_expression.Set) -> None:
    """d20's ``k``, selecting once instead of once per element (quadratic in d20 2.x).

    Dropping an unselected element never changes what the selectors pick (the highest or
    lowest N among the rest, or a face test), so one selection gives d20's exact result.
    """
    selected = self.select(target)
    for value in target.set:
        if value.kept and value not in selected:
            value.drop()


#: d20's operators by their notation (``SetOperator.operate``'s table).
_OPERATIONS = {
    "k": "keep",
    "p": "drop",
    "rr": "reroll",
    "ro": "reroll_once",
    "ra": "explode_once",
    "e": "explode",
    "mi": "minimum",
    "ma": "maximum",
}


def _operate(self: _d20_expression.SetOperator, target: _d20_expression.Set) -> None:
    """d20's ``operate``: the same method for the same notation (an unknown one a
    ``KeyError`` too), without d20's table of eight bound methods built on every call."""
    getattr(self, _OPERATIONS[self.op])(target)


_d20_expression.SetSelector.select = _metered_select
_d20_expression.SetOperator.keep = _keep
_d20_expression.SetOperator.operate = _operate
_roller = d20.Roller(_MeteredContext(max_rolls=MAX_DICE))
_ROUTER = _d20_expression.random


def _eval_dice(node: diceast.Dice) -> _d20_expression.Dice:
    """d20's ``Dice.new`` for a ``NdS`` of the tree: the same dice, drawn in the same order
    from the same source, each a ``Die`` holding its one face, as d20 builds them.

    d20 counts and draws each die through two calls apiece (its counter, then ``random``);
    here the set is counted and charged once, then drawn in one loop from the roll's
    ``Dice``. A count past the limit fails before any die of the set is drawn rather than
    at the die that crosses it: the same error, and a failed roll shows nothing it drew.
    Rerolled and exploded dice still come one by one through d20 (``Die.new``).
    """
    num, size = node.num, node.size
    context = _roller.context
    if num and size != "%" and size < 1:
        raise d20.RollValueError("Cannot roll a 0-sided die.")
    if num:
        context.count_roll(num)
    dice = _current_dice.get()
    if size == "%" or dice is None:
        faces = [
            _ROUTER.randrange(0, 100, 10) if size == "%" else _ROUTER.randrange(size) + 1
            for _ in range(num)
        ]
    else:
        roll = dice.roll
        faces = [roll(size) for _ in range(num)]
    die, literal = _d20_expression.Die, _d20_expression.Literal
    values = [die(size, [literal(face)], context=context) for face in faces]
    return _d20_expression.Dice(num, size, values, context=context)


_roller._nodes[diceast.Dice] = _eval_dice
#: d20 makes a stringifier for every roll it is not given one for; the breakdown is written by
#: :func:`rolled_tree.breakdown`, so one stringifier, never used by us, serves every roll.
_STRINGIFIER = d20.MarkdownStringifier()


@dataclass(frozen=True, slots=True)
class NotationRoll:
    """One rolled expression: the total now; the faces and d20's breakdown when asked for.

    The breakdown and the face list cost more than the roll itself, so they are derived
    from d20's result tree on access rather than on every roll.
    """

    expression: str
    total: int
    comment: str | None
    _result: d20.RollResult = field(repr=False, compare=False)

    @property
    def faces(self) -> tuple[int, ...]:
        """Every face rolled, kept or not, in the order the expression lists its dice."""
        return tuple(rolled_tree.faces(self._result.expr))

    @property
    def kept_faces(self) -> tuple[int, ...]:
        """The faces of the dice still kept (rerolled, dropped or kept-out dice left out)."""
        return tuple(rolled_tree.kept_faces(self._result.expr))

    @property
    def breakdown(self) -> str:
        """d20's Markdown breakdown, e.g. ``4d6kh3 (**6**, 2, 5, ~~**1**~~) + 2 = `15` ``."""
        return rolled_tree.breakdown(self._result.expr, self.total)

    @property
    def crit(self) -> bool:
        """A single kept d20 on the left showing 20 (d20's own reading)."""
        crit: bool = rolled_tree.crit(self._result.expr) == d20.CritType.CRIT
        return crit

    @property
    def fumble(self) -> bool:
        fumble: bool = rolled_tree.crit(self._result.expr) == d20.CritType.FAIL
        return fumble


def roll_tree(dice: Dice, text: str, tree: diceast.Expression, comment: str | None) -> NotationRoll:
    """Roll a checked tree (see :func:`check`) with ``dice``, or raise :class:`RollError`."""
    token = _current_dice.set(dice)
    metering = roll_budget.current_meter.set(roll_budget.Meter())
    try:
        result = _roller.roll(tree, stringifier=_STRINGIFIER)
        # d20 computes totals and the breakdown lazily: evaluate them while errors are caught.
        total = int(rolled_tree.total(result.expr))
        rolled = NotationRoll(expression=text, total=total, comment=comment, _result=result)
    except d20.TooManyRolls:
        raise RollError(
            N_("{expression}: at most {most} dice per roll, rerolls and explosions included"),
            expression=_clip(text),
            most=MAX_DICE,
        ) from None
    except d20.RollError as error:
        raise RollError(_D20, expression=_clip(text), detail=str(error)) from None
    except roll_budget.OverBudget as error:
        raise RollError(error.template, **error.params) from None
    except ZeroDivisionError:
        raise RollError(N_("{expression}: division by zero"), expression=_clip(text)) from None
    finally:
        roll_budget.current_meter.reset(metering)
        _current_dice.reset(token)
    return rolled


@lru_cache(maxsize=1024)
def check(text: str) -> tuple[diceast.Expression, float]:
    """d20 notation parsed and checked against every limit, and its estimated steps."""
    tree = _parse(text)
    tokens = _count_tokens(tree)
    if tokens > MAX_TOKENS:
        raise RollError(
            N_(
                "The expression has {tokens} numbers and operators; at most {most} are "
                "allowed. Combine terms (`10d6` rather than `1d6+1d6+…`)."
            ),
            tokens=tokens,
            most=MAX_TOKENS,
        )
    _check_annotations(tree)
    total = 0
    for node in _dice_nodes(tree):
        if node.num > MAX_DICE:
            raise RollError(_TOO_MANY, expression=f"{node.num}d{node.size}", most=MAX_DICE)
        if node.size != "%" and not 1 <= node.size <= MAX_SIDES:
            raise RollError(
                N_("{expression}: dice have 1 to {most} sides"),
                expression=f"{node.num}d{node.size}",
                most=MAX_SIDES,
            )
        total += node.num
        if total > MAX_DICE:
            raise RollError(_TOO_MANY, expression=_clip(text), most=MAX_DICE)
    try:
        steps = roll_budget.estimate(tree).steps
    except roll_budget.OverBudget as error:
        raise RollError(error.template, **error.params) from None
    return tree, steps


def _count_tokens(node: diceast.Node) -> int:
    """Numbers, dice and operators of a parsed expression (the label is not parsed)."""
    count = 0
    if isinstance(node, diceast.Literal | diceast.Dice | diceast.BinOp | diceast.UnOp):
        count = 1
    if isinstance(node, diceast.OperatedSet):
        count = sum(len(operation.sels) for operation in node.operations)
    return count + sum(_count_tokens(child) for child in getattr(node, "children", ()))


def _parse(text: str) -> diceast.Expression:
    try:
        return _roller.parse(text)
    except d20.RollSyntaxError as error:
        raise RollError(
            N_(
                "`{expression}` is not dice notation: `{got}` at character {column} was not "
                "expected there. Try `2d6+3` or `4d6kh3`; words after the dice are the label."
            ),
            expression=_clip(text),
            column=error.col,
            got=error.got,
        ) from None
    except d20.RollError as error:
        raise RollError(_D20, expression=_clip(text), detail=str(error)) from None


_MARKUP = re.compile(r"[\\*_~|`<>@#:]")


def _check_annotations(node: diceast.Node) -> None:
    """``1d20 [fire]`` annotations are shown in d20's breakdown as they are: plain words only,
    so none can ping or restyle the message."""
    if isinstance(node, diceast.AnnotatedNumber):
        for annotation in node.annotations:
            if _MARKUP.search(annotation[1:-1]):
                raise RollError(
                    N_("The annotation `{annotation}` can hold plain words only, like `[fire]`."),
                    annotation=_clip(annotation, 40),
                )
    for child in getattr(node, "children", ()):
        _check_annotations(child)


def _dice_nodes(node: diceast.Node) -> Iterator[diceast.Dice]:
    if isinstance(node, diceast.Dice):
        yield node
    for child in getattr(node, "children", ()):
        yield from _dice_nodes(child)


def _clip(text: str, limit: int = 60) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"
