"""Any embed, however large, is cut to Discord's limits and says so."""

from __future__ import annotations

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import use_language
from bot.render import limits
from bot.render.limits import TRUNCATED_NOTE, clip, fit_embed
from tests.hypothesis_profiles import examples


def test_small_embeds_are_untouched() -> None:
    embed = discord.Embed(title="Hi", description="there")
    assert fit_embed(embed) is embed


def _at_the_limits() -> discord.Embed:
    """An embed at every limit fit_embed keeps: title, fields, the footer with room for the
    note, and the total with room for it too."""
    room = len(TRUNCATED_NOTE) + len(" · ")
    embed = discord.Embed(title="t" * limits.TITLE)
    for index in range(limits.FIELDS - 1):
        embed.add_field(name=f"{index:02}", value="v" * 98)
    embed.add_field(name="n" * limits.FIELD_NAME, value="v" * limits.FIELD_VALUE)
    embed.set_footer(text="f" * (limits.FOOTER - room))
    embed.description = "d" * (limits.TOTAL - room - len(embed))
    return embed


def test_an_embed_at_every_limit_is_untouched_and_one_character_more_is_cut() -> None:
    embed = _at_the_limits()
    assert len(embed) == limits.TOTAL - len(TRUNCATED_NOTE) - len(" · ")
    assert fit_embed(embed) is embed
    for grow in (
        lambda e: setattr(e, "title", e.title + "t"),
        lambda e: setattr(e, "description", e.description + "d"),
        lambda e: e.set_field_at(0, name="n" * (limits.FIELD_NAME + 1), value="v"),
        lambda e: e.set_field_at(0, name="n", value="v" * (limits.FIELD_VALUE + 1)),
        lambda e: e.set_footer(text=e.footer.text + "f"),
        lambda e: e.add_field(name="n", value="v"),
    ):
        bigger = _at_the_limits()
        grow(bigger)
        fitted = fit_embed(bigger)
        assert fitted is not bigger and TRUNCATED_NOTE in fitted.footer.text


def test_an_empty_field_is_left_as_it_was() -> None:
    embed = discord.Embed(title="t").add_field(name="", value="v")
    assert fit_embed(embed) is embed


def test_clip_marks_what_it_cut() -> None:
    assert clip("abcdef", 4) == "abc…"
    assert clip("abc", 4) == "abc"


def test_oversized_parts_are_cut_and_noted() -> None:
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    for index in range(30):
        embed.add_field(name=f"n{index}" * 100, value="v" * 2000)
    fitted = fit_embed(embed)
    assert len(fitted.title) == limits.TITLE and fitted.title.endswith("…")
    assert len(fitted.fields) <= limits.FIELDS
    assert len(fitted) <= limits.TOTAL
    assert TRUNCATED_NOTE in fitted.footer.text


@settings(max_examples=examples(100), deadline=None)
@given(
    title=st.text(max_size=400),
    description=st.text(max_size=7000),
    fields=st.lists(st.tuples(st.text(max_size=300), st.text(max_size=1500)), max_size=40),
    footer=st.text(max_size=2500),
)
def test_any_embed_fits(
    title: str, description: str, fields: list[tuple[str, str]], footer: str
) -> None:
    embed = discord.Embed(title=title or None, description=description or None)
    for name, value in fields:
        embed.add_field(name=name, value=value)
    if footer:
        embed.set_footer(text=footer)
    fitted = fit_embed(embed)
    assert len(fitted) <= limits.TOTAL
    assert len(fitted.title or "") <= limits.TITLE
    assert len(fitted.description or "") <= limits.DESCRIPTION
    assert len(fitted.fields) <= limits.FIELDS
    assert all(len(f.name) <= limits.FIELD_NAME for f in fitted.fields)
    assert all(len(f.value) <= limits.FIELD_VALUE for f in fitted.fields)
    assert len(fitted.footer.text or "") <= limits.FOOTER


def test_the_note_is_in_the_readers_language_and_still_fits() -> None:
    embed = discord.Embed(title="t", description="d" * 5000)
    for index in range(30):
        embed.add_field(name=f"n{index}", value="v" * 1000)
    embed.set_footer(text="f" * 2048)
    with use_language("es"):
        fitted = fit_embed(embed)
    assert fitted.footer.text.endswith("(recortado para caber en los límites de Discord)")
    assert len(fitted) <= limits.TOTAL and len(fitted.footer.text) <= limits.FOOTER


@settings(max_examples=examples(200), deadline=None)
@given(
    title=st.integers(0, limits.TITLE + 2),
    description=st.integers(0, limits.DESCRIPTION + 2),
    footer=st.integers(0, limits.FOOTER + 2),
    language=st.sampled_from(["en", "es"]),
)
def test_fits_says_what_fit_embed_does(
    title: int, description: int, footer: int, language: str
) -> None:
    """``fits`` of an embed's texts is true exactly when ``fit_embed`` keeps that embed as
    it is, up to and one past every limit, in a language whose note is longer."""
    texts = ("t" * title, "d" * description, "f" * footer)
    embed = discord.Embed(title=texts[0], description=texts[1]).set_footer(text=texts[2])
    with use_language(language):
        assert limits.fits(*texts) == (fit_embed(embed) is embed)


def test_fits_at_the_edges() -> None:
    """The footer and the total each keep room for the note: one character more is cut."""
    room = len(TRUNCATED_NOTE) + len(" · ")
    footer = "f" * (limits.FOOTER - room)
    assert limits.fits("t", "d", footer)
    assert not limits.fits("t", "d", footer + "f")
    description = "d" * (limits.TOTAL - room - len(footer) - 1)  # the total at its room
    assert len(description) <= limits.DESCRIPTION
    assert limits.fits("t", description, footer)
    assert not limits.fits("t", description + "d", footer)
    assert not limits.fits("t" * limits.TITLE, "d" * limits.DESCRIPTION, "f" * 1700)
