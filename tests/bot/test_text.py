"""bot.text: user text becomes display text only escaped, within its length."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import _, use_language
from bot.text import UserText, escape
from tests.hypothesis_profiles import examples


def test_user_text_formats_only_escaped() -> None:
    name = UserText("@everyone **x** [a](https://e) `c`")
    shown = escape(name.raw)
    assert (
        str(name)
        == f"{name}"
        == shown
        == "@\u200beveryone \\*\\*x\\*\\* \\[a\\](https\\://e) \\`c\\`"
    )
    assert f"{name:code}" == "@\u200beveryone **x** [a](https://e) ˋcˋ"
    assert name.plain() == "@\u200beveryone **x** [a](https://e) `c`"


def test_shown_keeps_the_limit_without_cutting_an_escape() -> None:
    shown = UserText("*" * 300).shown(11)
    assert shown == "\\*" * 5 + "…" and len(shown) == 11


def test_the_translator_uses_the_code_form_inside_code_spans_in_every_language() -> None:
    name = UserText("a`b *c*")
    for language in ("en", "es"):
        with use_language(language):
            text = _(
                "There is no character called `{name}` that you can use. Yours: {yours}.",
                name=name,
                yours=name,
            )
        assert "`aˋb *c*`" in text and "aˋb *c*`" in text and "a\\`b \\*c\\*" in text


def test_bidirectional_controls_never_reach_a_message() -> None:
    # An override left open in a name would show the bot's text after it reversed.
    name = UserText("\u202eevil\u202c \u2066x\u2069")
    for shown in (str(name), f"{name:code}", name.shown(80), name.code(80), name.plain(80)):
        assert shown == "evil x", shown
    assert escape("a\u202eb", lines=True) == "ab"
    assert name.raw == "\u202eevil\u202c \u2066x\u2069"  # kept as typed for lookups


def _escaped_in_full(text: str, *, lines: bool, code: bool) -> str:
    """escape() as written before plain text skipped its passes: every pass, always."""
    flat = re.sub("[\u202a-\u202e\u2066-\u2069]", "", text if lines else " ".join(text.split("\n")))
    if code:
        return flat.replace("`", "ˋ").replace("@", "@\u200b").replace("<", "<\u200b")
    return re.sub(r"([\\*_~|`>#\-\[\]<:])", r"\\\1", flat).replace("@", "@\u200b")


@settings(max_examples=examples(500), deadline=None)
@given(
    text=st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from("\n\u202e\u2067@<`*_")),
    lines=st.booleans(),
    code=st.booleans(),
)
def test_escape_is_every_pass_whether_or_not_it_skips_them(
    text: str, lines: bool, code: bool
) -> None:
    assert escape(text, lines=lines, code=code) == _escaped_in_full(text, lines=lines, code=code)


def test_plain_text_is_shown_as_typed() -> None:
    assert escape("Goblin 2 sneak attack ünïcode 3") == "Goblin 2 sneak attack ünïcode 3"
    assert escape("a-b") == "a\\-b" and escape("a\nb") == "a b" and escape("a\u202eb") == "ab"
