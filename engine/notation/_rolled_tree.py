"""A rolled d20 tree read back: its total, its Markdown breakdown, its faces, its crit.

d20 gives them (``RollResult.total``, ``MarkdownStringifier``, ``RollResult.crit``) built for
generality: three property calls per node for a total, a stringifier object per roll, a
handler call per node and per die, the total recomputed for the breakdown. A ``/roll`` reply
needs each once, so this walks the tree once per question, with the dice of a ``Dice`` node
read in place. The results are d20's, to the character
(``tests/engine/notation/test_rolled_tree.py`` compares them over the whole grammar); a node
d20 computes in a way of its own (a parenthesis' sum) is left to d20.
"""

from __future__ import annotations

import d20
from d20.expression import (
    BinOp,
    Dice,
    Die,
    Expression,
    Literal,
    Number,
    Parenthetical,
    Set,
    SetOperator,
    UnOp,
)


def total(node: Number) -> int | float:
    """d20's ``node.total``: the node's value, or 0 when it was dropped."""
    if not node.kept:
        return 0
    kind = type(node)
    if kind is Die:  # what ``kh3`` ranks: a die's last roll
        last = node.values[-1]
        if type(last) is Literal:
            number: int | float = last.values[-1] if last.kept else 0
            return number
    elif kind is Parenthetical:
        return total(node.value)
    return _number(node)


def _number(node: Number) -> int | float:
    """d20's ``node.number`` (the value whether kept or not), for the node types it sums or
    combines plainly; d20's own property for the rest."""
    kind = type(node)
    if kind is Literal:
        number: int | float = node.values[-1]
        return number
    if kind is Dice or kind is Set:
        kept: int | float = 0  # d20 sums from 0, left to right, as here
        for value in node.values:
            if not value.kept:
                continue
            if type(value) is Die:
                last = value.values[-1]  # a die's number is its last roll's total
                kept += (
                    (last.values[-1] if last.kept else 0) if type(last) is Literal else total(last)
                )
            else:
                kept += _number(value)
        return kept
    if kind is BinOp:
        try:
            combined: int | float = BinOp.BINARY_OPS[node.op](total(node.left), total(node.right))
        except ZeroDivisionError:
            raise d20.RollValueError("Cannot divide by zero.") from None
        return combined
    if kind is Expression:
        return _number(node.roll)
    if kind is UnOp:
        signed: int | float = UnOp.UNARY_OPS[node.op](total(node.value))
        return signed
    if kind is Die:
        return total(node.values[-1])
    own: int | float = node.number
    return own


def breakdown(expression: Number, total: int) -> str:
    """d20's Markdown breakdown of a rolled tree whose total is ``total`` (``int(tree.total)``,
    already computed by the roll: d20 would compute it again)."""
    if type(expression) is Expression and expression.kept and not expression.annotation:
        return f"{_markdown(expression.roll, False)} = `{total}`"
    return _markdown(expression, False)


def _markdown(node: Number, struck: bool) -> str:
    """``node`` as d20's ``MarkdownStringifier`` writes it; ``struck`` when an ancestor is
    already struck through (d20 strikes only the outermost dropped node)."""
    if not node.kept and not struck:
        return f"~~{_markdown(node, True)}~~"
    kind = type(node)
    text: str
    if kind is Dice:
        text = f"{node.num}d{node.size}{_operations(node.operations)} ({_dice(node, struck)})"
    elif kind is Literal:
        values = node.values
        text = str(values[0]) if len(values) == 1 else " -> ".join(map(str, values))
        if node.exploded:
            text += "!"
    elif kind is BinOp:
        text = f"{_markdown(node.left, struck)} {node.op} {_markdown(node.right, struck)}"
    elif kind is UnOp:
        text = f"{node.op}{_markdown(node.value, struck)}"
    elif kind is Parenthetical:
        text = f"({_markdown(node.value, struck)}){_operations(node.operations)}"
    elif kind is Set:
        inside = ", ".join([_markdown(value, struck) for value in node.values])
        comma = "," if len(node.values) == 1 else ""
        text = f"({inside}{comma}){_operations(node.operations)}"
    elif kind is Expression:
        text = f"{_markdown(node.roll, struck)} = `{int(node.total)}`"
    elif kind is Die:
        text = _die(node, struck)  # a dropped die came through the strike above
    else:  # d20's stringifiers know these eight types only, and fail on any other too
        raise TypeError(f"d20 has no breakdown for {kind.__name__}")
    if node.annotation:
        return f"{text} {node.annotation}"
    return text


def _dice(node: Dice, struck: bool) -> str:
    """The dice of ``XdY``, comma separated: a die that is plain (kept, or inside a strike,
    and not annotated) is written here rather than through :func:`_markdown`."""
    return ", ".join(
        [
            _die(die, struck)
            if type(die) is Die and not die.annotation and (struck or die.kept)
            else _markdown(die, struck)
            for die in node.values
        ]
    )


def _die(die: Die, struck: bool) -> str:
    """One die's rolls (a reroll keeps the earlier ones, struck), a 1 or the top face bold."""
    values = die.values
    if len(values) == 1:  # rolled once: most dice
        return _face(values[0], die.size, struck)
    return ", ".join([_face(value, die.size, struck) for value in values])


def _face(value: Number, size: int | str, struck: bool) -> str:
    """One roll of a die, bold when it shows 1 or the die's size."""
    if type(value) is Literal and not value.annotation and (struck or value.kept):
        values = value.values
        number = values[-1]
        inside = str(number) if len(values) == 1 else " -> ".join(map(str, values))
        if value.exploded:
            inside += "!"
    else:
        number = value.number
        inside = _markdown(value, struck)
    if number == 1 or number == size:
        return f"**{inside}**"
    return inside


def _operations(operations: list[SetOperator]) -> str:
    """``kh3``, ``rr1e6``…: each operation's selectors, as d20 writes them."""
    if not operations:
        return ""
    written = []
    for operation in operations:
        for selector in operation.sels:
            number = f"{selector.cat}{selector.num}" if selector.cat else str(selector.num)
            written.append(f"{operation.op}{number}")
    return "".join(written)


def faces(node: Number) -> list[int]:
    """Every face rolled, kept or not, in the order the expression lists its dice (a die's
    first face: a ``mi``/``ma`` bound updates the value, not what was rolled)."""
    found: list[int] = []
    _faces(node, found)
    return found


def _faces(node: Number, found: list[int]) -> None:
    kind = type(node)
    if kind is Dice or kind is Set:
        for child in node.values:
            if type(child) is Die:
                for literal in child.values:
                    found.append(int(literal.values[0]))
            else:
                _faces(child, found)
    elif kind is Literal:
        return
    elif kind is Expression:
        _faces(node.roll, found)
    elif kind is BinOp:
        _faces(node.left, found)
        _faces(node.right, found)
    elif kind is Die:
        for literal in node.values:
            found.append(int(literal.values[0]))
    else:
        children = node.values if isinstance(node, Set) else node.children
        for child in children:
            _faces(child, found)


def kept_faces(node: Number) -> list[int]:
    """The faces of the dice still kept (rerolled, dropped or kept-out dice left out)."""
    found: list[int] = []
    _kept(node, found)
    return found


def _kept(node: Number, found: list[int]) -> None:
    kind = type(node)
    if kind is Die:
        if node.kept:
            found.append(int(node.number))
    elif kind is Dice or kind is Set:
        for value in node.values:
            if value.kept:
                _kept(value, found)
    elif kind is Literal:
        return
    elif kind is Expression:
        _kept(node.roll, found)
    elif kind is BinOp:
        _kept(node.left, found)
        _kept(node.right, found)
    elif isinstance(node, Set):
        for value in node.values:
            if value.kept:
                _kept(value, found)
    else:
        for child in node.children:
            _kept(child, found)


def crit(expression: Number) -> d20.CritType:
    """d20's ``RollResult.crit``: the leftmost node, when it is dice keeping one d20, read as
    a 20 (crit) or a 1 (fail)."""
    left = expression
    while True:
        kind = type(left)
        if kind is Expression:
            left = left.roll
        elif kind is BinOp:
            left = left.left
        elif kind is Dice or kind is Literal:
            break  # no children: d20's walk stops here too
        else:
            children = left.children
            if not children:
                break
            left = children[0]
    if type(left) is not Dice and not isinstance(left, Dice):
        return d20.CritType.NONE
    if left.size != 20 or len(left.keptset) != 1:
        return d20.CritType.NONE
    if left.total == 1:
        return d20.CritType.FAIL
    if left.total == 20:
        return d20.CritType.CRIT
    return d20.CritType.NONE
