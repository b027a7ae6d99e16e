"""A reveal always fits Discord's limits: a record too long for an embed goes in a file."""

from __future__ import annotations

import hashlib

from bot.render.commitments import reveal_embed, reveal_file_text, reveal_fits
from bot.render.limits import DESCRIPTION, FIELD_VALUE, TOTAL
from bot.services.commitments import Reveal
from engine import commitment


def reveal_of(record: str) -> Reveal:
    salt = "ab" * 16
    return Reveal(1, 2, record, salt, commitment.commit(record, salt))


def test_a_short_record_is_shown_whole_with_its_shell_line() -> None:
    reveal = reveal_of('{"faces":[1],"v":1}')
    assert reveal_fits(reveal)
    embed = reveal_embed(reveal)
    assert reveal.record in embed.description
    assert commitment.shell_line(reveal.record, reveal.salt) in embed.fields[-1].value


def test_a_long_record_goes_in_the_file() -> None:
    record = commitment.canonical({"input": "x" * 2000, "outcome": "y" * 2000, "v": 1})
    reveal = reveal_of(record)
    assert not reveal_fits(reveal)
    embed = reveal_embed(reveal)
    assert len(embed.description) <= DESCRIPTION
    assert all(len(f.value) <= FIELD_VALUE for f in embed.fields)
    assert len(embed) <= TOTAL
    text = reveal_file_text(reveal)
    assert f"record: {record}\n" in text and f"salt: {reveal.salt}\n" in text
    assert hashlib.sha256(f"{reveal.salt}.{record}".encode()).hexdigest() == reveal.commitment


def test_canonical_records_quote_safely() -> None:
    text = commitment.canonical({"label": "Bob's “sneak”\n", "b": 1, "a": None})
    assert text == '{"a":null,"b":1,"label":"Bob\\u0027s \\u201csneak\\u201d\\n"}'
    assert text.isascii() and "'" not in text and "\n" not in text
    assert commitment.matches(text, "00", commitment.commit(text, "00")[:16])
    assert not commitment.matches(text, "00", commitment.commit(text, "00")[:15])
