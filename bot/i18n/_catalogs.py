"""Where the catalogs are and how they are loaded: gettext ``.po``/``.mo`` under ``bot/locale``.

A language is a folder ``bot/locale/<language>/LC_MESSAGES/`` holding ``narrator.po`` (the
translators' file, committed) and ``narrator.mo`` (compiled from it by the install, never
committed). Adding a language is adding a ``.po`` file: when its ``.mo`` is missing or was
compiled from another ``.po`` (a checkout, an edit), the ``.po`` is compiled in memory with
Babel instead, so a catalog is never silently stale. A ``.mo`` knows its ``.po`` by digest,
not by file times: an install writes both files in an order of its own.
"""

from __future__ import annotations

import gettext
import hashlib
import io
from functools import cache
from pathlib import Path

SOURCE_LANGUAGE = "en"
DOMAIN = "narrator"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def catalog_paths(language: str) -> tuple[Path, Path]:
    """The ``.po`` and ``.mo`` files of ``language``."""
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    return folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"


@cache
def available_languages() -> tuple[str, ...]:
    """English first, then every language that has a catalog, sorted."""
    found = sorted(
        path.name
        for path in LOCALE_DIR.iterdir()
        if path.is_dir() and catalog_paths(path.name)[0].is_file()
    )
    return (SOURCE_LANGUAGE, *(language for language in found if language != SOURCE_LANGUAGE))


#: A ``.mo`` carries the digest of the ``.po`` it was compiled from, as a message in a
#: context of its own (``pgettext``), which no translation lookup ever asks for.
DIGEST_CONTEXT = "narrator-build"
DIGEST_ID = "source-digest"


def po_digest(po_path: Path) -> str:
    return hashlib.sha256(po_path.read_bytes()).hexdigest()


def compile_po(po_path: Path) -> bytes:
    """The ``.mo`` bytes of a ``.po`` file; fuzzy entries are left out, as gettext does."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path.open("rb") as source:
        messages = read_po(source, domain=DOMAIN)
    messages.add(DIGEST_ID, po_digest(po_path), context=DIGEST_CONTEXT)
    compiled = io.BytesIO()
    write_mo(compiled, messages, use_fuzzy=False)
    return compiled.getvalue()


@cache
def catalog(language: str) -> gettext.NullTranslations:
    """The translations of ``language`` (English, or no catalog: the message itself)."""
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    po_path, mo_path = catalog_paths(language)
    if not po_path.is_file():
        return gettext.NullTranslations()
    if mo_path.is_file():
        with mo_path.open("rb") as compiled:
            translations = gettext.GNUTranslations(compiled)
        if translations.pgettext(DIGEST_CONTEXT, DIGEST_ID) == po_digest(po_path):
            return translations
    return gettext.GNUTranslations(io.BytesIO(compile_po(po_path)))
