"""A rolled tree read back by ``_rolled_tree`` (total, breakdown, faces, crit) and the
highest/lowest selection ranked by it: each the same as d20's own reading, over the whole
grammar (dice with every operator, sets, parentheses, signs, annotations, percentile dice)."""

from __future__ import annotations

from collections.abc import Iterator

import d20
import d20.expression as d20_expression
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.notation import RollError, parse
from engine.notation import _rolled_tree as rolled_tree
from tests.hypothesis_profiles import examples

_selector = st.builds(
    lambda cat, n: f"{cat}{n}", st.sampled_from(["", "h", "l", "<", ">"]), st.integers(0, 12)
)
_operator = st.builds(
    lambda op, sel: f"{op}{sel}",
    st.sampled_from(["k", "p", "rr", "ro", "ra", "e", "mi", "ma"]),
    _selector,
)
_dice = st.builds(
    lambda n, s, ops, note: f"{n}d{s}{''.join(ops)}{note}",
    st.integers(1, 12),
    st.sampled_from(["1", "2", "4", "6", "10", "20", "%"]),
    st.lists(_operator, max_size=3),
    st.sampled_from(["", "", " [fire]"]),
)
_terms = st.recursive(
    st.one_of(_dice, st.integers(0, 30).map(str), st.sampled_from(["1.5", "0"])),
    lambda inner: st.one_of(
        st.builds(lambda a, op, b: f"{a} {op} {b}", inner, st.sampled_from("+-*/%"), inner),
        st.builds(
            lambda items, ops: f"({', '.join(items)}){''.join(ops)}",
            st.lists(inner, min_size=1, max_size=5),
            st.lists(_operator.filter(lambda o: o[0] in "kp"), max_size=3),
        ),
        inner.map(lambda t: f"({t})"),
        inner.map(lambda t: f"-{t}"),
    ),
    max_leaves=8,
)


def _d20_faces(node: d20_expression.Number) -> Iterator[int]:
    """Every face, as the roll log kept them before ``_rolled_tree`` (the reference)."""
    if isinstance(node, d20_expression.Die):
        for literal in node.values:
            yield int(literal.values[0])
        return
    children = node.values if isinstance(node, d20_expression.Set) else node.children
    for child in children:
        yield from _d20_faces(child)


def _d20_kept(node: d20_expression.Number) -> Iterator[int]:
    if isinstance(node, d20_expression.Die):
        if node.kept:
            yield int(node.number)
        return
    if isinstance(node, d20_expression.Set):
        for value in node.values:
            if value.kept:
                yield from _d20_kept(value)
        return
    for child in node.children:
        yield from _d20_kept(child)


@settings(max_examples=examples(300), deadline=None)
@given(_terms)
def test_a_rolled_tree_reads_as_d20_reads_it(expression: str) -> None:
    try:
        tree = parse(expression)
    except RollError:
        return
    try:
        result = d20.Roller(d20.RollContext(max_rolls=250)).roll(tree)
        expected_total = result.expr.total
    except d20.RollError:
        return
    total = rolled_tree.total(result.expr)
    assert total == expected_total and type(total) is type(expected_total)
    assert rolled_tree.breakdown(result.expr, int(expected_total)) == result.result
    assert rolled_tree.faces(result.expr) == list(_d20_faces(result.expr))
    assert rolled_tree.kept_faces(result.expr) == list(_d20_kept(result.expr))
    assert rolled_tree.crit(result.expr) == result.crit


@settings(max_examples=examples(200), deadline=None)
@given(
    st.lists(st.integers(1, 6), min_size=1, max_size=12),
    st.sampled_from(["h", "l"]),
    st.integers(0, 14),
    st.one_of(st.none(), st.integers(0, 14)),
)
def test_highest_and_lowest_select_what_d20_selects(
    faces: list[int], cat: str, count: int, most: int | None
) -> None:
    """Ties included: d20 keeps the first of equal dice, in the order they were rolled."""
    dice = [d20_expression.Die(6, [d20_expression.Literal(face)]) for face in faces]
    target = d20_expression.Dice(len(dice), 6, dice)
    selector = d20_expression.SetSelector(cat, count)
    ranked = selector.highestn(target) if cat == "h" else selector.lowestn(target)
    expected = {id(die) for die in (ranked if most is None else ranked[:most])}
    assert {id(die) for die in selector.select(target, most)} == expected
