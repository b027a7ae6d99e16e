"""A roll's faces counted for dice statistics: a flat list, a tuple and the nested form of
the same faces count the same, keys in the order the faces first came up, and anything that
is not a face of the die leaves the roll uncounted."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.storage.roll_tally import tally
from tests.hypothesis_profiles import examples

FACE = st.one_of(st.integers(-2, 9), st.booleans(), st.floats(0, 9), st.text(max_size=1))


@settings(max_examples=examples(300), deadline=None)
@given(
    faces=st.lists(st.integers(0, 7), max_size=40)
    | st.lists(st.integers(-1, 8) | FACE, max_size=40),
    system=st.sampled_from(["dice", "coda"]),
)
def test_a_flat_list_counts_as_face_by_face(faces: list[Any], system: str) -> None:
    flat = tally(system, "5d6", faces)
    assert flat == tally(system, "5d6", [faces])  # nested: counted face by face
    assert flat == tally(system, "5d6", tuple(faces))
    if flat is not None:  # the keys in the order the faces first came up
        assert list(flat[1]) == list(dict.fromkeys(str(int(face)) for face in faces))


def test_plain_rolls() -> None:
    assert tally("dice", "4d6kh3 + 2", (6, 2, 6, 1)) == (6, {"6": 2, "2": 1, "1": 1})
    assert tally("dice", "4d6kh3", [6, 7]) is None  # a face the die has not
    assert tally("dice", "4d6kh3", [0, 1]) is None
    assert tally("dice", "4d6kh3", []) == (6, {})
    assert tally("dice", "1d20+1d4", [3]) is None  # two die sizes
    assert tally("dice", "2d6", [1.0, 2]) is None  # a float is no face, even 1.0
    assert tally("dice", "2d6", [1, 1.0]) is None
    assert tally("dice", "2d6", [True, 1]) == (6, {"1": 2})  # JSON's true, as it counted
    many = [3, 1, 3, 6] * 10  # past the many-faces path's threshold
    assert tally("dice", "40d6", many) == (6, {"3": 20, "1": 10, "6": 10})
    assert tally("dice", "40d6", [*many, 7]) is None
    assert tally("dice", "40d6", [0, *many]) is None
