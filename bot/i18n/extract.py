"""Find every message to translate in the sources, as Babel's ``pybabel extract`` does.

The keywords are the translation functions: ``_("…")``, ``_n("…", "…", n)``, ``N_("…")``
(constants, the engine's errors), ``locale_str("…")`` and ``locale_format("…", …)`` (command
descriptions and choices). The completeness tests extract with this module, and
``python -m bot.i18n.extract`` writes the template (``.pot``) a translator starts from::

    python -m bot.i18n.extract build/narrator.pot
    msginit -i build/narrator.pot -l fr -o bot/locale/fr/LC_MESSAGES/narrator.po

A new language is that ``.po`` file, translated: nothing else changes.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parents[2]
#: The packages whose strings users read (the console and the hosting CLI included).
SOURCES = ("bot", "engine")
KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "_": None,
    "_n": (1, 2),
    "N_": None,
    "locale_str": None,
    "locale_format": None,
}
#: The web companion's templates (bot/web/templates) call the same ``_`` and ``_n``.
METHOD_MAP = [("**.py", "python"), ("web/templates/**.html", "jinja2.ext:babel_extract")]


@dataclass(frozen=True, slots=True)
class Found:
    """One message where it was found: ``msgid`` (a pair for plural messages)."""

    msgid: str | tuple[str, str]
    path: str
    line: int


def extract(root: Path = ROOT) -> Iterator[Found]:
    """Every message marked for translation under ``SOURCES``, in file order."""
    for source in SOURCES:
        for filename, line, message, _comments, _context in extract_from_dir(
            root / source, METHOD_MAP, keywords=KEYWORDS, comment_tags=("Translators:",)
        ):
            if isinstance(message, tuple):
                msgid: str | tuple[str, str] = (message[0], message[1])
            else:
                msgid = message
            if msgid:
                yield Found(msgid, f"{source}/{filename}", line)


def template(root: Path = ROOT) -> Catalog:
    """The ``.pot`` catalog: every message, with where it was found."""
    catalog = Catalog(project="narrator", charset="utf-8")
    for found in extract(root):
        catalog.add(found.msgid, locations=[(found.path, found.line)])
    return catalog


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "build" / "narrator.pot"
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as file:
        write_po(file, template(), width=100)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
