"""bot.text: user text becomes display text only escaped, within its length."""

from __future__ import annotations

from bot.i18n import _, use_language
from bot.text import UserText, escape


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
