"""The ``/infinity`` service's own pieces: reading typed numbers versus sheet names."""

from __future__ import annotations

import pytest

from bot.services.infinity import Source, parse_number


@pytest.mark.parametrize(
    ("text", "value"),
    [("12", 12), (" 12 ", 12), ("+3", 3), ("-5", -5), ("−5", -5), ("- 5", -5), ("0", 0)],
)
def test_numbers_are_read_as_numbers(text: str, value: int) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["BS", "CC", "b2", "12a", "", "1.5", "--5"])
def test_anything_else_is_a_sheet_name(text: str) -> None:
    assert parse_number(text) is None


def test_source_text_names_the_sheet() -> None:
    assert Source(12).text == "12"
    assert Source(12, "BS", "Fusilier").text == "Fusilier's BS 12"
